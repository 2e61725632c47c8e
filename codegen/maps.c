/*
 * maps.c — the data mappings of the map pragmas (Wu 1984, Section 1.2:
 * element e of an array on virtual processor F(owner(e)) = A owner(e) + c)
 * in the generated program:
 *
 *   - each doall's node function is written with every array under the
 *     mapping it has at that doall (hd_map_at), so that its messages are
 *     the physical transfers F_v P F_u^-1 the analysis found;
 *   - an array that takes more than one mapping ("remapped") has every
 *     one's layout table in the prologue and, before each doall that uses
 *     it, a call hd_remap(array, k, layout, keep): the host lays it out
 *     under the doall's mapping k if it is under another, a communication
 *     phase of its own (hd_relayout) when the processors hold its newest
 *     elements and the doall reads them (Wu's remap, D(F_{i+1} F_i^-1));
 *   - the header lists the mappings and the remaps along each function's
 *     text, each remap priced on the plan's network.
 *
 * Deciding at run time, before each doall, keeps the program right
 * wherever the doalls stand in the host code: in a loop whose doalls
 * alternate two mappings the array is remapped at each change, in a
 * branch only when the branch ran.  A program without map pragmas is
 * written exactly as before.
 */
#include "codegen_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Are F and G (NULL: the identity) the same element of AGL(n, 2)? */
static bool same_map(const hd_affine *F, const hd_affine *G, int n)
{
    if (!F || !G) {
        const hd_affine *x = F ? F : G;
        return !x || hd_map_is_identity(x, n);
    }
    for (int t = 0; t < n; t++)
        if ((F->row[t] ^ G->row[t]) & hd_mask(n))
            return false;
    return ((F->c ^ G->c) & hd_mask(n)) == 0;
}

static const hd_affine *map_F(const hd_data_map *m)
{
    return m ? &m->F : NULL;
}

/* The index of F in array a's list, appended when new. */
static int index_of(gen *g, int a, const hd_affine *F)
{
    array_maps *am = &g->maps[a];
    for (int k = 0; k < am->count; k++)
        if (same_map(am->F[k], F, g->prog->n))
            return k;
    am->F = hd_xrealloc(am->F, (size_t)(am->count + 1) * sizeof *am->F);
    am->F[am->count] = F && !hd_map_is_identity(F, g->prog->n) ? F : NULL;
    return am->count++;
}

void maps_collect(gen *g)
{
    const hd_program *p = g->prog;
    g->maps = hd_xcalloc((size_t)(p->narrays ? p->narrays : 1), sizeof *g->maps);
    g->base = hd_xcalloc((size_t)(p->narrays ? p->narrays : 1), sizeof *g->base);
    for (int a = 0; a < p->narrays; a++) {
        if (g->array_id[a] < 0)
            continue;
        /* A table distribution has no GF(2) layout: its owners are data
         * (hd_run_tables), and no map pragma names it (frontend/maps.c). */
        g->base[a] = p->arrays[a].dist == HD_DIST_TABLE
                     ? (hd_layout){ .bits = 0, .n = p->n, .shift = -1 }
                     : hd_array_layout(&p->arrays[a], p->n);
        index_of(g, a, map_F(hd_map_initial(p, a)));   /* [0] */
        for (int d = 0; d < p->nloops; d++) {
            const hd_loop *l = &p->loops[d];
            if (hd_loop_uses(l, a, false) || hd_loop_uses(l, a, true))
                index_of(g, a, map_F(hd_map_at(p, l, a)));
        }
    }
    maps_set_layouts(g, NULL);
}

void maps_free(gen *g)
{
    for (int a = 0; g->maps && a < g->prog->narrays; a++)
        free(g->maps[a].F);
    free(g->maps);
    free(g->base);
    g->maps = NULL;
    g->base = NULL;
}

bool maps_remapped(const gen *g, int a)
{
    return g->array_id[a] >= 0 && g->maps[a].count > 1;
}

/* The index of array a's mapping at doall l (0 for NULL: the initial). */
static int index_at(const gen *g, int a, const hd_loop *l)
{
    const hd_affine *F = l ? map_F(hd_map_at(g->prog, l, a)) : g->maps[a].F[0];
    const array_maps *am = &g->maps[a];
    for (int k = 0; k < am->count; k++)
        if (same_map(am->F[k], F, g->prog->n))
            return k;
    return 0;   /* not reached: maps_collect saw every doall */
}

static hd_layout layout_k(const gen *g, int a, int k)
{
    return hd_layout_mapped(&g->base[a], g->maps[a].F[k]);
}

void maps_set_layouts(gen *g, const hd_loop *l)
{
    for (int a = 0; a < g->prog->narrays; a++)
        if (g->array_id[a] >= 0)
            g->layout[a] = layout_k(g, a, index_at(g, a, l));
}

