/*
 * loops.c — the AST walk that finds the doall loops, and the reading of
 * one: its canonical header, its body (bodies.c), loops nested in it.
 */
#include "frontend_internal.h"

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

static bool evaluates_to(reader *r, int x, long long want)
{
    long long v;
    return evaluate(cursor_of(r, x), &v) && v == want;
}

/* `i++`, `++i`, `i += 1` or `i = i + 1`. */
static bool canonical_increment(reader *r, int inc)
{
    children kids = kids_of(r, inc);
    char op[16];
    bool postfix;
    switch (kind_of(r, inc)) {
    case CXCursor_UnaryOperator:
        if (kids.n != 1 || !is_loop_var(r, kids.kid[0]))
            return false;
        unary_text(r, inc, kids.kid[0], op, sizeof op, &postfix);
        return strcmp(op, "++") == 0;
    case CXCursor_CompoundAssignOperator:
        if (kids.n != 2 || !is_loop_var(r, kids.kid[0]))
            return false;
        operator_text(r, &kids, op, sizeof op);
        return strcmp(op, "+=") == 0 && evaluates_to(r, kids.kid[1], 1);
    case CXCursor_BinaryOperator: {
        if (kids.n != 2 || !is_loop_var(r, kids.kid[0]))
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
               ((is_loop_var(r, terms.kid[0]) && evaluates_to(r, terms.kid[1], 1)) ||
                (is_loop_var(r, terms.kid[1]) && evaluates_to(r, terms.kid[0], 1)));
    }
    default:
        return false;
    }
}

/* May some array of the file be distributed by a table (table(T)), or
 * spread (block or cyclic of any extent)? */
static bool has_table_pragma(reader *r)
{
    for (int k = 0; k < r->npragmas; k++)
        if (r->pragmas[k].kind == PRAGMA_DISTRIBUTE && r->pragmas[k].dist != HD_DIST_SKEW &&
            r->pragmas[k].dist != HD_DIST_SKEW_ROT && r->pragmas[k].dist != HD_DIST_XOR &&
            r->pragmas[k].dist != HD_DIST_BLOCK_2D && r->pragmas[k].dist != HD_DIST_CYCLIC_2D)
            return true;
    return false;
}

static const char canonical_form[] =
    "write 'for (int i = 0; i < N; i++)' (or '++i', 'i += 1', an 'i' "
    "declared earlier), N a power of two (any N in a loop that writes arrays "
    "distributed by table(T))";

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
    unsigned semi1 = 0, semi2 = 0, rparen = 0;
    if (!header_offsets(r, loop, &semi1, &semi2, &rparen)) {
        error_at(r, cursor_of(r, loop), "a doall loop needs the canonical form: %s",
                 canonical_form);
        return false;
    }
    int init = -1, cond = -1, inc = -1;
    *body = -1;
    children kids = kids_of(r, loop);
    for (int k = 0; k < kids.n && k < 8; k++) {
        bool in_main = true;
        unsigned off = start_of(r, kids.kid[k], &in_main);
        if (off < semi1) init = kids.kid[k];
        else if (off < semi2) cond = kids.kid[k];
        else if (off < rparen) inc = kids.kid[k];
        else *body = kids.kid[k];
    }
    if (init < 0 || cond < 0 || inc < 0 || *body < 0) {
        error_at(r, cursor_of(r, loop), "a doall loop needs the canonical form: %s",
                 canonical_form);
        return false;
    }

    /* init: `int i = 0` or `i = 0`. */
    int start = -1;
    children ik = kids_of(r, init);
    if (kind_of(r, init) == CXCursor_DeclStmt && ik.n == 1 &&
        kind_of(r, ik.kid[0]) == CXCursor_VarDecl) {
        r->loop_var = cursor_of(r, ik.kid[0]);
        children vk = kids_of(r, ik.kid[0]);
        if (vk.n >= 1)
            start = vk.kid[vk.n < 8 ? vk.n - 1 : 7];
    } else if (kind_of(r, init) == CXCursor_BinaryOperator && ik.n == 2 &&
               kind_of(r, strip_wrappers(r, ik.kid[0])) == CXCursor_DeclRefExpr) {
        char op[16];
        operator_text(r, &ik, op, sizeof op);
        if (strcmp(op, "=") == 0) {
            r->loop_var = clang_getCursorReferenced(cursor_of(r, strip_wrappers(r, ik.kid[0])));
            start = ik.kid[1];
        }
    }
    int bits;
    bool sg;
    if (start < 0 || clang_Cursor_isNull(r->loop_var) ||
        !integer_type(clang_getCursorType(r->loop_var), &bits, &sg)) {
        error_at(r, cursor_of(r, init), "a doall loop must start an integer variable "
                 "at 0: %s", canonical_form);
        return false;
    }
    if (!evaluates_to(r, start, 0)) {
        error_at(r, cursor_of(r, start), "a doall loop must start at 0: %s",
                 canonical_form);
        return false;
    }

    /* cond: `i < N`, N a constant power of two. */
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
    long long bound;
    if (!evaluate(limit, &bound)) {
        error_at(r, limit, "the bound of a doall loop must be a constant "
                 "expression");
        return false;
    }
    /* Any bound where the file distributes arrays by a table: whether this
     * loop is over one is known once its writes are (table_loops). */
    if (bound < 1 || ((bound & (bound - 1)) && !has_table_pragma(r))) {
        error_at(r, limit, "the bound %lld of a doall loop is not a power "
                 "of two", bound);
        return false;
    }
    if (bound > HD_TABLE_MAX_TRIP) {
        error_at(r, limit, "the bound %lld of a doall loop is beyond the limit of %lld "
                 "iterations (HD_TABLE_MAX_TRIP)", bound, (long long)HD_TABLE_MAX_TRIP);
        return false;
    }
    r->loop->trip = bound;
    r->loop->k = 0;
    while ((1LL << r->loop->k) < bound)
        r->loop->k++;
    if (r->loop->k >= bits - (sg ? 1 : 0)) {
        error_at(r, limit, "the loop variable's type cannot hold the bound "
                 "%lld", bound);
        return false;
    }
    if (!canonical_increment(r, inc)) {
        error_at(r, cursor_of(r, inc), "a doall loop must step by one: %s",
                 canonical_form);
        return false;
    }
    r->loop->var = spelling(r->loop_var);
    r->loop->var_type = type_text(clang_getCursorType(r->loop_var));
    r->loop->var_outside = kind_of(r, init) != CXCursor_DeclStmt;
    return true;
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
        if (r->d.errors == errors) {
            for (int k = 0; k < l->nrefs; k++)
                if (l->refs[k].is_write) {
                    l->home = k;
                    break;
                }
            if (l->home < 0)
                l->home = NO_WRITES;   /* keep_sequential makes it sequential code */
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
