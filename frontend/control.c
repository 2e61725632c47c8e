/*
 * control.c — the statements of a doall body that direct control: if and
 * else, sequential inner loops (for, while, do) with their break and
 * continue.  What a statement runs under is a guard (bodies.c), as for
 * the operands of ?:, && and ||: the then-branch under the condition, the
 * else-branch under its negation, a loop's body under its condition.  An
 * inner `for (int k = lo; k < hi; k++)` with constant bounds whose body
 * leaves k alone has known values (hd_inner): an index that reads k is
 * analysed for each of them.  What the loops' headers read, directly or
 * through the body's variables, is kept (hd_inner_header) for the
 * analysis, which refuses a header that reads distributed data.
 */
#include "frontend_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------ the variables' values */

static int local_index(reader *r, CXCursor decl)
{
    for (int k = 0; k < r->nlocals; k++)
        if (clang_equalCursors(r->locals[k], decl))
            return k;
    return -1;
}

/* The variable a target node names: a local scalar, an element of a local
 * array (v[j], m[j][k], s.f), a declaration. */
static CXCursor target_decl(reader *r, int x)
{
    int at = strip_wrappers(r, x);
    for (;;) {
        enum CXCursorKind kind = kind_of(r, at);
        children kids = kids_of(r, at);
        if ((kind == CXCursor_ArraySubscriptExpr || kind == CXCursor_MemberRefExpr) &&
            kids.n >= 1) {
            at = strip_wrappers(r, kids.kid[0]);
            continue;
        }
        break;
    }
    if (kind_of(r, at) == CXCursor_VarDecl)
        return cursor_of(r, at);
    if (kind_of(r, at) == CXCursor_DeclRefExpr)
        return clang_getCursorReferenced(cursor_of(r, at));
    return clang_getNullCursor();
}

static void add_flow(reader *r, int local, int from)
{
    hd_xreserve(&r->flows, &r->flows_cap, r->nflows + 1, sizeof *r->flows);
    r->flows[r->nflows++] = (struct flow){ local, from };
}

void note_flow(reader *r, int target, int from)
{
    int local = local_index(r, target_decl(r, target));
    if (local < 0)
        return;
    if (from >= 0)
        add_flow(r, local, from);
    /* t[e] = ...: which element gets the value depends on e too. */
    if (kind_of(r, strip_wrappers(r, target)) == CXCursor_ArraySubscriptExpr)
        add_flow(r, local, target);
    /* A value set under a condition, or in a loop, depends on it too. */
    for (int k = 0; k < r->nctrl; k++)
        add_flow(r, local, r->ctrl[k]);
}

static void push_ctrl(reader *r, int cond)
{
    hd_xreserve(&r->ctrl, &r->ctrl_cap, r->nctrl + 1, sizeof *r->ctrl);
    r->ctrl[r->nctrl++] = cond;
}

/* The program arrays whose elements node x reads (its references), and
 * the variables of the body it reads; marks them. */
static void reads_of(reader *r, int x, bool *arrays, bool *locals)
{
    node *ext = extent_of(r, x);
    const hd_loop *l = r->loop;
    for (int k = 0; k < l->nrefs; k++)
        if (!l->refs[k].is_write && l->refs[k].begin >= ext->begin && l->refs[k].end <= ext->end)
            arrays[l->refs[k].array] = true;
    if (kind_of(r, x) == CXCursor_DeclRefExpr) {
        int v = local_index(r, clang_getCursorReferenced(cursor_of(r, x)));
        if (v >= 0)
            locals[v] = true;
    }
    for (int at = r->nodes[x].first; at >= 0; at = r->nodes[at].next)
        reads_of(r, at, arrays, locals);
}

