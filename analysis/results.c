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

#include <stdio.h>
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

/* A new entry of out for reference ref of doall l, as a (local) read of
 * it makes them. */
static hd_named_lcc *add_entry(const hd_program *p, const hd_analysis *a, const hd_loop *l,
                               const hd_ref *ref, int *cap, hd_spec *out)
{
    const hd_ref_analysis *res = hd_ref_result(a, ref);
    hd_xreserve(&out->lccs, cap, out->m + 1, sizeof *out->lccs);
    hd_named_lcc *e = &out->lccs[out->m++];
    memset(e, 0, sizeof *e);
    e->name = hd_xstrdup(ref->text);
    e->line = ref->line;
    e->col = ref->col;
    e->loop_line = l->line;
    e->ref = ref->id;
    e->array = hd_xstrdup(p->arrays[ref->array].name);
    e->comm = res->comm;
    e->conflict = res->conflict;
    e->all_to_all = res->all_to_all;
    e->same_data = res->same_data;
    int pl = res->pair_log2;
    e->pair_bytes = pl >= 0 && p->arrays[ref->array].elem_size > 0
                        ? p->arrays[ref->array].elem_size << pl : 0;
    /* One processor's iterations read at most 2^(k - n) elements by
     * it, and at most 2^rank distinct ones when the index is
     * GF(2)-affine of that rank (a[7]: one). */
    int per = l->k > p->n ? l->k - p->n : 0;
    const hd_affine *map = res->map;
    if (map) {
        int r = hd_rank_rows(map->row, 64);
        if (r < per)
            per = r;
    }
    e->bytes = p->arrays[ref->array].elem_size > 0
                   ? p->arrays[ref->array].elem_size << per : 0;
    if (res->comm.kind != HD_COMM_LCC) {
        /* A graph or a collective, had they a producer, would be
         * carried as general until a paper prices them. */
        e->comm.kind = HD_COMM_GENERAL;
        e->comm.lcc = NULL;
        if (!e->comm.reason)
            e->comm.reason = "not an LCC";
    }
    return e;
}

const char *hd_stage_var_name(const hd_loop *l, int sv)
{
    return sv >= 0 ? l->stages[sv].var : l->inners[-1 - sv].name;
}

int hd_stage_var_line(const hd_loop *l, int sv)
{
    return sv >= 0 ? l->stages[sv].line : l->inners[-1 - sv].line;
}

/* "s = 3" or "s = 3, t = 1": stage c of a reference read per stage. */
static void stage_text(const hd_loop *l, const hd_ref_analysis *res, int c, char *buf,
                       size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int v = 0; v < res->nstage_vars && n < size; v++)
        n += (size_t)snprintf(buf + n, size - n, "%s%s = %lld", v ? ", " : "",
                              hd_stage_var_name(l, res->stage_var[v]), res->stages[c].value[v]);
}

/* What reading ref per stage left out: the values at which it makes no
 * message, and those at which the doall cannot run, as
 * "At s = 0, 1, 6: ... At (s, t) = (7, 0): ..."; NULL for none. */
