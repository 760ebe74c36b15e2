//! Fills a registry store with a synthetic catalogue for `benches/registry.py --scale`: N skills
//! with generated names and descriptions, each published once through the store (so the search
//! index, tags and scan are exactly what real publishes make), without N HTTP round trips.
//!
//! `cargo bench --bench registry_seed -- (--data DIR | --database URL) [--count N]`
//! prints the slugs and queries the benchmark asks for, one JSON object. Skills already in the
//! store (from an earlier run) are kept.

use skill_registry::store::{NewFile, PostgresStore, PublishRequest, SqliteStore, Store};
use std::time::Instant;

/// Words descriptions are built from: common task words (so queries match many skills, as
/// real ones do) and generated ones (so the vocabulary is large).
fn vocabulary() -> Vec<String> {
    let common = [
        "pdf",
        "docker",
        "deploy",
        "table",
        "export",
        "image",
        "resize",
        "calendar",
        "email",
        "search",
        "github",
        "issue",
        "review",
        "test",
        "python",
        "node",
        "database",
        "backup",
        "slack",
        "notes",
        "weather",
        "invoice",
        "chart",
        "video",
        "audio",
        "translate",
        "summary",
        "kubernetes",
        "terraform",
        "aws",
        "browser",
        "scrape",
        "markdown",
        "spreadsheet",
        "csv",
        "json",
        "api",
        "monitor",
        "log",
        "security",
    ];
    let syllables = [
        "ka", "lo", "mi", "ra", "ten", "vo", "sil", "dra", "pen", "qui", "zu", "mor", "fen", "lix",
    ];
    let mut words: Vec<String> = common.iter().map(|w| (*w).to_owned()).collect();
    for a in syllables {
        for b in syllables {
            for c in ["", "s", "ter"] {
                words.push(format!("{a}{b}{c}"));
            }
        }
    }
    words
}

/// A small deterministic generator (xorshift), so every run builds the same catalogue.
struct Rng(u64);

impl Rng {
    fn next(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let count: usize = value("--count").map_or(100_000, |c| c.parse().expect("--count N"));
    let store: Box<dyn Store> = match (value("--database"), value("--data")) {
        (Some(url), _) => Box::new(PostgresStore::open(&url).expect("PostgreSQL store")),
        (None, Some(dir)) => Box::new(SqliteStore::open(dir.as_ref()).expect("SQLite store")),
        // `cargo bench` with no arguments (as `cargo bench` runs every bench): nothing to fill.
        (None, None) => {
            eprintln!("usage: registry_seed (--data DIR | --database URL) [--count N]");
            return;
        }
    };
    let user = store
        .add_user("bench", Some("Bench"))
        .or_else(|_| store.user("bench").map(|u| u.expect("user bench")))
        .expect("user bench");
    let words = vocabulary();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let started = Instant::now();
    let mut slugs = Vec::with_capacity(count);
    for i in 0..count {
        let name: Vec<&str> = (0..2)
            .map(|_| words[rng.next(words.len())].as_str())
            .collect();
        let slug = format!("{}-{}-{i}", name[0], name[1]);
        let description: Vec<&str> = (0..14)
            .map(|_| words[rng.next(words.len())].as_str())
            .collect();
        let description = format!("{}. Use when the user asks for it.", description.join(" "));
        let skill_md = format!(
            "---\nname: {slug}\ndescription: {description}\n---\n\n# {slug}\n\nRun `{}` on the input.\n",
            name[0]
        );
        let request = PublishRequest {
            slug: slug.clone(),
            display_name: format!("{} {}", name[0], name[1]),
            summary: Some(description),
            version: "1.0.0".into(),
            files: vec![NewFile {
                path: "SKILL.md".into(),
                bytes: skill_md.into_bytes(),
                content_type: Some("text/markdown".into()),
            }],
            ..PublishRequest::default()
        };
        // The catalogue is the same on every run, so a store filled before is reused.
        if store.skill(&slug).expect("skill").is_none() {
            store.publish(&user, &request).expect("publish");
        }
        slugs.push(slug);
        if (i + 1) % 10_000 == 0 {
            eprintln!(
                "{} skills in {:.0} s",
                i + 1,
                started.elapsed().as_secs_f64()
            );
        }
    }
    let fingerprint = |slug: &str| {
        store
            .version(slug, "1.0.0")
            .expect("version")
            .expect("published")
            .fingerprint
    };
    let sample: Vec<&String> = (0..50).map(|_| &slugs[rng.next(slugs.len())]).collect();
    let resolve: Vec<(String, String)> = sample
        .iter()
        .map(|s| ((*s).clone(), fingerprint(s)))
        .collect();
    let out = serde_json::json!({
        "count": count,
        "seconds": started.elapsed().as_secs_f64(),
        "queries": ["pdf table export", "docker deploy", "kalo", "weather", "github issue review"],
        "resolve": resolve,
    });
    println!("{out}");
}
