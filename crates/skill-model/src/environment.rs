//! The machine a skill would run on: which commands are on PATH, which env vars are set, which
//! platform this is. Passed into lint and availability so tests can use a fake one.

use std::collections::{HashMap, HashSet};

/// What availability checks ask of the machine.
pub trait Environment: Send + Sync {
    /// True when `bin` resolves on PATH.
    fn has_bin(&self, bin: &str) -> bool;
    /// The value of env var `name`, if set.
    fn var(&self, name: &str) -> Option<String>;
    /// The platform in OpenClaw's spelling: `darwin`, `linux` or `win32`.
    fn platform(&self) -> &str;
}

/// The real machine. PATH lookups are cached: thousands of skills declare the same few bins.
#[derive(Debug, Default)]
pub struct SystemEnvironment {
    found: std::sync::Mutex<HashMap<String, bool>>,
}

impl Environment for SystemEnvironment {
    fn has_bin(&self, bin: &str) -> bool {
        let mut found = self.found.lock().unwrap_or_else(|e| e.into_inner());
        *found
            .entry(bin.to_owned())
            .or_insert_with(|| which::which(bin).is_ok())
    }

    fn var(&self, name: &str) -> Option<String> {
        std::env::var(name).ok()
    }

    fn platform(&self) -> &str {
        platform_name(std::env::consts::OS)
    }
}

/// Node.js's `process.platform` name for a Rust `std::env::consts::OS` value.
pub(crate) fn platform_name(os: &str) -> &str {
    match os {
        "macos" => "darwin",
        "windows" => "win32",
        other => other,
    }
}

/// A machine described in memory, for tests.
#[derive(Debug, Default, Clone)]
pub struct FakeEnvironment {
    /// Commands on PATH.
    pub bins: HashSet<String>,
    /// Env vars that are set.
    pub vars: HashMap<String, String>,
    /// The platform (`linux` when empty).
    pub platform: String,
}

impl Environment for FakeEnvironment {
    fn has_bin(&self, bin: &str) -> bool {
        self.bins.contains(bin)
    }

    fn var(&self, name: &str) -> Option<String> {
        self.vars.get(name).cloned()
    }

    fn platform(&self) -> &str {
        if self.platform.is_empty() {
            "linux"
        } else {
            &self.platform
        }
    }
}
