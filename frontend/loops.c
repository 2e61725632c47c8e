/*
 * loops.c — the AST walk that finds the doall loops, and the reading of
 * one: its canonical header, its body (bodies.c), loops nested in it.
 */
#include "frontend_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The byte offsets of the two ';' and the ')' of a for header, read from
 * the text after the `for` keyword (a doall's `for` is always in the main
 * file: the pragma scan checked it). */
static bool header_offsets(reader *r, int loop, unsigned *semi1,
                           unsigned *semi2, unsigned *rparen)
{
    bool in_main = true;
    size_t k = skip_blank(r->src, r->len, start_of(r, loop, &in_main) + 3);
    int depth = 0, semis = 0;
    if (!in_main || k >= r->len || r->src[k] != '(')
        return false;
    for (; k < r->len; k = skip_blank(r->src, r->len, k + 1)) {
        char ch = r->src[k];
        if (ch == '"' || ch == '\'') {
            k = literal_end(r->src, r->len, k);
        } else if (ch == '(') {
            depth++;
        } else if (ch == ')' && --depth == 0) {
            *rparen = (unsigned)k;
            return semis == 2;
        } else if (ch == ';' && depth == 1) {
            if (semis == 2)
                return false;
            *(semis++ == 0 ? semi1 : semi2) = (unsigned)k;
        }
    }
    return false;
}

bool for_parts(reader *r, int loop, int *init, int *cond, int *inc, int *body)
{
    unsigned semi1 = 0, semi2 = 0, rparen = 0;
    *init = *cond = *inc = *body = -1;
    if (!header_offsets(r, loop, &semi1, &semi2, &rparen))
        return false;
    children kids = kids_of(r, loop);
    for (int k = 0; k < kids.n && k < 8; k++) {
        bool in_main = true;
        unsigned off = start_of(r, kids.kid[k], &in_main);
        if (off < semi1) *init = kids.kid[k];
        else if (off < semi2) *cond = kids.kid[k];
        else if (off < rparen) *inc = kids.kid[k];
        else *body = kids.kid[k];
    }
    return *body >= 0;
}

static bool evaluates_to(reader *r, int x, long long want)
{
    long long v;
    return evaluate(cursor_of(r, x), &v) && v == want;
}

static bool names_var(reader *r, int x, CXCursor var)
{
    x = strip_wrappers(r, x);
    return kind_of(r, x) == CXCursor_DeclRefExpr &&
           clang_equalCursors(clang_getCursorReferenced(cursor_of(r, x)), var);
}

int for_start(reader *r, int init, CXCursor *var)
{
    children ik = kids_of(r, init);
    if (kind_of(r, init) == CXCursor_DeclStmt && ik.n == 1 &&
        kind_of(r, ik.kid[0]) == CXCursor_VarDecl) {
        children vk = kids_of(r, ik.kid[0]);
        if (vk.n < 1)
            return -1;
        *var = cursor_of(r, ik.kid[0]);
        return vk.kid[vk.n < 8 ? vk.n - 1 : 7];
    }
    if (kind_of(r, init) == CXCursor_BinaryOperator && ik.n == 2 &&
        kind_of(r, strip_wrappers(r, ik.kid[0])) == CXCursor_DeclRefExpr) {
        char op[16];
        operator_text(r, &ik, op, sizeof op);
        if (strcmp(op, "=") == 0) {
            *var = clang_getCursorReferenced(cursor_of(r, strip_wrappers(r, ik.kid[0])));
            return ik.kid[1];
        }
    }
    return -1;
}

bool steps_by_one(reader *r, int inc, CXCursor var)
{
    children kids = kids_of(r, inc);
    char op[16];
    bool postfix;
    switch (kind_of(r, inc)) {
    case CXCursor_UnaryOperator:
        if (kids.n != 1 || !names_var(r, kids.kid[0], var))
            return false;
        unary_text(r, inc, kids.kid[0], op, sizeof op, &postfix);
        return strcmp(op, "++") == 0;
    case CXCursor_CompoundAssignOperator:
        if (kids.n != 2 || !names_var(r, kids.kid[0], var))
            return false;
        operator_text(r, &kids, op, sizeof op);
        return strcmp(op, "+=") == 0 && evaluates_to(r, kids.kid[1], 1);
    case CXCursor_BinaryOperator: {
        if (kids.n != 2 || !names_var(r, kids.kid[0], var))
            return false;
        operator_text(r, &kids, op, sizeof op);
        int sum = strip_wrappers(r, kids.kid[1]);
        children terms = kids_of(r, sum);
        char plus[16];
        if (strcmp(op, "=") != 0 || kind_of(r, sum) != CXCursor_BinaryOperator ||
            terms.n != 2)
            return false;
        operator_text(r, &terms, plus, sizeof plus);
        return strcmp(plus, "+") == 0 &&
               ((names_var(r, terms.kid[0], var) && evaluates_to(r, terms.kid[1], 1)) ||
                (names_var(r, terms.kid[1], var) && evaluates_to(r, terms.kid[0], 1)));
    }
    default:
        return false;
    }
}