void resolve_headers(reader *r)
{
    hd_loop *l = r->loop;
    int na = r->prog->narrays, nl = r->nlocals;
    for (int k = 0; k < l->nrefs; k++)
        for (int b = 0; b < r->nbody_loops; b++)
            if (r->body_loops[b].jumps && l->refs[k].begin >= r->body_loops[b].begin &&
                l->refs[k].end <= r->body_loops[b].end)
                l->refs[k].in_jump_loop = true;
    if (!l->nheaders)
        return;
    /* taint[v * na + a]: variable v's value may depend on array a. */
    bool *taint = hd_xcalloc((size_t)(nl ? nl : 1) * (size_t)(na ? na : 1), 1);
    bool *arrays = hd_xcalloc((size_t)(na ? na : 1), 1);
    bool *locals = hd_xcalloc((size_t)(nl ? nl : 1), 1);
    for (bool changed = true; changed;) {
        changed = false;
        for (int f = 0; f < r->nflows; f++) {
            memset(arrays, 0, (size_t)na);
            memset(locals, 0, (size_t)nl);
            reads_of(r, r->flows[f].node, arrays, locals);
            bool *to = taint + (size_t)r->flows[f].local * (size_t)na;
            for (int a = 0; a < na; a++) {
                bool from = arrays[a];
                for (int v = 0; v < nl && !from; v++)
                    from = locals[v] && taint[(size_t)v * (size_t)na + (size_t)a];
                if (from && !to[a])
                    to[a] = changed = true;
            }
        }
    }
    for (int k = 0; k < r->nheader_nodes; k++) {
        hd_inner_header *h = &l->headers[r->header_nodes[k].header];
        memset(arrays, 0, (size_t)na);
        memset(locals, 0, (size_t)nl);
        reads_of(r, r->header_nodes[k].node, arrays, locals);
        for (int a = 0; a < na; a++) {
            int via = -1;
            for (int v = 0; v < nl && via < 0; v++)
                if (locals[v] && taint[(size_t)v * (size_t)na + (size_t)a])
                    via = v;
            if (!arrays[a] && via < 0)
                continue;
            bool seen = false;
            for (int j = 0; j < h->narrays; j++)
                seen |= h->arrays[j] == a;
            if (seen)
                continue;
            h->arrays = hd_xrealloc(h->arrays, (size_t)(h->narrays + 1) * sizeof *h->arrays);
            h->arrays[h->narrays++] = a;
            if (!h->what)
                h->what = arrays[a] ? hd_xstrdup(r->prog->arrays[a].name) : spelling(r->locals[via]);
        }
    }
    free(taint);
    free(arrays);
    free(locals);
}

/* ------------------------------------------------------- inner loops */

static bool names(reader *r, int x, CXCursor decl)
{
    x = strip_wrappers(r, x);
    return kind_of(r, x) == CXCursor_DeclRefExpr &&
           clang_equalCursors(clang_getCursorReferenced(cursor_of(r, x)), decl);
}

/* Does the subtree at x assign decl, step it, or take its address? */
static bool changes(reader *r, int x, CXCursor decl)
{
    enum CXCursorKind kind = kind_of(r, x);
    children kids = kids_of(r, x);
    char op[16];
    bool postfix;
    if ((kind == CXCursor_BinaryOperator || kind == CXCursor_CompoundAssignOperator) &&
        kids.n == 2 && names(r, kids.kid[0], decl)) {
        operator_text(r, &kids, op, sizeof op);
        if (kind == CXCursor_CompoundAssignOperator || strcmp(op, "=") == 0)
            return true;
    }
    if (kind == CXCursor_UnaryOperator && kids.n == 1 && names(r, kids.kid[0], decl)) {
        unary_text(r, x, kids.kid[0], op, sizeof op, &postfix);
        if (strcmp(op, "++") == 0 || strcmp(op, "--") == 0 || strcmp(op, "&") == 0)
            return true;
    }
    for (int at = r->nodes[x].first; at >= 0; at = r->nodes[at].next)
        if (changes(r, at, decl))
            return true;
    return false;
}

static bool constant(reader *r, int x, long long *v)
{
    return x >= 0 && evaluate(cursor_of(r, x), v);
}

/*
 * An inner loop whose variable's values are known:
 *
 *   known = "for" "(" [type] k "=" lo ";" k ("<" | "<=") hi ";" step ")" body
 *
 * lo and hi integer constant expressions, k a variable of the body of an
 * integer type, step k++ (++k, k += 1, k = k + 1), and body neither
 * assigning k nor taking its address.  k is then lo, lo + 1, ... hi - 1
 * in the body (fewer after a break).  Its index in loop->inners, or -1.
 */
