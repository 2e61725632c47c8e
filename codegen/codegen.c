/*
 * codegen.c — writes the SPMD program (codegen.h; docs/codegen.md).
 *
 * The output is the input file with a few edits, applied in one pass from
 * the start of the file to its end:
 *
 *   - a comment at the top that gives the mapping and the contention
 *     before and after it (Hou et al. 2001, Theorem 1 and Section 5);
 *   - before the first function definition, `#include <hyperdo.h>` and the
 *     host's record of where each distributed array's newest elements are;
 *   - before each function that holds doalls, their node functions: the
 *     SPMD code of Fig. 1d that every processor runs (after prototypes of
 *     the pure functions they call that the program declares only later);
 *   - each doall itself becomes the host's side: ship the loop's
 *     environment, bring the arrays it uses to the processors, run it;
 *   - each statement of the sequential code that uses a distributed array
 *     first brings that array home (hd_to_host) if the processors hold
 *     newer elements;
 *   - main is renamed, and at the end of the file come the tables
 *     (to_virtual, to_physical, the arrays, the node functions) and the
 *     real main, which starts the processors (hd_run).
 *
 * `#line` directives after every multi-line edit keep the compiler's
 * messages and debuggers on the input's lines.
 */
#include "codegen_internal.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------ the generator */

/* `#line` to the output itself: what follows is the generator's code, and
 * diagnostics about it should say where it is. */
static void own_line_directive(text *t, const gen *g)
{
    if (!g->opt->out_path)
        return;
    if (t->len && t->s[t->len - 1] != '\n')
        put(t, "\n");
    putf(t, "#line %d ", t->lines + 2);
    put_quoted(t, g->opt->out_path);
    put(t, "\n");
}

/* --------------------------------------------------------- checks */

/* The things the node code cannot do, each reported where it is. */
static void check_loop(gen *g, const hd_loop *l)
{
    const hd_program *p = g->prog;
    for (int k = 0; k < l->nouters; k++) {
        const hd_outer *o = &l->outers[k];
        if (!o->is_value || strchr(o->type, '(')) {
            /* Offsets of outers are not kept: report at the loop. */
            char what[400];
            if (strchr(o->type, '['))
                snprintf(what, sizeof what, "'%s' (line %d) is an array used "
                         "without a subscript in this doall (its address or "
                         "size): the processors get its elements, not the "
                         "array; use %s[...] only", o->name, o->line, o->name);
            else if (o->is_value)
                snprintf(what, sizeof what, "'%s' (line %d) is read in this "
                         "doall but its type '%s' has no name the processors' "
                         "code can declare: give it a typedef or a tag",
                         o->name, o->line, o->type);
            else
                snprintf(what, sizeof what, "'%s' (line %d) is read in this "
                         "doall but is a pointer or a function ('%s'): its "
                         "value means nothing on another processor", o->name,
                         o->line, o->type);
            error_at(g, l->begin, "%s", what);
        } else if (o->local_type) {
            error_at(g, l->begin, "'%s' (line %d) is read in this doall but its "
                     "type '%s' is declared inside a function: the processors' "
                     "code is at file scope and cannot name it; declare the "
                     "type at file scope", o->name, o->line, o->type);
        }
    }
    for (int k = 0; k < l->nrefs; k++) {
        const hd_ref *ref = &l->refs[k];
        const hd_array *a = &p->arrays[ref->array];
        if (a->elem_local_type) {
            error_at(g, ref->begin, "the elements of '%s' have a type declared "
                     "inside a function ('%s'): the processors' code is at file "
                     "scope and cannot name it; declare the type at file scope",
                     a->name, a->elem_type);
            continue;
        }
        if (a->dist == HD_DIST_NONE) {
            if (strchr(a->elem_type, '('))
                error_at(g, ref->begin, "the elements of '%s' have a type "
                         "without a name ('%s'): give it a typedef or a tag",
                         a->name, a->elem_type);
            continue;
        }
        if (ref->in_macro)
            error_at(g, ref->begin, "'%s' is distributed, and this reference "
                     "to it comes from a macro: the translator rewrites each "
                     "reference in the text, so write it out", a->name);
        if (strchr(a->elem_type, '('))
            error_at(g, ref->begin, "the elements of '%s' have a type without "
                     "a name ('%s'): give it a typedef or a tag", a->name,
                     a->elem_type);
    }
    const hd_ref *home = &l->refs[l->home];
    const hd_expr *home_index = home->home_index ? home->home_index : home->index;
    char why[256];
    uint64_t e;
    /* An element that depends on outer variables is found at run time,
     * the front end having shown one per iteration (hd_expr_injective). */
    if (!hd_expr_eval(home_index, 0, &e, why, sizeof why) &&
        !hd_expr_injective(home_index, l->k))
        error_at(g, home->begin, "the element '%s' writes must be known when "
                 "translating (%s)", home->text, why);
    /* The owner of a home whose index reads inner variables comes from its
     * map: its text names a variable that exists only in the body. */
    if (home->uses_vars && !hd_ref_result(g->results, home)->map)
        error_at(g, home->begin, "the owner of '%s' must be a GF(2)-affine map of %s "
                 "(its index reads the variable of an inner loop, so the processors "
                 "cannot evaluate it before the loop)", home->text, l->var);
    check_loop_reductions(g, l);
    if (!l->on_table)   /* over a table: the analysis checked (table_loops.c) */
        hd_check_dependences(g->prog, g->results, l, &g->d);
}

/* ------------------------------------------------------ the host side */

/* Must the host send array `arr` to the processors before doall l?  Not
 * when the loop only writes it and writes every element. */
static bool sent_before(const gen *g, const hd_loop *l, int arr)
{
    return hd_loop_uses(l, arr, false) || !hd_loop_writes_all(g->prog, g->results, l, arr);
}

/* Does the sequential code name array `arr` (use it, let its address
 * escape, or initialise it)?  An array only doalls use lives only in the
 * processors' slices: the host never scatters or gathers it, so its own
 * copy (the program's declaration) is never touched. */
bool program_host_names(const hd_program *p, int arr)
{
    if (p->arrays[arr].host_escapes || p->arrays[arr].has_init)
        return true;
    for (int u = 0; u < p->nuses; u++)
        for (int k = 0; k < p->uses[u].narrays; k++)
            if (p->uses[u].arrays[k] == arr)
                return true;
    return false;
}

/* In a program of several files, any file's sequential code (files.c). */
static bool host_names(const gen *g, int arr)
{
    if (g->files && g->array_id[arr] >= 0)
        return files_host_names(g, g->array_id[arr]);
    return program_host_names(g->prog, arr);
}

