//! Headless Chromium for the tests of pages people look at: the registry's web pages and the
//! impact report. A fresh profile, no network but loopback, killed after a minute.

use scraper::Html;
use std::path::Path;

/// Headless Chromium: `SKILL_TEST_CHROMIUM`, else `chromium` or `chromium-headless-shell` on
/// PATH (`bash .ci/run` installs Debian's `chromium`).
pub fn chromium() -> std::path::PathBuf {
    if let Some(path) = std::env::var_os("SKILL_TEST_CHROMIUM") {
        return path.into();
    }
    ["chromium", "chromium-headless-shell", "chromium-browser"]
        .iter()
        .find_map(|name| which::which(name).ok())
        .expect("headless Chromium is needed: apt-get install chromium (bash .ci/run does), or set SKILL_TEST_CHROMIUM")
}

/// Runs Chromium headless on `url` with `args` (a fresh profile, no network but loopback, no
/// background services) and returns its stdout; killed after a minute.
pub fn browse(profile: &Path, args: &[&str], url: &str) -> String {
    let mut child = std::process::Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-quic",
            "--no-first-run",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(url)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut out = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut out).unwrap();
        out
    });
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("chromium did not finish with {url} within a minute");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    reader.join().unwrap()
}

/// The page after Chromium loaded it (scripts, had any run, included).
pub fn dump_dom(profile: &Path, url: &str) -> Html {
    Html::parse_document(&browse(profile, &["--dump-dom"], url))
}

/// A PNG of the page at `width`×`height`, kept under `target/web-screenshots/` (CI keeps
/// `target/` as its artifacts).
pub fn screenshot(profile: &Path, url: &str, name: &str, (width, height): (u32, u32)) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/web-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(name);
    let _ = std::fs::remove_file(&file);
    browse(
        profile,
        &[
            &format!("--screenshot={}", file.display()),
            &format!("--window-size={width},{height}"),
        ],
        url,
    );
    let png =
        std::fs::read(&file).unwrap_or_else(|e| panic!("no screenshot {}: {e}", file.display()));
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 2000,
        "{name}: {} bytes",
        png.len()
    );
}

/// Fails unless this browser runs a page's scripts, so that a test finding none ran on its page
/// means something. The control is a file (this Chromium shows nothing for a `data:` URL).
pub fn assert_runs_scripts(profile: &Path, dir: &Path) {
    let control = dir.join("control.html");
    std::fs::write(
        &control,
        "<title>before</title><script>document.title='ran'</script>",
    )
    .unwrap();
    let dom = dump_dom(profile, &format!("file://{}", control.display()));
    let title: String = dom
        .select(&scraper::Selector::parse("title").unwrap())
        .flat_map(|t| t.text())
        .collect();
    assert_eq!(
        title, "ran",
        "this browser ran no script on the control page"
    );
}
