//! `.skill` archives: which files a skill ships (`select`), its ClawHub fingerprint
//! (`fingerprint`), reproducible packing (`pack`), checked reading of untrusted archives
//! (`reader`), and installing into a skills folder (`install`).

pub mod fingerprint;
pub mod install;
pub mod pack;
pub mod reader;
pub mod select;

pub use fingerprint::fingerprint;
pub use pack::{PackOptions, PackReport, pack};
pub use select::{SelectError, ShippedFile, select_files};