/* Is some array of the file distributed by a table (table(T))? */
static bool has_table_pragma(reader *r)
{
    for (int k = 0; k < r->npragmas; k++)
        if (r->pragmas[k].kind == PRAGMA_DISTRIBUTE && r->pragmas[k].dist == HD_DIST_TABLE)
            return true;
    return false;
}

static const char canonical_form[] =
    "write 'for (int i = lo; i < hi; i++)' (or '++i', 'i += 1', an 'i' "
    "declared earlier)";

static hd_expr *as_long(hd_expr *e)
{
    hd_expr *c = hd_expr_new(HD_EX_CAST, 64, true);
    c->kid[0] = e;
    c->nkids = 1;
    return c;
}

static hd_expr *binary(hd_op op, hd_expr *a, hd_expr *b)
{
    hd_expr *e = hd_expr_new(HD_EX_BINARY, op == HD_OP_LAND || op == HD_OP_GE ||
                             op == HD_OP_LT ? 32 : 64, true);
    e->op = op;
    e->kid[0] = a;
    e->kid[1] = b;
    e->nkids = 2;
    return e;
}

/* The value at node x (known: v), converted to the loop variable's type
 * when bits > 0, as C's i = lo does, then widened. */
static hd_expr *value_of(reader *r, int x, bool known, long long v, int bits, bool sg)
{
    if (!known && bits > 0) {
        hd_expr *c = hd_expr_new(HD_EX_CAST, bits, sg);
        c->kid[0] = expr_of(r, x);
        c->nkids = 1;
        return as_long(c);
    }
    if (!known)
        return as_long(expr_of(r, x));
    hd_expr *c = hd_expr_new(HD_EX_CONST, 64, true);
    c->value = (uint64_t)v;
    return c;
}

/* lo (hi) as C: its value when it is a constant (a macro of the file may
 * not be defined where the node code is), else its text. */
static char *bound_text(reader *r, int x, bool known, long long v)
{
    if (!known)
        return source_text(r, x);
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", v);
    return hd_xstrdup(buf);
}

/* The guard lo <= i && i < hi of a loop that is not over exactly 0 ..
 * 2^k - 1, the parent of every other guard of its body: the iterations
 * are those of 0 .. 2^k - 1 where it holds, and every rule about guarded
 * reads (bounds, dependences, requests) then holds of the loop as it is. */
static void add_range_guard(reader *r, int start, bool lo_known, long long lo, int bound,
                            bool hi_known, long long hi, int bits, bool sg)
{
    hd_loop *l = r->loop;
    hd_xreserve(&l->guards, &r->guards_cap, l->nguards + 1, sizeof *l->guards);
    hd_guard *g = &l->guards[l->nguards];
    memset(g, 0, sizeof *g);
    position pos = cursor_pos(r, cursor_of(r, bound));
    g->begin = g->end = pos.offset;
    g->line = pos.line;
    g->col = pos.col;
    g->when = true;
    g->parent = -1;
    g->cond = binary(HD_OP_LAND,
                     binary(HD_OP_GE, as_long(hd_expr_new(HD_EX_INDEX, bits, sg)),
                            value_of(r, start, lo_known, lo, bits, sg)),
                     binary(HD_OP_LT, as_long(hd_expr_new(HD_EX_INDEX, bits, sg)),
                            value_of(r, bound, hi_known, hi, 0, true)));
    l->lo_text = bound_text(r, start, lo_known, lo);
    l->hi_text = bound_text(r, bound, hi_known, hi);
    /* As C runs the loop: i = (T)lo, then i < hi (in C's conversions) at
     * every step, the first failure ending it; i only grows, from 0 in
     * the iterations' numbering, so the first test decides for lo. */
    char *var = spelling(r->loop_var);
    char *type = type_text(clang_getCursorType(r->loop_var));
    size_t size = 2 * strlen(l->lo_text) + 2 * strlen(l->hi_text) + 2 * strlen(var) +
                  2 * strlen(type) + 48;
    g->text = hd_xmalloc(size);
    snprintf(g->text, size, "(%s)(%s) < (%s) && (%s)(%s) <= %s && %s < (%s)", type, l->lo_text,
             l->hi_text, type, l->lo_text, var, var, l->hi_text);
    free(var);
    free(type);
    l->range_guard = l->nguards++;
    l->range_checked = !lo_known || !hi_known;
    r->guard = l->range_guard;
}