static int known_variable(reader *r, int loop, int init, int cond, int inc, int body)
{
    if (init < 0 || cond < 0 || inc < 0 || r->loop->ninners >= HD_MAX_INNERS)
        return -1;
    CXCursor var = clang_getNullCursor();
    long long lo, hi;
    int start = for_start(r, init, &var);
    int bits;
    bool sg;
    if (clang_Cursor_isNull(var) || local_index(r, var) < 0 || !constant(r, start, &lo) ||
        !integer_type(clang_getCursorType(var), &bits, &sg))
        return -1;
    children ck = kids_of(r, cond);
    char op[16] = "";
    if (kind_of(r, cond) == CXCursor_BinaryOperator && ck.n == 2)
        operator_text(r, &ck, op, sizeof op);
    if ((strcmp(op, "<") != 0 && strcmp(op, "<=") != 0) || !names(r, ck.kid[0], var) ||
        !constant(r, ck.kid[1], &hi))
        return -1;
    if (strcmp(op, "<=") == 0)
        hi++;
    /* Every value lo .. hi - 1 must be one k's type holds (k would wrap
     * before reaching hi otherwise), and the loop must run. */
    long long top = sg ? (bits >= 64 ? LLONG_MAX : (1LL << (bits - 1)) - 1)
                       : (bits >= 63 ? LLONG_MAX : (1LL << bits) - 1);
    long long bottom = sg ? (bits >= 64 ? LLONG_MIN : -(1LL << (bits - 1))) : 0;
    if (hi <= lo || lo < bottom || hi - 1 > top)
        return -1;
    if (!steps_by_one(r, inc, var) || changes(r, body, var))
        return -1;
    hd_loop *l = r->loop;
    l->inners = hd_xrealloc(l->inners, (size_t)(l->ninners + 1) * sizeof *l->inners);
    position pos = cursor_pos(r, cursor_of(r, loop));
    l->inners[l->ninners] = (hd_inner){ spelling(var), type_text(clang_getCursorType(var)), lo,
                                        hi, pos.line, pos.col };
    r->inner_decls[r->ninner_decls] = var;
    r->inner_active[r->ninner_decls++] = false;
    return l->ninners++;
}

int inner_variable(reader *r, CXCursor decl)
{
    for (int v = 0; v < r->ninner_decls; v++)
        if (r->inner_active[v] && clang_equalCursors(r->inner_decls[v], decl))
            return v + 1;
    return 0;
}

static void add_header_node(reader *r, int header, int x)
{
    if (header < 0)
        return;
    hd_xreserve(&r->header_nodes, &r->header_nodes_cap, r->nheader_nodes + 1,
                sizeof *r->header_nodes);
    r->header_nodes[r->nheader_nodes++] = (struct header_node){ header, x };
}

/* A loop of the body: its header's parts, for the analysis's check that
 * they read no distributed data; its entry in loop->headers. */
static int add_header(reader *r, int at, const int *parts, int nparts)
{
    hd_loop *l = r->loop;
    l->headers = hd_xrealloc(l->headers, (size_t)(l->nheaders + 1) * sizeof *l->headers);
    position pos = cursor_pos(r, cursor_of(r, at));
    l->headers[l->nheaders] = (hd_inner_header){ pos.line, pos.col, pos.offset, 0, NULL, NULL };
    for (int k = 0; k < nparts; k++)
        if (parts[k] >= 0)
            add_header_node(r, l->nheaders, parts[k]);
    return l->nheaders++;
}

/* Loop x of the body opens (its breaks and continues are its own until
 * it closes); header: its entry in loop->headers. */
static void open_loop(reader *r, int x, int header)
{
    node *ext = extent_of(r, x);
    hd_xreserve(&r->body_loops, &r->body_loops_cap, r->nbody_loops + 1, sizeof *r->body_loops);
    r->body_loops[r->nbody_loops] = (struct body_loop){ ext->begin, ext->end, false, header,
                                                        r->nctrl, r->nflows };
    hd_xreserve(&r->open_loops, &r->open_loops_cap, r->nopen_loops + 1, sizeof *r->open_loops);
    r->open_loops[r->nopen_loops++] = r->nbody_loops++;
    r->inner_depth++;
}

/* The innermost loop closes: a value set in it depends on the conditions
 * of its breaks and continues too (how far it got), as on its own. */
static void close_loop(reader *r)
{
    int b = r->open_loops[--r->nopen_loops];
    int flows_end = r->nflows;
    for (int j = 0; j < r->njumps; j++)
        if (r->jumps[j].loop == b)
            for (int f = r->body_loops[b].flows_base; f < flows_end; f++)
                add_flow(r, r->flows[f].local, r->jumps[j].node);
    r->inner_depth--;
}

/* A break or continue of the innermost loop, under the conditions taken
 * inside it: they decide what the loop's variables end up holding (a
 * count up to a break), so those conditions are sources of every value
 * set in the loop.  A break is no bound: the loop's header stays what
 * its reads are checked from, and a search that stops on data is fine. */
