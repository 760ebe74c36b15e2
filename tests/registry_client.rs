//! Our registry client end to end against `skill registry serve` (login, whoami, publish with
//! unchanged detection, bumps and conflicts, search, info, install from the registry with lock
//! and origin files, logout), and against a fake server for retries and plain-text errors.

use crate::common;

use common::{Registry, registry_admin, run, skill, write_skill};
use std::io::{Read, Write};

#[test]
fn login_publish_search_install_logout() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let admin = |args: &[&str]| registry_admin(&data, args);
    admin(&["user", "add", "alice"]);
    let token = admin(&["token", "create", "alice"]);
    let server = Registry::on(&data, &[]);
    let url = server.url.clone();
    let cli = |args: &[&str]| {
        run(skill()
            .current_dir(tmp.path())
            .env("SKILL_CONFIG_DIR", tmp.path().join("config"))
            .env("SKILL_CACHE_DIR", tmp.path().join("cache"))
            .env_remove("SKILL_REGISTRY")
            .env_remove("CLAWHUB_REGISTRY")
            .env_remove("SKILL_TOKEN")
            .env_remove("CLAWHUB_TOKEN")
            .args(args))
    };
    let (code, _, stderr) = cli(&["whoami", "--registry", &url]);
    assert_eq!(code, 2);
    assert!(stderr.contains("not logged in"), "{stderr}");
    let (code, _, stderr) = cli(&["login", "--token", "skl_wrong", "--registry", &url]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("the registry does not accept your token (401): Unauthorized: API token is invalid, expired or revoked")
            && stderr.contains("hint: log in again: skill login --token TOKEN"),
        "{stderr}"
    );
    let (code, stdout, _) = cli(&["login", "--token", &token, "--registry", &url]);
    assert_eq!(
        (code, stdout),
        (0, format!("Logged in to {url} as @alice\n"))
    );
    let mode = std::os::unix::fs::PermissionsExt::mode(
        &std::fs::metadata(tmp.path().join("config/credentials.json"))
            .unwrap()
            .permissions(),
    );
    assert_eq!(mode & 0o777, 0o600);
    assert_eq!(cli(&["whoami"]).1, "@alice\n");

    // The source lives under src/, so `skill install pdf-tools` below names the registry skill,
    // not a folder of that name (a bare name that is also a folder here is refused).
    write_skill(
        &tmp.path().join("src"),
        "pdf-tools",
        "---\nname: pdf-tools\ndescription: Extract tables from PDF files. Use when the user shares a PDF.\n---\n\nRun the extractor.\n",
    );
    let (code, stdout, _) = cli(&["publish", "src/pdf-tools", "--dry-run"]);
    assert_eq!(code, 0);
    assert!(
        stdout.starts_with(&format!("Would publish pdf-tools@1.0.0 to {url}: 1 file,")),
        "{stdout}"
    );
    let (code, stdout, stderr) = cli(&["publish", "src/pdf-tools"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.starts_with(&format!("Published pdf-tools@1.0.0 to {url}")),
        "{stdout}"
    );
    assert_eq!(
        cli(&["publish", "src/pdf-tools"]).1,
        "Unchanged: pdf-tools@1.0.0 is already published with these files\n"
    );
    let (code, _, stderr) = cli(&["publish", "src/pdf-tools", "--version", "1.0.0"]);
    assert_eq!(code, 2);
    assert!(
        stderr.ends_with(
            "the registry has this already (409): Version 1.0.0 already exists. Increment the version number and try again.\n"
        ),
        "{stderr}"
    );
    std::fs::write(tmp.path().join("src/pdf-tools/references.md"), "# More\n").unwrap();
    let (code, stdout, _) = cli(&[
        "publish",
        "src/pdf-tools",
        "--bump",
        "minor",
        "--changelog",
        "Adds notes",
        "--tag",
        "stable",
    ]);
    assert_eq!(code, 0);
    assert!(stdout.starts_with("Published pdf-tools@1.1.0"), "{stdout}");

    let (_, stdout, _) = cli(&["search", "tables"]);
    assert!(
        stdout.starts_with("pdf-tools v1.1.0  @alice  Pdf Tools  score "),
        "{stdout}"
    );
    let (_, stdout, _) = cli(&["info", "pdf-tools"]);
    assert!(
        stdout.contains("latest:   1.1.0")
            && stdout.contains("owner:    @alice")
            && stdout.contains("stable=1.1.0"),
        "{stdout}"
    );

    let (code, stdout, stderr) = cli(&["install", "pdf-tools", "--dir", "proj/skills"]);
    assert_eq!(
        (code, stdout.as_str()),
        (
            0,
            "Installed pdf-tools in proj/skills/pdf-tools (3 files)\n"
        ),
        "{stderr}"
    );
    let origin: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            tmp.path()
                .join("proj/skills/pdf-tools/.clawhub/origin.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let lock: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(tmp.path().join("proj/.clawhub/lock.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(origin["installedVersion"], "1.1.0");
    assert_eq!(origin["registry"], url.as_str());
    assert_eq!(lock["skills"]["pdf-tools"]["version"], "1.1.0");
    assert_eq!(
        origin["installedAt"], lock["skills"]["pdf-tools"]["installedAt"],
        "one timestamp in both files"
    );
    assert!(
        tmp.path()
            .join("proj/skills/pdf-tools/_meta.json")
            .is_file()
    );
    let (code, _, _) = cli(&["install", "pdf-tools@1.0.0", "--dir", "proj/skills"]);
    assert_eq!(code, 2, "an existing install needs --force");
    let (code, stdout, _) = cli(&[
        "install",
        "pdf-tools@1.0.0",
        "--dir",
        "proj/skills",
        "--force",
    ]);
    assert_eq!(
        (code, stdout.as_str()),
        (0, "Replaced pdf-tools in proj/skills/pdf-tools (2 files)\n")
    );
    let update =
        |extra: &[&str]| cli(&[["update", "--dir", "proj/skills"].as_slice(), extra].concat()).1;
    assert_eq!(update(&[]), "Updated pdf-tools -> v1.1.0\n");
    assert_eq!(update(&[]), "pdf-tools up to date v1.1.0\n");
    std::fs::write(
        tmp.path().join("proj/skills/pdf-tools/SKILL.md"),
        "edited locally\n",
    )
    .unwrap();
    assert_eq!(
        update(&[]),
        "pdf-tools: local changes (no match). Use --force to overwrite.\n"
    );
    assert_eq!(update(&["--force"]), "Updated pdf-tools -> v1.1.0\n");
    assert_ne!(
        std::fs::read_to_string(tmp.path().join("proj/skills/pdf-tools/SKILL.md")).unwrap(),
        "edited locally\n"
    );
    let (code, _, stderr) = cli(&["install", "nope-skill", "--dir", "proj/skills"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("nope-skill: no such skill in the registry http://127.0.0.1:"),
        "{stderr}"
    );

    assert_eq!(
        cli(&["logout"]).1,
        format!(
            "Logged out of {url} (@alice). The token still works: it is only gone from this machine; if it may have leaked, have it revoked (skill registry token revoke)\n"
        )
    );
    assert_eq!(cli(&["whoami"]).0, 2);
    assert_eq!(cli(&["logout"]).1, "Logged out (no token was stored)\n");

    // An administrator lists alice's tokens and revokes the one she logged in with; logging in
    // with it again is refused, and logging out of a revoked token says so.
    let listed = admin(&["token", "list", "alice"]);
    let id = listed.split_whitespace().next().unwrap().to_owned();
    assert_eq!(listed.lines().count(), 1, "{listed}");
    assert_eq!(
        admin(&["token", "revoke", "alice", &id]),
        format!("Revoked token {id} of @alice")
    );
    assert_eq!(admin(&["token", "list", "alice"]), "@alice has no tokens");
    assert_eq!(cli(&["login", "--token", &token, "--registry", &url]).0, 2);
    let second = admin(&["token", "create", "alice"]);
    assert_eq!(cli(&["login", "--token", &second, "--registry", &url]).0, 0);
    let id = admin(&["token", "list", "alice"])
        .split_whitespace()
        .next()
        .unwrap()
        .to_owned();
    admin(&["token", "revoke", "alice", &id]);
    assert_eq!(
        cli(&["logout"]).1,
        format!("Logged out of {url}; the registry no longer accepted the token\n")
    );
}

/// A server that answers 503 (with Retry-After) twice, then 200; and a 500 with a text body.
/// The author's verbs besides publish: explore (sorts, a prefix, pages, JSON), star and
/// unstar, tag, delete and undelete of one version, each read back from the registry.
#[test]
fn explore_star_tag_and_withdraw_versions() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let admin = |args: &[&str]| registry_admin(&data, args);
    admin(&["user", "add", "alice"]);
    let token = admin(&["token", "create", "alice"]);
    let server = Registry::on(&data, &[]);
    let url = server.url.clone();
    let cli = |args: &[&str]| {
        run(skill()
            .current_dir(tmp.path())
            .env("SKILL_CONFIG_DIR", tmp.path().join("config"))
            .env("SKILL_CACHE_DIR", tmp.path().join("cache"))
            .env_remove("SKILL_REGISTRY")
            .env_remove("CLAWHUB_REGISTRY")
            .env_remove("SKILL_TOKEN")
            .env_remove("CLAWHUB_TOKEN")
            .args(args))
    };
    let ok = |args: &[&str]| {
        let (code, stdout, stderr) = cli(args);
        assert_eq!(code, 0, "skill {args:?}: {stderr}");
        stdout
    };
    let (code, _, stderr) = cli(&["star", "pdf-tools", "--registry", &url]);
    assert_eq!(code, 2);
    assert!(stderr.contains("not logged in"), "{stderr}");
    ok(&["login", "--token", &token, "--registry", &url]);
    for (slug, description) in [
        ("pdf-tools", "Extract tables from PDF files. Use for PDFs."),
        ("pdf-merge", "Merge PDF files. Use for PDFs."),
    ] {
        write_skill(
            &tmp.path().join("src"),
            slug,
            format!("---\nname: {slug}\ndescription: {description}\n---\n\nBody.\n"),
        );
        ok(&["publish", &format!("src/{slug}"), "--version", "1.0.0"]);
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    write_skill(
        &tmp.path().join("src"),
        "pdf-tools",
        "---\nname: pdf-tools\ndescription: Extract tables from PDF files. Use for PDFs.\n---\n\nBody 2.\n",
    );
    ok(&["publish", "src/pdf-tools", "--version", "1.1.0"]);

    assert_eq!(
        ok(&["explore", "--sort", "newest"]),
        "pdf-merge  v1.0.0  0 downloads  0 stars  Merge PDF files. Use for PDFs.\n\
         pdf-tools  v1.1.0  0 downloads  0 stars  Extract tables from PDF files. Use for PDFs.\n"
    );
    assert!(ok(&["explore"]).starts_with("pdf-tools  v1.1.0"));
    let (code, stdout, stderr) = cli(&["explore", "--prefix", "pdf-", "--limit", "1"]);
    assert_eq!(code, 0);
    assert!(stdout.starts_with("pdf-merge  v1.0.0"), "{stdout}");
    assert!(stderr.contains("Next page: --cursor 1"), "{stderr}");
    assert!(
        ok(&[
            "explore", "--prefix", "pdf-", "--limit", "1", "--cursor", "1"
        ])
        .starts_with("pdf-tools")
    );
    let (code, _, stderr) = cli(&["explore", "--sort", "sideways"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("the registry refused the request (400): Invalid sort: sideways"),
        "{stderr}"
    );

    assert_eq!(ok(&["star", "pdf-merge"]), "starred pdf-merge\n");
    assert_eq!(
        ok(&["star", "pdf-merge"]),
        "pdf-merge was starred already\n"
    );
    let (code, _, stderr) = cli(&["star", "no-such-skill"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("not found in the registry (404): Skill not found"),
        "{stderr}"
    );
    let page: serde_json::Value =
        serde_json::from_str(&ok(&["explore", "--sort", "stars", "--json"])).unwrap();
    assert_eq!(page["skills"][0]["slug"], "pdf-merge");
    assert_eq!(page["skills"][0]["stars"], 1);
    assert!(ok(&["info", "pdf-merge"]).contains("stats:    0 downloads, 1 star, 1 version"));
    assert_eq!(ok(&["unstar", "pdf-merge"]), "unstarred pdf-merge\n");
    assert_eq!(ok(&["unstar", "pdf-merge"]), "pdf-merge was not starred\n");

    assert_eq!(
        ok(&["tag", "pdf-tools", "1.0.0", "--tag", "stable"]),
        "pdf-tools stable -> 1.0.0\n"
    );
    assert!(ok(&["info", "pdf-tools"]).contains("tags:     latest=1.1.0, stable=1.0.0"));
    let (code, _, stderr) = cli(&["delete", "pdf-tools", "--version", "1.1.0"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("the registry refused the request (400): Cannot delete the latest version")
            && !stderr.contains("http://"),
        "{stderr}"
    );
    // -v adds the call's URL.
    let (code, _, stderr) = cli(&["-v", "delete", "pdf-tools", "--version", "1.1.0"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains(&format!(
            "  (the call was {url}/api/v1/skills/pdf-tools/versions/1.1.0)"
        )),
        "{stderr}"
    );
    assert_eq!(
        ok(&["delete", "pdf-tools", "--version", "1.0.0"]),
        "withdrew pdf-tools@1.0.0 (its number stays taken)\n"
    );
    let (code, _, _) = cli(&["install", "pdf-tools@1.0.0", "--dir", "out"]);
    assert_ne!(code, 0, "a withdrawn version is not installed");
    assert!(ok(&["info", "pdf-tools"]).contains("tags:     latest=1.1.0\n"));
    assert_eq!(
        ok(&["undelete", "pdf-tools", "--version", "1.0.0"]),
        "restored pdf-tools@1.0.0\n"
    );
    ok(&["install", "pdf-tools@1.0.0", "--dir", "out"]);
    assert!(tmp.path().join("out/pdf-tools/SKILL.md").is_file());
    // A whole skill goes only when confirmed: not on a terminal, --yes says so.
    let (code, _, stderr) = cli(&["delete", "pdf-merge"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("this deletes the whole skill pdf-merge (every version) from")
            && stderr.contains("pass --yes to confirm"),
        "{stderr}"
    );
    assert_eq!(ok(&["delete", "pdf-merge", "--yes"]), "deleted pdf-merge\n");
    assert!(!ok(&["explore"]).contains("pdf-merge"));
    assert_eq!(ok(&["undelete", "pdf-merge"]), "restored pdf-merge\n");
    assert!(ok(&["explore"]).contains("pdf-merge"));
}

fn flaky_server() -> (String, std::thread::JoinHandle<usize>) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let handle = std::thread::spawn(move || {
        let mut served = 0;
        for stream in listener.incoming().take(6) {
            let mut stream = stream.unwrap();
            let mut buf = [0u8; 4096];
            let n = stream.read(&mut buf).unwrap_or(0);
            let request = String::from_utf8_lossy(&buf[..n]);
            served += 1;
            let response = if request.contains("/api/v1/whoami") && served <= 2 {
                "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Length: 4\r\nConnection: close\r\n\r\nbusy".to_owned()
            } else if request.contains("/api/v1/whoami") {
                let body = r#"{"user":{"handle":"carol"}}"#;
                format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                )
            } else {
                let body = "Rate limit exceeded";
                format!(
                    "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 0\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                )
            };
            let _ = stream.write_all(response.as_bytes());
        }
        served
    });
    (url, handle)
}

#[test]
fn retries_honour_retry_after_and_errors_are_shown_verbatim() {
    let (url, server) = flaky_server();
    let tmp = tempfile::tempdir().unwrap();
    let started = std::time::Instant::now();
    let (code, stdout, stderr) = run(skill()
        .current_dir(tmp.path())
        .env("SKILL_CONFIG_DIR", tmp.path().join("config"))
        .args(["login", "--token", "t", "--registry", &url]));
    assert_eq!(
        (code, stdout),
        (0, format!("Logged in to {url} as @carol\n")),
        "{stderr}"
    );
    assert!(
        started.elapsed() >= std::time::Duration::from_secs(2),
        "waited Retry-After twice"
    );
    let (code, _, stderr) = run(skill()
        .current_dir(tmp.path())
        .env("SKILL_CONFIG_DIR", tmp.path().join("config"))
        .args(["search", "x", "--registry", &url]));
    assert_eq!(code, 2);
    assert!(
        stderr.ends_with(
            "the registry is busy (429): Rate limit exceeded\nhint: try again in a minute\n"
        ),
        "{stderr}"
    );
    assert_eq!(
        server.join().unwrap(),
        6,
        "three whoami attempts, three search attempts"
    );
}

/// Reads one HTTP request (headers and a Content-Length body) from `stream`.
fn read_request(stream: &mut std::net::TcpStream) -> String {
    let mut data = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        let n = stream.read(&mut buf).unwrap_or(0);
        if n == 0 {
            break;
        }
        data.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&data);
        if let Some(end) = text.find("\r\n\r\n") {
            let length = text[..end]
                .lines()
                .find_map(|l| {
                    l.to_ascii_lowercase()
                        .strip_prefix("content-length:")
                        .map(|v| v.trim().parse::<usize>().unwrap_or(0))
                })
                .unwrap_or(0);
            if data.len() >= end + 4 + length {
                break;
            }
        }
    }
    String::from_utf8_lossy(&data).into_owned()
}

#[test]
fn publish_falls_back_to_multipart_when_tickets_are_missing() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let server = std::thread::spawn(move || {
        let mut multipart = String::new();
        for stream in listener.incoming().take(3) {
            let mut stream = stream.unwrap();
            let request = read_request(&mut stream);
            let (status, body) = if request.starts_with("GET /api/v1/resolve") {
                ("404 Not Found", "Skill not found".to_owned())
            } else if request.starts_with("POST /api/v1/skills/-/upload-url") {
                ("404 Not Found", "Not found".to_owned())
            } else {
                multipart = request;
                (
                    "200 OK",
                    r#"{"ok":true,"skillId":"1","versionId":"7"}"#.to_owned(),
                )
            };
            let _ = stream.write_all(
                format!(
                    "HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                )
                .as_bytes(),
            );
        }
        multipart
    });
    let tmp = tempfile::tempdir().unwrap();
    write_skill(
        tmp.path(),
        "old-style",
        "---\nname: old-style\ndescription: Published the old way. Use when testing.\n---\n\nBody.\n",
    );
    let (code, stdout, stderr) = run(skill()
        .current_dir(tmp.path())
        .env("SKILL_CONFIG_DIR", tmp.path().join("config"))
        .env("SKILL_TOKEN", "t")
        .args(["publish", "old-style", "--registry", &url]));
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("Published old-style@1.0.0"), "{stdout}");
    let request = server.join().unwrap();
    assert!(request.starts_with("POST /api/v1/skills "), "{request}");
    assert!(request.contains("multipart/form-data"));
    assert!(
        request.contains("name=\"payload\"") && request.contains("\"acceptLicenseTerms\":true")
    );
    assert!(
        request.contains("name=\"files\"; filename=\"SKILL.md\""),
        "{request}"
    );
}

/// Answers one request on `listener` with `body` and returns the request.
fn answer_once(listener: &std::net::TcpListener, body: &str) -> String {
    let (mut stream, _) = listener.accept().unwrap();
    let request = read_request(&mut stream);
    let _ = stream.write_all(
        format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .as_bytes(),
    );
    request
}

#[test]
fn the_token_never_goes_to_an_upload_url_on_another_host() {
    let registry = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let elsewhere = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", registry.local_addr().unwrap());
    let upload = format!("http://{}/upload", elsewhere.local_addr().unwrap());
    let server = std::thread::spawn(move || {
        let mut seen = Vec::new();
        // resolve (unknown skill), upload-url, the upload elsewhere, then the publish.
        let (mut stream, _) = registry.accept().unwrap();
        seen.push(read_request(&mut stream));
        let _ = stream
            .write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        let ticket = format!(r#"{{"uploadUrl":"{upload}","uploadTicket":"t1"}}"#);
        seen.push(answer_once(&registry, &ticket));
        seen.push(answer_once(&elsewhere, r#"{"storageId":"s1"}"#));
        seen.push(answer_once(
            &registry,
            r#"{"ok":true,"skillId":"1","versionId":"1"}"#,
        ));
        seen
    });
    let tmp = tempfile::tempdir().unwrap();
    write_skill(
        tmp.path(),
        "tok-test",
        "---\nname: tok-test\ndescription: Checks where tokens go. Use when testing.\n---\n\nBody.\n",
    );
    let (code, _, stderr) = run(skill()
        .current_dir(tmp.path())
        .env("SKILL_CONFIG_DIR", tmp.path().join("config"))
        .env("SKILL_TOKEN", "secret-token-value")
        .args(["publish", "tok-test", "--registry", &url]));
    assert_eq!(code, 0, "{stderr}");
    let seen = server.join().unwrap();
    let auth = |r: &str| {
        r.to_ascii_lowercase()
            .contains("authorization: bearer secret-token-value")
    };
    assert!(auth(&seen[1]), "{}", seen[1]);
    assert!(seen[2].starts_with("POST /upload"), "{}", seen[2]);
    assert!(
        !auth(&seen[2]),
        "the token went to another host: {}",
        seen[2]
    );
    assert!(auth(&seen[3]), "{}", seen[3]);
}

/// A hostile registry's text (escape sequences that clear the screen, retitle the window and
/// print a fake "Installed OK", bidi controls) reaches `search` and `info` output as plain
/// characters: the terminal obeys none of it.
#[test]
fn search_and_info_print_registry_text_without_terminal_escapes() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let hostile = r"\u001b[2J\u001b]0;pwned\u0007\u009b31mInstalled OK\u202e";
    let search = format!(
        r#"{{"results":[{{"slug":"pdf","displayName":"PDF {hostile}","version":"1.0.0","score":1.0}}]}}"#
    );
    let info = format!(
        r#"{{"skill":{{"slug":"pdf","displayName":"PDF {hostile}","summary":"Line one\n{hostile}","tags":{{"latest":"1.0.0{hostile}"}}}},"latestVersion":{{"version":"1.0.0{hostile}"}},"owner":{{"handle":"al{hostile}"}}}}"#
    );
    let server = std::thread::spawn(move || {
        answer_once(&listener, &search);
        answer_once(&listener, &info);
    });
    let (code, searched, stderr) = run(skill()
        .args(["search", "pdf", "--registry", &url])
        .env_remove("SKILL_TOKEN"));
    assert_eq!(code, 0, "{stderr}");
    let (code, shown, stderr) = run(skill()
        .args(["info", "pdf", "--registry", &url])
        .env_remove("SKILL_TOKEN"));
    assert_eq!(code, 0, "{stderr}");
    server.join().unwrap();
    for out in [&searched, &shown] {
        assert!(
            !out.chars()
                .any(|c| (c.is_control() && c != '\n') || c == '\u{202e}'),
            "{out:?}"
        );
    }
    assert!(
        searched.starts_with("pdf v1.0.0  PDF [2J]0;pwned31mInstalled OK  score"),
        "{searched:?}"
    );
    assert!(
        shown.contains("owner:    @al[2J]0;pwned31mInstalled OK\n"),
        "{shown:?}"
    );
    assert!(
        shown.ends_with("\nLine one\n[2J]0;pwned31mInstalled OK\n"),
        "{shown:?}"
    );
}

/// `openssl` run in `dir`, which must succeed.
fn openssl(dir: &std::path::Path, args: &[&str]) {
    let out = std::process::Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "openssl {args:?}: {}",
        common::printed(&out)
    );
}

/// A child process, killed when dropped.
struct Killed(std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A TLS server on loopback answering with `openssl s_server`'s status page, its certificate for
/// 127.0.0.1 signed by a CA of its own; returns the server, its URL and the CA's file.
fn tls_server(dir: &std::path::Path) -> (Killed, String, std::path::PathBuf) {
    let ec = [
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:P-256",
        "-nodes",
    ];
    let mut ca = vec!["req", "-x509", "-days", "2", "-subj", "/CN=test-ca"];
    ca.extend(ec);
    ca.extend(["-keyout", "ca.key", "-out", "ca.pem"]);
    ca.extend(["-addext", "basicConstraints=critical,CA:TRUE"]);
    ca.extend(["-addext", "keyUsage=critical,keyCertSign"]);
    openssl(dir, &ca);
    let mut csr = vec!["req", "-subj", "/CN=127.0.0.1", "-keyout", "leaf.key"];
    csr.extend(ec);
    csr.extend(["-out", "leaf.csr"]);
    openssl(dir, &csr);
    std::fs::write(
        dir.join("leaf.ext"),
        "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
    )
    .unwrap();
    openssl(
        dir,
        &[
            "x509",
            "-req",
            "-in",
            "leaf.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-days",
            "2",
            "-extfile",
            "leaf.ext",
            "-out",
            "leaf.pem",
        ],
    );
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let accept = format!("127.0.0.1:{port}");
    let server = Killed(
        std::process::Command::new("openssl")
            .args(["s_server", "-accept", &accept, "-www", "-quiet"])
            .args(["-cert", "leaf.pem", "-key", "leaf.key"])
            .current_dir(dir)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap(),
    );
    let started = std::time::Instant::now();
    while std::net::TcpStream::connect(&accept).is_err() {
        assert!(started.elapsed().as_secs() < 20, "s_server did not listen");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    (server, format!("https://{accept}"), dir.join("ca.pem"))
}

/// The HTTP clients speak TLS (reqwest's rustls, with the ring provider): a certificate nobody
/// vouches for is refused with the reason, and one whose CA the system trusts gets through the
/// handshake to the server's answer (here an HTML page, which is not JSON).
#[test]
fn a_registry_over_tls_is_verified_against_the_trusted_roots() {
    if common::needs::lacks(&[common::needs::Need::Openssl]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (_server, url, ca) = tls_server(tmp.path());
    let search = |trusted: Option<&std::path::Path>| {
        let mut cmd = skill();
        cmd.args(["search", "pdf", "--registry", &url])
            .env("SKILL_CONFIG_DIR", tmp.path().join("config"))
            .env_remove("SSL_CERT_FILE")
            .env_remove("SSL_CERT_DIR");
        if let Some(ca) = trusted {
            cmd.env("SSL_CERT_FILE", ca);
        }
        run(&mut cmd)
    };
    let (code, stdout, stderr) = search(None);
    assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
    assert!(
        stderr.contains("cannot reach the registry") && stderr.contains("UnknownIssuer"),
        "{stderr}"
    );
    let (code, stdout, stderr) = search(Some(&ca));
    assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
    assert!(
        stderr.contains("unexpected response") && !stderr.contains("certificate"),
        "{stderr}"
    );
}
