/*
 * requests.c — hd_requests: a processor asks the owners for the elements
 * its iterations read when only it can name them (an index read from a
 * distributed array, a read under a guard that depends on data): the
 * inspector/executor scheme.
 *
 * The inspector calls hd_request once per element it needs; a hash table
 * on (array, element) gives an element asked for twice the same ticket,
 * so it travels once.  hd_requests_run is then three exchanges among all
 * processors:
 *   1. sizes: each processor tells each other how many bytes of requests
 *      it will send (8 bytes to every other processor);
 *   2. requests: per owner, for each array asked, a block
 *      [array, count, local offset x count] (hd_index each);
 *   3. answers: the owner sends the elements back in the order asked.
 * The asker computes the local offset itself (layout.c, from the
 * program's array table, layouts and tables), so the owner only copies.
 */
#include "hyperdo.h"
#include "hd_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int array;
    int from;
    hd_index e;
} ask;

typedef struct {
    hd_index *tickets; /* asked of this processor, in order of first ask */
    size_t n, cap;
} asked_of;

struct hd_requests {
    int P, me, ran;
    ask *asks;         /* by ticket */
    size_t nasks, cap;
    size_t *slot;      /* hash table of tickets + 1 (0: empty) */
    size_t nslots;     /* a power of two, at least twice nasks */
    asked_of *of;      /* per virtual processor */
    unsigned char **answers; /* per virtual processor: what came back */
    const void **values;     /* by ticket, after the run */
};

static uint64_t mix(int array, hd_index e)
{
    uint64_t h = (uint64_t)e * UINT64_C(0x9e3779b97f4a7c15) ^ (uint64_t)(unsigned)array;
    h ^= h >> 31;
    h *= UINT64_C(0xbf58476d1ce4e5b9);
    return h ^ (h >> 29);
}

hd_requests *hd_requests_new(void)
{
    hd_requests *r = calloc(1, sizeof *r);
    if (!r)
        hd__fatal("hd_requests_new: out of memory");
    r->P = hd_nprocs();
    r->me = v_get_pid();
    r->nslots = 64;
    r->slot = calloc(r->nslots, sizeof *r->slot);
    r->of = calloc((size_t)r->P, sizeof *r->of);
    r->answers = calloc((size_t)r->P, sizeof *r->answers);
    if (!r->slot || !r->of || !r->answers)
        hd__fatal("hd_requests_new: out of memory");
    return r;
}

static void grow_table(hd_requests *r)
{
    size_t nslots = r->nslots * 2;
    size_t *slot = calloc(nslots, sizeof *slot);
    if (!slot)
        hd__fatal("hd_request: out of memory for %zu tickets", r->nasks);
    for (size_t t = 0; t < r->nasks; t++) {
        size_t h = (size_t)mix(r->asks[t].array, r->asks[t].e) & (nslots - 1);
        while (slot[h])
            h = (h + 1) & (nslots - 1);
        slot[h] = t + 1;
    }
    free(r->slot);
    r->slot = slot;
    r->nslots = nslots;
}

static const hd_array_desc *array_of(int array)
{
    const hd_array_desc *a = hd__array_desc(array);
    if (!a)
        hd__fatal("hd_request: array %d is not in the program's table", array);
    return a;
}

/* items (count used of *cap, each `size` bytes) with room for one more:
 * doubled when full, from `first`, so asking costs amortised O(1). */
static void *room_for_one(void *items, size_t count, size_t *cap, size_t first, size_t size)
{
    if (count < *cap)
        return items;
    size_t more = *cap ? 2 * *cap : first;
    void *grown = realloc(items, more * size);
    if (!grown)
        hd__fatal("hd_request: out of memory for %zu tickets", more);
    *cap = more;
    return grown;
}