/* Which of the prologue's helpers the program calls: clang warns about
 * unused static functions, inline or not. */
typedef struct {
    bool to_nodes, on_nodes, to_host, where;
} helpers_used;

static helpers_used helpers_needed(const gen *g)
{
    const hd_program *p = g->prog;
    helpers_used h = { false, false, p->nuses > 0, false };
    for (int d = 0; d < p->nloops; d++) {
        const hd_loop *l = &p->loops[d];
        for (int k = 0; k < l->nrefs; k++) {
            int arr = l->refs[k].array;
            const hd_array *a = &p->arrays[arr];
            if (a->dist == HD_DIST_NONE || a->host_escapes)
                continue;
            h.on_nodes |= l->refs[k].is_write;
            /* sent_before enumerates the loop: once an answer is known,
             * do not ask again per reference. */
            h.to_nodes = h.to_nodes || sent_before(g, l, arr);
        }
        /* An array it reduces into is sent before and new on the
         * processors after. */
        for (int k = 0; k < l->nreds; k++) {
            int arr = l->reds[k].array;
            if (arr < 0 || p->arrays[arr].dist == HD_DIST_NONE || p->arrays[arr].host_escapes)
                continue;
            h.on_nodes = h.to_nodes = true;
        }
    }
    for (int a = 0; a < p->narrays; a++)
        h.where |= g->array_id[a] >= 0 && (p->arrays[a].decl_end || maps_remapped(g, a));
    /* In a program of several files: bringing its arrays home at the end
     * (files.c), and the record itself in the file with main. */
    h.to_host |= g->files && files_brings_home_any(g, g->files->unit);
    h.where |= g->files && g->files->unit == g->files->main_unit && g->ndist > 0;
    h.where |= h.to_nodes || h.on_nodes || h.to_host;
    return h;
}

/* Before a doall that uses arrays whose extent the program knows only at
 * run time (pointers, distribute(...) extent(E)): each takes its extent
 * (hd_bind), evaluated here, in the doall's function; then every array
 * the doall writes must not overlap another it uses, at least one of the
 * two a pointer's, as the analysis assumed (docs/annotations.md,
 * "Pointers and the heap"). */
static void put_binds(text *t, const gen *g, const hd_loop *l)
{
    const hd_program *p = g->prog;
    doall_arrays u;
    doall_arrays_of(g, l, &u);
    for (int k = 0; k < u.ndist; k++) {
        const hd_array *a = &p->arrays[u.dist[k]];
        if (a->dist != HD_DIST_TABLE || !p->tables[a->table].extent)
            continue;
        const hd_owner_table *ot = &p->tables[a->table];
        text w = { 0 };
        putf(&w, "%s:%d: '%s' (extent(%s))", p->path, ot->line, a->name, ot->extent);
        putf(t, "        hd_bind(%d, (hd_index)(%s), ", g->array_id[u.dist[k]], ot->extent);
        put_c_string(t, w.s);
        put(t, ");\n");
        free(w.s);
    }
    for (int k = 0; k < u.ndist; k++) {
        const hd_array *w = &p->arrays[u.dist[k]];
        if (!hd_loop_uses(l, u.dist[k], true))
            continue;
        for (int j = 0; j < u.ndist; j++) {
            const hd_array *o = &p->arrays[u.dist[j]];
            if (j == k || (!w->pointer && !o->pointer))
                continue;
            text where = { 0 };
            putf(&where, "%s:%d:%d", p->path, l->line, l->col);
            putf(t, "        hd_check_disjoint(%d, %s, %d, %s, ", g->array_id[u.dist[k]], w->name,
                 g->array_id[u.dist[j]], o->name);
            put_c_string(t, where.s);
            put(t, ");\n");
            free(where.s);
        }
    }
    doall_arrays_free(&u);
}

