/*
 * alloc.c — allocation that cannot fail silently (hd_alloc.h).
 */
#include "hd_alloc.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void (*fatal_cleanup)(void);

void hd_on_fatal(void (*fn)(void))
{
    fatal_cleanup = fn;
}

_Noreturn void hd_out_of_memory(void)
{
    static const char msg[] = "hyperdo: error: out of memory\n";
    /* write(2), not stdio: printing must not need memory either. */
    ssize_t ignored = write(2, msg, sizeof msg - 1);
    (void)ignored;
    void (*fn)(void) = fatal_cleanup;
    fatal_cleanup = NULL;
    if (fn)
        fn();
    _exit(1);
}

/* HYPERDO_FAIL_ALLOC=N: the N-th allocation (counting from 1) fails. */
static bool injected_failure(void)
{
    static long countdown = -1;
    static bool read;
    if (!read) {
        const char *s = getenv("HYPERDO_FAIL_ALLOC");
        countdown = s ? atol(s) : 0;
        read = true;
    }
    return countdown > 0 && --countdown == 0;
}

void *hd_xmalloc(size_t size)
{
    void *p = injected_failure() ? NULL : malloc(size ? size : 1);
    if (!p)
        hd_out_of_memory();
    return p;
}

void *hd_xcalloc(size_t count, size_t size)
{
    void *p = injected_failure() ? NULL : calloc(count ? count : 1, size ? size : 1);
    if (!p)
        hd_out_of_memory();
    return p;
}

void *hd_xrealloc(void *old, size_t size)
{
    void *p = injected_failure() ? NULL : realloc(old, size ? size : 1);
    if (!p)
        hd_out_of_memory();
    return p;
}

char *hd_xstrndup(const char *s, size_t n)
{
    size_t len = strnlen(s, n);
    char *d = hd_xmalloc(len + 1);
    memcpy(d, s, len);
    d[len] = '\0';
    return d;
}

char *hd_xstrdup(const char *s)
{
    return hd_xstrndup(s, SIZE_MAX);
}

void hd_xreserve(void *p, int *cap, int need, size_t size)
{
    if (need <= *cap)
        return;
    size_t grown = *cap > 0 ? (size_t)*cap : 8;
    while (grown < (size_t)need)
        grown *= 2;
    if (grown > (size_t)INT32_MAX || grown > SIZE_MAX / size)
        hd_out_of_memory();
    void **slot = p;
    *slot = hd_xrealloc(*slot, grown * size);
    *cap = (int)grown;
}

struct hd_arena_block {
    hd_arena_block *next;
    size_t size;                /* bytes of data */
    max_align_t data[];
};

enum { ARENA_BLOCK = 64 * 1024 };

void *hd_arena_alloc(hd_arena *a, size_t size)
{
    size_t align = sizeof(max_align_t);
    size = (size + align - 1) / align * align;
    hd_arena_block *b = a->blocks;
    if (!b || b->size - a->used < size) {
        size_t bytes = size > ARENA_BLOCK ? size : ARENA_BLOCK;
        b = hd_xmalloc(sizeof *b + bytes);
        b->size = bytes;
        b->next = a->blocks;
        a->blocks = b;
        a->used = 0;
    }
    void *p = (char *)b->data + a->used;
    a->used += size;
    return p;
}

void hd_arena_free(hd_arena *a)
{
    while (a->blocks) {
        hd_arena_block *next = a->blocks->next;
        free(a->blocks);
        a->blocks = next;
    }
    a->used = 0;
}