static void note_jump(reader *r, bool is_break)
{
    int b = r->open_loops[r->nopen_loops - 1];
    struct body_loop *bl = &r->body_loops[b];
    bl->jumps = true;
    for (int c = bl->ctrl_base; c < r->nctrl; c++) {
        hd_xreserve(&r->jumps, &r->jumps_cap, r->njumps + 1, sizeof *r->jumps);
        r->jumps[r->njumps++] = (struct jump){ b, r->ctrl[c], is_break };
    }
}

/* A statement of a loop's header (its init, its step): whether the loop
 * runs at all is no part of the values it gives its variables, so the
 * conditions around the loop are not their sources. */
static void walk_header_statement(reader *r, int x)
{
    int around = r->nctrl;
    r->nctrl = 0;
    walk_statement(r, x);
    r->nctrl = around;
}

/* The body of loop x, run while cond holds (cond < 0: until a break),
 * with var (-1: none) taking its known values, which its condition's
 * guard already reads. */
static void walk_loop_body(reader *r, int x, int header, int cond, int body, int inc, int var)
{
    int outer = r->guard;
    if (var >= 0)
        r->inner_active[var] = true;
    if (cond >= 0) {
        push_ctrl(r, cond);
        r->guard = add_guard(r, cond, true);
    }
    open_loop(r, x, header);
    walk_statement(r, body);
    if (inc >= 0)
        walk_header_statement(r, inc);
    close_loop(r);
    if (var >= 0)
        r->inner_active[var] = false;
    if (cond >= 0)
        r->nctrl--;
    r->guard = outer;
}

/*
 *   control = "if" "(" rvalue ")" statement ["else" statement]
 *           | "for" "(" [statement] ";" [rvalue] ";" [statement] ")" statement
 *           | "while" "(" rvalue ")" statement
 *           | "do" statement "while" "(" rvalue ")" ";"
 *           | "break" ";" | "continue" ";"      (inside an inner loop)
 */
bool walk_control(reader *r, int x)
{
    CXCursor c = cursor_of(r, x);
    children kids = kids_of(r, x);
    int outer = r->guard;
    switch (kind_of(r, x)) {
    case CXCursor_IfStmt:
        if (kids.n < 2 || kids.n > 3)
            return false;
        walk_operand(r, kids.kid[0]);
        push_ctrl(r, kids.kid[0]);
        r->guard = add_guard(r, kids.kid[0], true);
        walk_statement(r, kids.kid[1]);
        r->guard = outer;
        if (kids.n == 3) {
            r->guard = add_guard(r, kids.kid[0], false);
            walk_statement(r, kids.kid[2]);
            r->guard = outer;
        }
        r->nctrl--;
        return true;
    case CXCursor_ForStmt: {
        int init, cond, inc, body;
        if (!for_parts(r, x, &init, &cond, &inc, &body)) {
            error_at(r, c, "cannot read the header of this loop");
            return true;
        }
        if (init >= 0)
            walk_header_statement(r, init);
        int var = known_variable(r, x, init, cond, inc, body);
        int parts[3] = { init, cond, inc };
        int header = add_header(r, cond >= 0 ? cond : x, parts, 3);
        if (cond >= 0)
            walk_operand(r, cond);
        walk_loop_body(r, x, header, cond, body, inc, var);
        return true;
    }
    case CXCursor_WhileStmt: {
        if (kids.n != 2)
            return false;
        int header = add_header(r, kids.kid[0], &kids.kid[0], 1);
        walk_operand(r, kids.kid[0]);
        walk_loop_body(r, x, header, kids.kid[0], kids.kid[1], -1, -1);
        return true;
    }
    case CXCursor_DoStmt: {
        if (kids.n != 2)
            return false;
        /* The body runs once before the condition is first evaluated. */
        int header = add_header(r, kids.kid[1], &kids.kid[1], 1);
        push_ctrl(r, kids.kid[1]);
        open_loop(r, x, header);
        walk_statement(r, kids.kid[0]);
        close_loop(r);
        walk_operand(r, kids.kid[1]);
        r->nctrl--;
        return true;
    }
    case CXCursor_BreakStmt:
    case CXCursor_ContinueStmt:
        if (!r->nopen_loops)
            error_at(r, c, "'%s' outside an inner loop of a doall body: the doall's "
                     "iterations all run, each once; write the rest of the body under "
                     "an 'if'", kind_of(r, x) == CXCursor_BreakStmt ? "break" : "continue");
        else
            note_jump(r, kind_of(r, x) == CXCursor_BreakStmt);
        return true;
    default:
        return false;
    }
}