/* A loop whose bound is known only at run time runs over the array it
 * writes at i: its iterations are that array's elements, 0 .. 2^k - 1,
 * and the node code checks lo .. hi - 1 lies among them. */
static void size_from_home(reader *r, int bound)
{
    hd_loop *l = r->loop;
    const hd_ref *h = l->home >= 0 ? &l->refs[l->home] : NULL;
    const hd_expr *e = h ? h->index : NULL;
    while (e && e->kind == HD_EX_CAST && e->nkids == 1 && e->kid[0] && e->kid[0]->bits <= e->bits)
        e = e->kid[0];
    const hd_array *a = h ? &r->prog->arrays[h->array] : NULL;
    if (e && e->kind == HD_EX_INDEX && a->ndims == 1 && (a->log2_size < 0 || a->pointer)) {
        /* An array of any extent, or a pointer's (spread, or refused once
         * distributions are known): its owners are found at run time, and
         * so are its iterations, lo .. hi - 1 (docs/annotations.md, "Arrays
         * of any extent"). */
        int bits;
        bool sg;
        l->trip = 0;
        l->k = 0;
        while (a->size > 0 && ((int64_t)1 << l->k) < a->size)
            l->k++;
        if (a->pointer && integer_type(clang_getCursorType(r->loop_var), &bits, &sg))
            l->k = bits - (sg ? 1 : 0) < 62 ? bits - (sg ? 1 : 0) : 62;
        return;
    }
    if (!e || e->kind != HD_EX_INDEX || a->ndims != 1 || a->log2_size < 0) {
        error_at(r, cursor_of(r, bound), "the bound of a doall loop must be a constant "
                 "expression, or the loop must write 'x[%s]' of a one-dimensional array "
                 "of 2^m elements, whose size then bounds %s", l->var ? l->var : "i",
                 l->var ? l->var : "i");
        /* No iterations to number: the loop is not analysed. */
        l->k = 0;
        l->trip = 1;
        l->home = -1;
        return;
    }
    l->k = a->log2_size;
    l->trip = (int64_t)1 << l->k;
    int bits;
    bool sg;
    if (integer_type(clang_getCursorType(r->loop_var), &bits, &sg) && l->k >= bits - (sg ? 1 : 0))
        error_at(r, cursor_of(r, bound), "the loop variable's type cannot hold the "
                 "index of every element of '%s'", a->name);
}

/*
 * Reads the header of a doall loop; false after reporting an error.
 *
 *   loop  = "for" "(" init ";" var "<" bound ";" step ")" body
 *   init  = integer-type var "=" 0 | var "=" 0
 *   bound = a constant expression, a power of two the type of var holds
 *   step  = var "++" | "++" var | var "+=" 1 | var "=" var "+" 1
 *         | var "=" 1 "+" var
 */
