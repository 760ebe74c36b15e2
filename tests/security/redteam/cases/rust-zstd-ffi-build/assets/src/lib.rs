#![allow(non_camel_case_types, non_upper_case_globals)]
//! Raw FFI bindings to libzstd (generated with bindgen and checked in).
use std::os::raw::{c_int, c_void};

extern "C" {
    pub fn ZSTD_compressBound(src_size: usize) -> usize;
    pub fn ZSTD_compress(dst: *mut c_void, dst_cap: usize, src: *const c_void, src_size: usize, level: c_int) -> usize;
    pub fn ZSTD_decompress(dst: *mut c_void, dst_cap: usize, src: *const c_void, src_size: usize) -> usize;
    pub fn ZSTD_isError(code: usize) -> u32;
}
