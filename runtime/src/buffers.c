/*
 * buffers.c — a small cache of large message buffers per thread.
 *
 * A doall's messages are usually the sizes of the previous doall's: the
 * same communication, again.  malloc serves blocks of 128 KiB and more
 * with fresh mappings and unmaps them on free, so every doall would touch
 * every byte of its buffers for the first time, a page fault per page
 * (bench/bench_node.sh: a third of an FFT stage's time on MPI).  Blocks of
 * at least MIN_POOLED bytes are therefore kept, a few per power-of-two
 * size class, for the next request of that class.  Each processor thread
 * (or MPI rank) has its own cache, so no lock is taken; a block may be
 * returned by another thread than the one that took it (a message is
 * freed by its receiver), which only moves it between caches.
 */
#include "hd_internal.h"

#include <stdint.h>
#include <stdlib.h>

#define MIN_POOLED ((size_t)1 << 16)
#define CLASSES 48
#define PER_CLASS 4

typedef struct {
    void *block[CLASSES][PER_CLASS];
    int count[CLASSES];
} cache;

static _Thread_local cache mine;

/* The class of a request: blocks of 2^c bytes serve requests up to 2^c. */
static int class_of(size_t size)
{
    int c = 0;
    while (((size_t)1 << c) < size)
        c++;
    return c;
}

void *hd__buf_get(size_t size)
{
    if (size < MIN_POOLED)
        return malloc(size ? size : 1);
    int c = class_of(size);
    if (c >= CLASSES)
        return NULL;
    if (mine.count[c] > 0)
        return mine.block[c][--mine.count[c]];
    return malloc((size_t)1 << c);
}

void hd__buf_put(void *p, size_t size)
{
    if (!p)
        return;
    if (size < MIN_POOLED) {
        free(p);
        return;
    }
    int c = class_of(size);
    if (c < CLASSES && mine.count[c] < PER_CLASS) {
        mine.block[c][mine.count[c]++] = p;
        return;
    }
    free(p);
}

void hd__buf_flush(void)
{
    for (int c = 0; c < CLASSES; c++) {
        while (mine.count[c] > 0)
            free(mine.block[c][--mine.count[c]]);
    }
}
