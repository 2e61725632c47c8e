/*
 * layout.c — where each element of a distributed array lives: on which
 * virtual processor and at which local offset, and back.  Every part of
 * the run-time library that places elements (scatter, gather, the
 * aliasing of the host's copy, requests) asks here, so that a layout
 * whose owner is not a bit field only has to be described.
 *
 * Two kinds of layout:
 *   - the bit field at shift (cyclic, block and block_cyclic): element e
 *     is on (e >> shift) & (2^n - 1), at e with those n bits removed —
 *     hyperdo.h's hd_owner, hd_local_offset and hd_global_index;
 *   - a GF(2)-affine layout (hd_layout_desc: Lee and Aboelaze's
 *     templates, e.g. owner xi(i) XOR j, HPF's 2-D layouts, Batcher's
 *     i XOR j): the owner and the local offset
 *     are GF(2)-affine maps of e's bits, together one-to-one.  Going back
 *     from (processor, offset) to e takes the inverse of that map, worked
 *     out once per array when the program starts, and again when a remap
 *     (hd_relayout, hd_set_layout: Wu 1984's data mappings) gives the
 *     array another layout; the one before stays until the next change,
 *     for the remap's exchange;
 *   - a table (hd_run_tables: Chung and Ranka 1990's mappings of a finite
 *     element graph's nodes, docs/meshes.md): element e of N, any N, is on
 *     owner[e] at its rank among that processor's elements (table.c's
 *     hd_table_dist, built once at start).  Slices then differ in size,
 *     so every count of a slice asks hd__local_count; a table is not a
 *     GF(2) map, so it takes no part in remaps;
 *   - a spread (hd_table_desc without owners): blocks of b consecutive
 *     elements dealt out to the processors in turn, for any number N of
 *     elements — ScaLAPACK's block-cyclic distribution, whose instances
 *     are HPF's BLOCK (b = ceil(N/P): the last processors hold fewer,
 *     maybe none) and CYCLIC (b = 1).  Element e is on (e / b) mod P at
 *     offset (e / (b P)) b + e mod b, which is no GF(2) map when N is no
 *     power of two: the translator treats it as a table, but its owners
 *     are computed, not stored.  Its N may be given at run time
 *     (hd_bind: an array a pointer points to, whose extent the program
 *     knows only then).
 */
#include "hyperdo.h"
#include "hd_internal.h"

#include <stdint.h>
#include <stdlib.h>

/* A general layout, its rows copied (a remap's descriptor need not
 * outlive the call; under MPI it arrives in a message), with its inverse:
 * e = parity(inverse[t] & w) for each bit t, where w = (offset(e) |
 * owner(e) << (log2_size - n)) without the maps' constants. */
struct hd__layout {
    uint64_t owner_rows[64], owner_c;
    uint64_t offset_rows[64], offset_c;
    uint64_t inverse[64];
};

static const hd_array_desc *arrays; /* the running program's table */
static hd__layout **general;        /* per array, now; NULL: the bit field */
static hd__layout **previous;       /* per array, before its last change */
static hd_table_dist **tabled;      /* per array, its table; NULL: none */
/* Per array, its spread: N elements in blocks of b (b 0: no spread);
 * asked is the block the program gave (0: HPF's BLOCK, ceil(N/P)). */
typedef struct {
    hd_index N, b, asked;
} spread;
static spread *spreads;
static int narrays;
static int dim;

static uint64_t low_bits(int k)
{
    return k >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << k) - 1;
}

static uint64_t parity_map(const uint64_t *rows, int count, uint64_t c, uint64_t x)
{
    uint64_t y = c;
    for (int t = 0; t < count; t++)
        y ^= (uint64_t)__builtin_parityll(rows[t] & x) << t;
    return y;
}

/* The rows of w as a map of e (offset rows first, then owner rows),
 * inverted by Gauss-Jordan elimination over GF(2); 0 when singular. */
static int invert(const hd__layout *l, int bits, int n, uint64_t *inverse)
{
    uint64_t row[64], id[64];
    for (int r = 0; r < bits; r++) {
        row[r] = r < bits - n ? l->offset_rows[r] : l->owner_rows[r - (bits - n)];
        id[r] = UINT64_C(1) << r;
    }
    for (int col = 0; col < bits; col++) {
        int p = col;
        while (p < bits && !((row[p] >> col) & 1))
            p++;
        if (p == bits)
            return 0;
        uint64_t t = row[p]; row[p] = row[col]; row[col] = t;
        t = id[p]; id[p] = id[col]; id[col] = t;
        for (int r = 0; r < bits; r++)
            if (r != col && ((row[r] >> col) & 1)) {
                row[r] ^= row[col];
                id[r] ^= id[col];
            }
    }
    /* row is now the identity: bit col of e is parity(id[col] & w). */
    for (int col = 0; col < bits; col++)
        inverse[col] = id[col];
    return 1;
}

