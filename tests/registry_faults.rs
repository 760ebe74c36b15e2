//! The registry under faults: SIGKILL in the middle of publishing, then a restart on the same
//! data: the database is consistent and every version is whole or absent. And oversized bodies.

use crate::common;

use common::{Registry, registry_admin};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into()
}

fn post(url: &str, token: &str, body: Vec<u8>) -> Option<(u16, Value)> {
    let mut response = agent()
        .post(url)
        .header("Authorization", &format!("Bearer {token}"))
        .header("Content-Type", "application/json")
        .send(body)
        .ok()?;
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().ok()?;
    Some((status, serde_json::from_str(&text).unwrap_or(Value::Null)))
}

/// One publish of `version` with three 200 KiB files; `None` once the server is gone.
fn publish(url: &str, token: &str, version: &str) -> Option<u16> {
    let mut entries = Vec::new();
    for (i, path) in ["SKILL.md", "references/a.md", "references/b.md"]
        .iter()
        .enumerate()
    {
        let mut content = if i == 0 {
            "---\nname: crashy\ndescription: Use when testing.\n---\n".to_owned()
        } else {
            String::new()
        };
        content.push_str(&format!("{version} {path}\n").repeat(200 * 1024 / 32));
        let sha = hex::encode(Sha256::digest(content.as_bytes()));
        let (_, ticket) = post(
            &format!("{url}/api/v1/skills/-/upload-url"),
            token,
            json!({"path": path, "size": content.len(), "sha256": sha})
                .to_string()
                .into_bytes(),
        )?;
        post(
            ticket["uploadUrl"].as_str()?,
            token,
            content.clone().into_bytes(),
        )?;
        entries.push(json!({"path": path, "size": content.len(), "sha256": sha, "uploadTicket": ticket["uploadTicket"], "storageId": ticket["uploadTicket"]}));
    }
    let payload = json!({"slug": "crashy", "displayName": "Crashy", "version": version, "changelog": "", "acceptLicenseTerms": true, "files": entries});
    post(
        &format!("{url}/api/v1/skills"),
        token,
        payload.to_string().into_bytes(),
    )
    .map(|(s, _)| s)
}

#[test]
fn sigkill_during_publishing_leaves_whole_versions_only() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let admin = |args: &[&str]| registry_admin(&data, args);
    admin(&["user", "add", "alice"]);
    let token = admin(&["token", "create", "alice"]);
    let mut server = Registry::on(&data, &[]);
    let url = server.url.clone();
    let publisher = {
        let (url, token) = (url.clone(), token.clone());
        std::thread::spawn(move || {
            let mut published = 0;
            for n in 0..200 {
                match publish(&url, &token, &format!("1.0.{n}")) {
                    Some(200) => published += 1,
                    Some(status) => panic!("publish failed with {status}"),
                    None => break,
                }
            }
            published
        })
    };
    std::thread::sleep(std::time::Duration::from_millis(700));
    server.child.kill().unwrap(); // SIGKILL
    server.child.wait().unwrap();
    let published = publisher.join().unwrap();
    assert!(
        published > 0,
        "some versions were published before the kill"
    );

    let db = rusqlite::Connection::open(data.join("registry.sqlite3")).unwrap();
    let check: String = db
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok");
    let partial: i64 = db
        .query_row("SELECT COUNT(*) FROM versions v WHERE (SELECT COUNT(*) FROM version_files f WHERE f.version_id = v.id) != 3", [], |r| r.get(0))
        .unwrap();
    assert_eq!(partial, 0, "no version without all its files");
    drop(db);

    let server = Registry::on(&data, &[]);
    let url = server.url.clone();
    let mut response = agent()
        .get(&format!("{url}/api/v1/skills/crashy/versions"))
        .call()
        .unwrap();
    let versions: Value =
        serde_json::from_str(&response.body_mut().read_to_string().unwrap()).unwrap();
    let count = versions["items"].as_array().unwrap().len();
    assert!(
        count >= published,
        "every acknowledged publish survived ({count} >= {published})"
    );
    assert!(
        count <= published + 1,
        "at most the one in flight landed too"
    );
}

#[test]
fn oversized_bodies_are_refused_with_413() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let admin = |args: &[&str]| registry_admin(&data, args);
    admin(&["user", "add", "alice"]);
    let token = admin(&["token", "create", "alice"]);
    let server = Registry::on(&data, &[]);
    let url = server.url.clone();
    let (status, _) = post(
        &format!("{url}/api/v1/skills/-/upload-url"),
        &token,
        json!({"path": "big.bin", "size": 11 * 1024 * 1024, "sha256": "0".repeat(64)})
            .to_string()
            .into_bytes(),
    )
    .unwrap();
    assert_eq!(status, 413);
    let content = "x".repeat(10);
    let sha = hex::encode(Sha256::digest(content.as_bytes()));
    let (_, ticket) = post(
        &format!("{url}/api/v1/skills/-/upload-url"),
        &token,
        json!({"path": "a.md", "size": 10, "sha256": sha})
            .to_string()
            .into_bytes(),
    )
    .unwrap();
    let mut response = agent()
        .post(ticket["uploadUrl"].as_str().unwrap())
        .header("Authorization", &format!("Bearer {token}"))
        .send("y".repeat(11))
        .unwrap();
    assert_eq!(response.status().as_u16(), 413);
    assert_eq!(
        response.body_mut().read_to_string().unwrap(),
        "Uploaded file exceeds its declared size"
    );
    // Six 9 MiB files pass one by one; together they are over the 50 MB bundle limit.
    let chunk = vec![b'z'; 9 * 1024 * 1024];
    let chunk_sha = hex::encode(Sha256::digest(&chunk));
    let mut entries = vec![];
    for i in 0..6 {
        let path = if i == 0 {
            "SKILL.md".to_owned()
        } else {
            format!("data/{i}.bin")
        };
        let meta = json!({"path": path, "size": chunk.len(), "sha256": chunk_sha});
        let (status, ticket) = post(
            &format!("{url}/api/v1/skills/-/upload-url"),
            &token,
            meta.to_string().into_bytes(),
        )
        .unwrap();
        assert_eq!(status, 200);
        let response = agent()
            .post(ticket["uploadUrl"].as_str().unwrap())
            .header("Authorization", &format!("Bearer {token}"))
            .send(&chunk[..])
            .unwrap();
        assert_eq!(response.status().as_u16(), 200);
        entries.push(json!({"path": path, "size": chunk.len(), "sha256": chunk_sha,
                            "storageId": ticket["uploadTicket"], "uploadTicket": ticket["uploadTicket"]}));
    }
    let payload = json!({"slug": "big-skill", "displayName": "Big", "version": "1.0.0",
                         "acceptLicenseTerms": true, "files": entries});
    let mut response = agent()
        .post(&format!("{url}/api/v1/skills"))
        .header("Authorization", &format!("Bearer {token}"))
        .header("Content-Type", "application/json")
        .send(payload.to_string())
        .unwrap();
    assert_eq!(
        (
            response.status().as_u16(),
            response.body_mut().read_to_string().unwrap()
        ),
        (413, "Skill bundle exceeds 50MB limit".to_owned())
    );
    let huge = vec![b'x'; 65 * 1024 * 1024];
    let status = agent()
        .post(&format!("{url}/api/v1/skills"))
        .header("Authorization", &format!("Bearer {token}"))
        .send(huge)
        .map(|r| r.status().as_u16());
    assert!(matches!(status, Ok(413)) || status.is_err(), "{status:?}");
}
