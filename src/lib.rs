#![warn(missing_docs)]
// Functions stay short enough to read at once; clippy.toml sets the bound (60 code lines).
#![warn(clippy::too_many_lines)]
// `pub` is the crate's API (what `main.rs` and the tests use); everything else is `pub(crate)`.
#![warn(unreachable_pub)]
//! `skill`: the toolkit for agent skills. The library does the work; `cli` holds one thin
//! module per command, and `main.rs` only parses arguments and maps errors to exit codes.

pub mod cli;
pub(crate) mod config;
pub(crate) mod git_source;
pub(crate) mod lsp;
pub mod scaffold;
pub(crate) mod shared_install;
