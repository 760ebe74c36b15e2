#include "fastcrc.h"

unsigned int fastcrc32(const unsigned char *data, size_t len, unsigned int seed) {
    unsigned int crc = ~seed;
    for (size_t i = 0; i < len; i++) {
        crc ^= data[i];
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}
