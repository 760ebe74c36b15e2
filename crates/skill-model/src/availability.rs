//! Whether a skill's declared requirements hold on a machine, and what is missing, worded as
//! nanobot words it (`CLI: gh, ENV: GITHUB_TOKEN`).

use super::environment::Environment;
use super::requirements::Requirements;
use super::yaml::Node;

/// What an agent on this machine would decide about a skill.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Availability {
    /// `requires.bins` entries not on PATH, in declared order.
    pub missing_bins: Vec<String>,
    /// `requires.anyBins`, when none of them is on PATH.
    pub missing_any_bins: Vec<String>,
    /// `requires.env` entries unset or empty, in declared order.
    pub missing_env: Vec<String>,
    /// The declared `os` list, when it excludes this platform.
    pub unsupported_os: Option<Vec<String>>,
    /// `requires.config` paths that are not truthy (OpenClaw's config; without one, only the
    /// paths OpenClaw defaults to true hold).
    pub missing_config: Vec<String>,
}

impl Availability {
    /// Checks `requirements` against `env`.
    pub fn check(requirements: &Requirements, env: &dyn Environment) -> Availability {
        let missing_bins = requirements
            .bins
            .iter()
            .filter(|b| !env.has_bin(&b.value))
            .map(|b| b.value.clone())
            .collect();
        let any_present = requirements.any_bins.iter().any(|b| env.has_bin(&b.value));
        let missing_any_bins = if any_present {
            Vec::new()
        } else {
            requirements
                .any_bins
                .iter()
                .map(|b| b.value.clone())
                .collect()
        };
        let missing_env = requirements
            .env
            .iter()
            .filter(|v| env.var(&v.value).is_none_or(|s| s.is_empty()))
            .map(|v| v.value.clone())
            .collect();
        let os: Vec<String> = requirements.os.iter().map(|o| o.value.clone()).collect();
        let unsupported_os =
            (!os.is_empty() && !os.iter().any(|o| o == env.platform())).then_some(os);
        Availability {
            missing_bins,
            missing_any_bins,
            missing_env,
            unsupported_os,
            missing_config: Vec::new(),
        }
    }

    /// True when nothing is missing.
    pub fn is_available(&self) -> bool {
        self.missing_bins.is_empty()
            && self.missing_any_bins.is_empty()
            && self.missing_env.is_empty()
            && self.unsupported_os.is_none()
            && self.missing_config.is_empty()
    }

    /// nanobot's wording: `CLI: gh, ENV: GITHUB_TOKEN` (plus `any CLI of: ...` and `OS: ...`,
    /// which nanobot does not check but OpenClaw does).
    pub fn describe(&self) -> String {
        let mut parts: Vec<String> = self
            .missing_bins
            .iter()
            .map(|b| format!("CLI: {b}"))
            .collect();
        if !self.missing_any_bins.is_empty() {
            parts.push(format!("any CLI of: {}", self.missing_any_bins.join(" | ")));
        }
        parts.extend(self.missing_env.iter().map(|v| format!("ENV: {v}")));
        parts.extend(self.missing_config.iter().map(|c| format!("CONFIG: {c}")));
        if let Some(os) = &self.unsupported_os {
            parts.push(format!("OS: {}", os.join(" | ")));
        }
        parts.join(", ")
    }
}

impl Availability {
    /// What to do about what is missing: the install commands of the skill's `install[]`
    /// specs (else which commands to install), then `export` lines for env vars, then the
    /// platforms it runs on.
    pub fn hints(&self, requirements: &Requirements) -> Vec<String> {
        let mut out: Vec<String> = requirements
            .install
            .iter()
            .filter_map(install_command)
            .collect();
        if out.is_empty() {
            out.extend(
                self.missing_bins
                    .iter()
                    .map(|b| format!("install `{b}` and put it on PATH")),
            );
            if !self.missing_any_bins.is_empty() {
                out.push(format!(
                    "install one of: {}",
                    self.missing_any_bins.join(", ")
                ));
            }
        }
        out.extend(self.missing_env.iter().map(|v| format!("export {v}=...")));
        if let Some(os) = &self.unsupported_os {
            out.push(format!("runs only on: {}", os.join(", ")));
        }
        out
    }
}

/// The shell command an `install[]` spec stands for.
fn install_command(spec: &Node) -> Option<String> {
    let field = |k: &str| spec.get(k).and_then(Node::as_str);
    let kind = field("kind").or_else(|| field("type"))?;
    let command = match kind {
        "brew" => match field("formula") {
            Some(f) => format!("brew install {f}"),
            None => format!("brew install --cask {}", field("cask")?),
        },
        "node" => format!("npm install -g {}", field("package")?),
        "uv" => format!("uv tool install {}", field("package")?),
        "go" => format!("go install {}", field("module")?),
        "apt" => format!("sudo apt-get install -y {}", field("package")?),
        "download" => format!("download {}", field("url")?),
        _ => return None,
    };
    Some(match field("label") {
        Some(label) => format!("{command}    # {label}"),
        None => command,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::environment::FakeEnvironment;
    use crate::{Document, Source};

    fn requirements(metadata: &str) -> Requirements {
        let doc = Document::parse(Source::new(format!(
            "---\nname: a\nmetadata: {metadata}\n---\n"
        )));
        Requirements::from_manifest(doc.manifest().as_ref().unwrap(), &doc.source.text)
    }

    #[test]
    fn describes_missing_like_nanobot() {
        let r = requirements(
            r#"{"openclaw":{"requires":{"bins":["gh","git"],"env":["GITHUB_TOKEN","HOME"]}}}"#,
        );
        let mut env = FakeEnvironment::default();
        env.bins.insert("git".into());
        env.vars.insert("HOME".into(), "/root".into());
        env.vars.insert("GITHUB_TOKEN".into(), String::new());
        let a = Availability::check(&r, &env);
        assert!(!a.is_available());
        assert_eq!(a.describe(), "CLI: gh, ENV: GITHUB_TOKEN");
    }

    #[test]
    fn any_bins_and_os() {
        let r =
            requirements(r#"{"openclaw":{"requires":{"anyBins":["rg","ag"]},"os":["darwin"]}}"#);
        let mut env = FakeEnvironment::default();
        assert_eq!(
            Availability::check(&r, &env).describe(),
            "any CLI of: rg | ag, OS: darwin"
        );
        env.bins.insert("ag".into());
        env.platform = "darwin".into();
        assert!(Availability::check(&r, &env).is_available());
    }
}