hd_index hd_request(hd_requests *r, int array, int from, hd_index e)
{
    if (!r)
        hd__fatal("hd_request: no requests (null pointer)");
    if (r->ran)
        hd__fatal("hd_request after hd_requests_run");
    if (from < 0 || from >= r->P || from == r->me)
        hd__fatal("hd_request: element %lld of array %d from virtual processor %d (this is %d)",
                  (long long)e, array, from, r->me);
    const hd_array_desc *d = array_of(array);
    if (e < 0 || e >= hd__array_size(array) || hd__owner_of(array, e) != from)
        hd__fatal("hd_request: element %lld of array %s is not on virtual processor %d",
                  (long long)e, d->name ? d->name : "?", from);
    size_t h = (size_t)mix(array, e) & (r->nslots - 1);
    for (; r->slot[h]; h = (h + 1) & (r->nslots - 1)) {
        const ask *a = &r->asks[r->slot[h] - 1];
        if (a->array == array && a->e == e)
            return (hd_index)(r->slot[h] - 1);
    }
    r->asks = room_for_one(r->asks, r->nasks, &r->cap, 256, sizeof *r->asks);
    asked_of *o = &r->of[from];
    o->tickets = room_for_one(o->tickets, o->n, &o->cap, 64, sizeof *o->tickets);
    size_t t = r->nasks++;
    r->asks[t] = (ask){ array, from, e };
    o->tickets[o->n++] = (hd_index)t;
    r->slot[h] = t + 1;
    if (2 * r->nasks > r->nslots)
        grow_table(r);
    return (hd_index)t;
}

static int by_array(const void *x, const void *y, void *asks)
{
    const ask *a = &((const ask *)asks)[*(const hd_index *)x];
    const ask *b = &((const ask *)asks)[*(const hd_index *)y];
    if (a->array != b->array)
        return a->array < b->array ? -1 : 1;
    return (*(const hd_index *)x > *(const hd_index *)y) -
           (*(const hd_index *)x < *(const hd_index *)y);
}

/* Insertion sort by (array, ticket): the lists are usually of one array,
 * already in order, and qsort_r is not C11. */
static void sort_by_array(hd_index *t, size_t n, const ask *asks)
{
    for (size_t i = 1; i < n; i++) {
        hd_index v = t[i];
        size_t j = i;
        while (j > 0 && by_array(&t[j - 1], &v, (void *)asks) > 0) {
            t[j] = t[j - 1];
            j--;
        }
        t[j] = v;
    }
}

/* The request message to one owner: blocks [array, count, offsets...]. */
static hd_index *request_message(hd_requests *r, int from, size_t *words)
{
    asked_of *o = &r->of[from];
    sort_by_array(o->tickets, o->n, r->asks);
    size_t blocks = 0;
    for (size_t k = 0; k < o->n; k++)
        blocks += k == 0 || r->asks[o->tickets[k]].array != r->asks[o->tickets[k - 1]].array;
    *words = 2 * blocks + o->n;
    hd_index *m = malloc((*words ? *words : 1) * sizeof *m);
    if (!m)
        hd__fatal("hd_requests_run: out of memory for %zu requests", o->n);
    size_t at = 0, count_at = 0;
    for (size_t k = 0; k < o->n; k++) {
        const ask *a = &r->asks[o->tickets[k]];
        if (k == 0 || a->array != r->asks[o->tickets[k - 1]].array) {
            m[at++] = a->array;
            count_at = at;
            m[at++] = 0;
        }
        array_of(a->array);   /* in the table, or the program stops */
        m[count_at]++;
        m[at++] = hd__offset_of(a->array, a->e);
    }
    return m;
}

static size_t answer_bytes(hd_requests *r, int from)
{
    size_t bytes = 0;
    for (size_t k = 0; k < r->of[from].n; k++)
        bytes += array_of(r->asks[r->of[from].tickets[k]].array)->elem_size;
    return bytes;
}

/* Answers one request message from the elements of this processor. */
static void answer(const hd_index *m, size_t words, int me, int asker, hd_exchange *x)
{
    size_t at = 0;
    while (at < words) {
        if (words - at < 2)
            hd__fatal("hd_requests_run: a malformed request from virtual processor %d", asker);
        int array = (int)m[at];
        hd_index count = m[at + 1];
        at += 2;
        const hd_array_desc *d = array_of(array);
        if (count < 0 || (size_t)count > words - at)
            hd__fatal("hd_requests_run: a malformed request from virtual processor %d", asker);
        const unsigned char *mine = hd_local(array);
        hd_index local_count = hd__local_count(array, me);
        for (hd_index k = 0; k < count; k++, at++) {
            if (m[at] < 0 || m[at] >= local_count)
                hd__fatal("hd_requests_run: virtual processor %d asked for offset %lld of "
                          "array %s, which has %lld here", asker, (long long)m[at],
                          d->name ? d->name : "?", (long long)local_count);
            hd_put(x, asker, mine + (size_t)m[at] * d->elem_size, d->elem_size);
        }
    }
}