/* A copy of l for array a, checked (rows within the array's bits,
 * one-to-one) and inverted; `fn` names the caller in a message. */
static hd__layout *prepare(const char *fn, const hd_array_desc *a, const hd_layout_desc *l,
                           int n)
{
    const char *name = a->name ? a->name : "?";
    int bits = a->log2_size;
    if ((n > 0 && !l->owner_rows) || (bits > n && !l->offset_rows))
        hd__fatal("%s: array %s: its layout has no rows", fn, name);
    for (int t = 0; t < n; t++)
        if (l->owner_rows[t] & ~low_bits(bits))
            hd__fatal("%s: array %s: owner row %d names bits beyond its %d", fn, name, t, bits);
    for (int t = 0; t < bits - n; t++)
        if (l->offset_rows[t] & ~low_bits(bits))
            hd__fatal("%s: array %s: offset row %d names bits beyond its %d", fn, name, t,
                      bits);
    if ((l->owner_c & ~low_bits(n)) || (l->offset_c & ~low_bits(bits - n)))
        hd__fatal("%s: array %s: its layout's constants are out of range", fn, name);
    hd__layout *g = calloc(1, sizeof *g);
    if (!g)
        hd__fatal("%s: out of memory", fn);
    for (int t = 0; t < n; t++)
        g->owner_rows[t] = l->owner_rows[t];
    for (int t = 0; t < bits - n; t++)
        g->offset_rows[t] = l->offset_rows[t];
    g->owner_c = l->owner_c;
    g->offset_c = l->offset_c;
    if (!invert(g, bits, n, g->inverse))
        hd__fatal("%s: array %s: its layout is not one-to-one (two elements share a "
                  "processor and an offset)", fn, name);
    return g;
}

void hd__layouts_start(const hd_program_desc *program, const hd_layout_desc *const *layouts,
                       const hd_table_desc *const *tables)
{
    arrays = program->arrays;
    narrays = program->narrays;
    dim = program->dim;
    general = calloc((size_t)(narrays ? narrays : 1), sizeof *general);
    previous = calloc((size_t)(narrays ? narrays : 1), sizeof *previous);
    tabled = calloc((size_t)(narrays ? narrays : 1), sizeof *tabled);
    spreads = calloc((size_t)(narrays ? narrays : 1), sizeof *spreads);
    if (!general || !previous || !tabled || !spreads)
        hd__fatal("hd_run: out of memory");
    for (int i = 0; i < narrays; i++)
        if (tables && tables[i] && !tables[i]->owner)
            hd__spread_set("hd_run", i, tables[i]->size, tables[i]->block);
        else if (tables && tables[i])
            tabled[i] = hd__table_dist_make(tables[i]->size, tables[i]->owner, 1 << dim,
                                            "hd_run", arrays[i].name ? arrays[i].name : "?");
        else if (layouts && layouts[i])
            general[i] = prepare("hd_run", &arrays[i], layouts[i], dim);
}

void hd__layouts_stop(void)
{
    for (int i = 0; general && i < narrays; i++) {
        free(general[i]);
        free(previous[i]);
        hd_table_dist_free(tabled[i]);
    }
    free(general);
    free(previous);
    free(tabled);
    free(spreads);
    general = previous = NULL;
    tabled = NULL;
    spreads = NULL;
    arrays = NULL;
    narrays = 0;
}

void hd__spread_set(const char *fn, int array, hd_index N, hd_index block)
{
    const char *name = arrays[array].name ? arrays[array].name : "?";
    if (N < 0 || block < 0)
        hd__fatal("%s: array %s: %lld elements in blocks of %lld", fn, name, (long long)N,
                  (long long)block);
    hd_index P = (hd_index)1 << dim;
    hd_index b = block ? block : (N + P - 1) / P;
    spreads[array] = (spread){ N, b ? b : 1, block };
}

int hd__spread_of(int array, hd_index *N, hd_index *block)
{
    if (!spreads[array].b)
        return 0;
    *N = spreads[array].N;
    *block = spreads[array].asked;
    return 1;
}

/* Where element e of a spread lives: block e / b, dealt out in turn. */
static int spread_owner(const spread *s, hd_index e)
{
    return (int)((e / s->b) & (((hd_index)1 << dim) - 1));
}

static hd_index spread_offset(const spread *s, hd_index e)
{
    return e / (s->b << dim) * s->b + e % s->b;
}

static hd_index spread_element(const spread *s, int v, hd_index o)
{
    return (o / s->b * ((hd_index)1 << dim) + v) * s->b + o % s->b;
}

/* How many of the N elements virtual processor v holds: whole rounds of
 * P blocks, then what the last round leaves it. */