static char *stage_summary(const hd_loop *l, const hd_ref_analysis *res)
{
    char *text = NULL;
    size_t len = 0, cap = 0;
    int nv = res->nstage_vars;
    for (int pass = 0; pass < 2; pass++) {
        int count = 0;
        for (int c = 0; c < res->nstages; c++) {
            const hd_ref_stage *st = &res->stages[c];
            if (st->comm.kind != HD_COMM_LOCAL || st->outside != (pass == 1))
                continue;
            char one[512];
            size_t k = 0;
            if (count++ == 0) {
                k += (size_t)snprintf(one + k, sizeof one - k, "%sAt %s", len ? " " : "",
                                      nv > 1 ? "(" : "");
                for (int v = 0; v < nv; v++)
                    k += (size_t)snprintf(one + k, sizeof one - k, "%s%s", v ? ", " : "",
                                          hd_stage_var_name(l, res->stage_var[v]));
                k += (size_t)snprintf(one + k, sizeof one - k, "%s = ", nv > 1 ? ")" : "");
            } else {
                k += (size_t)snprintf(one + k, sizeof one - k, ", ");
            }
            for (int v = 0; v < nv && k < sizeof one; v++)
                k += (size_t)snprintf(one + k, sizeof one - k, "%s%s%lld%s", v ? ", " : "",
                                      nv > 1 && v == 0 ? "(" : "", st->value[v],
                                      nv > 1 && v == nv - 1 ? ")" : "");
            if (len + k + 128 > cap)
                text = hd_xrealloc(text, cap = 2 * (len + k + 128));
            memcpy(text + len, one, k + 1);
            len += k;
        }
        if (count)
            len += (size_t)sprintf(text + len, "%s", pass == 0
                ? ": every element is read where it lives (no message)."
                : ": a subscript is outside its extent, so the doall cannot run there.");
    }
    return text;
}

/* The entries of a reference read per stage: one per stage that makes
 * messages, named "x[i ^ (1 << s)] at s = 3". */
static void add_stages(const hd_program *p, const hd_analysis *a, const hd_loop *l,
                       const hd_ref *ref, int *cap, hd_spec *out)
{
    const hd_ref_analysis *res = hd_ref_result(a, ref);
    int innermost = res->stage_var[res->nstage_vars - 1];
    bool first = true;
    for (int c = 0; c < res->nstages; c++) {
        const hd_ref_stage *st = &res->stages[c];
        if (st->comm.kind == HD_COMM_LOCAL)
            continue;
        hd_named_lcc *e = add_entry(p, a, l, ref, cap, out);
        char text[256];
        stage_text(l, res, c, text, sizeof text);
        size_t size = strlen(ref->text) + strlen(text) + 5;
        free(e->name);
        e->name = hd_xmalloc(size);
        snprintf(e->name, size, "%s at %s", ref->text, text);
        /* The LCC of this stage; the node code still computes b when the
         * doall runs (b_runtime stays the family's). */
        e->comm.lcc = st->comm.kind == HD_COMM_LCC ? st->comm.lcc : NULL;
        e->comm.kind = st->comm.kind;
        e->comm.reason = st->comm.reason;
        e->nstage_vars = res->nstage_vars;
        e->stage_vars = hd_xmalloc((size_t)res->nstage_vars * sizeof *e->stage_vars);
        e->stage_values = hd_xmalloc((size_t)res->nstage_vars * sizeof *e->stage_values);
        for (int v = 0; v < res->nstage_vars; v++) {
            e->stage_vars[v] = hd_xstrdup(hd_stage_var_name(l, res->stage_var[v]));
            e->stage_values[v] = st->value[v];
        }
        e->stage_line = hd_stage_var_line(l, innermost);
        e->stage_inner = innermost < 0;
        if (first)
            e->stage_note = stage_summary(l, res);
        if (first && !e->stage_note && e->stage_inner && res->stage_note)
            e->stage_note = hd_xstrdup(res->stage_note);
        first = false;
    }
}

int hd_program_spec(const hd_program *p, const hd_analysis *a, hd_spec *out)
{
    memset(out, 0, sizeof *out);
    out->n = p->n;
    int cap = 0;
    for (int k = 0; k < p->nloops; k++)
        for (int j = 0; j < p->loops[k].nrefs; j++) {
            const hd_ref *ref = &p->loops[k].refs[j];
            const hd_ref_analysis *res = hd_ref_result(a, ref);
            if (ref->is_write || res->comm.kind == HD_COMM_LOCAL)
                continue;
            if (res->nstage_vars > 0) {
                add_stages(p, a, &p->loops[k], ref, &cap, out);
                continue;
            }
            hd_named_lcc *e = add_entry(p, a, &p->loops[k], ref, &cap, out);
            if (res->stage_note)
                e->stage_note = hd_xstrdup(res->stage_note);
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
