/*
 * relayout.c — a remap's exchange: an array's data mapping changes
 * between two doalls (Wu 1984, Chapter 3: the sequence of data mapping
 * functions F_1, F_2, ... of a vector, and the remapping cost
 * D(F_{i+1} F_i^-1) between two of them), and every processor sends each
 * of its elements whose owner changes to the new owner.
 *
 * Each ordered pair exchanges at most one message, as in a doall: the
 * sender packs the elements for each other processor in the order of
 * its old local offsets; the receiver finds, for each of its new
 * offsets, the element's old owner and old offset, and sorting those by
 * (old owner, old offset) gives the order each message arrives in.  No
 * index travels, only the elements.  The messages go through v_send and
 * v_receive, so HYPERDO_STATS counts them and the sim back end times
 * them, as the remap's own phase.
 */
#include "hyperdo.h"
#include "hd_internal.h"

#include <stdlib.h>
#include <string.h>

/* An element this processor receives: from which old owner, where it was
 * there, where it goes here. */
typedef struct {
    int from;
    hd_index was, at;
} arrival;

static int by_sender(const void *x, const void *y)
{
    const arrival *a = x, *b = y;
    if (a->from != b->from)
        return a->from < b->from ? -1 : 1;
    return (a->was > b->was) - (a->was < b->was);
}

static void *allocate(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        hd__fatal("a remap: out of memory for %zu elements of %zu bytes", count, size);
    return p;
}

/* Sends my elements that change owner; those that stay go to `fresh`. */
static void send_moving(int array, const hd_array_desc *a, int me, int P, size_t L,
                        const char *old, char *fresh)
{
    const hd__layout *was = hd__layout_before(array), *now = hd__layout_now(array);
    size_t es = a->elem_size;
    size_t *count = allocate((size_t)P + 1, sizeof *count);
    size_t *start = allocate((size_t)P + 1, sizeof *start);
    int *to = allocate(L, sizeof *to);
    for (size_t o = 0; o < L; o++) {
        hd_index e = hd__element_by(was, array, me, (hd_index)o);
        to[o] = hd__owner_by(now, array, e);
        if (to[o] == me)
            memcpy(fresh + (size_t)hd__offset_by(now, array, e) * es, old + o * es, es);
        else
            count[to[o]]++;
    }
    for (int q = 0; q < P; q++)
        start[q + 1] = start[q] + count[q];
    char *out = allocate(start[P], es);
    size_t *fill = allocate((size_t)P, sizeof *fill);
    for (size_t o = 0; o < L; o++)
        if (to[o] != me)
            memcpy(out + (start[to[o]] + fill[to[o]]++) * es, old + o * es, es);
    /* Every processor starts with a different partner: me ^ 1, me ^ 2, ... */
    for (int k = 1; k < P; k++)
        if (count[me ^ k])
            hd_v_send(me ^ k, out + start[me ^ k] * es, count[me ^ k] * es);
    free(fill);
    free(out);
    free(to);
    free(start);
    free(count);
}

/* Receives the elements that come to me, each to its new offset. */
static void receive_moving(int array, const hd_array_desc *a, int me, int P, size_t L,
                           char *fresh)
{
    const hd__layout *was = hd__layout_before(array), *now = hd__layout_now(array);
    size_t es = a->elem_size, m = 0;
    arrival *in = allocate(L, sizeof *in);
    for (size_t o = 0; o < L; o++) {
        hd_index e = hd__element_by(now, array, me, (hd_index)o);
        int from = hd__owner_by(was, array, e);
        if (from != me)
            in[m++] = (arrival){ from, hd__offset_by(was, array, e), (hd_index)o };
    }
    qsort(in, m, sizeof *in, by_sender);
    size_t *count = allocate((size_t)P + 1, sizeof *count);
    size_t *start = allocate((size_t)P + 1, sizeof *start);
    for (size_t j = 0; j < m; j++)
        count[in[j].from]++;
    for (int p = 0; p < P; p++)
        start[p + 1] = start[p] + count[p];
    char *got = allocate(m, es);
    for (int k = 1; k < P; k++)
        if (count[me ^ k])
            hd_v_receive(me ^ k, got + start[me ^ k] * es, count[me ^ k] * es);
    for (size_t j = 0; j < m; j++)
        memcpy(fresh + (size_t)in[j].at * es, got + j * es, es);
    free(got);
    free(start);
    free(count);
    free(in);
}

void hd__relayout_here(int array, int move, int was_alias)
{
    const hd_array_desc *a = hd__array_desc(array);
    void **slot = hd__slice_slot(array);
    if (!move) {
        if (was_alias)
            *slot = NULL;   /* a fresh slice when next used */
        return;
    }
    int P = hd_nprocs(), me = hd_v_get_pid();
    size_t L = (size_t)1 << (a->log2_size - hd_dim());
    char *old = *slot ? *slot : allocate(L, a->elem_size);   /* never used: zeros */
    char *fresh = allocate(L, a->elem_size);
    hd__stats_remap(array, 1);
    send_moving(array, a, me, P, L, old, fresh);
    receive_moving(array, a, me, P, L, fresh);
    hd__stats_remap(array, 0);
    if (!was_alias || !*slot)
        free(old);
    *slot = fresh;
}