/* "rows(3, 2, 4) xor(1)", "identity": F as the map pragma writes it. */
static void put_map(text *t, const hd_affine *F, int n)
{
    char buf[HD_MAP_TEXT_MAX];
    hd_map_text(F, n, buf, sizeof buf);
    put(t, buf);
}

/* ----------------------------------------------------- the prologue */

static void put_rows_init(text *t, const uint64_t *rows, int count, int bits)
{
    put(t, "{");
    if (count == 0)
        put(t, " 0");
    for (int r = 0; r < count; r++)
        putf(t, "%s 0x%llxu", r ? "," : "", (unsigned long long)(rows[r] & hd_mask(bits)));
    put(t, " }");
}

/* The layout table of mapping k of remapped array a, as C: a pointer to
 * its hd_layout_desc, or NULL for the bit field of the array table. */
static void put_layout_ref(text *t, const gen *g, int a, int k)
{
    if (layout_k(g, a, k).shift >= 0)
        put(t, "NULL");
    else
        putf(t, "&hd_map_layout_%d_%d", g->array_id[a], k);
}

void put_map_layout_ref(text *t, const gen *g, int a)
{
    put_layout_ref(t, g, a, 0);
}

void put_map_prologue(text *t, const gen *g)
{
    const hd_program *p = g->prog;
    bool any = false;
    for (int a = 0; a < p->narrays; a++)
        any |= maps_remapped(g, a);
    if (!any)
        return;
    put(t, "/* Data mappings (Wu 1984, Section 1.2): each array below takes several, element\n"
           " * e on virtual processor F(owner(e)) = A owner(e) + c at the same local offset.\n"
           " * Bit t of the owner (of the offset) of element e is the parity of e AND row t,\n"
           " * XOR bit t of the constant. */\n");
    for (int a = 0; a < p->narrays; a++) {
        if (!maps_remapped(g, a))
            continue;
        int id = g->array_id[a];
        const array_maps *am = &g->maps[a];
        bool offsets = false;
        for (int k = 0; k < am->count; k++) {
            hd_layout l = layout_k(g, a, k);
            if (l.shift >= 0)
                continue;
            int noff = l.bits - l.n;
            if (!offsets) {
                putf(t, "static const uint64_t hd_map_offset_rows_%d[%d] = ", id,
                     noff > 0 ? noff : 1);
                put_rows_init(t, l.offset.row, noff, l.bits);
                put(t, ";\n");
                offsets = true;
            }
            putf(t, "static const uint64_t hd_map_owner_rows_%d_%d[%d] = ", id, k, l.n);
            put_rows_init(t, l.owner.row, l.n, l.bits);
            putf(t, ";\nstatic const hd_layout_desc hd_map_layout_%d_%d = {   /* ", id, k);
            put_commented(t, p->arrays[a].name);
            put(t, ": ");
            put_map(t, am->F[k], p->n);
            putf(t, " */\n    hd_map_owner_rows_%d_%d, 0x%llxu, hd_map_offset_rows_%d, 0x%llxu\n};\n",
                 id, k, (unsigned long long)(l.owner.c & hd_mask(l.n)), id,
                 (unsigned long long)(l.offset.c & hd_mask(l.bits - l.n)));
        }
    }
    putf(t, "/* The mapping each array is under now: an index k of its layouts above. */\n"
            "static int hd_mapped[%d];\n\n", g->ndist);
    put(t, "/* Before a doall: array hd_a under the doall's mapping hd_k.  Its elements move,\n"
           " * a communication phase of its own (hd_relayout), when the processors hold\n"
           " * its newest ones and the doall reads them; otherwise only the layout\n"
           " * changes (hd_set_layout): the host's copy or the doall supplies them. */\n"
           "static void hd_remap(int hd_a, int hd_k, const hd_layout_desc *hd_to, int hd_keep)\n{\n"
           "    if (hd_mapped[hd_a] == hd_k)\n        return;\n"
           "    if (hd_keep && (hd_where[hd_a] & HD_ON_NODES))\n        hd_relayout(hd_a, hd_to);\n"
           "    else\n        hd_set_layout(hd_a, hd_to);\n"
           "    hd_mapped[hd_a] = hd_k;\n}\n\n");
}

void put_map_remaps(text *t, const gen *g, const hd_loop *l, int a, bool keep)
{
    if (!maps_remapped(g, a))
        return;
    int k = index_at(g, a, l);
    putf(t, "        hd_remap(%d, %d, ", g->array_id[a], k);
    put_layout_ref(t, g, a, k);
    putf(t, ", %d);\n", keep ? 1 : 0);
}

/* ------------------------------------------------------- the header */

/* What the remap from mapping F to G of an array costs on the plan's
 * network: the virtual processors move by G F^-1, the physical ones by
 * that under the plan's mapping. */
