//! Download counts under load, on whichever store the caller starts: a burst of concurrent
//! downloads, spelled every way a client spells them and mostly answered from the server's
//! cache, is counted exactly within a flush interval, and the downloads answered just before a
//! SIGTERM are in the store when a new server starts. `tests/registry_server.rs` runs it on
//! SQLite, `tests/registry_postgres.rs` on PostgreSQL.

use crate::common::{Registry, run, skill, write_skill};
use std::path::Path;
use std::time::{Duration, Instant};

const SKILL_MD: &str =
    "---\nname: demo\ndescription: Demonstrates download counts. Use when testing.\n---\n\nBody.\n";

/// Every way a client asks for the archive, each answered with one; 1.0.0 is not `latest`.
const SPELLINGS: [&str; 5] = [
    "slug=demo&version=1.0.0",
    "slug=demo&version=%201.0.0%20",
    "slug=DEMO",
    "slug=demo&tag=latest",
    "slug=demo&version=1.1.0",
];

fn get(url: &str) -> (u16, Vec<u8>) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let mut response = agent.get(url).call().unwrap();
    (
        response.status().as_u16(),
        response.body_mut().read_to_vec().unwrap(),
    )
}

/// `stats.downloads` of `demo` as the server reports it.
fn downloads(url: &str) -> u64 {
    let (status, body) = get(&format!("{url}/api/v1/skills/demo"));
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    let detail: serde_json::Value = serde_json::from_slice(&body).unwrap();
    detail["skill"]["stats"]["downloads"].as_u64().unwrap()
}

/// `threads` threads each download `each` times, cycling through [`SPELLINGS`], and one
/// request for an unknown tag each, which is refused and not counted.
fn burst(url: &str, threads: usize, each: usize) {
    std::thread::scope(|scope| {
        for t in 0..threads {
            scope.spawn(move || {
                for i in 0..each {
                    let query = SPELLINGS[(t + i) % SPELLINGS.len()];
                    let (status, _) = get(&format!("{url}/api/v1/download?{query}"));
                    assert_eq!(status, 200, "{query}");
                }
                let (status, _) = get(&format!("{url}/api/v1/download?slug=demo&tag=nope"));
                assert_eq!(status, 404);
            });
        }
    });
}

/// Publishes `demo` 1.0.0 and 1.1.0 as `token`'s user, downloads them concurrently, and
/// checks the counts on the running server and after a graceful restart.
pub fn download_count_story(start: &dyn Fn() -> Registry, token: &str, tmp: &Path) {
    let server = start();
    let dir = write_skill(tmp, "demo", SKILL_MD);
    for version in ["1.0.0", "1.1.0"] {
        std::fs::write(dir.join("notes.md"), version).unwrap();
        let (code, stdout, stderr) = run(skill()
            .current_dir(tmp)
            .env("SKILL_CONFIG_DIR", tmp.join("config"))
            .env("SKILL_REGISTRY", &server.url)
            .env("SKILL_TOKEN", token)
            .env_remove("CLAWHUB_REGISTRY")
            .env_remove("CLAWHUB_TOKEN")
            .args(["publish", "demo", "--version", version]));
        assert_eq!(code, 0, "{stdout}{stderr}");
    }
    assert_eq!(downloads(&server.url), 0);

    burst(&server.url, 8, 50);
    let deadline = Instant::now() + Duration::from_secs(10);
    while downloads(&server.url) < 400 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(downloads(&server.url), 400, "every download counted once");

    // Downloads answered just before a SIGTERM reach the store as the server stops.
    burst(&server.url, 4, 25);
    server.terminate();
    let server = start();
    assert_eq!(
        downloads(&server.url),
        500,
        "no count lost in a graceful shutdown"
    );
}