/* What replaces the doall in its function: the host's side of it. */
static void put_host_doall(text *t, const gen *g, int d)
{
    const hd_program *p = g->prog;
    const hd_loop *l = &p->loops[d];
    doall_arrays u;
    doall_arrays_of(g, l, &u);
    int number = g->loop_base + d;   /* among the program's doalls */
    putf(t, "    {   /* hyperdo: the doall of line %d runs on every processor "
            "(hd_node_%d) */\n", l->line, number);
    if (u.env) {
        putf(t, "        static struct hd_env_%d hd_env;   /* off the stack: it may be large */\n",
             number);
        /* A value is assigned, not copied by address: the variable may be
         * declared register. */
        for (int k = 0; k < l->nouters; k++)
            if (l->outers[k].is_value)
                putf(t, "        hd_env.%s = %s;\n", l->outers[k].name, l->outers[k].name);
            else
                putf(t, "        memcpy((void *)&hd_env.%s, &%s, sizeof hd_env.%s);\n",
                     l->outers[k].name, l->outers[k].name, l->outers[k].name);
        for (int k = 0; k < u.nrepl; k++)
            putf(t, "        memcpy((void *)hd_env.%s, %s, sizeof hd_env.%s);\n",
                 p->arrays[u.repl[k]].name, p->arrays[u.repl[k]].name,
                 p->arrays[u.repl[k]].name);
        if (g->keeps[d])
            /* Every processor learns from one flag whether the elements its
             * kept requests name may have changed: the bytes compared are
             * all that decide them (docs/meshes.md, "Programs over meshes"). */
            putf(t, "        static struct hd_env_%d hd_last;\n        static int hd_ran;\n"
                    "        hd_env.hd_same = 0;\n"
                    "        const int hd_same = hd_ran && memcmp(&hd_env, &hd_last, sizeof hd_env) == 0;\n"
                    "        memcpy(&hd_last, &hd_env, sizeof hd_env);\n"
                    "        hd_ran = 1;\n        hd_env.hd_same = hd_same;\n", number);
    }
    put_binds(t, g, l);
    const hd_array *ha = &p->arrays[l->refs[l->home].array];
    bool runtime_extent = l->on_table && p->tables[ha->table].extent;
    if (l->range_checked || runtime_extent) {
        /* Bounds known only now: the iterations must be among the 2^k
         * the node code numbers, those of the array written at i (over a
         * table or a spread: its elements, as many as it has now). */
        const hd_ref *home = &l->refs[l->home];
        int64_t lo, hi;
        bool lo_known, hi_known;
        hd_loop_range(l, &lo, &lo_known, &hi, &hi_known);
        char lo_c[64], hi_c[64], size[64], size_arg[80];
        snprintf(lo_c, sizeof lo_c, "%lld", (long long)lo);
        snprintf(hi_c, sizeof hi_c, "%lld", (long long)hi);
        if (l->on_table)
            snprintf(size, sizeof size, "hd_size_in(%d)", g->array_id[home->array]);
        else
            snprintf(size, sizeof size, "%lld", (long long)1 << l->k);
        snprintf(size_arg, sizeof size_arg, "%s%s", l->on_table ? "" : "(hd_index)", size);
        const char *lo_t = lo_known ? lo_c : l->lo_text, *hi_t = hi_known ? hi_c : l->hi_text;
        text w = { 0 };
        putf(&w, "%s:%d:%d: '%s' (%s = %s .. %s - 1)", p->path, home->line, home->col,
             home->text, l->var, lo_t, hi_t);
        const char *T = l->var_type;
        putf(t, "        if ((%s)(%s) < (%s) && (hd_negative((long long)(%s)(%s)) || (%s) > %s))\n"
                "            hd_index_error(", T, lo_t, hi_t, T, lo_t, hi_t, size);
        put_c_string(t, w.s);
        putf(t, ", hd_negative((long long)(%s)(%s)) ? (hd_index)(%s)(%s) : (hd_index)(%s) - 1, "
                "%s);\n", T, lo_t, T, lo_t, hi_t, size_arg);
        free(w.s);
    }
    for (int k = 0; k < u.ndist; k++)
        put_map_remaps(t, g, l, u.dist[k], sent_before(g, l, u.dist[k]));
    for (int k = 0; k < u.ndist; k++) {
        const hd_array *a = &p->arrays[u.dist[k]];
        if (!sent_before(g, l, u.dist[k]))
            continue;                /* every element is overwritten */
        if (a->host_escapes)
            putf(t, "        hd_scatter(%d, %s);\n", g->array_id[u.dist[k]], a->name);
        else
            putf(t, "        hd_to_nodes(%d, %s);\n", g->array_id[u.dist[k]], a->name);
    }
    if (u.env)
        putf(t, "        hd_doall(%d, &hd_env, sizeof hd_env);\n", number);
    else
        putf(t, "        hd_doall(%d, NULL, 0);\n", number);
    put_reduction_host(t, l, d);
    for (int k = 0; k < u.ndist; k++) {
        const hd_array *a = &p->arrays[u.dist[k]];
        if (!hd_loop_uses(l, u.dist[k], true))
            continue;
        if (a->host_escapes)
            putf(t, "        hd_gather(%d, %s);\n", g->array_id[u.dist[k]], a->name);
        else
            putf(t, "        hd_on_nodes(%d);\n", g->array_id[u.dist[k]]);
    }
    /* The loop variable's value after the loop, as C leaves it; (void)
     * because the translated host may read it nowhere else, which
     * -Wunused-but-set-variable would hold against the program. */
    if (l->var_outside && l->range_guard >= 0)
        putf(t, "        %s = (%s)(%s) < (%s) ? (%s)(%s) : (%s)(%s);\n        (void)%s;\n",
             l->var, l->var_type, l->lo_text, l->hi_text, l->var_type, l->hi_text, l->var_type,
             l->lo_text, l->var);
    else if (l->var_outside)
        putf(t, "        %s = %llu;\n        (void)%s;\n", l->var,
             (unsigned long long)l->trip, l->var);
    put(t, "    }\n");
    doall_arrays_free(&u);
}

/* -------------------------------------------------------- the edits */

typedef enum {
    EDIT_PROLOGUE,     /* insert */
    EDIT_NODES,        /* insert the node functions of one function */
    EDIT_DOALL,        /* replace */
    EDIT_USE_OPEN,     /* insert */
    EDIT_USE_CLOSE,    /* insert */
    EDIT_RESET,        /* insert after a local array's declaration */
    EDIT_MAIN,         /* replace main's name */
    EDIT_USED,         /* after a static local array: it is used */
    EDIT_PRAGMA,       /* comment out a cube or distribute pragma */
} edit_kind;

typedef struct {
    size_t begin, end;
    edit_kind kind;
    int item;          /* loop, use or array */
    int seq;
} edit;