static void put_remap_cost(text *t, const gen *g, const hd_affine *F, const hd_affine *G)
{
    int n = g->prog->n;
    hd_agl f = F ? hd_affine_agl(F, n) : hd_agl_identity(n);
    hd_agl h = G ? hd_affine_agl(G, n) : hd_agl_identity(n), finv;
    if (!hd_agl_inverse(&f, &finv))
        return;
    hd_agl moves = hd_agl_compose(&h, &finv);
    hd_lcc lcc = { .dir = HD_GATHER, .A = moves.A, .b = moves.b };
    hd_lcc phys = hd_lcc_mapped(&lcc, &g->plan->mapping);
    const hd_target *target = &g->plan->target;
    if (target->kind == HD_TARGET_OMEGA || target->kind == HD_TARGET_BUTTERFLY) {
        hd_omega_price price;
        if (hd_omega_price_lcc(target, &phys, &price) == HD_OK)
            putf(t, ": D = %llu", (unsigned long long)price.passes);
        return;
    }
    uint64_t T[HD_MAX_DIM];
    if (hd_contention(target, &phys, T) == HD_OK)
        putf(t, ": contention degree %llu", (unsigned long long)hd_contention_degree(T, n));
}

void put_map_header(text *t, const gen *g)
{
    const hd_program *p = g->prog;
    /* The driver's note, a line of the header per line of it. */
    for (const char *c = g->opt->maps_note; c && *c;) {
        const char *nl = strchr(c, '\n');
        size_t len = nl ? (size_t)(nl - c) : strlen(c);
        char *line = hd_xmalloc(len + 1);
        memcpy(line, c, len);
        line[len] = '\0';
        put(t, c == g->opt->maps_note ? " *\n * " : " * ");
        put_commented(t, line);
        put(t, "\n");
        free(line);
        c += len + (nl != NULL);
    }
    if (!p->nmaps)
        return;
    int n = p->n;
    put(t, " *\n * Data mappings (Wu 1984, Section 1.2): element e of an array lives on virtual\n"
           " * processor F(owner(e)) = A owner(e) + c, owner(e) its layout's, at the same\n"
           " * local offset (bit j of row i of A is a_ij):\n");
    for (int a = 0; a < p->narrays; a++) {
        if (g->array_id[a] < 0)
            continue;
        bool named = false;
        for (int k = 0; k < p->nmaps && !named; k++)
            named = p->maps[k].array == a;
        if (!named)
            continue;
        put(t, " *   ");
        put_commented(t, p->arrays[a].name);
        put(t, ": ");
        put_map(t, map_F(hd_map_initial(p, a)), n);
        put(t, " from the start");
        bool chosen = false;
        for (int k = 0; k < p->nmaps; k++)
            chosen |= p->maps[k].array == a && p->maps[k].chosen;
        for (int k = 0; k < p->nmaps; k++) {
            const hd_data_map *m = &p->maps[k];
            if (m->array != a || m->file_scope)
                continue;
            /* The doall it holds from, by its for line as elsewhere. */
            int line = line_of(g, m->from) + 1;
            for (int d = 0; d < p->nloops; d++)
                if (p->loops[d].pragma_begin == m->from)
                    line = p->loops[d].line;
            put(t, ",\n *      ");
            put_map(t, &m->F, n);
            putf(t, " from the doall of line %d", line);
        }
        if (chosen)
            put(t, " (chosen: --maps wu)");
        put(t, "\n");
    }
    bool header = false;
    for (int d = 0; d < p->nloops; d++) {
        const hd_loop *l = &p->loops[d];
        for (int a = 0; a < p->narrays; a++) {
            if (!maps_remapped(g, a) || !(hd_loop_uses(l, a, false) || hd_loop_uses(l, a, true)))
                continue;
            /* The mapping the text leaves it under: the last doall of the
             * function that uses it, or (entering) the initial one. */
            int before = 0;
            for (int e = 0; e < d; e++)
                if (p->loops[e].func_begin == l->func_begin &&
                    (hd_loop_uses(&p->loops[e], a, false) || hd_loop_uses(&p->loops[e], a, true)))
                    before = index_at(g, a, &p->loops[e]);
            int now = index_at(g, a, l);
            if (before == now)
                continue;
            if (!header)
                put(t, " * Remaps (Wu 1984, Chapter 3: from F_i to F_{i+1} the processors' elements move\n"
                       " * by F_{i+1} F_i^-1, priced here on the plan's network), where the text of a\n"
                       " * function changes a mapping; the host checks before every doall (hd_remap), so\n"
                       " * loops and branches remap each time they change one:\n");
            header = true;
            putf(t, " *   before the doall of line %d: ", l->line);
            put_commented(t, p->arrays[a].name);
            put(t, " ");
            put_map(t, g->maps[a].F[before], n);
            put(t, " -> ");
            put_map(t, g->maps[a].F[now], n);
            put_remap_cost(t, g, g->maps[a].F[before], g->maps[a].F[now]);
            put(t, "\n");
        }
    }
}
