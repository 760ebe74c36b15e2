/* Count malloc() calls; build: cc -shared -fPIC -O2 -o mcount.so mcount.c -ldl */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static atomic_ulong calls;
static void *(*real_malloc)(size_t);

void *malloc(size_t n) {
    if (!real_malloc) {
        real_malloc = dlsym(RTLD_NEXT, "malloc");
    }
    atomic_fetch_add(&calls, 1);
    return real_malloc(n);
}

__attribute__((destructor)) static void report(void) {
    fprintf(stderr, "[mcount] malloc calls: %lu\n", (unsigned long)atomic_load(&calls));
}
