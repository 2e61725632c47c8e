/*
 * model.c — releasing the program model, arrays' layouts and which
 * arrays a loop uses.
 */
#include "model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hd_spec_free(hd_spec *spec)
{
    for (int k = 0; k < spec->m; k++) {
        free(spec->lccs[k].name);
        free(spec->lccs[k].array);
        for (int v = 0; v < spec->lccs[k].nstage_vars; v++)
            free(spec->lccs[k].stage_vars[v]);
        free(spec->lccs[k].stage_vars);
        free(spec->lccs[k].stage_values);
        free(spec->lccs[k].stage_note);
    }
    free(spec->lccs);
    for (int a = 0; a < spec->narrays; a++)
        free(spec->arrays[a].name);
    free(spec->arrays);
    spec->arrays = NULL;
    spec->narrays = 0;
    hd_arena_free(&spec->store);
    spec->lccs = NULL;
    spec->n = spec->n_line = spec->m = 0;
    for (int v = 0; v < spec->nvectors; v++)
        free(spec->vectors[v]);
    free(spec->vectors);
    free(spec->vector_lines);
    for (int k = 0; k < spec->nstmts; k++)
        free(spec->stmts[k].nodes);
    free(spec->stmts);
    spec->vectors = NULL;
    spec->vector_lines = NULL;
    spec->stmts = NULL;
    spec->nvectors = spec->nstmts = 0;
}

void hd_loop_free(hd_loop *l)
{
    for (int j = 0; j < l->nrefs; j++) {
        free(l->refs[j].text);
        hd_expr_free(l->refs[j].index);
        hd_expr_free(l->refs[j].home_index);
        free(l->refs[j].subs);
    }
    free(l->refs);
    for (int j = 0; j < l->nguards; j++) {
        hd_expr_free(l->guards[j].cond);
        free(l->guards[j].text);
    }
    free(l->guards);
    for (int j = 0; j < l->ninners; j++) {
        free(l->inners[j].name);
        free(l->inners[j].type);
    }
    free(l->inners);
    for (int j = 0; j < l->nheaders; j++) {
        free(l->headers[j].arrays);
        free(l->headers[j].what);
    }
    free(l->headers);
    free(l->lo_text);
    free(l->hi_text);
    free(l->var);
    free(l->var_type);
    for (int j = 0; j < l->nouters; j++) {
        free(l->outers[j].name);
        free(l->outers[j].type);
    }
    free(l->outers);
    for (int j = 0; j < l->nstages; j++) {
        free(l->stages[j].var);
        free(l->stages[j].values);
        free(l->stages[j].refused);
    }
    free(l->stages);
    for (int j = 0; j < l->nderived; j++) {
        free(l->derived[j].var);
        hd_expr_free(l->derived[j].value);
        free(l->derived[j].refused);
    }
    free(l->derived);
    for (int j = 0; j < l->nreds; j++) {
        free(l->reds[j].name);
        free(l->reds[j].type);
    }
    free(l->reds);
    free(l->sites);
    for (int j = 0; j < l->nprotos; j++)
        free(l->protos[j]);
    free(l->protos);
}

const char *hd_red_op_text(hd_red_op op)
{
    static const char *const text[] = { "+", "*", "min", "max", "&", "|", "^" };
    return text[op];
}

const char *hd_red_op_coll(hd_red_op op)
{
    static const char *const name[] = {
        "HD_OP_SUM", "HD_OP_PROD", "HD_OP_MIN", "HD_OP_MAX",
        "HD_OP_BAND", "HD_OP_BOR", "HD_OP_BXOR",
    };
    return name[op];
}

const char *hd_red_type_coll(hd_red_type t)
{
    static const char *const name[] = {
        "HD_T_INT8", "HD_T_INT16", "HD_T_INT32", "HD_T_INT64",
        "HD_T_UINT8", "HD_T_UINT16", "HD_T_UINT32", "HD_T_UINT64",
        "HD_T_FLOAT", "HD_T_DOUBLE", "HD_T_LDOUBLE",
        "HD_T_CFLOAT", "HD_T_CDOUBLE", "HD_T_CLDOUBLE",
    };
    return name[t];
}

