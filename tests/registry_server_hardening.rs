//! `skill registry serve` under hostile or careless clients: download requests padded with junk
//! parameters do not grow the server's memory, half-sent requests are cut off after the
//! configured timeouts, connections beyond `--max-connections` wait their turn, versions that
//! differ only in build metadata are one version, and every request leaves one log line.

mod common;

use common::registry_admin;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A `skill registry serve --addr 127.0.0.1:0` whose stderr the test reads, killed when dropped.
struct Server {
    child: Child,
    url: String,
}

impl Server {
    fn start(data: &Path, extra: &[&str], stderr: Stdio) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_skill"))
            .args(["registry", "serve", "--addr", "127.0.0.1:0", "--data"])
            .arg(data)
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .unwrap();
        let mut url = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut url)
            .unwrap();
        Server {
            child,
            url: url.trim().to_owned(),
        }
    }

    /// `host:port`, for raw sockets.
    fn addr(&self) -> &str {
        self.url.trim_start_matches("http://")
    }

    /// The server process's resident memory, from /proc.
    fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A data folder with publisher `alice`; returns (temp dir, data folder, her token).
fn registry() -> (tempfile::TempDir, std::path::PathBuf, String) {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    registry_admin(&data, &["user", "add", "alice"]);
    let token = registry_admin(&data, &["token", "create", "alice"]);
    (tmp, data, token)
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into()
}

/// (status, body) of a POST with a bearer token.
fn post(url: &str, token: &str, body: Vec<u8>) -> (u16, String) {
    let mut response = agent()
        .post(url)
        .header("Authorization", &format!("Bearer {token}"))
        .header("Content-Type", "application/json")
        .send(body)
        .unwrap();
    (
        response.status().as_u16(),
        response.body_mut().read_to_string().unwrap(),
    )
}

fn sha(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

const SKILL_MD: &str = "---\nname: demo-skill\ndescription: Demonstrates the registry. Use when testing.\n---\n\nBody.\n";

/// Publishes SKILL.md as the clawhub CLI does (a ticket, an upload, the JSON); (status, body).
fn publish(url: &str, token: &str, version: &str) -> (u16, String) {
    let meta =
        json!({"path": "SKILL.md", "size": SKILL_MD.len(), "sha256": sha(SKILL_MD.as_bytes())});
    let (status, body) = post(
        &format!("{url}/api/v1/skills/-/upload-url"),
        token,
        meta.to_string().into_bytes(),
    );
    assert_eq!(status, 200, "{body}");
    let ticket: Value = serde_json::from_str(&body).unwrap();
    let (status, body) = post(
        ticket["uploadUrl"].as_str().unwrap(),
        token,
        SKILL_MD.as_bytes().to_vec(),
    );
    assert_eq!(status, 200, "{body}");
    let entry = json!({"path": "SKILL.md", "size": SKILL_MD.len(), "sha256": sha(SKILL_MD.as_bytes()),
                       "uploadTicket": ticket["uploadTicket"]});
    let payload = json!({"slug": "demo-skill", "displayName": "Demo Skill", "version": version, "changelog": "",
                         "acceptLicenseTerms": true, "files": [entry]});
    post(
        &format!("{url}/api/v1/skills"),
        token,
        payload.to_string().into_bytes(),
    )
}

/// Sends a keep-alive GET on `stream` and reads the response; (status, body).
fn get_on(stream: &mut BufReader<TcpStream>, target: &str) -> (u16, Vec<u8>) {
    // One write: pieces would wait on Nagle's algorithm and the server's delayed ACK.
    let request = format!("GET {target} HTTP/1.1\r\nHost: registry\r\n\r\n");
    stream.get_mut().write_all(request.as_bytes()).unwrap();
    read_response(stream)
}

/// Reads one response with a Content-Length body; panics if the server closes first.
fn read_response(stream: &mut BufReader<TcpStream>) -> (u16, Vec<u8>) {
    let mut status_line = String::new();
    stream.read_line(&mut status_line).unwrap();
    let status = status_line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("not a status line: {status_line:?}"));
    let mut length = 0;
    loop {
        let mut line = String::new();
        stream.read_line(&mut line).unwrap();
        if line.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().unwrap();
        }
    }
    let mut body = vec![0; length];
    stream.read_exact(&mut body).unwrap();
    (status, body)
}

fn connect(server: &Server) -> BufReader<TcpStream> {
    let stream = TcpStream::connect(server.addr()).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    BufReader::new(stream)
}

#[test]
fn junk_download_parameters_do_not_grow_memory() {
    let (_tmp, data, token) = registry();
    let server = Server::start(&data, &[], Stdio::null());
    assert_eq!(publish(&server.url, &token, "1.0.0").0, 200);
    let mut stream = connect(&server);
    // hyper refuses request targets of 64 KiB and more, so this is about as much as one carries.
    let junk = "j".repeat(30 * 1024);
    let mut download = |i: usize| {
        let target =
            format!("/api/v1/download?slug=demo-skill&version=1.0.0&tag={i}{junk}&x{i}={junk}");
        let (status, body) = get_on(&mut stream, &target);
        assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
        assert_eq!(&body[..2], b"PK");
    };
    // The first few hundred settle the allocator's arenas and the connection's buffers.
    for i in 0..300 {
        download(i);
    }
    let before = server.rss_kib();
    for i in 300..3300 {
        download(i);
    }
    let after = server.rss_kib();
    eprintln!("RSS {before} KiB before 3000 junk downloads, {after} KiB after");
    assert!(
        after.saturating_sub(before) < 6 * 1024,
        "3000 downloads with 60 KiB of junk each grew the server from {before} KiB to {after} KiB"
    );
}
