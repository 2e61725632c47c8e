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
 *     out once per array when the program starts.
 */
#include "hyperdo.h"
#include "hd_internal.h"

#include <stdint.h>
#include <stdlib.h>

/* A general layout with its inverse: e = parity(inverse[t] & w) for each
 * bit t, where w = (offset(e) | owner(e) << (log2_size - n)) without the
 * maps' constants. */
typedef struct {
    const hd_layout_desc *desc;
    uint64_t inverse[64];
} general_layout;

static const hd_array_desc *arrays; /* the running program's table */
static general_layout **general;     /* per array; NULL: the bit field */
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
static int invert(const hd_layout_desc *l, int bits, int n, uint64_t *inverse)
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

static general_layout *prepare(const hd_array_desc *a, const hd_layout_desc *l, int n)
{
    const char *name = a->name ? a->name : "?";
    int bits = a->log2_size;
    if ((n > 0 && !l->owner_rows) || (bits > n && !l->offset_rows))
        hd__fatal("hd_run: array %s: its layout has no rows", name);
    for (int t = 0; t < n; t++)
        if (l->owner_rows[t] & ~low_bits(bits))
            hd__fatal("hd_run: array %s: owner row %d names bits beyond its %d", name, t, bits);
    for (int t = 0; t < bits - n; t++)
        if (l->offset_rows[t] & ~low_bits(bits))
            hd__fatal("hd_run: array %s: offset row %d names bits beyond its %d", name, t, bits);
    if ((l->owner_c & ~low_bits(n)) || (l->offset_c & ~low_bits(bits - n)))
        hd__fatal("hd_run: array %s: its layout's constants are out of range", name);
    general_layout *g = calloc(1, sizeof *g);
    if (!g)
        hd__fatal("hd_run: out of memory");
    g->desc = l;
    if (!invert(l, bits, n, g->inverse))
        hd__fatal("hd_run: array %s: its layout is not one-to-one (two elements share a "
                  "processor and an offset)", name);
    return g;
}

void hd__layouts_start(const hd_program_desc *program, const hd_layout_desc *const *layouts)
{
    arrays = program->arrays;
    narrays = program->narrays;
    dim = program->dim;
    general = calloc((size_t)(narrays ? narrays : 1), sizeof *general);
    if (!general)
        hd__fatal("hd_run: out of memory");
    for (int i = 0; layouts && i < narrays; i++)
        if (layouts[i])
            general[i] = prepare(&arrays[i], layouts[i], dim);
}

void hd__layouts_stop(void)
{
    for (int i = 0; general && i < narrays; i++)
        free(general[i]);
    free(general);
    general = NULL;
    arrays = NULL;
    narrays = 0;
}

int hd__layout_is_bit_field(int array)
{
    return !general[array];
}

int hd__owner_of(int array, hd_index e)
{
    const general_layout *g = general[array];
    if (!g)
        return hd_owner(e, arrays[array].shift, dim);
    return (int)parity_map(g->desc->owner_rows, dim, g->desc->owner_c, (uint64_t)e);
}

hd_index hd__offset_of(int array, hd_index e)
{
    const general_layout *g = general[array];
    if (!g)
        return hd_local_offset(e, arrays[array].shift, dim);
    return (hd_index)parity_map(g->desc->offset_rows, arrays[array].log2_size - dim,
                                g->desc->offset_c, (uint64_t)e);
}

hd_index hd__element_at(int array, int v, hd_index o)
{
    const general_layout *g = general[array];
    if (!g)
        return hd_global_index(o, v, arrays[array].shift, dim);
    int bits = arrays[array].log2_size;
    uint64_t w = ((uint64_t)o ^ g->desc->offset_c) |
                 (((uint64_t)v ^ g->desc->owner_c) << (bits - dim));
    return (hd_index)parity_map(g->inverse, bits, 0, w);
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
    return general[array] ? 1 : (hd_index)1 << arrays[array].shift;
}
