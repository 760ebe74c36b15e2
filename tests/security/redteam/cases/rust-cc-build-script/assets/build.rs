// build.rs - compile csrc/*.c into a static library with the `cc` crate.
use std::env;
use std::fs;
use std::path::Path;

fn main() {
    let target_os = env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let profile = env::var("PROFILE").unwrap_or_default();

    let mut build = cc::Build::new();
    build.include("csrc").warnings(true).flag_if_supported("-std=c11");

    if profile == "release" {
        build.opt_level(3);
    }
    if target_os == "windows" {
        build.define("FASTCRC_WINDOWS", None);
    }

    for entry in fs::read_dir("csrc").expect("csrc/ directory missing") {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) == Some("c") {
            println!("cargo:rerun-if-changed={}", path.display());
            build.file(&path);
        }
    }
    println!("cargo:rerun-if-changed={}", Path::new("csrc/fastcrc.h").display());
    println!("cargo:rerun-if-env-changed=CC");

    build.compile("fastcrc");
}
