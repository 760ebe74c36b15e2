//! Fuzzes the registry server's request bodies through its real router, without a socket:
//! upload-ticket JSON, publish JSON, multipart publishes, and whole ticket flows whose file path
//! and content come from the input. No request may get a 5xx (bad input is the client's
//! fault), and a version the server accepts is one every installer accepts: its download reads
//! through the checked archive reader.
//!
//! Input: one byte picks the request; the rest is its body (for the ticket flow, a path, a NUL
//! byte, then the file's content).
#![no_main]

mod scratch;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use libfuzzer_sys::fuzz_target;
use skill_archive::reader::{Limits, read_bytes};
use skill_registry::store::{NewToken, Scopes, SqliteStore, Store};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use tower::ServiceExt;

const SKILL_MD: &str =
    "---\nname: fuzz-skill\ndescription: Fuzzes the registry. Use when fuzzing.\n---\n\nBody.\n";

struct Server {
    /// The store's files, removed at exit by `remove_data`: a static is never dropped.
    data: tempfile::TempDir,
    runtime: tokio::runtime::Runtime,
    router: axum::Router,
    token: String,
}

static SERVER: OnceLock<Server> = OnceLock::new();

unsafe extern "C" {
    fn atexit(callback: extern "C" fn()) -> std::ffi::c_int;
}

/// Removes the store's files when libFuzzer exits (a crash or Ctrl-C leaves them): they grow by
/// about 400 bytes an input and sit on `/dev/shm`, in memory, when the machine has one.
extern "C" fn remove_data() {
    if let Some(server) = SERVER.get() {
        let _ = std::fs::remove_dir_all(server.data.path());
    }
}

fn server() -> &'static Server {
    SERVER.get_or_init(|| {
        let dir = scratch::tempdir();
        // SAFETY: atexit only records the function, which needs nothing exit tears down first.
        unsafe { atexit(remove_data) };
        let store = SqliteStore::open(dir.path()).expect("a store in a temp dir");
        store.add_user("fuzzer", None).expect("a new user");
        let terms = NewToken {
            scopes: Scopes {
                publish: true,
                admin: false,
            },
            ..NewToken::default()
        };
        let token = store.create_token("fuzzer", &terms).expect("a token");
        let router = skill_registry::server::app(
            Arc::new(store),
            "http://127.0.0.1:9",
            std::time::Duration::from_secs(600),
            None,
        )
        .router();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        Server {
            data: dir,
            runtime,
            router,
            token,
        }
    })
}

/// Sends one request; returns the status and body.
fn send(method: &str, uri: &str, content_type: &str, body: Vec<u8>) -> (StatusCode, Vec<u8>) {
    let s = server();
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header("Authorization", format!("Bearer {}", s.token))
        .header("Content-Type", content_type)
        .body(Body::from(body))
        .expect("a well-formed request");
    s.runtime.block_on(async {
        let response = s
            .router
            .clone()
            .oneshot(request)
            .await
            .expect("the router is infallible");
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .expect("a response body");
        (status, bytes.to_vec())
    })
}

fn checked(method: &str, uri: &str, content_type: &str, body: Vec<u8>) -> (StatusCode, Vec<u8>) {
    let (status, bytes) = send(method, uri, content_type, body);
    assert!(
        !status.is_server_error(),
        "{method} {uri}: {status}: {}",
        String::from_utf8_lossy(&bytes)
    );
    (status, bytes)
}

fn sha256(bytes: &[u8]) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(bytes))
}

/// Tickets for each file, uploads, then the publish; the publish's status, or `None` when a
/// step before it refused.
fn ticket_flow(slug: &str, files: &[(&str, &[u8])]) -> Option<StatusCode> {
    let mut entries = Vec::new();
    for (path, content) in files {
        let meta =
            serde_json::json!({"path": path, "size": content.len(), "sha256": sha256(content)});
        let (status, body) = checked(
            "POST",
            "/api/v1/skills/-/upload-url",
            "application/json",
            meta.to_string().into_bytes(),
        );
        if status != StatusCode::OK {
            return None;
        }
        let ticket: serde_json::Value = serde_json::from_slice(&body).ok()?;
        let id = ticket["uploadTicket"].as_str()?;
        let (status, _) = checked(
            "POST",
            &format!("/api/v1/skills/-/upload/{id}"),
            "application/octet-stream",
            content.to_vec(),
        );
        if status != StatusCode::OK {
            return None;
        }
        entries.push(serde_json::json!({"path": path, "size": content.len(), "sha256": sha256(content), "uploadTicket": id}));
    }
    let payload = serde_json::json!({"slug": slug, "displayName": "Fuzz", "version": "1.0.0",
        "changelog": "", "acceptLicenseTerms": true, "tags": ["latest"], "files": entries});
    Some(
        checked(
            "POST",
            "/api/v1/skills",
            "application/json",
            payload.to_string().into_bytes(),
        )
        .0,
    )
}

fuzz_target!(|data: &[u8]| {
    static SLUGS: AtomicUsize = AtomicUsize::new(0);
    let Some((&pick, body)) = data.split_first() else {
        return;
    };
    match pick % 4 {
        0 => {
            checked(
                "POST",
                "/api/v1/skills/-/upload-url",
                "application/json",
                body.to_vec(),
            );
        }
        1 => {
            checked("POST", "/api/v1/skills", "application/json", body.to_vec());
        }
        2 => {
            checked(
                "POST",
                "/api/v1/skills",
                "multipart/form-data; boundary=fuzzb",
                body.to_vec(),
            );
        }
        _ => {
            let (path, content) = match body.iter().position(|&b| b == 0) {
                Some(at) => (&body[..at], &body[at + 1..]),
                None => (body, &b""[..]),
            };
            let Ok(path) = std::str::from_utf8(path) else {
                return;
            };
            let slug = format!("fuzz-skill-{}", SLUGS.fetch_add(1, Ordering::Relaxed));
            let files: [(&str, &[u8]); 2] = [("SKILL.md", SKILL_MD.as_bytes()), (path, content)];
            if ticket_flow(&slug, &files) == Some(StatusCode::OK) {
                let (status, zip) = checked(
                    "GET",
                    &format!("/api/v1/download?slug={slug}&version=1.0.0"),
                    "application/json",
                    Vec::new(),
                );
                assert_eq!(status, StatusCode::OK);
                if let Err(e) = read_bytes(&zip, &Limits::default()) {
                    panic!("published {path:?}, but installers refuse the download: {e}");
                }
            }
        }
    }
});
