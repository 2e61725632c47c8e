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
 *
 * Kept sets (hd_requests_keep).  Chung and Ranka 1990 price a mapping by
 * the c_kl words that k sends l at each execution: the inspector's
 * rounds are paid once per mapping and index contents, not per run.  So a
 * kept set remembers, after its first run, what each asker asked (the
 * request messages it received) and what it itself gets back (sizes and
 * buffers); running it again is exchange 3 alone: the owners answer the
 * same requests from their current elements, one message per pair with a
 * nonzero count, the distinct elements only.  Sets are kept per physical
 * processor (threads share the address space) and freed when hd_run
 * ends.
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
    int kept;          /* a set of hd_requests_keep: a second run answers again */
    ask *asks;         /* by ticket */
    size_t nasks, cap;
    size_t *slot;      /* hash table of tickets + 1 (0: empty) */
    size_t nslots;     /* a power of two, at least twice nasks */
    asked_of *of;      /* per virtual processor */
    unsigned char **answers; /* per virtual processor: what came back */
    const void **values;     /* by ticket, after the run */
    /* Per virtual processor, what it asked of this one (its request
     * message, hd_index words) and the bytes this one gets back from it:
     * a kept set's reruns answer and receive the same. */
    hd_index **asked;
    size_t *nasked;
    size_t *in_bytes;
    void *scratch;           /* hd_requests_scratch */
    size_t scratch_size;
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
    r->asked = calloc((size_t)r->P, sizeof *r->asked);
    r->nasked = calloc((size_t)r->P, sizeof *r->nasked);
    r->in_bytes = calloc((size_t)r->P, sizeof *r->in_bytes);
    if (!r->slot || !r->of || !r->answers || !r->asked || !r->nasked || !r->in_bytes)
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

/* 3. Answers, from my elements, in the order asked: each asker's
 * request message is r->asked[v]; what comes back lands in
 * r->answers[v].  The whole of a kept set's rerun. */
static void answers_exchange(hd_requests *r)
{
    int P = r->P, me = r->me;
    hd_exchange *x = hd_exchange_new();
    for (int v = 0; v < P; v++)
        if (v != me && r->nasked[v] > 0)
            answer(r->asked[v], r->nasked[v], me, v, x);
    for (int v = 0; v < P; v++)
        if (v != me)
            hd_expect(x, v, r->in_bytes[v]);
    hd_exchange_run(x);
    for (int v = 0; v < P; v++) {
        size_t bytes = r->in_bytes[v];
        if (v == me || bytes == 0)
            continue;
        if (!r->answers[v] && !(r->answers[v] = malloc(bytes)))
            hd__fatal("hd_requests_run: out of memory for %zu bytes", bytes);
        hd_take(x, v, r->answers[v], bytes);
    }
    hd_exchange_free(x);
}

void hd_requests_run(hd_requests *r)
{
    if (!r)
        hd__fatal("hd_requests_run: no requests (null pointer)");
    if (r->ran && r->kept) {
        /* The same requests as at the first run: only the answers move,
         * into the same buffers, so the values' addresses stay. */
        answers_exchange(r);
        return;
    }
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
    for (int v = 0; v < P; v++) {
        uint64_t w = 0;
        if (v != me)
            hd_take(sizes, v, &w, sizeof w);
        r->nasked[v] = (size_t)w;
    }
    hd_exchange_free(sizes);

    /* 2. Requests. */
    hd_exchange *asks = hd_exchange_new();
    for (int v = 0; v < P; v++) {
        if (v == me)
            continue;
        hd_put(asks, v, msg[v], words[v] * sizeof(hd_index));
        hd_expect(asks, v, r->nasked[v] * sizeof(hd_index));
    }
    hd_exchange_run(asks);
    for (int v = 0; v < P; v++) {
        if (v == me || r->nasked[v] == 0)
            continue;
        if (!(r->asked[v] = malloc(r->nasked[v] * sizeof *r->asked[v])))
            hd__fatal("hd_requests_run: out of memory");
        hd_take(asks, v, r->asked[v], r->nasked[v] * sizeof *r->asked[v]);
    }
    hd_exchange_free(asks);

    /* 3. Answers. */
    for (int v = 0; v < P; v++)
        r->in_bytes[v] = v == me ? 0 : answer_bytes(r, v);
    answers_exchange(r);
    if (!r->kept)
        for (int v = 0; v < P; v++) {
            free(r->asked[v]);
            r->asked[v] = NULL;
        }

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
}

