#![warn(missing_docs)]
//! `skill`: the toolkit for agent skills. The library does the work; `cli` holds one thin
//! module per command, and `main.rs` only parses arguments and maps errors to exit codes.

pub mod agent;
pub mod agent_cli;
pub mod archive;
pub mod atomic_file;
pub mod cli;
pub mod config;
pub mod eval;
pub mod git_source;
pub mod harness;
pub mod http;
pub mod junit;
pub mod lsp;
pub mod prompt;
pub mod registry;
pub mod review;
pub mod scaffold;
pub mod shared_install;
