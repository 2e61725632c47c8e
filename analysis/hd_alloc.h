/*
 * hd_alloc.h — memory for every stage of the translator (not the runtime,
 * which generated programs link).  Running out of memory is fatal: the
 * functions below print "hyperdo: error: out of memory", run the cleanup
 * registered with hd_on_fatal (a command removes its half-written output
 * file there) and exit with status 1.  So no caller drops an item for
 * want of memory, and none needs a branch for it.
 *
 * For tests, HYPERDO_FAIL_ALLOC=N in the environment makes the N-th
 * allocation fail (tests/tools/alloc_failures.sh tries every N of a run).
 */
#ifndef HYPERDO_ALLOC_H
#define HYPERDO_ALLOC_H

#include <stddef.h>

void *hd_xmalloc(size_t size);
void *hd_xcalloc(size_t count, size_t size);
void *hd_xrealloc(void *p, size_t size);
char *hd_xstrdup(const char *s);
char *hd_xstrndup(const char *s, size_t n);

/* Makes room for `need` items of `size` bytes in *p, which holds *cap;
 * grows geometrically, so appending one at a time costs amortised O(1). */
void hd_xreserve(void *p, int *cap, int need, size_t size);

/* Many small objects that live and die together (the analysis's results
 * of a program: thousands of index maps and LCCs of about 530 bytes each)
 * taken from blocks of 64 KiB or more: one allocation per block instead
 * of one per object, the objects side by side, all freed at once. */
typedef struct hd_arena_block hd_arena_block;
typedef struct {
    hd_arena_block *blocks;     /* the newest first */
    size_t used;                /* bytes taken from the newest */
} hd_arena;

/* size bytes, aligned for any object, valid until hd_arena_free. */
void *hd_arena_alloc(hd_arena *a, size_t size);
/* Frees every block and leaves the arena empty (and usable). */
void hd_arena_free(hd_arena *a);

/* The one way out when memory runs out. */
_Noreturn void hd_out_of_memory(void);

/* fn runs (once) before hd_out_of_memory exits; NULL removes it. */
void hd_on_fatal(void (*fn)(void));

#endif