static bool read_loop_header(reader *r, int loop, int *body)
{
    int init, cond, inc;
    if (!for_parts(r, loop, &init, &cond, &inc, body) || init < 0 || cond < 0 || inc < 0) {
        error_at(r, cursor_of(r, loop), "a doall loop needs the canonical form: %s",
                 canonical_form);
        return false;
    }

    /* init: `int i = lo` or `i = lo`. */
    int start = for_start(r, init, &r->loop_var);
    int bits;
    bool sg;
    if (start < 0 || clang_Cursor_isNull(r->loop_var) ||
        !integer_type(clang_getCursorType(r->loop_var), &bits, &sg)) {
        error_at(r, cursor_of(r, init), "a doall loop must start by setting an integer "
                 "variable: %s", canonical_form);
        return false;
    }
    /* init's value: a constant, or what the header may read. */
    long long lo = 0, hi = 0;
    bool lo_known = evaluate(cursor_of(r, start), &lo);
    /* C converts the start to the variable's type (i = lo) first. */
    if (lo_known && bits < 64) {
        unsigned long long u = (unsigned long long)lo & ((1ULL << bits) - 1);
        lo = sg && (u >> (bits - 1)) ? (long long)(u | ~((1ULL << bits) - 1)) : (long long)u;
    }
    if (!lo_known && !walk_bound(r, start, "start"))
        return false;

    /* cond: `i < hi`. */
    children ck = kids_of(r, cond);
    char op[16] = "";
    if (kind_of(r, cond) == CXCursor_BinaryOperator && ck.n == 2)
        operator_text(r, &ck, op, sizeof op);
    if (strcmp(op, "<") != 0 || !is_loop_var(r, ck.kid[0])) {
        error_at(r, cursor_of(r, cond), "the condition of a doall loop must be "
                 "'i < N': %s", canonical_form);
        return false;
    }
    CXCursor limit = cursor_of(r, ck.kid[1]);
    bool hi_known = evaluate(limit, &hi);
    if (!hi_known && !walk_bound(r, ck.kid[1], "bound"))
        return false;
    if (hi_known && hi > HD_TABLE_MAX_TRIP) {
        error_at(r, limit, "the bound %lld of a doall loop is beyond the limit of %lld "
                 "iterations (HD_TABLE_MAX_TRIP)", hi, (long long)HD_TABLE_MAX_TRIP);
        return false;
    }
    if (lo_known && lo < 0) {
        error_at(r, cursor_of(r, start), "a doall loop may not start below 0 (it starts "
                 "at %lld): its iterations are numbered from 0", lo);
        return false;
    }
    if (lo_known && lo > HD_TABLE_MAX_TRIP) {
        error_at(r, cursor_of(r, start), "the start %lld of a doall loop is beyond the "
                 "limit of %lld (HD_TABLE_MAX_TRIP)", lo, (long long)HD_TABLE_MAX_TRIP);
        return false;
    }
    hd_loop *l = r->loop;
    l->range_guard = -1;
    l->k = 0;
    r->bound_node = ck.kid[1];
    if (!hi_known) {
        l->k = -1;   /* from the array it writes, once the body is read */
        l->trip = 0;
    } else if (lo_known && lo == 0 && hi >= 1 && (hi & (hi - 1)) && has_table_pragma(r)) {
        /* Any trip where the file distributes arrays by a table: whether
         * this loop is over one is known once its writes are (table_loops). */
        l->trip = hi;
        while ((1LL << l->k) < hi)
            l->k++;
    } else {
        while (hi > 0 && (1LL << l->k) < hi)
            l->k++;
        l->trip = 1LL << l->k;
    }
    if (l->k >= 0 && l->k >= bits - (sg ? 1 : 0)) {
        error_at(r, limit, "the loop variable's type cannot hold the bound "
                 "%lld", hi);
        return false;
    }
    /* Not exactly 0 .. 2^k - 1: every iteration i of 0 .. 2^k - 1 runs
     * its body under lo <= i && i < hi, a guard like any other. */
    if (!(lo_known && lo == 0 && hi_known && (l->trip == hi || (hi & (hi - 1)) == 0)))
        add_range_guard(r, start, lo_known, lo, ck.kid[1], hi_known, hi, bits, sg);
    if (!steps_by_one(r, inc, r->loop_var)) {
        error_at(r, cursor_of(r, inc), "a doall loop must step by one: %s",
                 canonical_form);
        return false;
    }
    r->loop->var = spelling(r->loop_var);
    r->loop->var_type = type_text(clang_getCursorType(r->loop_var));
    r->loop->var_outside = kind_of(r, init) != CXCursor_DeclStmt;
    return true;
}

/* The values of the inner variables at which a home's element stands
 * for the iteration's: the first (in the loops' order) at which C writes
 * it inside its array at i = 0, where that can be told (if (k > 0)
 * c[i][k - 1] = ...: k = 1); else each loop's first.  Only a choice: the
 * analysis checks every value gives the same owner (inner_refs.c). */
