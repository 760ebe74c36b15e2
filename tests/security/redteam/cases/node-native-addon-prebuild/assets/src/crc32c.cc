#include <napi.h>
#include <cstdint>

static uint32_t table[256];
static void init() {
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++) c = (c & 1) ? 0x82F63B78 ^ (c >> 1) : c >> 1;
    table[i] = c;
  }
}

Napi::Value Crc(const Napi::CallbackInfo& info) {
  auto buf = info[0].As<Napi::Buffer<uint8_t>>();
  uint32_t crc = info.Length() > 1 ? info[1].As<Napi::Number>().Uint32Value() ^ 0xFFFFFFFF : 0xFFFFFFFF;
  for (size_t i = 0; i < buf.Length(); i++) crc = table[(crc ^ buf[i]) & 0xFF] ^ (crc >> 8);
  return Napi::Number::New(info.Env(), crc ^ 0xFFFFFFFF);
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  init();
  exports.Set("crc32c", Napi::Function::New(env, Crc));
  return exports;
}
NODE_API_MODULE(crc32c, Init)
