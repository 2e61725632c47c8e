/*
 * results.c — where the analysis keeps what it found of each reference
 * (hd_analysis), and the program's communications as a spec built from
 * it.  A program repeats its index forms, so equal index maps and equal
 * LCCs (Hou et al. 2001, Definitions 1-4) are stored once, in an arena,
 * and every reference that has one points to that copy: on the 1000-loop
 * benchmark, 10,836 references share 911 maps and 910 LCCs, about 1.4 MB
 * with the 40-byte entries, where a map and an LCC by value in every
 * reference took 12.6 MB.
 */
#include "analysis.h"

#include <stdlib.h>
#include <string.h>

/* One open-addressing table of pointers into the store. */
typedef struct {
    const void **slot;
    size_t size, used;       /* size: a power of two, or 0 */
} kept_table;

struct hd_analysis_kept {
    kept_table maps, lccs, reasons;
};

static uint64_t mix(uint64_t h, uint64_t v)
{
    return (h ^ v) * 1099511628211u;
}

static size_t hash_map(const void *x)
{
    const hd_affine *f = x;
    uint64_t h = mix(1469598103934665603u, (uint64_t)f->in) ^ f->c;
    for (int t = 0; t < 64; t++)
        h = mix(h, f->row[t]);
    return (size_t)(h ^ (h >> 29));
}

static bool equal_maps(const void *x, const void *y)
{
    const hd_affine *f = x, *g = y;
    return f->in == g->in && f->c == g->c && memcmp(f->row, g->row, sizeof f->row) == 0;
}

static size_t hash_lcc(const void *x)
{
    return hd_lcc_hash(x);
}

static bool equal_lccs(const void *x, const void *y)
{
    return hd_lcc_equal(x, y);
}

static size_t hash_reason(const void *x)
{
    uint64_t h = 1469598103934665603u;
    for (const unsigned char *s = x; *s; s++)
        h = mix(h, *s);
    return (size_t)(h ^ (h >> 29));
}

static bool equal_reasons(const void *x, const void *y)
{
    return strcmp(x, y) == 0;
}

/* The stored value equal to *value (size bytes; a string when size is 0),
 * storing a copy first if there is none. */
static const void *keep(hd_analysis *a, kept_table *t, const void *value, size_t size,
                        size_t (*hash)(const void *), bool (*equal)(const void *, const void *))
{
    if (2 * (t->used + 1) > t->size) {
        size_t size2 = t->size ? 2 * t->size : 64;
        const void **slot = hd_xcalloc(size2, sizeof *slot);
        for (size_t k = 0; k < t->size; k++) {
            if (!t->slot[k])
                continue;
            size_t j = hash(t->slot[k]) & (size2 - 1);
            while (slot[j])
                j = (j + 1) & (size2 - 1);
            slot[j] = t->slot[k];
        }
        free(t->slot);
        t->slot = slot;
        t->size = size2;
    }
    size_t j = hash(value) & (t->size - 1);
    while (t->slot[j] && !equal(t->slot[j], value))
        j = (j + 1) & (t->size - 1);
    if (!t->slot[j]) {
        size_t bytes = size ? size : strlen(value) + 1;
        void *copy = hd_arena_alloc(&a->store, bytes);
        memcpy(copy, value, bytes);
        t->slot[j] = copy;
        t->used++;
    }
    return t->slot[j];
}

static hd_analysis_kept *tables(hd_analysis *a)
{
    if (!a->kept)
        a->kept = hd_xcalloc(1, sizeof *a->kept);
    return a->kept;
}

const hd_affine *hd_analysis_keep_map(hd_analysis *a, const hd_affine *map)
{
    return keep(a, &tables(a)->maps, map, sizeof *map, hash_map, equal_maps);
}

const hd_lcc *hd_analysis_keep_lcc(hd_analysis *a, const hd_lcc *lcc)
{
    return keep(a, &tables(a)->lccs, lcc, sizeof *lcc, hash_lcc, equal_lccs);
}