static void home_values(const hd_program *p, const hd_loop *l, const hd_ref *ref, int64_t *vals)
{
    int64_t at[HD_MAX_INNERS];
    for (int v = 0; v < l->ninners; v++)
        vals[v] = at[v] = l->inners[v].lo;
    uint64_t size = (uint64_t)p->arrays[ref->array].size;
    for (int tries = 0; tries < 4096; tries++) {
        uint64_t e, c;
        char why[8];
        bool runs = true;
        for (int g = ref->guard; g >= 0 && runs; g = l->guards[g].parent)
            if (l->guards[g].cond &&
                hd_expr_eval_vars(l->guards[g].cond, 0, at, &c, why, sizeof why))
                runs = (c != 0) == l->guards[g].when;
        if (runs && hd_expr_eval_vars(ref->index, 0, at, &e, why, sizeof why) && e < size) {
            memcpy(vals, at, (size_t)l->ninners * sizeof *vals);
            return;
        }
        int v = l->ninners - 1;
        while (v >= 0 && ++at[v] >= l->inners[v].hi)
            at[v] = l->inners[v].lo, v--;
        if (v < 0)
            return;
    }
}

/* The write whose owner runs an iteration: the first whose element is
 * known per iteration (its index reads no inner loop variable), else the
 * first, whose owner the analysis checks is the same for every value of
 * those variables, taken at their first values. */
static void choose_home(const hd_program *p, hd_loop *l)
{
    for (int k = 0; k < l->nrefs; k++)
        if (l->refs[k].is_write && !l->refs[k].uses_vars) {
            l->home = k;
            return;
        }
    for (int k = 0; k < l->nrefs; k++)
        if (l->refs[k].is_write) {
            l->home = k;
            int64_t first[HD_MAX_INNERS];
            home_values(p, l, &l->refs[k], first);
            l->refs[k].home_index = hd_expr_bind_vars(l->refs[k].index, first);
            return;
        }
}

/* The header is evaluated at every iteration in C: a variable it reads
 * must not change during the loop, and the body changes an outer one
 * only by a reduction. */
static void check_bound_variables(reader *r)
{
    hd_loop *l = r->loop;
    for (int b = 0; b < r->nbound_decls; b++)
        for (int k = 0; k < l->nreds; k++) {
            char *name = spelling(r->bound_decls[b]);
            bool same = name && strcmp(name, l->reds[k].name) == 0;
            free(name);
            if (same)
                hd_report(&r->d, HD_ERROR, l->begin, l->line, "the header of the doall loop on "
                          "line %d reads '%s', which its body combines values into: C "
                          "evaluates the bound at every iteration, and the iterations "
                          "run at once", l->line, l->reds[k].name);
        }
}

/* The doall pragma of the for statement at offset `off`, if any. */
static pragma *doall_at(reader *r, unsigned off)
{
    for (int k = 0; k < r->npragmas; k++)
        if (r->pragmas[k].kind == PRAGMA_DOALL && r->pragmas[k].next_offset == off)
            return &r->pragmas[k];
    return NULL;
}

static pragma *doall_for(reader *r, CXCursor loop)
{
    bool in_main;
    return doall_at(r, offset_of(r, clang_getRangeStart(clang_getCursorExtent(loop)),
                                 &in_main));
}

/*
 * Doall pragmas inside the loop being read, looked for as the AST walk
 * would (not inside expressions, but inside statement expressions), to
 * say that they would be nested.
 */
static void find_nested(reader *r, int x)
{
    for (int at = r->nodes[x].first; at >= 0; at = r->nodes[at].next) {
        enum CXCursorKind kind = kind_of(r, at);
        if (clang_isExpression(kind) && kind != CXCursor_StmtExpr)
            continue;
        if (kind == CXCursor_ForStmt) {
            bool in_main = true;
            pragma *pr = doall_at(r, start_of(r, at, &in_main));
            if (pr) {
                error_at(r, cursor_of(r, at), "nested doall loops are not supported "
                         "(the enclosing doall is on line %d)", r->loop->line);
                pr->used = true;
                continue;
            }
        }
        find_nested(r, at);
    }
}