bool hd_red_type_integer(hd_red_type t)
{
    return t <= HD_RED_UINT64;
}

bool hd_red_type_complex(hd_red_type t)
{
    return t >= HD_RED_CFLOAT;
}

void hd_program_free(hd_program *p)
{
    for (int k = 0; k < p->narrays; k++) {
        free(p->arrays[k].name);
        free(p->arrays[k].elem_type);
    }
    free(p->arrays);
    for (int k = 0; k < p->nloops; k++)
        hd_loop_free(&p->loops[k]);
    free(p->loops);
    for (int k = 0; k < p->nuses; k++)
        free(p->uses[k].arrays);
    free(p->uses);
    for (int k = 0; k < p->nincludes; k++)
        free(p->includes[k]);
    free(p->includes);
    free(p->main_refs);
    free(p->maps);
    for (int k = 0; k < p->ntables; k++) {
        free(p->tables[k].name);
        free(p->tables[k].path);
        free(p->tables[k].owner);
        free(p->tables[k].extent);
    }
    free(p->tables);
    free(p->pragmas);
    free(p->source);
    free(p->path);
    memset(p, 0, sizeof *p);
}

void hd_array_set_dist(hd_array *a, int n, hd_dist_kind dist, int block_log2)
{
    a->dist = dist;
    a->block_log2 = dist == HD_DIST_BLOCK_CYCLIC ? block_log2 : 0;
    switch (dist) {
    case HD_DIST_BLOCK: a->shift = a->log2_size - n; break;
    case HD_DIST_BLOCK_CYCLIC: a->shift = block_log2; break;
    case HD_DIST_SKEW:
    case HD_DIST_SKEW_ROT:
    case HD_DIST_BLOCK_2D:
    case HD_DIST_CYCLIC_2D:
    case HD_DIST_XOR:
    case HD_DIST_TABLE: a->shift = -1; break;
    default: a->shift = 0; break;
    }
}

/* A bound of the range guard (loops.c's add_range_guard: (long)i >= lo
 * && (long)i < hi): its value when it is a constant. */
static bool bound_value(const hd_expr *e, int64_t *v)
{
    if (!e || e->kind != HD_EX_BINARY || e->nkids != 2 || !e->kid[1] ||
        e->kid[1]->kind != HD_EX_CONST)
        return false;
    *v = (int64_t)e->kid[1]->value;
    return true;
}

void hd_loop_range(const hd_loop *l, int64_t *lo, bool *lo_known, int64_t *hi, bool *hi_known)
{
    *lo = 0;
    *hi = l->trip;
    *lo_known = true;
    *hi_known = l->trip > 0;
    if (l->range_guard < 0)
        return;
    const hd_expr *c = l->guards[l->range_guard].cond;
    bool shape = c && c->kind == HD_EX_BINARY && c->op == HD_OP_LAND && c->nkids == 2;
    *lo_known = shape && bound_value(c->kid[0], lo);
    *hi_known = shape && bound_value(c->kid[1], hi);
}

int64_t hd_spread_block(const hd_owner_table *t, int n)
{
    if (t->block)
        return t->block;
    int64_t P = INT64_C(1) << n, b = t->size / P + (t->size % P != 0);
    return b ? b : 1;
}

int hd_grid_rows_log2(int n)
{
    return (n + 1) / 2;
}

const char *const hd_network_words[3] = { "ecube", "omega", "butterfly" };

bool hd_array_distributed(const hd_program *p, int arr)
{
    /* A table distribution has no layout: its owners are data (hd_owner_table). */
    return p->arrays[arr].dist != HD_DIST_NONE && p->arrays[arr].dist != HD_DIST_TABLE &&
           p->arrays[arr].log2_size >= p->n;
}

