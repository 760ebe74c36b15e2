use std::env;
use std::fs;
use std::process::Command;

fn features(manifest: &str) -> Vec<String> {
    let text = fs::read_to_string(manifest).expect("read manifest");
    let mut in_features = false;
    let mut out = Vec::new();
    for line in text.lines() {
        let l = line.trim();
        if l.starts_with('[') {
            in_features = l == "[features]";
            continue;
        }
        if in_features {
            if let Some((k, _)) = l.split_once('=') {
                let k = k.trim();
                if !k.is_empty() && k != "default" && !k.starts_with('#') {
                    out.push(k.to_string());
                }
            }
        }
    }
    out
}

fn main() {
    let args: Vec<String> = env::args().collect();
    let get = |f: &str| args.iter().position(|a| a == f).and_then(|i| args.get(i + 1)).cloned();
    let manifest = get("--manifest-path").unwrap_or_else(|| "Cargo.toml".into());
    let mode = get("--mode").unwrap_or_else(|| "check".into());
    let depth: usize = get("--depth").and_then(|d| d.parse().ok()).unwrap_or(usize::MAX);
    let skip: Vec<String> = get("--skip").map(|s| s.split(',').map(String::from).collect()).unwrap_or_default();
    let feats: Vec<String> = features(&manifest).into_iter().filter(|f| !skip.contains(f)).collect();
    println!("target {} | {} features", env!("CFM_TARGET"), feats.len());
    for mask in 0u64..(1u64 << feats.len()) {
        if mask.count_ones() as usize > depth {
            continue;
        }
        let combo: Vec<&str> = feats.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, f)| f.as_str()).collect();
        let status = Command::new("cargo")
            .args([mode.as_str(), "--quiet", "--manifest-path", &manifest, "--no-default-features", "--features", &combo.join(",")])
            .status()
            .expect("spawn cargo");
        println!("{:<4} [{}]", if status.success() { "ok" } else { "FAIL" }, combo.join(","));
    }
}
