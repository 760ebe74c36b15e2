//! The environment `exec` commands get: an allow-list (PATH, LANG and LC_*, TERM, a private
//! TMPDIR, a HOME the policy chooses) and the variables the run passes (see [`Passed`]), never
//! this process's whole environment, where cloud keys and tokens live. It does not read the
//! environment itself: the caller passes it in.

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

/// Variables a run's commands get beyond the allow-list. A live `try` passes what the installed
/// skills declare (`requires.env`, `primaryEnv`); `skill test` and every replay pass only what
/// the user chose, since the skill under test would otherwise choose which secrets its
/// commands see.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Passed {
    /// Names whose values come from this process's environment, when set.
    pub names: Vec<String>,
    /// Values given outright (a scenario's `env`), which win over the names.
    pub values: Vec<(String, String)>,
}

/// The environment of a command, from this process's `vars`: HOME and TMPDIR as given, the
/// allow-listed variables, and what `passed` adds.
pub fn allowed(
    vars: impl IntoIterator<Item = (OsString, OsString)>,
    home: &Path,
    tmpdir: &Path,
    passed: &Passed,
) -> Vec<(OsString, OsString)> {
    let declared = &passed.names;
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
    for (name, value) in &passed.values {
        if name != "HOME" && name != "TMPDIR" {
            env.retain(|(n, _)| n != name.as_str());
            env.push((name.into(), value.into()));
        }
    }
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
        let passed = Passed {
            names: declared.to_vec(),
            values: Vec::new(),
        };
        let env = allowed(vars, Path::new("/ws"), Path::new("/tmp/t"), &passed);
        assert_eq!(
            names(&env),
            ["DEMO_KEY", "HOME", "LC_ALL", "PATH", "TMPDIR"]
        );
        assert!(env.contains(&("HOME".into(), "/ws".into())));
        let bare = allowed([], Path::new("/ws"), Path::new("/t"), &Passed::default());
        assert!(bare.contains(&("PATH".into(), DEFAULT_PATH.into())));
    }

    #[test]
    fn given_values_win_over_the_environment_but_not_over_home_and_tmpdir() {
        let vars = [("API_BASE", "from-env"), ("HOME", "/root")]
            .map(|(n, v)| (OsString::from(n), OsString::from(v)));
        let passed = Passed {
            names: vec!["API_BASE".to_owned()],
            values: [("API_BASE", "written"), ("HOME", "/elsewhere")]
                .map(|(n, v)| (n.to_owned(), v.to_owned()))
                .to_vec(),
        };
        let env = allowed(vars, Path::new("/ws"), Path::new("/t"), &passed);
        assert!(env.contains(&("API_BASE".into(), "written".into())));
        assert!(!env.contains(&("API_BASE".into(), "from-env".into())));
        assert!(env.contains(&("HOME".into(), "/ws".into())));
        assert_eq!(env.iter().filter(|(n, _)| n == "HOME").count(), 1);
    }
}
