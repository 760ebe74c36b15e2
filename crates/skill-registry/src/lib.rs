#![warn(missing_docs)]
// Functions stay short enough to read at once; clippy.toml sets the bound (60 code lines).
#![warn(clippy::too_many_lines)]
//! The ClawHub-compatible registry: publish rules shared by client and server (`rules`), the
//! storage the server keeps skills in (`store`), the HTTP server (`server`, with its
//! `download_cache`, what it says about scanned and quarantined versions, `moderation`, and the web pages it serves beside the API, `web`), and the client side (`api`, the wire shapes it reads; `client`, `credentials`, `install`, and the install
//! records in `lock`).

pub mod api;
pub mod client;
pub mod credentials;
pub mod download_cache;
pub mod download_counts;
pub mod install;
pub mod lock;
pub mod metrics;
pub mod mirror;
pub mod moderation;
pub mod publish;
pub mod review;
pub mod rules;
pub mod server;
pub mod store;
pub mod web;