static hd_index spread_count(const spread *s, int v)
{
    hd_index round = s->b << dim;
    hd_index full = s->N / round, rest = s->N - full * round - (hd_index)v * s->b;
    return full * s->b + (rest <= 0 ? 0 : rest < s->b ? rest : s->b);
}

void hd__layout_change(const char *fn, int array, const hd_layout_desc *to)
{
    const hd_array_desc *a = &arrays[array];
    if (tabled[array] || spreads[array].b)
        hd__fatal("%s: array %s is distributed by a table (hd_run_tables): its layout cannot "
                  "change", fn, a->name ? a->name : "?");
    if (!to && (a->shift < 0 || a->shift > a->log2_size - dim))
        hd__fatal("%s: array %s: no layout given and no bit field in the array table "
                  "(shift %d out of range 0 .. %d)", fn, a->name ? a->name : "?", a->shift,
                  a->log2_size - dim);
    free(previous[array]);
    previous[array] = general[array];
    general[array] = to ? prepare(fn, a, to, dim) : NULL;
}

const hd__layout *hd__layout_now(int array)
{
    return general[array];
}

const hd__layout *hd__layout_before(int array)
{
    return previous[array];
}

size_t hd__layout_words(int array)
{
    return (size_t)arrays[array].log2_size + 2;
}

void hd__layout_pack(int array, const hd_layout_desc *l, uint64_t *w)
{
    int bits = arrays[array].log2_size;
    for (int t = 0; t < dim; t++)
        w[t] = l->owner_rows[t];
    w[dim] = l->owner_c;
    for (int t = 0; t < bits - dim; t++)
        w[dim + 1 + t] = l->offset_rows[t];
    w[bits + 1] = l->offset_c;
}

hd_layout_desc hd__layout_unpack(int array, const uint64_t *w)
{
    int bits = arrays[array].log2_size;
    return (hd_layout_desc){ w, w[dim], w + dim + 1, w[bits + 1] };
}

int hd__owner_by(const hd__layout *g, int array, hd_index e)
{
    if (!g)
        return hd_owner(e, arrays[array].shift, dim);
    return (int)parity_map(g->owner_rows, dim, g->owner_c, (uint64_t)e);
}

hd_index hd__offset_by(const hd__layout *g, int array, hd_index e)
{
    if (!g)
        return hd_local_offset(e, arrays[array].shift, dim);
    return (hd_index)parity_map(g->offset_rows, arrays[array].log2_size - dim, g->offset_c,
                                (uint64_t)e);
}

hd_index hd__element_by(const hd__layout *g, int array, int v, hd_index o)
{
    if (!g)
        return hd_global_index(o, v, arrays[array].shift, dim);
    int bits = arrays[array].log2_size;
    uint64_t w = ((uint64_t)o ^ g->offset_c) | (((uint64_t)v ^ g->owner_c) << (bits - dim));
    return (hd_index)parity_map(g->inverse, bits, 0, w);
}

int hd__layout_is_bit_field(int array)
{
    return !general[array] && !tabled[array] && !spreads[array].b;
}

int hd__layout_is_table(int array)
{
    return tabled[array] != NULL || spreads[array].b != 0;
}

hd_index hd__array_size(int array)
{
    if (spreads[array].b)
        return spreads[array].N;
    return tabled[array] ? hd_table_size(tabled[array]) : (hd_index)1 << arrays[array].log2_size;
}

hd_index hd__local_count(int array, int v)
{
    if (spreads[array].b)
        return spread_count(&spreads[array], v);
    if (tabled[array])
        return hd_table_local_count(tabled[array], v);
    return (hd_index)1 << (arrays[array].log2_size - dim);
}

int hd__owner_of(int array, hd_index e)
{
    if (spreads[array].b)
        return spread_owner(&spreads[array], e);
    if (tabled[array])
        return hd_table_owner(tabled[array], e);
    return hd__owner_by(general[array], array, e);
}

hd_index hd__offset_of(int array, hd_index e)
{
    if (spreads[array].b)
        return spread_offset(&spreads[array], e);
    if (tabled[array])
        return hd_table_local_index(tabled[array], e);
    return hd__offset_by(general[array], array, e);
}

hd_index hd__element_at(int array, int v, hd_index o)
{
    if (spreads[array].b)
        return spread_element(&spreads[array], v, o);
    if (tabled[array])
        return hd_table_global_index(tabled[array], v, o);
    return hd__element_by(general[array], array, v, o);
}

int hd_owner_in(int array, hd_index e)
{
    return hd__owner_of(array, e);
}

hd_index hd_offset_in(int array, hd_index e)
{
    return hd__offset_of(array, e);
}

hd_index hd_element_in(int array, int v, hd_index o)
{
    return hd__element_at(array, v, o);
}

hd_index hd__run_length(int array)
{
    if (spreads[array].b)
        return spreads[array].b;
    return general[array] || tabled[array] ? 1 : (hd_index)1 << arrays[array].shift;
}
