{
  "targets": [{
    "target_name": "crc32c",
    "sources": ["src/crc32c.cc"],
    "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")"],
    "defines": ["NAPI_VERSION=8", "NAPI_DISABLE_CPP_EXCEPTIONS"],
    "cflags!": ["-fno-exceptions"],
    "xcode_settings": { "MACOSX_DEPLOYMENT_TARGET": "11.0" }
  }]
}
