//! `skill registry serve` under hostile or careless clients: download requests padded with junk
//! parameters do not grow the server's memory, half-sent requests are cut off after the
//! configured timeouts, connections beyond `--max-connections` wait their turn, versions that
//! differ only in build metadata are one version, and every request leaves one log line.

use crate::common;

use common::registry_admin;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

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

    /// Stops the server as an operator does (SIGTERM: it writes what its log holds) and
    /// returns what it wrote on stderr (when piped).
    fn stop(mut self) -> String {
        common::sigterm(&self.child);
        let mut err = String::new();
        if let Some(mut pipe) = self.child.stderr.take() {
            pipe.read_to_string(&mut err).unwrap();
        }
        err
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
    publish_with(url, token, version, "")
}

/// [`publish`] with a changelog.
fn publish_with(url: &str, token: &str, version: &str, changelog: &str) -> (u16, String) {
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
    let payload = json!({"slug": "demo-skill", "displayName": "Demo Skill", "version": version, "changelog": changelog,
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

/// Reads until the server closes the connection or `limit` passes; (closed, what arrived).
fn read_until_closed(stream: &mut TcpStream, limit: Duration) -> (bool, Vec<u8>) {
    stream.set_read_timeout(Some(limit)).unwrap();
    let mut got = Vec::new();
    let mut buf = [0; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => return (true, got),
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return (true, got),
            Err(_) => return (false, got),
        }
    }
}

#[test]
fn a_half_sent_header_is_cut_off_after_the_header_timeout() {
    let (_tmp, data, _) = registry();
    let server = Server::start(&data, &["--header-timeout", "1"], Stdio::null());
    let mut stream = TcpStream::connect(server.addr()).unwrap();
    let started = Instant::now();
    stream
        .write_all(b"GET /api/v1/search?q=demo HTTP/1.1\r\nHost: registry\r\nX-Half: ")
        .unwrap();
    let (closed, got) = read_until_closed(&mut stream, Duration::from_secs(6));
    let waited = started.elapsed();
    assert!(closed, "still open after {waited:?}");
    assert!(got.is_empty(), "{}", String::from_utf8_lossy(&got));
    assert!(
        waited >= Duration::from_millis(800) && waited < Duration::from_secs(5),
        "closed after {waited:?}"
    );
    // Whole requests are still served.
    let (status, _) = get_on(&mut connect(&server), "/api/v1/search?q=demo");
    assert_eq!(status, 200);
}

#[test]
fn a_half_sent_body_is_answered_408_after_the_body_timeout() {
    let (_tmp, data, token) = registry();
    let server = Server::start(&data, &["--body-timeout", "1"], Stdio::null());
    let mut stream = TcpStream::connect(server.addr()).unwrap();
    let started = Instant::now();
    let head = format!(
        "POST /api/v1/skills/-/upload-url HTTP/1.1\r\nHost: registry\r\nAuthorization: Bearer {token}\r\n\
         Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"path\": "
    );
    stream.write_all(head.as_bytes()).unwrap();
    let (closed, got) = read_until_closed(&mut stream, Duration::from_secs(6));
    let waited = started.elapsed();
    let got = String::from_utf8_lossy(&got);
    assert!(closed, "still open after {waited:?}: {got}");
    assert!(got.starts_with("HTTP/1.1 408 "), "{got}");
    assert!(
        got.ends_with("Request body took too long to arrive"),
        "{got}"
    );
    assert!(
        waited >= Duration::from_millis(800) && waited < Duration::from_secs(5),
        "answered after {waited:?}"
    );
}

#[test]
fn connections_past_the_limit_wait_for_one_to_close() {
    let (_tmp, data, _) = registry();
    let server = Server::start(
        &data,
        &["--max-connections", "2", "--header-timeout", "60"],
        Stdio::null(),
    );
    // Two served connections, then held open and idle.
    let mut held: Vec<_> = (0..2).map(|_| connect(&server)).collect();
    for stream in &mut held {
        assert_eq!(get_on(stream, "/api/v1/search?q=demo").0, 200);
    }
    let mut third = connect(&server);
    third
        .get_mut()
        .write_all(b"GET /api/v1/search?q=demo HTTP/1.1\r\nHost: registry\r\n\r\n")
        .unwrap();
    third
        .get_mut()
        .set_read_timeout(Some(Duration::from_millis(1500)))
        .unwrap();
    let mut byte = [0; 1];
    let early = third.get_mut().peek(&mut byte);
    assert!(
        early.is_err(),
        "a third connection was served while two were held: {early:?}"
    );
    drop(held);
    third
        .get_mut()
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    assert_eq!(read_response(&mut third).0, 200);
}

#[test]
fn build_metadata_makes_no_new_version_and_labels_are_bounded() {
    let (_tmp, data, token) = registry();
    let server = Server::start(&data, &[], Stdio::null());
    let (status, body) = publish(&server.url, &token, "1.0.0+build1");
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        publish(&server.url, &token, "1.0.0+build2"),
        (
            409,
            "Version 1.0.0+build1 already exists, and 1.0.0+build2 differs from it only in build metadata. Increment the version number and try again.".into()
        )
    );
    let long = "b".repeat(65);
    assert_eq!(
        publish(&server.url, &token, &format!("1.1.0+{long}")),
        (
            400,
            "Version build metadata must be at most 64 characters".into()
        )
    );
    assert_eq!(
        publish(&server.url, &token, &format!("1.1.0-{long}")),
        (
            400,
            "Version prerelease must be at most 64 characters".into()
        )
    );
    let (status, body) = publish(&server.url, &token, &format!("1.1.0-{}", &long[1..]));
    assert_eq!(status, 200, "64 characters are allowed: {body}");
}

/// Makes four requests (one with a token, one with a query string, one to an unknown path, one
/// with an upload ticket in its path) and returns the server's stderr and the token.
fn logged_requests(format: &str) -> (String, String) {
    let (_tmp, data, token) = registry();
    let server = Server::start(&data, &["--log-format", format], Stdio::piped());
    let mut stream = connect(&server);
    let request = format!(
        "GET /api/v1/whoami HTTP/1.1\r\nHost: registry\r\nAuthorization: Bearer {token}\r\n\r\n"
    );
    stream.get_mut().write_all(request.as_bytes()).unwrap();
    assert_eq!(read_response(&mut stream).0, 200);
    assert_eq!(get_on(&mut stream, "/api/v1/search?q=secret-query").0, 200);
    assert_eq!(get_on(&mut stream, "/api/v1/nowhere?k=secret-key").0, 404);
    let upload = "POST /api/v1/skills/-/upload/upl_secret HTTP/1.1\r\nHost: registry\r\nContent-Length: 0\r\n\r\n";
    stream.get_mut().write_all(upload.as_bytes()).unwrap();
    assert_eq!(read_response(&mut stream).0, 401);
    (server.stop(), token)
}

/// The request lines of a log: those that are not the server's own notes.
fn request_lines(log: &str) -> Vec<&str> {
    log.lines().filter(|l| l.contains("status")).collect()
}

#[test]
fn every_request_is_logged_once_without_tokens_or_query_strings() {
    let (log, token) = logged_requests("text");
    let lines = request_lines(&log);
    assert_eq!(lines.len(), 4, "{log}");
    for (line, (method, path, status)) in lines.iter().zip([
        ("GET", "/api/v1/whoami", "200"),
        ("GET", "/api/v1/search", "200"),
        ("GET", "/api/v1/nowhere", "404"),
        ("POST", "/api/v1/skills/-/upload/{ticket}", "401"),
    ]) {
        assert!(line.contains(&format!("method={method}")), "{line}");
        assert!(line.contains(&format!("path={path}}}")), "{line}");
        assert!(line.contains(&format!("status={status}")), "{line}");
        assert!(
            line.contains("bytes=") && line.contains("duration_ms="),
            "{line}"
        );
    }
    for secret in [token.as_str(), "Bearer", "secret", "?"] {
        assert!(!log.contains(secret), "{secret:?} in the log:\n{log}");
    }
}

#[test]
fn the_json_log_is_one_object_per_request() {
    let (log, token) = logged_requests("json");
    let lines = request_lines(&log);
    assert_eq!(lines.len(), 4, "{log}");
    let entries: Vec<Value> = lines
        .iter()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let seen: Vec<(String, String, u64)> = entries
        .iter()
        .map(|e| {
            (
                e["span"]["method"].as_str().unwrap().to_owned(),
                e["span"]["path"].as_str().unwrap().to_owned(),
                e["status"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            ("GET".into(), "/api/v1/whoami".into(), 200),
            ("GET".into(), "/api/v1/search".into(), 200),
            ("GET".into(), "/api/v1/nowhere".into(), 404),
            (
                "POST".into(),
                "/api/v1/skills/-/upload/{ticket}".into(),
                401
            ),
        ]
    );
    assert!(
        entries
            .iter()
            .all(|e| e["bytes"].is_u64() && e["duration_ms"].is_f64())
    );
    for secret in [token.as_str(), "Bearer", "secret"] {
        assert!(!log.contains(secret), "{secret:?} in the log:\n{log}");
    }
}

#[test]
fn a_page_of_versions_is_bounded_in_bytes_and_its_cursor_reaches_the_rest() {
    let (_tmp, data, token) = registry();
    let server = Server::start(&data, &[], Stdio::null());
    // Each changelog is within the field's 64 KiB; 40 of them are not within a page.
    let changelog = "c".repeat(60_000);
    for minor in 0..40 {
        let (status, body) = publish_with(&server.url, &token, &format!("1.{minor}.0"), &changelog);
        assert_eq!(status, 200, "{body}");
    }
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    let mut pages = 0;
    loop {
        let url = match &cursor {
            Some(c) => format!(
                "{}/api/v1/skills/demo-skill/versions?limit=200&cursor={c}",
                server.url
            ),
            None => format!("{}/api/v1/skills/demo-skill/versions?limit=200", server.url),
        };
        let mut response = agent().get(&url).call().unwrap();
        let body = response.body_mut().read_to_vec().unwrap();
        assert!(
            body.len() <= (1 << 20) + 1024,
            "a page of {} bytes",
            body.len()
        );
        let page: Value = serde_json::from_slice(&body).unwrap();
        for item in page["items"].as_array().unwrap() {
            seen.push(item["version"].as_str().unwrap().to_owned());
        }
        pages += 1;
        match page["nextCursor"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => break,
        }
    }
    assert!(pages > 1, "one page held every changelog");
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 40);
}