const void *const *hd_requests_values(const hd_requests *r)
{
    if (!r || !r->ran)
        hd__fatal("hd_requests_values before hd_requests_run");
    return r->values;
}

static void release_set(hd_requests *r)
{
    for (int v = 0; v < r->P; v++) {
        free(r->of[v].tickets);
        free(r->answers[v]);
        free(r->asked[v]);
    }
    free(r->of);
    free(r->answers);
    free(r->asked);
    free(r->nasked);
    free(r->in_bytes);
    free(r->asks);
    free(r->slot);
    free((void *)r->values);
    free(r->scratch);
    free(r);
}

void hd_requests_free(hd_requests *r)
{
    if (!r)
        return;
    if (r->kept)
        hd__fatal("hd_requests_free of a kept request set (hd_requests_keep): the library "
                  "frees it when the run ends");
    release_set(r);
}

void *hd_requests_scratch(hd_requests *q, size_t bytes)
{
    if (!q)
        hd__fatal("hd_requests_scratch: no requests (null pointer)");
    if (!q->scratch || q->scratch_size != bytes) {
        free(q->scratch);
        q->scratch = NULL;
        q->scratch_size = bytes;
        if (!(q->scratch = malloc(bytes ? bytes : 1)))
            hd__fatal("hd_requests_scratch: out of memory for %zu bytes", bytes);
    }
    return q->scratch;
}

/* ------------------------------------------------ kept sets */

/* One physical processor's kept sets, by key.  A program keeps one per
 * doall and round, a handful: a linear search costs less than the
 * doall's own exchange. */
typedef struct {
    int key;
    hd_requests *set;
} kept_set;

typedef struct {
    kept_set *sets;
    size_t n, cap;
} kept_row;

static kept_row *kept_rows;   /* per physical processor */

void hd__requests_start(int nprocs)
{
    if (!(kept_rows = calloc((size_t)nprocs, sizeof *kept_rows)))
        hd__fatal("hd_run: out of memory");
}

void hd__requests_forget(void)
{
    int p = hd__tr_self();
    if (!kept_rows || p < 0)
        return;
    kept_row *row = &kept_rows[p];
    for (size_t i = 0; i < row->n; i++)
        release_set(row->sets[i].set);
    free(row->sets);
    *row = (kept_row){ NULL, 0, 0 };
}

void hd__requests_stop(void)
{
    free(kept_rows);
    kept_rows = NULL;
}

int hd_requests_keep(int key, int same, hd_requests **q)
{
    int p = hd_get_pid();   /* inside hd_run, or the program stops */
    if (key < 0)
        hd__fatal("hd_requests_keep: key %d is negative", key);
    if (!q)
        hd__fatal("hd_requests_keep: nowhere to put the set (null pointer)");
    kept_row *row = &kept_rows[p];
    kept_set *k = NULL;
    for (size_t i = 0; i < row->n; i++)
        if (row->sets[i].key == key)
            k = &row->sets[i];
    /* A set that never ran has nothing to run again: the caller must
     * inspect, as for a new one. */
    if (k && same && k->set->ran) {
        *q = k->set;
        return 1;
    }
    if (!k) {
        row->sets = room_for_one(row->sets, row->n, &row->cap, 8, sizeof *row->sets);
        k = &row->sets[row->n++];
        k->key = key;
    } else {
        release_set(k->set);
    }
    k->set = hd_requests_new();
    k->set->kept = 1;
    *q = k->set;
    return 0;
}
