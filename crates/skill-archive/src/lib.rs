#![warn(missing_docs)]
// Functions stay short enough to read at once; clippy.toml sets the bound (60 code lines).
#![warn(clippy::too_many_lines)]
//! `.skill` archives: which files a skill ships (`select`), reproducible packing (`pack`),
//! checked reading of untrusted archives (`reader`), and installing into a skills folder
//! (`install`), and skills as Claude Code and Codex plugins (`plugin`). The fingerprint they report lives in the model (`skill_model::fingerprint`).

pub mod atomic_file;
pub mod install;
pub mod pack;
pub mod plugin;
pub mod reader;
pub mod select;
pub mod signature;

pub use pack::{PackOptions, PackReport, pack};
pub use select::{SelectError, ShippedFile, select_files};