const char *hd_dist_name(hd_dist_kind k)
{
    switch (k) {
    case HD_DIST_NONE: return "replicated";
    case HD_DIST_EXACT: return "exact";
    case HD_DIST_CYCLIC: return "cyclic";
    case HD_DIST_BLOCK: return "block";
    case HD_DIST_BLOCK_CYCLIC: return "block_cyclic";
    case HD_DIST_SKEW: return "skew";
    case HD_DIST_SKEW_ROT: return "skew_rot";
    case HD_DIST_BLOCK_2D: return "block, block";
    case HD_DIST_CYCLIC_2D: return "cyclic, cyclic";
    case HD_DIST_XOR: return "xor";
    case HD_DIST_TABLE: return "table";
    }
    return "?";
}

hd_layout hd_array_layout(const hd_array *a, int n)
{
    hd_layout l = { .bits = a->log2_size, .n = n, .shift = a->shift,
                    .owner = hd_affine_constant(a->log2_size, 0),
                    .offset = hd_affine_constant(a->log2_size, 0) };
    if (a->dist == HD_DIST_SKEW || a->dist == HD_DIST_SKEW_ROT ||
        a->dist == HD_DIST_XOR) {
        /* e = i:j (i the high n bits).  Owner bit t = bit t of j XOR bit t
         * of rotl(i, h, n), which is bit (t - h) mod n of i (Lee and
         * Aboelaze, Section 3: h = n/2 makes rotl the swap of halves xi;
         * h = 0 is Batcher's i XOR j); the offset is i (the Lemma's
         * "location i"). */
        int h = a->dist == HD_DIST_XOR ? 0 : n / 2;
        l.shift = -1;
        for (int t = 0; t < n; t++)
            l.owner.row[t] = (UINT64_C(1) << t) |
                             (UINT64_C(1) << (n + (t - h + n) % n));
        for (int b = 0; b < n; b++)
            l.offset.row[b] = UINT64_C(1) << (n + b);
        return l;
    }
    if (a->dist == HD_DIST_BLOCK_2D || a->dist == HD_DIST_CYCLIC_2D) {
        /* e = i:j with j the low c bits (C = 2^c) and i the next r bits;
         * the grid is 2^nr x 2^nc.  The owner is pi:pj (pj its low nc
         * bits), the offset li:lj (lj its low c - nc bits): row-major
         * within the processor's part.  (BLOCK, BLOCK) takes pi and pj
         * from the top bits of i and j, (CYCLIC, CYCLIC) from the low
         * ones; the offset has the bits left over, in order. */
        int c = __builtin_ctzll((unsigned long long)a->extent[1]);
        int r = a->log2_size - c;
        int nr = hd_grid_rows_log2(n), nc = n - nr;
        bool block = a->dist == HD_DIST_BLOCK_2D;
        int pj = block ? c - nc : 0, pi = block ? c + r - nr : c;      /* their low bits */
        int lj = block ? 0 : nc, li = block ? c : c + nr;
        l.shift = -1;
        for (int t = 0; t < nc; t++)
            l.owner.row[t] = UINT64_C(1) << (pj + t);
        for (int t = 0; t < nr; t++)
            l.owner.row[nc + t] = UINT64_C(1) << (pi + t);
        for (int b = 0; b < c - nc; b++)
            l.offset.row[b] = UINT64_C(1) << (lj + b);
        for (int b = 0; b < r - nr; b++)
            l.offset.row[c - nc + b] = UINT64_C(1) << (li + b);
        return l;
    }
    for (int t = 0; t < n; t++)
        l.owner.row[t] = UINT64_C(1) << (a->shift + t);
    for (int b = 0; b + n < a->log2_size; b++)
        l.offset.row[b] = UINT64_C(1) << (b < a->shift ? b : b + n);
    return l;
}

/* A bit field's owner is a shift and a mask: the analysis asks it for
 * every iteration of a general reference. */