void hd_requests_run(hd_requests *r)
{
    if (!r)
        hd__fatal("hd_requests_run: no requests (null pointer)");
    if (r->ran)
        hd__fatal("hd_requests_run called twice");
    r->ran = 1;
    int P = r->P, me = r->me;
    hd_index **msg = calloc((size_t)P, sizeof *msg);
    size_t *words = calloc((size_t)P, sizeof *words);
    if (!msg || !words)
        hd__fatal("hd_requests_run: out of memory");

    /* 1. Sizes. */
    hd_exchange *sizes = hd_exchange_new();
    for (int v = 0; v < P; v++) {
        if (v == me)
            continue;
        msg[v] = request_message(r, v, &words[v]);
        uint64_t w = words[v];
        hd_put(sizes, v, &w, sizeof w);
        hd_expect(sizes, v, sizeof w);
    }
    hd_exchange_run(sizes);
    size_t *incoming = calloc((size_t)P, sizeof *incoming);
    if (!incoming)
        hd__fatal("hd_requests_run: out of memory");
    for (int v = 0; v < P; v++) {
        uint64_t w = 0;
        if (v != me)
            hd_take(sizes, v, &w, sizeof w);
        incoming[v] = (size_t)w;
    }
    hd_exchange_free(sizes);

    /* 2. Requests. */
    hd_exchange *asks = hd_exchange_new();
    for (int v = 0; v < P; v++) {
        if (v == me)
            continue;
        hd_put(asks, v, msg[v], words[v] * sizeof(hd_index));
        hd_expect(asks, v, incoming[v] * sizeof(hd_index));
    }
    hd_exchange_run(asks);

    /* 3. Answers, from my elements, in the order asked. */
    hd_exchange *answers = hd_exchange_new();
    for (int v = 0; v < P; v++) {
        if (v == me || incoming[v] == 0)
            continue;
        hd_index *in = malloc(incoming[v] * sizeof *in);
        if (!in)
            hd__fatal("hd_requests_run: out of memory");
        hd_take(asks, v, in, incoming[v] * sizeof *in);
        answer(in, incoming[v], me, v, answers);
        free(in);
    }
    hd_exchange_free(asks);
    for (int v = 0; v < P; v++)
        if (v != me)
            hd_expect(answers, v, answer_bytes(r, v));
    hd_exchange_run(answers);
    for (int v = 0; v < P; v++) {
        size_t bytes = answer_bytes(r, v);
        if (v == me || bytes == 0)
            continue;
        if (!(r->answers[v] = malloc(bytes)))
            hd__fatal("hd_requests_run: out of memory for %zu bytes", bytes);
        hd_take(answers, v, r->answers[v], bytes);
    }
    hd_exchange_free(answers);

    /* Where each ticket's element now is. */
    r->values = malloc((r->nasks ? r->nasks : 1) * sizeof *r->values);
    if (!r->values)
        hd__fatal("hd_requests_run: out of memory");
    for (int v = 0; v < P; v++) {
        size_t at = 0;
        for (size_t k = 0; k < r->of[v].n; k++) {
            const ask *a = &r->asks[r->of[v].tickets[k]];
            r->values[r->of[v].tickets[k]] = r->answers[v] + at;
            at += array_of(a->array)->elem_size;
        }
    }
    for (int v = 0; v < P; v++)
        free(msg[v]);
    free(msg);
    free(words);
    free(incoming);
}

const void *const *hd_requests_values(const hd_requests *r)
{
    if (!r || !r->ran)
        hd__fatal("hd_requests_values before hd_requests_run");
    return r->values;
}

void hd_requests_free(hd_requests *r)
{
    if (!r)
        return;
    for (int v = 0; v < r->P; v++) {
        free(r->of[v].tickets);
        free(r->answers[v]);
    }
    free(r->of);
    free(r->answers);
    free(r->asks);
    free(r->slot);
    free((void *)r->values);
    free(r);
}