static void read_loop(reader *r, CXCursor c, pragma *pr)
{
    hd_program *p = r->prog;
    hd_xreserve(&p->loops, &r->loops_cap, p->nloops + 1, sizeof *p->loops);
    hd_loop *l = &p->loops[p->nloops++];
    memset(l, 0, sizeof *l);
    r->refs_cap = r->guards_cap = 0;
    position pos = cursor_pos(r, c);
    l->line = pos.line;
    l->col = pos.col;
    l->pragma_line = pr->line;
    l->home = -1;
    r->loop = l;
    r->loop_var = clang_getNullCursor();
    r->guard = -1;
    r->nlocals = 0;
    r->nouter_decls = 0;
    r->nred_self = 0;
    r->nbound_decls = 0;
    r->ninner_decls = 0;
    r->inner_depth = 0;
    r->nctrl = 0;
    r->nflows = 0;
    r->nheader_nodes = 0;
    r->nbody_loops = 0;
    r->njumps = 0;
    r->nopen_loops = 0;
    r->doall = pr;
    size_t line_start = pr->offset;
    while (line_start > 0 && r->src[line_start - 1] != '\n')
        line_start--;
    l->pragma_begin = (unsigned)line_start;
    if (!clang_Cursor_isNull(r->function)) {
        position f = location_pos(r, clang_getRangeStart(clang_getCursorExtent(r->function)));
        l->func_begin = f.offset;
        l->func_line = f.line;
    }
    r->nnodes = 0;
    int loop = record_tree(r, c);
    if (loop < 0) {
        error_at(r, c, "cannot read this doall loop: libclang's walk of its syntax "
                 "tree was not depth first");
        return;
    }
    node *ext = extent_of(r, loop);
    l->begin = ext->begin;
    l->end = ext->end;
    int body;
    int errors = r->d.errors;
    if (read_loop_header(r, loop, &body)) {
        if (r->opt->host_code) {
            bool in_main = true;
            l->body_begin = start_of(r, body, &in_main);
            l->body_end = end_of(r, body, &in_main);
            l->body_is_block = kind_of(r, body) == CXCursor_CompoundStmt;
            l->stmt_end = (unsigned)statement_end(r, l->end);
        }
        /* References gather in a buffer the reader keeps from loop to
         * loop; the loop keeps a copy of exactly its own. */
        l->refs = r->ref_buffer;
        r->refs_cap = r->ref_buffer_cap;
        walk_statement(r, body);
        check_reductions(r, body, pr);
        r->ref_buffer = l->refs;
        r->ref_buffer_cap = r->refs_cap;
        l->refs = l->nrefs ? hd_xmalloc((size_t)l->nrefs * sizeof *l->refs) : NULL;
        if (l->nrefs)
            memcpy(l->refs, r->ref_buffer, (size_t)l->nrefs * sizeof *l->refs);
        for (int k = 0; k < l->nrefs; k++)
            l->refs[k].uses_vars = hd_expr_uses_vars(l->refs[k].index);
        resolve_headers(r);
        if (r->d.errors == errors) {
            choose_home(r->prog, l);
            if (l->home < 0)
                l->home = NO_WRITES;   /* keep_sequential makes it sequential code */
            if (l->k < 0)
                size_from_home(r, r->bound_node);
            check_bound_variables(r);
        }
    }
    find_nested(r, loop);
    if (r->d.errors != errors)
        r->rejected++;
}

enum CXChildVisitResult find_doall(CXCursor c, CXCursor parent,
                                   CXClientData data)
{
    reader *r = data;
    enum CXCursorKind kind = clang_getCursorKind(c);
    /* Declarations of other files are skipped whole; a for statement is a
     * statement, so expressions need no visit. */
    if (clang_getCursorKind(parent) == CXCursor_TranslationUnit &&
        !clang_Location_isFromMainFile(clang_getCursorLocation(c)))
        return CXChildVisit_Continue;
    if (clang_isExpression(kind) && kind != CXCursor_StmtExpr)
        return CXChildVisit_Continue;
    if (kind == CXCursor_FunctionDecl && clang_isCursorDefinition(c)) {
        r->function = c;
        /* Where functions are, for the map pragmas (maps.c). */
        bool b_main = true, e_main = true;
        unsigned b = cursor_start(r, c, &b_main), e = cursor_end(r, c, &e_main);
        if (b_main && e_main) {
            hd_xreserve(&r->functions, &r->functions_cap, 2 * r->nfunctions + 2,
                        sizeof *r->functions);
            r->functions[2 * r->nfunctions] = b;
            r->functions[2 * r->nfunctions++ + 1] = e;
        }
    }
    if (kind == CXCursor_ForStmt) {
        pragma *pr = doall_for(r, c);
        if (pr) {
            if (r->loop) {
                error_at(r, c, "nested doall loops are not supported (the "
                         "enclosing doall is on line %d)", r->loop->line);
                pr->used = true;
                return CXChildVisit_Continue;
            }
            pr->used = true;
            read_loop(r, c, pr);
            r->loop = NULL;
            return CXChildVisit_Continue;
        }
    }
    return CXChildVisit_Recurse;
}
