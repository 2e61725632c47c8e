/*
 * files.c — the code of a program of several files (translate a.c b.c
 * -o DIR; docs/codegen.md, "Programs of several files") that ties its
 * files together:
 *
 *   - one record of where each array's newest elements are, hd_where,
 *     indexed by the program's numbering of its arrays (an array declared
 *     without static in several files is one array, one entry): defined
 *     in the file with main, declared `extern` in the others, so that a
 *     doall of one file and a statement of another that uses its array
 *     agree on whether the host must fetch it (hd_to_host) or send it
 *     (hd_to_nodes);
 *   - the program's tables (the mapping, the arrays, the node functions
 *     of all files: hd_node_<number> without static) and the real main,
 *     in the file with main;
 *   - at the end of every other file that has arrays at file scope,
 *     hd_at_end_<file>, which main's hd_at_end calls when main returns:
 *     it brings home the arrays that file is the first to declare, as a
 *     program of one file brings home its own.
 */
#include "codegen_internal.h"

#include <stdlib.h>

/* The program's array `id`: its first file and its index there. */
static const hd_array *array_of_id(const gen *g, int id, int *unit, int *index)
{
    const hd_codegen_files *f = g->files;
    for (int u = 0; u < f->nunits; u++)
        for (int a = 0; a < f->progs[u].narrays; a++)
            if (f->array_id[u][a] == id) {
                if (unit)
                    *unit = u;
                if (index)
                    *index = a;
                return &f->progs[u].arrays[a];
            }
    return NULL;
}

bool files_host_names(const gen *g, int id)
{
    const hd_codegen_files *f = g->files;
    for (int u = 0; u < f->nunits; u++)
        for (int a = 0; a < f->progs[u].narrays; a++)
            if (f->array_id[u][a] == id && program_host_names(&f->progs[u], a))
                return true;
    return false;
}

/* Does file `unit` bring its array a home when main returns?  An array
 * at file scope that some file's sequential code names, brought by the
 * first file that declares it. */
static bool brings_home(const gen *g, int unit, int a)
{
    const hd_codegen_files *f = g->files;
    const hd_array *x = &f->progs[unit].arrays[a];
    int id = f->array_id[unit][a], first = -1;
    if (id < 0 || !x->is_global || !files_host_names(g, id))
        return false;
    array_of_id(g, id, &first, NULL);
    return first == unit;
}

bool files_brings_home_any(const gen *g, int unit)
{
    for (int a = 0; a < g->files->progs[unit].narrays; a++)
        if (brings_home(g, unit, a))
            return true;
    return false;
}

/* Does file `unit` (not the one with main) end with hd_at_end_<unit>:
 * it brings arrays home, or has static arrays at file scope that only
 * its doalls use, which the translation no longer names (the function
 * names them, as main does those of its file)? */
static bool has_at_end(const gen *g, int unit)
{
    const hd_program *p = &g->files->progs[unit];
    for (int a = 0; a < p->narrays; a++)
        if (g->files->array_id[unit][a] >= 0 && p->arrays[a].is_global &&
            (!p->arrays[a].external || brings_home(g, unit, a)))
            return true;
    return false;
}

void files_put_where(text *t, const gen *g)
{
    const hd_codegen_files *f = g->files;
    if (f->unit != f->main_unit) {
        putf(t, "extern unsigned char hd_where[%d];   /* the program's, in ", g->ndist);
        put_commented(t, f->progs[f->main_unit].path);
        put(t, " */\n\n");
        return;
    }
    put(t, "/* The program's record, which its other files declare extern. */\n");
    putf(t, "unsigned char hd_where[%d] = {", g->ndist);
    for (int id = 0; id < g->ndist; id++)
        putf(t, "%s%s", id ? ", " : " ", files_host_names(g, id) ? "HD_ON_HOST" : "HD_ON_NODES");
    put(t, " };\n");
    for (int id = 0; id < g->ndist; id++)
        if (!files_host_names(g, id)) {
            put(t, "/* The sequential code never names ");
            put_commented(t, array_of_id(g, id, NULL, NULL)->name);
            put(t, ": it lives only on the processors, which start\n"
                   " * with it zeroed, and the host never touches its own copy. */\n");
            break;
        }
    put(t, "\n");
}

/* Bringing file unit's arrays home (hd_to_host, then home for good), and
 * naming its static ones; nothing else is written. */
static void put_bring_home(text *t, const gen *g, int unit, bool statics)
{
    const hd_codegen_files *f = g->files;
    const hd_program *p = &f->progs[unit];
    for (int a = 0; a < p->narrays; a++) {
        int id = f->array_id[unit][a];
        if (id < 0 || !p->arrays[a].is_global)
            continue;
        if (statics && !p->arrays[a].external)
            putf(t, "    (void)%s;\n", p->arrays[a].name);
        if (brings_home(g, unit, a))
            putf(t, "    hd_to_host(%d, %s);\n    hd_where[%d] |= HD_ENDED;\n", id,
                 p->arrays[a].name, id);
    }
}

/* The layouts that are no bit field (hd_layout_desc), as a program of one
 * file writes them; false, nothing written, when there are none. */
