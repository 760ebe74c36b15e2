// src/ffi.rs
use std::os::raw::{c_uchar, c_uint};

extern "C" {
    fn fastcrc32(data: *const c_uchar, len: usize, seed: c_uint) -> c_uint;
}

/// Safe wrapper around the C implementation.
pub fn crc32(data: &[u8]) -> u32 {
    // SAFETY: pointer and length come from a valid slice; the C function only reads `len` bytes.
    unsafe { fastcrc32(data.as_ptr(), data.len(), 0) }
}

#[cfg(test)]
mod tests {
    #[test]
    fn known_vector() {
        assert_eq!(super::crc32(b"123456789"), 0xCBF4_3926);
    }
}
