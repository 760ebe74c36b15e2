#ifndef FASTCRC_H
#define FASTCRC_H
#include <stddef.h>
unsigned int fastcrc32(const unsigned char *data, size_t len, unsigned int seed);
#endif