static bool put_files_layouts(text *t, const gen *g)
{
    int n = g->prog->n;
    bool any = false;
    for (int id = 0; id < g->ndist; id++) {
        const hd_array *x = array_of_id(g, id, NULL, NULL);
        hd_layout l = hd_array_layout(x, n);
        if (l.shift >= 0)
            continue;
        if (!any)
            put(t, "/* Layouts whose owner is no bit field of the element index: bit t of\n"
                   " * the owner (of the offset) of element e is the parity of e AND row t\n"
                   " * (docs/layouts.md). */\n");
        any = true;
        putf(t, "static const uint64_t hd_owner_rows_%d[%d] = ", id, l.n);
        put_rows(t, &l.owner, l.n);
        putf(t, ";\nstatic const uint64_t hd_offset_rows_%d[%d] = ", id,
             l.bits - l.n > 0 ? l.bits - l.n : 1);
        if (l.bits - l.n > 0)
            put_rows(t, &l.offset, l.bits - l.n);
        else
            put(t, "{ 0 }");
        putf(t, ";\nstatic const hd_layout_desc hd_layout_%d = {   /* %s */\n"
                "    hd_owner_rows_%d, 0x%llxu, hd_offset_rows_%d, 0x%llxu\n};\n",
             id, x->name, id, (unsigned long long)(l.owner.c & hd_mask(l.n)), id,
             (unsigned long long)(l.offset.c & hd_mask(l.bits - l.n)));
    }
    if (!any)
        return false;
    putf(t, "static const hd_layout_desc *const hd_layouts[%d] = {", g->ndist);
    for (int id = 0; id < g->ndist; id++) {
        hd_layout l = hd_array_layout(array_of_id(g, id, NULL, NULL), n);
        put(t, id ? ", " : " ");
        if (l.shift < 0)
            putf(t, "&hd_layout_%d", id);
        else
            put(t, "NULL");
    }
    put(t, " };\n\n");
    return true;
}

/* The program's tables and the real main, in the file with main: as a
 * program of one file has them, over the arrays and doalls of all. */
static void put_program_tables(text *t, const gen *g)
{
    const hd_codegen_files *f = g->files;
    const hd_program *p = g->prog;
    put_mapping_tables(t, g);
    put(t, "/* Distributed arrays of all the program's files: element e lives on\n"
           " * virtual processor hd_owner(e, shift, n). */\n");
    putf(t, "static const hd_array_desc hd_arrays[%d] = {\n", g->ndist ? g->ndist : 1);
    for (int id = 0; id < g->ndist; id++) {
        const hd_array *x = array_of_id(g, id, NULL, NULL);
        put_array_row(t, x, hd_array_layout(x, p->n).shift, x->is_global && !x->host_escapes);
    }
    if (!g->ndist)
        put(t, "    { 0, 0, 0, 0, 0 },\n");
    put(t, "};\n\n");
    bool general = put_files_layouts(t, g);
    bool others = false;
    for (int u = 0; u < f->nunits; u++)
        if (u != f->unit && f->progs[u].nloops) {
            if (!others)
                put(t, "/* The node functions of the program's other files. */\n");
            others = true;
            for (int d = 0; d < f->progs[u].nloops; d++)
                putf(t, "void hd_node_%d(const void *hd_arg);   /* %s:%d */\n",
                     f->loop_base[u] + d, f->progs[u].path, f->progs[u].loops[d].line);
        }
    if (others)
        put(t, "\n");
    putf(t, "static const hd_node_fn hd_doalls[%d] = {", f->nloops ? f->nloops : 1);
    for (int d = 0; d < f->nloops; d++)
        putf(t, "%s hd_node_%d", d ? "," : "", d);
    if (!f->nloops)
        put(t, " 0");
    put(t, " };\n\n");
    if (p->main_params == 0)
        put(t, "static int hd_main(int argc, char **argv)\n{\n"
               "    (void)argc;\n    (void)argv;\n    return hd_user_main();\n}\n\n");
    bool at_end = files_brings_home_any(g, f->unit);
    for (int u = 0; u < f->nunits; u++)
        if (u != f->unit && has_at_end(g, u)) {
            putf(t, "void hd_at_end_%d(void);   /* ", u);
            put_commented(t, f->progs[u].path);
            put(t, " */\n");
            at_end = true;
        }
    if (at_end) {
        put(t, "static void hd_at_end(void)\n{\n");
        put_bring_home(t, g, f->unit, false);
        for (int u = 0; u < f->nunits; u++)
            if (u != f->unit && has_at_end(g, u))
                putf(t, "    hd_at_end_%d();\n", u);
        put(t, "}\n\n");
    }
    put(t, "static const hd_program_desc hd_program = {\n    ");
    put_quoted(t, p->path);
    putf(t, ", %d, hd_to_virtual, hd_to_physical,\n"
            "    %d, hd_arrays, %d, hd_doalls, %s, %s\n};\n\n",
         p->n, g->ndist, f->nloops,
         p->main_params == 0 ? "hd_main" : "hd_user_main", at_end ? "hd_at_end" : "NULL");
    put(t, "int main(int argc, char **argv)\n{\n");
    /* A static array that only doalls use is no longer named by the
     * translation's own code (the node code uses its slices). */
    for (int a = 0; a < p->narrays; a++)
        if (g->array_id[a] >= 0 && p->arrays[a].is_global)
            putf(t, "    (void)%s;\n", p->arrays[a].name);
    if (general)
        put(t, "    return hd_run_layouts(&hd_program, hd_layouts, argc, argv);\n}\n");
    else
        put(t, "    return hd_run(&hd_program, argc, argv);\n}\n");
}

void files_put_end(text *t, const gen *g)
{
    const hd_codegen_files *f = g->files;
    if (f->unit == f->main_unit) {
        put_program_tables(t, g);
        return;
    }
    if (!has_at_end(g, f->unit))
        return;
    putf(t, "\n/* hyperdo: when main returns (hd_at_end of ");
    put_commented(t, f->progs[f->main_unit].path);
    put(t, "), this file's arrays come home. */\n");
    putf(t, "void hd_at_end_%d(void);\nvoid hd_at_end_%d(void)\n{\n", f->unit, f->unit);
    put_bring_home(t, g, f->unit, true);
    put(t, "}\n");
}
