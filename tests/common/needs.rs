//! What some tests need beyond the repository and a Rust toolchain, and how each is found. On a
//! machine without one, plain `cargo test` skips the tests that need it, each saying so in one
//! `SKIPPED` line (`cargo test -- --nocapture` shows them); `.ci/run` installs everything and
//! sets `SKILL_TEST_REQUIRE_ALL`, under which a missing need fails the test, so CI skips nothing.

use std::path::{Path, PathBuf};

/// Something a test needs that `.ci/run` installs.
#[derive(Debug, Clone, Copy)]
pub enum Need {
    /// A PostgreSQL server named by `SKILL_TEST_POSTGRES`.
    Postgres,
    /// An S3-compatible server and a key for its bucket (`SKILL_TEST_S3`, `SKILL_TEST_S3_KEY_ID`,
    /// `SKILL_TEST_S3_SECRET`).
    S3,
    /// Headless Chromium.
    Chromium,
    /// Debian's `minisign`.
    Minisign,
    /// `unzip`.
    Unzip,
    /// The `openssl` command, for a TLS server on loopback.
    Openssl,
    /// The SARIF 2.1.0 schema from npm.
    SarifSchema,
    /// The skills of the openclaw npm package and the nanobot-ai wheel.
    PackageCorpus,
    /// A corpus to sample: `../shared/corpus`, else the package corpus.
    Corpus,
    /// The five agent CLIs from npm.
    AgentClis,
    /// openclaw@2026.9.6 from npm.
    Openclaw,
    /// nanobot-ai 0.3.5 from PyPI.
    Nanobot,
    /// Node 22 and clawhub 0.23.3 from npm.
    Clawhub,
    /// vercel's skills CLI from npm, run by that Node.
    VercelSkills,
    /// skills-ref 0.1.1 from PyPI.
    SkillsRef,
    /// The openai and anthropic SDKs from PyPI.
    Sdk,
    /// The MCP Python SDK from PyPI.
    Mcp,
    /// pre-commit from PyPI.
    PreCommit,
    /// pytest-lsp from PyPI.
    PytestLsp,
}

/// `target/test-deps/PATH`, where `.ci/run` installs.
fn deps(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target/test-deps")
        .join(path)
}

fn on_path(program: &str) -> bool {
    which::which(program).is_ok()
}

impl Need {
    /// What it is, and how to get it, for the skip line.
    fn what(self) -> &'static str {
        match self {
            Need::Postgres => "a PostgreSQL server named by SKILL_TEST_POSTGRES",
            Need::S3 => "an S3 server and key named by SKILL_TEST_S3 (bash .ci/run starts Garage)",
            Need::Chromium => {
                "headless Chromium (apt-get install chromium, or SKILL_TEST_CHROMIUM)"
            }
            Need::Minisign => "minisign (apt-get install minisign)",
            Need::Unzip => "unzip (apt-get install unzip)",
            Need::Openssl => "openssl (apt-get install openssl)",
            Need::SarifSchema => "the SARIF schema in target/test-deps",
            Need::PackageCorpus => "the package corpus in target/test-deps/corpus",
            Need::Corpus => "a corpus: ../shared/corpus or target/test-deps/corpus",
            Need::AgentClis => "the agent CLIs in target/test-deps/agents",
            Need::Openclaw => "openclaw@2026.9.6 in target/test-deps/openclaw",
            Need::Nanobot => "nanobot-ai 0.3.5 in target/test-deps/nanobot-venv",
            Need::Clawhub => "Node 22 and clawhub 0.23.3 in target/test-deps/npm",
            Need::VercelSkills => "vercel's skills CLI in target/test-deps/vercel-skills",
            Need::SkillsRef => "skills-ref 0.1.1 in target/test-deps/venv",
            Need::Sdk => "the openai and anthropic SDKs in target/test-deps/sdk-venv",
            Need::Mcp => "the MCP Python SDK in target/test-deps/mcp-venv",
            Need::PreCommit => "pre-commit in target/test-deps/pre-commit-venv",
            Need::PytestLsp => "pytest-lsp in target/test-deps/lsp-venv",
        }
    }

    /// Whether this machine has it, found where the tests look for it.
    fn present(self) -> bool {
        match self {
            Need::Postgres => std::env::var_os("SKILL_TEST_POSTGRES").is_some(),
            Need::S3 => [
                "SKILL_TEST_S3",
                "SKILL_TEST_S3_KEY_ID",
                "SKILL_TEST_S3_SECRET",
            ]
            .iter()
            .all(|v| std::env::var_os(v).is_some_and(|v| !v.is_empty())),
            Need::Chromium => {
                std::env::var_os("SKILL_TEST_CHROMIUM").is_some()
                    || on_path("chromium")
                    || on_path("chromium-headless-shell")
            }
            Need::Minisign => on_path("minisign"),
            Need::Unzip => on_path("unzip"),
            Need::Openssl => on_path("openssl"),
            Need::SarifSchema => deps("sarif-schema-2.1.0.json").is_file(),
            Need::PackageCorpus => deps("corpus/.complete").is_file(),
            Need::Corpus => super::shared_corpus_dir().is_dir() || Need::PackageCorpus.present(),
            Need::AgentClis => deps("agents/.complete").is_file(),
            Need::Openclaw => deps("openclaw/node_modules/openclaw/package.json").is_file(),
            Need::Nanobot => deps("nanobot-venv/bin/python").exists(),
            Need::Clawhub => {
                deps("npm/node_modules/.bin/clawhub").exists()
                    && deps("npm/node_modules/.bin/node").exists()
            }
            Need::VercelSkills => {
                deps("vercel-skills/node_modules/skills/bin/cli.mjs").is_file()
                    && deps("npm/node_modules/.bin/node").exists()
            }
            Need::SkillsRef => deps("venv/bin/agentskills").exists(),
            Need::Sdk => deps("sdk-venv/bin/python").exists(),
            Need::Mcp => deps("mcp-venv/bin/python").exists(),
            Need::PreCommit => deps("pre-commit-venv/bin/pre-commit").exists(),
            Need::PytestLsp => deps("lsp-venv/bin/pytest").exists(),
        }
    }
}

/// True when one of `needs` is missing here: the test then returns at once, after one line
/// naming what it lacks. Under `SKILL_TEST_REQUIRE_ALL` a missing need fails the test instead.
pub fn lacks(needs: &[Need]) -> bool {
    let missing: Vec<&str> = needs
        .iter()
        .filter(|n| !n.present())
        .map(|n| n.what())
        .collect();
    if missing.is_empty() {
        return false;
    }
    let what = missing.join("; ");
    assert!(
        std::env::var_os("SKILL_TEST_REQUIRE_ALL").is_none(),
        "missing {what}: bash .ci/run installs it, and SKILL_TEST_REQUIRE_ALL lets no test skip"
    );
    println!("SKIPPED: needs {what}");
    true
}
