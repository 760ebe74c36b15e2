use std::env;
use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=wrapper.h");
    println!("cargo:rerun-if-env-changed=ZSTD_SYS_USE_PKG_CONFIG");

    let want_static = env::var_os("CARGO_FEATURE_STATIC").is_some();
    let use_pkg_config = env::var("ZSTD_SYS_USE_PKG_CONFIG").map(|v| v != "0").unwrap_or(true);

    if use_pkg_config && !want_static {
        if let Ok(lib) = pkg_config::Config::new().atleast_version("1.5").probe("libzstd") {
            for p in lib.include_paths {
                println!("cargo:include={}", p.display());
            }
            return;
        }
    }

    let src = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap()).join("vendor/zstd/lib");
    let mut build = cc::Build::new();
    for dir in ["common", "compress", "decompress"] {
        for entry in std::fs::read_dir(src.join(dir)).expect("vendored zstd sources missing") {
            let path = entry.unwrap().path();
            if path.extension().map_or(false, |e| e == "c") {
                build.file(path);
            }
        }
    }
    build
        .include(&src)
        .include(src.join("common"))
        .define("ZSTD_MULTITHREAD", None)
        .define("ZSTD_DISABLE_ASM", None)
        .opt_level(3)
        .warnings(false)
        .compile("zstd");
    println!("cargo:include={}", src.display());
    println!("cargo:root={}", env::var("OUT_DIR").unwrap());
}
