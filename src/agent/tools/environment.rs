//! The environment `exec` commands get: an allow-list (PATH, LANG and LC_*, TERM, a private
//! TMPDIR, a HOME the policy chooses, and the variables the installed skills declare in
//! `requires.env` or `primaryEnv`), never this process's whole environment, where cloud keys
//! and tokens live. It does not read the environment itself: the caller passes it in.

use std::ffi::{OsStr, OsString};
use std::path::Path;

/// Variables passed through when set: what shells and CLIs need to find programs and speak the
/// user's language.
const PASSED: &[&str] = &["PATH", "LANG", "TERM"];

/// The search path when this process has none.
const DEFAULT_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// The model's own keys: never passed, even when a skill declares them.
const WITHHELD: &[&str] = &[
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "SKILL_TOKEN",
    "CLAWHUB_TOKEN",
];

/// The environment of a command, from this process's `vars`: HOME and TMPDIR as given, the
/// allow-listed variables, and those of `declared` that are set.
pub fn allowed(
    vars: impl IntoIterator<Item = (OsString, OsString)>,
    home: &Path,
    tmpdir: &Path,
    declared: &[String],
) -> Vec<(OsString, OsString)> {
    let passes = |name: &OsStr| {
        let Some(name) = name.to_str() else {
            return false;
        };
        !WITHHELD.contains(&name)
            && (PASSED.contains(&name)
                || name.starts_with("LC_")
                || declared.iter().any(|d| d == name))
    };
    let mut env: Vec<(OsString, OsString)> = vars
        .into_iter()
        .filter(|(name, _)| passes(name) && name != "HOME" && name != "TMPDIR")
        .collect();
    if !env.iter().any(|(name, _)| name == "PATH") {
        env.push(("PATH".into(), DEFAULT_PATH.into()));
    }
    env.push(("HOME".into(), home.as_os_str().to_owned()));
    env.push(("TMPDIR".into(), tmpdir.as_os_str().to_owned()));
    env.sort();
    env
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(env: &[(OsString, OsString)]) -> Vec<&str> {
        env.iter().map(|(n, _)| n.to_str().unwrap()).collect()
    }

    #[test]
    fn only_the_allow_list_and_declared_names_pass() {
        let vars = [
            ("PATH", "/bin"),
            ("LC_ALL", "C"),
            ("AWS_SECRET_ACCESS_KEY", "x"),
            ("GITHUB_TOKEN", "y"),
            ("DEMO_KEY", "z"),
            ("OPENAI_API_KEY", "k"),
            ("HOME", "/root"),
        ]
        .map(|(n, v)| (OsString::from(n), OsString::from(v)));
        let declared = ["DEMO_KEY".to_owned(), "OPENAI_API_KEY".to_owned()];
        let env = allowed(vars, Path::new("/ws"), Path::new("/tmp/t"), &declared);
        assert_eq!(
            names(&env),
            ["DEMO_KEY", "HOME", "LC_ALL", "PATH", "TMPDIR"]
        );
        assert!(env.contains(&("HOME".into(), "/ws".into())));
        let bare = allowed([], Path::new("/ws"), Path::new("/t"), &[]);
        assert!(bare.contains(&("PATH".into(), DEFAULT_PATH.into())));
    }
}