const char *hd_analysis_keep_reason(hd_analysis *a, const char *why)
{
    return keep(a, &tables(a)->reasons, why, 0, hash_reason, equal_reasons);
}

void hd_analysis_init(hd_analysis *a, const hd_program *p)
{
    memset(a, 0, sizeof *a);
    for (int k = 0; k < p->nloops; k++)
        a->nrefs += p->loops[k].nrefs;
    a->refs = hd_xcalloc((size_t)a->nrefs, sizeof *a->refs);
    for (int r = 0; r < a->nrefs; r++)
        a->refs[r].pair_log2 = -1;
}

void hd_analysis_free(hd_analysis *a)
{
    if (a->kept) {
        free(a->kept->maps.slot);
        free(a->kept->lccs.slot);
        free(a->kept->reasons.slot);
        free(a->kept);
    }
    free(a->refs);
    hd_arena_free(&a->store);
    memset(a, 0, sizeof *a);
}

int hd_program_spec(const hd_program *p, const hd_analysis *a, hd_spec *out)
{
    memset(out, 0, sizeof *out);
    out->n = p->n;
    int cap = 0;
    for (int k = 0; k < p->nloops; k++)
        for (int j = 0; j < p->loops[k].nrefs; j++) {
            const hd_ref *ref = &p->loops[k].refs[j];
            const hd_comm *c = &hd_ref_result(a, ref)->comm;
            if (ref->is_write || c->kind == HD_COMM_LOCAL)
                continue;
            hd_xreserve(&out->lccs, &cap, out->m + 1, sizeof *out->lccs);
            hd_named_lcc *e = &out->lccs[out->m++];
            memset(e, 0, sizeof *e);
            e->name = hd_xstrdup(ref->text);
            e->line = ref->line;
            e->col = ref->col;
            e->loop_line = p->loops[k].line;
            e->array = hd_xstrdup(p->arrays[ref->array].name);
            e->comm = *c;
            e->conflict = hd_ref_result(a, ref)->conflict;
            e->all_to_all = hd_ref_result(a, ref)->all_to_all;
            e->same_data = hd_ref_result(a, ref)->same_data;
            int pl = hd_ref_result(a, ref)->pair_log2;
            e->pair_bytes = pl >= 0 && p->arrays[ref->array].elem_size > 0
                                ? p->arrays[ref->array].elem_size << pl : 0;
            /* One processor's iterations read at most 2^(k - n) elements by
             * it, and at most 2^rank distinct ones when the index is
             * GF(2)-affine of that rank (a[7]: one). */
            int per = p->loops[k].k > p->n ? p->loops[k].k - p->n : 0;
            const hd_affine *map = hd_ref_result(a, ref)->map;
            if (map) {
                int r = hd_rank_rows(map->row, 64);
                if (r < per)
                    per = r;
            }
            e->bytes = p->arrays[ref->array].elem_size > 0
                           ? p->arrays[ref->array].elem_size << per : 0;
            if (c->kind != HD_COMM_LCC) {
                /* A graph or a collective, had they a producer, would be
                 * carried as general until a paper prices them. */
                e->comm.kind = HD_COMM_GENERAL;
                e->comm.lcc = NULL;
                if (!e->comm.reason)
                    e->comm.reason = "not an LCC";
            }
        }
    int ncap = 0;
    for (int k = 0; k < p->narrays; k++) {
        const hd_array *x = &p->arrays[k];
        if (!hd_array_distributed(p, k))
            continue;
        hd_xreserve(&out->arrays, &ncap, out->narrays + 1, sizeof *out->arrays);
        out->arrays[out->narrays++] = (hd_spec_array){
            hd_xstrdup(x->name), x->dist, hd_array_layout(x, p->n) };
    }
    return HD_SPEC_OK;
}