uint64_t hd_layout_owner(const hd_layout *l, uint64_t e)
{
    if (l->shift >= 0)
        return (e >> l->shift) & hd_mask(l->n);
    return hd_affine_apply(&l->owner, e) & hd_mask(l->n);
}

uint64_t hd_layout_offset(const hd_layout *l, uint64_t e)
{
    return hd_affine_apply(&l->offset, e) & hd_mask(l->bits - l->n);
}

bool hd_loop_uses(const hd_loop *l, int arr, bool is_write)
{
    for (int k = 0; k < l->nrefs; k++)
        if (l->refs[k].array == arr && l->refs[k].is_write == is_write)
            return true;
    /* A reduction into arr's elements reads them (each processor combines
     * the result into the values its slice holds) and writes them. */
    for (int k = 0; k < l->nreds; k++)
        if (l->reds[k].array == arr)
            return true;
    return false;
}

const hd_data_map *hd_map_at(const hd_program *p, const hd_loop *l, int arr)
{
    const hd_data_map *found = NULL;
    for (int k = 0; k < p->nmaps; k++) {
        const hd_data_map *m = &p->maps[k];
        if (m->array != arr || m->file_scope || m->func_begin != l->func_begin ||
            m->from > l->pragma_begin)
            continue;
        if (!found || m->from >= found->from)
            found = m;
    }
    return found ? found : hd_map_initial(p, arr);
}

void hd_program_add_map(hd_program *p, int arr, const hd_loop *l, const hd_affine *F)
{
    p->maps = hd_xrealloc(p->maps, (size_t)(p->nmaps + 1) * sizeof *p->maps);
    p->maps[p->nmaps++] = (hd_data_map){ .array = arr, .F = *F, .line = l->pragma_line,
                                         .from = l->pragma_begin, .func_begin = l->func_begin,
                                         .offset = l->pragma_begin, .chosen = true };
}

const hd_data_map *hd_map_initial(const hd_program *p, int arr)
{
    for (int k = 0; k < p->nmaps; k++)
        if (p->maps[k].array == arr && p->maps[k].file_scope)
            return &p->maps[k];
    return NULL;
}

void hd_map_text(const hd_affine *F, int n, char *buf, size_t size)
{
    bool linear_identity = true;
    for (int i = 0; F && i < n; i++)
        linear_identity &= (F->row[i] & hd_mask(n)) == UINT64_C(1) << i;
    size_t at = 0;
    if (linear_identity) {
        at += (size_t)snprintf(buf, size, "identity");
    } else {
        at += (size_t)snprintf(buf, size, "rows(");
        for (int i = 0; i < n && at < size; i++)
            at += (size_t)snprintf(buf + at, size - at, "%s%llu", i ? ", " : "",
                                   (unsigned long long)(F->row[i] & hd_mask(n)));
        if (at < size)
            at += (size_t)snprintf(buf + at, size - at, ")");
    }
    if (F && (F->c & hd_mask(n)) && at < size)
        snprintf(buf + at, size - at, " xor(%llu)", (unsigned long long)(F->c & hd_mask(n)));
}

bool hd_map_is_identity(const hd_affine *F, int n)
{
    if (F->c & hd_mask(n))
        return false;
    for (int t = 0; t < n; t++)
        if ((F->row[t] & hd_mask(n)) != UINT64_C(1) << t)
            return false;
    return true;
}

hd_layout hd_layout_mapped(const hd_layout *l, const hd_affine *F)
{
    if (!F || hd_map_is_identity(F, l->n))
        return *l;
    hd_layout m = *l;
    m.shift = -1;
    m.owner = hd_affine_compose(F, &l->owner, l->n);
    return m;
}

hd_layout hd_loop_layout(const hd_program *p, const hd_loop *l, int arr)
{
    hd_layout base = hd_array_layout(&p->arrays[arr], p->n);
    const hd_data_map *m = hd_map_at(p, l, arr);
    return hd_layout_mapped(&base, m ? &m->F : NULL);
}
