//! The ClawHub-compatible registry: publish rules shared by client and server (`rules`) and the
//! storage the server keeps skills in (`store`). The HTTP server and client build on these.

pub mod client;
pub mod credentials;
pub mod download_cache;
pub mod install;
pub mod rules;
pub mod server;
pub mod store;