static int edit_order(const void *a, const void *b)
{
    const edit *x = a, *y = b;
    if (x->begin != y->begin)
        return x->begin < y->begin ? -1 : 1;
    /* At one offset: close a wrapped use before what opens next. */
    bool xc = x->kind == EDIT_USE_CLOSE, yc = y->kind == EDIT_USE_CLOSE;
    if (xc != yc)
        return xc ? -1 : 1;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The host's record of where each array's newest elements are, and how
 * each starts. */
static void put_where(text *t, const gen *g)
{
    putf(t, "static unsigned char hd_where[%d] = {", g->ndist);
    for (int a = 0, k = 0; a < g->prog->narrays; a++)
        if (g->array_id[a] >= 0)
            putf(t, "%s%s", k++ ? ", " : " ", host_names(g, a) ? "HD_ON_HOST" : "HD_ON_NODES");
    put(t, " };\n");
    for (int a = 0; a < g->prog->narrays; a++)
        if (g->array_id[a] >= 0 && !host_names(g, a)) {
            put(t, "/* The sequential code never names ");
            put_commented(t, g->prog->arrays[a].name);
            put(t, ": it lives only on the processors, which start\n"
                   " * with it zeroed, and the host never touches its own copy. */\n");
            break;
        }
    put(t, "\n");
}

static void put_prologue(text *t, const gen *g)
{
    put(t, "\n/* hyperdo: the run-time library, and where the newest elements "
           "of each\n * distributed array are: on the host, on the processors, "
           "or both. */\n");
    if (strcmp(g->v, "hd_v_") == 0)
        put(t, "#define HD_NO_V_NAMES   /* the program declares v_send & co. itself */\n");
    put(t, "#include <hyperdo.h>\n");
    if (reductions_used(g->prog) || collectives_used(g))
        put(t, "#include <hyperdo/coll.h>   /* collectives: Stout and Wagar 1990 */\n");
    put(t, "#include <stdlib.h>\n#include <string.h>\n\n");
    helpers_used h = helpers_needed(g);
    if (!h.where)
        return;
    put(t, "enum { HD_ON_HOST = 1, HD_ON_NODES = 2, HD_ENDED = 4 };\n");
    if (g->files)
        files_put_where(t, g);
    else
        put_where(t, g);
    if (h.to_nodes)
        put(t, "/* Before a doall: the processors need the host's elements. */\n"
               "static void hd_to_nodes(int a, const void *host)\n{\n"
               "    if (!(hd_where[a] & HD_ON_NODES))\n        hd_scatter(a, host);\n"
               "    hd_where[a] |= HD_ON_NODES;\n}\n\n");
    if (h.on_nodes)
        put(t, "/* After a doall that wrote the array. */\n"
               "static void hd_on_nodes(int a)\n{\n"
               "    hd_where[a] = HD_ON_NODES;\n}\n\n");
    if (h.to_host)
        put(t, "/* Before sequential code that uses the array (and may change it). */\n"
               "static void hd_to_host(int a, void *host)\n{\n"
               "    if (hd_where[a] & HD_ENDED)\n        return;   /* after main: home for good */\n"
               "    if (!(hd_where[a] & HD_ON_HOST))\n        hd_gather(a, host);\n"
               "    else\n        hd_host_access(a);   /* the processors may still read it */\n"
               "    hd_where[a] = HD_ON_HOST;\n}\n\n");
    put_map_prologue(t, g);
}

/* The declarations of the pure functions that the node functions of the
 * function starting at func_begin call but would not see there: the
 * program declares them only inside that function or after it
 * (hd_loop.protos), each written once. */
static void put_prototypes(text *t, const gen *g, unsigned func_begin)
{
    const hd_program *p = g->prog;
    bool any = false;
    for (int d = 0; d < p->nloops; d++) {
        const hd_loop *l = &p->loops[d];
        if (l->func_begin != func_begin)
            continue;
        for (int k = 0; k < l->nprotos; k++) {
            bool seen = false;
            for (int e = 0; e <= d && !seen; e++) {
                const hd_loop *m = &p->loops[e];
                for (int j = 0; m->func_begin == func_begin && j < (e == d ? k : m->nprotos); j++)
                    seen |= strcmp(m->protos[j], l->protos[k]) == 0;
            }
            if (seen)
                continue;
            if (!any)
                put(t, "/* The pure functions the node functions below call, which "
                       "the program\n * declares only inside the function that "
                       "follows them, or after it. */\n");
            any = true;
            put(t, l->protos[k]);
            put(t, "\n");
        }
    }
    if (any)
        put(t, "\n");
}

static void put_edit(text *t, gen *g, const edit *e)
{
    const hd_program *p = g->prog;
    switch (e->kind) {
    case EDIT_PROLOGUE:
        own_line_directive(t, g);
        put_prologue(t, g);
        line_directive(t, g, e->end);
        break;
    case EDIT_NODES:
        own_line_directive(t, g);
        put(t, "\n");
        put_prototypes(t, g, e->begin);
        for (int d = 0; d < p->nloops; d++)
            if (p->loops[d].func_begin == e->begin) {
                maps_set_layouts(g, &p->loops[d]);
                put_node(t, g, d);
            }
        maps_set_layouts(g, NULL);
        line_directive(t, g, e->end);
        break;
    case EDIT_DOALL:
        own_line_directive(t, g);
        put_host_doall(t, g, e->item);
        line_directive(t, g, e->end);
        break;
    case EDIT_USE_OPEN: {
        const hd_host_use *u = &p->uses[e->item];
        if (u->wrap)
            put(t, "{ ");
        for (int k = 0; k < u->narrays; k++)
            putf(t, "hd_to_host(%d, %s); ", g->array_id[u->arrays[k]],
                 p->arrays[u->arrays[k]].name);
        break;
    }
    case EDIT_USE_CLOSE:
        put(t, " }");
        break;
    case EDIT_RESET:
        putf(t, " hd_where[%d] = %s;", g->array_id[e->item],
             host_names(g, e->item) ? "HD_ON_HOST" : "HD_ON_NODES");
        /* The translation may no longer name it. */
        __attribute__((fallthrough));
    case EDIT_USED:
        putf(t, " (void)%s;", p->arrays[e->item].name);
        break;
    case EDIT_MAIN:
        put(t, "hd_user_main");
        break;
    case EDIT_PRAGMA:
        /* Read already; a compiler would warn about it (-Wunknown-pragmas). */
        put(t, "// ");
        break;
    }
}

/* ------------------------------------------------------ the tables */

static bool omega_class(const hd_plan *plan)
{
    return plan->target.kind == HD_TARGET_OMEGA || plan->target.kind == HD_TARGET_BUTTERFLY;
}

/* On an omega-class network (Wu 1984) the mapping is a matrix F and each
 * communication's cost its passes D. */
static void put_omega_header(text *t, const gen *g)
{
    const hd_plan *plan = g->plan;
    int n = g->prog->n;
    putf(t, " (Wu 1984: the linear processor mapping with the fewest passes through the\n"
            " * %s, %s): physical processor = F virtual, rows of F\n * (bit j of row i is f_ij):",
         hd_target_name(&plan->target), plan->choice == HD_MAPPING_IDENTITY ? "here the identity"
         : n <= HD_OMEGA_EXACT_MAX_DIM ? "the best of GL(n, 2)" : "a descent from the identity");
    for (int i = 0; i < n; i++) {
        put(t, " ");
        for (int j = 0; j < n; j++)
            putf(t, "%d", (int)(plan->mapping.Q.row[i] >> j & 1));
    }
    put(t, ".\n *\n * Passes of each communication (D, Wu 1984 Corollary 2.1), before -> after:\n");
    int general = 0, lccs = 0;
    /* hd_program_spec's entries: the reads that make messages, in source
     * order, a reference read per stage once per stage. */
    for (int c = 0; c < plan->m; c++) {
        const hd_plan_comm *pc = &plan->comm[c];
        if (pc->in->comm.kind != HD_COMM_LCC) {
            general++;
            continue;
        }
        const hd_omega_price *given = plan->target.kind == HD_TARGET_OMEGA
                                          ? &pc->price->omega : &pc->price->butterfly;
        putf(t, " *   line %d: ", pc->in->line);
        put_commented(t, pc->in->name);
        putf(t, "  D = %llu -> %d\n", (unsigned long long)given->passes,
             pc->price->passes_after);
        lccs++;
    }
    if (lccs == 0)
        put(t, " *   (no linear-complement communication)\n");
    if (general)
        putf(t, " * and %d general communication%s (not LCCs: computed at run "
                "time).\n", general, general > 1 ? "s" : "");
    putf(t, " * In all%s: %llu -> %llu passes.\n", g->files ? " (every file)" : "",
         (unsigned long long)plan->passes_before,
         (unsigned long long)plan->passes_after);
    put_map_header(t, g);
    put(t, " */\n");
}

static void put_header(text *t, gen *g)
{
    const hd_program *p = g->prog;
    int n = p->n;
    put(t, "/*\n * Generated by hyperdo translate from ");
    put_commented(t, p->path);
    put(t, ": do not edit.\n");
    if (g->files) {
        /* One file of several: which, and that the mapping is the
         * program's (the communications listed are this file's). */
        put(t, " * One of the files of a program translated together (");
        for (int u = 0; u < g->files->nunits; u++) {
            put(t, u ? ", " : "");
            put_commented(t, g->files->progs[u].path);
        }
        put(t, "):\n * the mapping is the program's, for the doalls of all its files; the\n"
               " * communications listed are this file's.\n");
    }
    putf(t, " * The SPMD program (Hou et al. 2001, Fig. 1d) for the %d-cube "
            "(%d processors),\n * mapping %s", n, 1 << n,
         g->plan->choice == HD_MAPPING_IDENTITY ? "identity" : "optimal");
    if (omega_class(g->plan)) {
        put_omega_header(t, g);
        return;
    }
    if (g->plan->choice == HD_MAPPING_OPTIMAL)
        putf(t, " (Hou et al. 2001, Section 5; objective %s)",
             g->plan->objective == HD_OBJ_MAX ? "max"
             : g->plan->objective == HD_OBJ_MAXSUM ? "maxsum" : "sum");
    put(t, ": R(L_n) = (");
    for (int k = 0; k < n; k++)
        putf(t, k ? ",%d" : "%d", g->order.r[k]);
    put(t, "),\n * i.e. bit k of a physical processor's number is bit r_k of "
           "the virtual one's.\n *\n");
    put(t, " * Channel contention of each communication under e-cube routing "
           "(Hou et al. 2001,\n * Theorem 1; T_i = paths sharing a channel of dimension i, "
           "degree = max T_i), before -> after:\n");
    int general = 0, lccs = 0;
    /* hd_program_spec's entries (as in the omega header). */
    for (int c = 0; c < g->plan->m; c++) {
        const hd_plan_comm *pc = &g->plan->comm[c];
        if (pc->in->comm.kind != HD_COMM_LCC) {
            general++;
            continue;
        }
        putf(t, " *   line %d: ", pc->in->line);
        put_commented(t, pc->in->name);
        put(t, "  T = (");
        for (int i = 0; i < n; i++)
            putf(t, i ? ",%llu" : "%llu", (unsigned long long)pc->price->before[i]);
        put(t, ") -> (");
        for (int i = 0; i < n; i++)
            putf(t, i ? ",%llu" : "%llu", (unsigned long long)pc->price->after[i]);
        putf(t, "), degree %llu -> %llu\n",
             (unsigned long long)hd_contention_degree(pc->price->before, n),
             (unsigned long long)hd_contention_degree(pc->price->after, n));
        lccs++;
    }
    if (lccs == 0)
        put(t, " *   (no linear-complement communication)\n");
    if (general)
        putf(t, " * and %d general communication%s (not LCCs: computed at run "
                "time).\n", general, general > 1 ? "s" : "");
    putf(t, " * Worst degree%s: %llu -> %llu.\n", g->files ? " (every file)" : "",
         (unsigned long long)g->plan->worst_before, (unsigned long long)g->plan->worst_after);
    put_map_header(t, g);
    put(t, " */\n");
}

/* What main's return leaves for code that runs after it (atexit
 * handlers, destructors): every file-scope distributed array the
 * sequential code names is brought home while the processors still run,
 * and stays home (HD_ENDED) once they stop.  False when there is none. */
static bool put_at_end(text *t, const gen *g)
{
    const hd_program *p = g->prog;
    if (!helpers_needed(g).to_host)
        return false;
    bool any = false;
    for (int a = 0; a < p->narrays; a++) {
        /* A pointer's elements are home after every doall. */
        if (g->array_id[a] < 0 || !p->arrays[a].is_global || !host_names(g, a) ||
            p->arrays[a].pointer)
            continue;
        if (!any)
            put(t, "static void hd_at_end(void)\n{\n");
        any = true;
        putf(t, "    hd_to_host(%d, %s);\n    hd_where[%d] |= HD_ENDED;\n", g->array_id[a],
             p->arrays[a].name, g->array_id[a]);
    }
    if (any)
        put(t, "}\n\n");
    return any;
}

/* The rows of an n-row GF(2) map, as a C initializer. */
void put_rows(text *t, const hd_affine *m, int rows)
{
    put(t, "{");
    for (int r = 0; r < rows; r++)
        putf(t, "%s 0x%llxu", r ? "," : "", (unsigned long long)(m->row[r] & hd_mask(m->in)));
    put(t, " }");
}

/* The layouts that are no bit field, for hd_run_layouts (hyperdo.h,
 * hd_layout_desc): the owner and offset rows of each such array at the
 * start (under its file-scope mapping, if any), and hd_layouts naming
 * them (NULL: the bit field of the array table).  A remapped array's
 * tables are in the prologue (maps.c).  Nothing is written, and false
 * returned, when every layout at the start is a bit field, so such
 * programs are written as before. */
/* Is array a distributed by a GF(2) layout that is no bit field? */
static bool general_layout(const gen *g, int a)
{
    return g->array_id[a] >= 0 && g->layout[a].shift < 0 &&
           g->prog->arrays[a].dist != HD_DIST_TABLE;
}

static bool put_general_layouts(text *t, const gen *g)
{
    const hd_program *p = g->prog;
    bool any = false, here = false;
    for (int a = 0; a < p->narrays; a++) {
        any |= general_layout(g, a);
        here |= general_layout(g, a) && !maps_remapped(g, a);
    }
    if (!any)
        return false;
    /* Each kind present, said once; a program of skews only keeps the
     * comment it always had. */
    bool skew = false, block2d = false, cyclic2d = false, batcher = false, mapped = false;
    for (int a = 0; a < p->narrays; a++) {
        if (!general_layout(g, a) || maps_remapped(g, a))
            continue;
        mapped |= g->base[a].shift >= 0 || hd_map_initial(p, a);
        if (g->base[a].shift >= 0)
            continue;
        hd_dist_kind d = p->arrays[a].dist;
        skew |= d == HD_DIST_SKEW || d == HD_DIST_SKEW_ROT;
        block2d |= d == HD_DIST_BLOCK_2D;
        cyclic2d |= d == HD_DIST_CYCLIC_2D;
        batcher |= d == HD_DIST_XOR;
    }
    int pr = 1 << hd_grid_rows_log2(p->n), pc = (1 << p->n) / pr;
    if (here) {
        put(t, "/* Layouts whose owner is no bit field of the element index: bit t of\n"
               " * the owner (of the offset) of element e is the parity of e AND row t\n * (");
        const char *sep = "";
        if (skew) {
            put(t, "Lee and Aboelaze's skew: A(i, j) at offset i of processor xi(i) XOR j");
            sep = ";\n * ";
        }
        if (block2d) {
            putf(t, "%sHPF's (BLOCK, BLOCK) (High Performance Fortran Forum 1993) on a\n"
                    " * %d x %d processor grid: A(i, j) on the\n"
                    " * processor of its row block and column block", sep, pr, pc);
            sep = ";\n * ";
        }
        if (cyclic2d) {
            putf(t, "%sHPF's (CYCLIC, CYCLIC) (High Performance Fortran Forum 1993) on a\n"
                    " * %d x %d processor grid: A(i, j) on\n"
                    " * processor (i mod %d) * %d + (j mod %d)", sep, pr, pc, pr, pc, pc);
            sep = ";\n * ";
        }
        if (batcher) {
            putf(t, "%sBatcher 1977's storage: A(i, j) at offset i of processor i XOR j", sep);
            sep = ";\n * ";
        }
        if (mapped)
            putf(t, "%sa data mapping of Wu 1984, Section 1.2: element e on processor\n"
                    " * F(owner(e)), then XOR the owner's constant", sep);
        put(t, "). */\n");
    }
    for (int a = 0; a < p->narrays; a++) {
        const hd_layout *l = &g->layout[a];
        if (!general_layout(g, a) || maps_remapped(g, a))
            continue;
        int id = g->array_id[a];
        putf(t, "static const uint64_t hd_owner_rows_%d[%d] = ", id, l->n);
        put_rows(t, &l->owner, l->n);
        putf(t, ";\nstatic const uint64_t hd_offset_rows_%d[%d] = ", id,
             l->bits - l->n > 0 ? l->bits - l->n : 1);
        if (l->bits - l->n > 0)
            put_rows(t, &l->offset, l->bits - l->n);
        else
            put(t, "{ 0 }");
        putf(t, ";\nstatic const hd_layout_desc hd_layout_%d = {   /* %s */\n"
                "    hd_owner_rows_%d, 0x%llxu, hd_offset_rows_%d, 0x%llxu\n};\n",
             id, p->arrays[a].name, id,
             (unsigned long long)(l->owner.c & hd_mask(l->n)), id,
             (unsigned long long)(l->offset.c & hd_mask(l->bits - l->n)));
    }
    putf(t, "static const hd_layout_desc *const hd_layouts[%d] = {", g->ndist);
    for (int a = 0, first = 1; a < p->narrays; a++) {
        if (g->array_id[a] < 0)
            continue;
        put(t, first ? " " : ", ");
        first = 0;
        if (maps_remapped(g, a))
            put_map_layout_ref(t, g, a);
        else if (general_layout(g, a))
            putf(t, "&hd_layout_%d", g->array_id[a]);
        else
            put(t, "NULL");
    }
    put(t, " };\n\n");
    return true;
}

/* The owner tables of the arrays distributed by table(T), for
 * hd_run_tables: T itself (a const int array of the program, which every
 * processor has), or a mapping file's owners, read when translating.
 * false, nothing written, when no array has one. */
static bool put_owner_tables(text *t, const gen *g)
{
    const hd_program *p = g->prog;
    bool any = false;
    for (int a = 0; a < p->narrays; a++)
        any |= g->array_id[a] >= 0 && p->arrays[a].dist == HD_DIST_TABLE;
    if (!any)
        return false;
    bool spreads = false;
    for (int k = 0; k < p->ntables; k++)
        spreads |= p->tables[k].spread != HD_DIST_NONE;
    put(t, "/* Arrays distributed by a table: element e on virtual processor owner[e]\n"
           " * (a mapping of a finite element graph onto the cube, Chung and Ranka 1990)");
    if (spreads)
        put(t, ",\n * or spread (no owners: blocks of b elements dealt out in turn, b = ceil(N/P)\n"
               " * for 0; HPF's BLOCK and CYCLIC of any extent N)");
    put(t, ". */\n");
    for (int k = 0; k < p->ntables; k++) {
        const hd_owner_table *ot = &p->tables[k];
        if (!ot->from_file || ot->size < 0)
            continue;
        putf(t, "static const int hd_owner_file_%d[%lld] = {   /* ", k,
             (long long)(ot->size ? ot->size : 1));
        put_commented(t, ot->name);
        put(t, " */");
        for (int64_t e = 0; e < ot->size; e++)
            putf(t, "%s%s%d", e ? "," : "", e % 20 ? " " : "\n    ", ot->owner[e]);
        if (!ot->size)
            put(t, " 0");
        put(t, "\n};\n");
    }
    for (int k = 0; k < p->ntables; k++) {
        const hd_owner_table *ot = &p->tables[k];
        if (ot->size < 0)
            continue;
        putf(t, "static const hd_table_desc hd_table_%d = { %lld, ", k, (long long)ot->size);
        if (ot->spread != HD_DIST_NONE)
            putf(t, "NULL, %lld };   /* %s%s%s */\n", (long long)ot->block, ot->name,
                 ot->extent ? ", extent " : "", ot->extent ? ot->extent : "");
        else if (ot->from_file)
            putf(t, "hd_owner_file_%d, 0 };\n", k);
        else
            putf(t, "%s, 0 };\n", ot->name);
    }
    putf(t, "static const hd_table_desc *const hd_tables[%d] = {", g->ndist);
    for (int a = 0, first = 1; a < p->narrays; a++) {
        if (g->array_id[a] < 0)
            continue;
        put(t, first ? " " : ", ");
        first = 0;
        if (p->arrays[a].dist == HD_DIST_TABLE)
            putf(t, "&hd_table_%d", p->arrays[a].table);
        else
            put(t, "NULL");
    }
    put(t, " };\n\n");
    return true;
}

void put_mapping_tables(text *t, const gen *g)
{
    const hd_program *p = g->prog;
    int P = 1 << p->n;
    put(t, "\n/* hyperdo: the mapping (Hou et al. 2001, Section 3, Fig. 1d): virtual "
           "processor v runs\n * on physical processor hd_to_physical[v]; "
           "v_get_pid() returns hd_to_virtual[p]. */\n");
    /* Any mapping (hd_mapping) is these two tables. */
    uint32_t *to_virtual = hd_xmalloc((size_t)P * sizeof *to_virtual);
    putf(t, "static const int hd_to_physical[%d] = {", P);
    for (int v = 0; v < P; v++) {
        uint64_t phys = hd_mapping_apply(&g->plan->mapping, (uint64_t)v);
        to_virtual[phys] = (uint32_t)v;
        putf(t, "%s%s%llu", v ? "," : "", v % 16 ? " " : "\n    ",
             (unsigned long long)phys);
    }
    put(t, "\n};\n");
    putf(t, "static const int hd_to_virtual[%d] = {", P);
    for (int v = 0; v < P; v++)
        putf(t, "%s%s%u", v ? "," : "", v % 16 ? " " : "\n    ", to_virtual[v]);
    put(t, "\n};\n\n");
    free(to_virtual);
}

void put_array_row(text *t, const hd_array *x, int shift, bool host_static)
{
    /* The shift is unused under a general layout (hd_layout_desc),
     * and log2_size too under a table (hd_tables). */
    if (x->dist == HD_DIST_TABLE) {
        putf(t, "    { \"%s\", %lld, 0, 0, 0 },   /* %s, by a table */\n", x->name,
             x->elem_size, x->elem_type);
        return;
    }
    putf(t, "    { \"%s\", %lld, %d, %d, %s },   /* %s */\n", x->name,
         x->elem_size, x->log2_size, shift < 0 ? 0 : shift,
         host_static ? "HD_ARRAY_HOST_STATIC" : "0", x->elem_type);
}

static void put_tables(text *t, const gen *g)
{
    const hd_program *p = g->prog;
    put_mapping_tables(t, g);
    put(t, "/* Distributed arrays: element e lives on virtual processor "
           "hd_owner(e, shift, n). */\n");
    putf(t, "static const hd_array_desc hd_arrays[%d] = {\n", g->ndist ? g->ndist : 1);
    for (int a = 0; a < p->narrays; a++) {
        if (g->array_id[a] < 0)
            continue;
        const hd_array *x = &p->arrays[a];
        /* A file-scope array whose address does not escape is the same
         * object all run long, touched only where hd_to_host says. */
        put_array_row(t, x, g->base[a].shift, x->is_global && !x->host_escapes);
    }
    if (!g->ndist)
        put(t, "    { 0, 0, 0, 0, 0 },\n");
    put(t, "};\n\n");
    bool general = put_general_layouts(t, g);
    bool tables = put_owner_tables(t, g);
    putf(t, "static const hd_node_fn hd_doalls[%d] = {", p->nloops ? p->nloops : 1);
    for (int d = 0; d < p->nloops; d++)
        putf(t, "%s hd_node_%d", d ? "," : "", d);
    if (!p->nloops)
        put(t, " 0");
    put(t, " };\n\n");
    if (p->main_params == 0)
        put(t, "static int hd_main(int argc, char **argv)\n{\n"
               "    (void)argc;\n    (void)argv;\n    return hd_user_main();\n}\n\n");
    bool at_end = put_at_end(t, g);
    put(t, "static const hd_program_desc hd_program = {\n    ");
    put_quoted(t, p->path);
    putf(t, ", %d, hd_to_virtual, hd_to_physical,\n"
            "    %d, hd_arrays, %d, hd_doalls, %s, %s\n};\n\n",
         p->n, g->ndist, p->nloops,
         p->main_params == 0 ? "hd_main" : "hd_user_main", at_end ? "hd_at_end" : "NULL");
    put(t, "int main(int argc, char **argv)\n{\n");
    /* A static array that only doalls use is no longer named by the
     * translation's own code (the node code uses its slices). */
    for (int a = 0; a < p->narrays; a++)
        if (g->array_id[a] >= 0 && p->arrays[a].is_global)
            putf(t, "    (void)%s;\n", p->arrays[a].name);
    if (tables)
        putf(t, "    return hd_run_tables(&hd_program, %s, hd_tables, argc, argv);\n}\n",
             general ? "hd_layouts" : "NULL");
    else if (general)
        put(t, "    return hd_run_layouts(&hd_program, hd_layouts, argc, argv);\n}\n");
    else
        put(t, "    return hd_run(&hd_program, argc, argv);\n}\n");
}

/* ---------------------------------------------------------- driver */

static void release(gen *g)
{
    maps_free(g);
    free(g->array_id);
    free(g->keeps);
    free(g->layout);
    g->layout = NULL;
    free(g->line_start);
    g->array_id = NULL;
    g->line_start = NULL;
}

/* Does text name one of Fig. 1d's calls (v_get_pid, v_send, v_receive,
 * v_barrier) as a whole identifier? */
static bool text_names_fig1d_call(const char *s, size_t len)
{
    static const char *const names[] = { "v_get_pid", "v_send", "v_receive", "v_barrier" };
    for (size_t k = 0; k + 2 < len; k++) {
        if (s[k] != 'v' || s[k + 1] != '_' ||
            (k > 0 && (isalnum((unsigned char)s[k - 1]) || s[k - 1] == '_')))
            continue;
        for (size_t j = 0; j < sizeof names / sizeof names[0]; j++) {
            size_t n = strlen(names[j]);
            if (k + n <= len && memcmp(s + k, names[j], n) == 0 &&
                (k + n == len || !(isalnum((unsigned char)s[k + n]) || s[k + n] == '_')))
                return true;
        }
    }
    return false;
}

/* Only hd_ and HD_ names are reserved (docs/codegen.md, "Names"): a
 * program, or a header of its own, that uses v_send & co. keeps them, and
 * the node code calls the library's hd_v_ names.  System headers (under
 * /usr) do not declare them. */
static bool names_fig1d_calls(const hd_program *prog, const char *src, size_t len)
{
    if (text_names_fig1d_call(src, len))
        return true;
    for (int k = 0; k < prog->nincludes; k++) {
        if (strncmp(prog->includes[k], "/usr/", 5) == 0)
            continue;
        FILE *f = fopen(prog->includes[k], "rb");
        char *body = NULL;
        long size = -1;
        if (f && fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 &&
            fseek(f, 0, SEEK_SET) == 0) {
            body = hd_xmalloc((size_t)size + 1);
            if (fread(body, 1, (size_t)size, f) != (size_t)size)
                size = -1;
        }
        if (f)
            fclose(f);
        /* Unreadable: the reserved names are always safe. */
        bool found = !body || size < 0 || text_names_fig1d_call(body, (size_t)size);
        free(body);
        if (found)
            return true;
    }
    return false;
}

int hd_codegen(const hd_program *prog, const hd_analysis *results, const hd_plan *plan,
               const char *src, size_t len,
               const hd_codegen_options *opt, char **out, size_t *out_len,
               char **diagnostics)
{
    gen g = { .prog = prog, .results = results, .plan = plan, .src = src, .len = len,
              .opt = opt, .files = opt->files,
              .loop_base = opt->files ? opt->files->loop_base[opt->files->unit] : 0 };
    hd_diags_init(&g.d, prog->path);
    hd_diags_set_source(&g.d, src, len);
    *out = NULL;
    *out_len = 0;
    *diagnostics = NULL;
    index_lines(&g);
    g.v = names_fig1d_calls(prog, src, len) ? "hd_v_" : "v_";

    if (prog->n == 0) {
        /* No doall and no dimension: the front end read nothing else. */
        hd_report_file(&g.d, "no '#pragma hyperdo doall' loop and no cube "
                       "dimension: nothing to translate (give --dim n or '#pragma "
                       "hyperdo cube(n)' to translate it anyway)");
        *diagnostics = hd_diags_text(&g.d);
        hd_diags_free(&g.d);
        free(g.line_start);
        return 1;
    }
    if (prog->n > HD_CODEGEN_MAX_DIM) {
        hd_report_file(&g.d, "a %d-cube: the translator's tables handle "
                       "1 to %d dimensions", prog->n, HD_CODEGEN_MAX_DIM);
    } else if (!plan || plan->n != prog->n) {
        hd_report_input(&g.d, "internal error: no plan for this program's communications");
    } else {
        g.order = plan->order;
    }
    if (!prog->has_main && !g.files) {
        hd_report_file(&g.d, "no definition of main: the translated "
                       "program's host runs the file's own main");
    } else if (!prog->has_main) {
        /* Another file of the program defines it (the front end saw to
         * it, files.c). */
    } else if (prog->main_params != 0 && prog->main_params != 2) {
        error_at(&g, prog->main_name, "main must take no parameters or "
                 "(int argc, char **argv)");
    }
    for (int d = 0; d < prog->nloops; d++)
        check_loop(&g, &prog->loops[d]);
    g.array_id = hd_xmalloc((size_t)(prog->narrays ? prog->narrays : 1) * sizeof *g.array_id);
    g.keeps = hd_xcalloc((size_t)(prog->nloops ? prog->nloops : 1), sizeof *g.keeps);
    g.layout = hd_xcalloc((size_t)prog->narrays, sizeof *g.layout);
    for (int a = 0; a < prog->narrays; a++)
        g.array_id[a] = prog->arrays[a].dist == HD_DIST_NONE ? -1
                        : g.files ? g.files->array_id[g.files->unit][a] : g.ndist++;
    if (g.files)
        g.ndist = g.files->ndist;
    maps_collect(&g);
    if (g.d.errors) {
        release(&g);
        *diagnostics = hd_diags_text(&g.d);
        int errors = g.d.errors;
        hd_diags_free(&g.d);
        return errors;
    }

    /* The edits, in file order. */
    int nedits = 0, cap = 4 + prog->nloops * 2 + prog->nuses * 2 + prog->narrays +
                          prog->npragmas + prog->nmain_refs;
    edit *edits = hd_xcalloc((size_t)cap, sizeof *edits);
    edits[nedits++] = (edit){ prog->first_function, prog->first_function,
                              EDIT_PROLOGUE, 0, nedits };
    for (int d = 0; d < prog->nloops; d++) {
        const hd_loop *l = &prog->loops[d];
        bool first_here = true;
        for (int e = 0; e < d; e++)
            first_here &= prog->loops[e].func_begin != l->func_begin;
        if (first_here)
            edits[nedits++] = (edit){ l->func_begin, l->func_begin, EDIT_NODES,
                                      d, nedits };
        edits[nedits++] = (edit){ l->pragma_begin, l->stmt_end, EDIT_DOALL, d,
                                  nedits };
    }
    for (int u = 0; u < prog->nuses; u++) {
        const hd_host_use *use = &prog->uses[u];
        edits[nedits++] = (edit){ use->begin, use->begin, EDIT_USE_OPEN, u, nedits };
        if (use->wrap)
            edits[nedits++] = (edit){ use->end, use->end, EDIT_USE_CLOSE, u, nedits };
    }
    for (int a = 0; a < prog->narrays; a++) {
        if (g.array_id[a] >= 0 && prog->arrays[a].decl_end)
            edits[nedits++] = (edit){ prog->arrays[a].decl_end,
                                      prog->arrays[a].decl_end, EDIT_RESET, a,
                                      nedits };
        if (g.array_id[a] >= 0 && prog->arrays[a].static_end)
            edits[nedits++] = (edit){ prog->arrays[a].static_end,
                                      prog->arrays[a].static_end, EDIT_USED, a, nedits };
    }
    if (prog->has_main)
        edits[nedits++] = (edit){ prog->main_name, prog->main_name + 4, EDIT_MAIN, 0,
                                  nedits };
    for (int k = 0; k < prog->nmain_refs; k++)
        edits[nedits++] = (edit){ prog->main_refs[k], prog->main_refs[k] + 4, EDIT_MAIN, 0,
                                  nedits };
    for (int k = 0; k < prog->npragmas; k++)
        edits[nedits++] = (edit){ prog->pragmas[k], prog->pragmas[k], EDIT_PRAGMA,
                                  k, nedits };
    qsort(edits, (size_t)nedits, sizeof *edits, edit_order);

    text t = { 0 };
    put_header(&t, &g);
    put(&t, "#line 1 ");
    put_quoted(&t, prog->path);
    put(&t, "\n");
    size_t at = 0;
    for (int k = 0; k < nedits; k++) {
        const edit *e = &edits[k];
        if (e->begin < at) {
            error_at(&g, e->begin, "internal error: overlapping edits");
            break;
        }
        put_source(&t, &g, at, e->begin);
        if (e->kind == EDIT_PROLOGUE || e->kind == EDIT_NODES || e->kind == EDIT_DOALL)
            if (t.len && t.s[t.len - 1] != '\n')
                put(&t, "\n");
        put_edit(&t, &g, e);
        at = e->end;
    }
    put_source(&t, &g, at, len);
    own_line_directive(&t, &g);
    if (g.files)
        files_put_end(&t, &g);
    else
        put_tables(&t, &g);
    free(edits);
    release(&g);
    *diagnostics = hd_diags_text(&g.d);
    hd_diags_free(&g.d);
    if (g.d.errors) {
        free(t.s);
        return g.d.errors;
    }
    *out_len = t.len;
    *out = take(&t);
    return 0;
}
