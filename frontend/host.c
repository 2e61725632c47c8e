/*
 * host.c — what the code generator needs of the code outside the doall
 * loops: statements that use distributed arrays, arrays whose address
 * escapes, the functions that run doalls, main and the included files.
 */
#include "frontend_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* The code outside the doall loops is walked through libclang's cursors
 * directly (nodes.c's record_tree, kids_of and strip_wrappers cover loop
 * bodies only). */
typedef struct {
    CXCursor kid[8];
    int n;
} cursor_children;

static enum CXChildVisitResult collect_cursor_kid(CXCursor c, CXCursor parent,
                                                  CXClientData data)
{
    (void)parent;
    cursor_children *k = data;
    if (k->n < 8)
        k->kid[k->n] = c;
    k->n++;
    return CXChildVisit_Continue;
}

static cursor_children cursor_kids(CXCursor c)
{
    cursor_children k;
    k.n = 0;
    clang_visitChildren(c, collect_cursor_kid, &k);
    return k;
}

static CXCursor cursor_strip_wrappers(CXCursor c)
{
    for (;;) {
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k != CXCursor_ParenExpr && k != CXCursor_UnexposedExpr)
            return c;
        cursor_children kids = cursor_kids(c);
        if (kids.n != 1)
            return c;
        c = kids.kid[0];
    }
}

/* Functions of this file that run doall loops, directly or through calls
 * (a call through a pointer may run anything, and one to a function of
 * another file of the program is taken to). */
typedef struct {
    CXCursor *fn;
    bool *runs;
    int n, cap;
} call_graph;

typedef struct {
    reader *r;
    call_graph *g;
    bool found;          /* a call that may run a doall */
    int *arrays;         /* distributed arrays used, each once */
    bool *escapes;       /* ... used other than as an element x[...] */
    int narrays, cap;
} host_refs;

static void host_refs_free(host_refs *h)
{
    free(h->arrays);
    free(h->escapes);
}

static int function_index(const call_graph *g, CXCursor fn)
{
    for (int k = 0; k < g->n; k++)
        if (clang_equalCursors(g->fn[k], clang_getCanonicalCursor(fn)))
            return k;
    return -1;
}

static bool contains_doall(reader *r, unsigned b, unsigned e)
{
    for (int k = 0; k < r->prog->nloops; k++)
        if (r->prog->loops[k].begin >= b && r->prog->loops[k].begin < e)
            return true;
    return false;
}

static void note_array(host_refs *h, int a, bool escapes)
{
    for (int k = 0; k < h->narrays; k++)
        if (h->arrays[k] == a) {
            h->escapes[k] |= escapes;
            return;
        }
    int cap = h->cap;
    hd_xreserve(&h->arrays, &cap, h->narrays + 1, sizeof *h->arrays);
    hd_xreserve(&h->escapes, &h->cap, h->narrays + 1, sizeof *h->escapes);
    h->escapes[h->narrays] = escapes;
    h->arrays[h->narrays++] = a;
}

static enum CXChildVisitResult scan_host_kid(CXCursor c, CXCursor parent,
                                             CXClientData data);

static bool is_array_type(CXCursor c)
{
    enum CXTypeKind k = clang_getCanonicalType(clang_getCursorType(c)).kind;
    return k == CXType_ConstantArray || k == CXType_IncompleteArray ||
           k == CXType_VariableArray || k == CXType_DependentSizedArray;
}

/* Is c the unary operator & (libclang 14 gives no operator kinds: its
 * first token says)? */
static bool is_address_of(reader *r, CXCursor c, CXCursor operand)
{
    bool in_main = true;
    unsigned b = cursor_start(r, c, &in_main), ob = cursor_start(r, operand, &in_main);
    if (!in_main || ob <= b)
        return false;
    for (unsigned k = b; k < ob; k++)
        if (r->src[k] == '&')
            return true;
        else if (!isspace((unsigned char)r->src[k]) && r->src[k] != '(')
            return false;
    return false;
}

static void scan_host(host_refs *h, CXCursor c);

/*
 * c designates an element, a row or a member of one: a[k], m[k], m[j][k],
 * p[k].x, p[k].v.  The array it is part of escapes when the expression's
 * address is taken (`&a[k]`) or when it is itself an array that decays to
 * a pointer (`m[k]`, `p[k].v`): through that pointer the host may read and
 * write elements at any later time, so the host must be current after
 * every doall (hd_array.host_escapes).  Indices are ordinary uses.
 */
static void scan_designator(host_refs *h, CXCursor c, bool escapes)
{
    c = cursor_strip_wrappers(c);
    enum CXCursorKind kind = clang_getCursorKind(c);
    cursor_children kids = cursor_kids(c);
    if (kind == CXCursor_ArraySubscriptExpr && kids.n == 2) {
        CXCursor base = cursor_strip_wrappers(kids.kid[0]);
        scan_host(h, kids.kid[1]);
        if (clang_getCursorKind(base) == CXCursor_DeclRefExpr) {
            int a = distributed_array(h->r, clang_getCursorReferenced(base));
            if (a >= 0) {
                note_array(h, a, escapes);
                return;
            }
        }
        if (is_array_type(base))
            scan_designator(h, base, escapes);   /* m[j] of m[j][k] */
        else
            scan_host(h, base);                  /* a pointer: p[k] */
        return;
    }
    if (kind == CXCursor_MemberRefExpr && kids.n == 1) {
        CXCursor obj = cursor_strip_wrappers(kids.kid[0]);
        enum CXTypeKind ok = clang_getCanonicalType(clang_getCursorType(obj)).kind;
        if (ok == CXType_Pointer)
            scan_host(h, obj);                   /* p->x: p is a value */
        else
            scan_designator(h, obj, escapes);    /* a[k].x */
        return;
    }
    if (kind == CXCursor_DeclRefExpr) {
        int a = distributed_array(h->r, clang_getCursorReferenced(c));
        if (a >= 0) {
            note_array(h, a, true);              /* the array itself */
            return;
        }
    }
    scan_host(h, c);
}

/* Every use of a distributed array in c, and calls that may run a doall. */
static void scan_host(host_refs *h, CXCursor c)
{
    enum CXCursorKind kind = clang_getCursorKind(c);
    if (kind == CXCursor_ArraySubscriptExpr || kind == CXCursor_MemberRefExpr) {
        scan_designator(h, c, is_array_type(c));
        return;
    }
    if (kind == CXCursor_UnaryOperator) {
        cursor_children kids = cursor_kids(c);
        if (kids.n == 1 && is_address_of(h->r, c, kids.kid[0])) {
            scan_designator(h, kids.kid[0], true);
            return;
        }
    }
    if (kind == CXCursor_DeclRefExpr) {
        int a = distributed_array(h->r, clang_getCursorReferenced(c));
        if (a >= 0)
            note_array(h, a, true);
        return;
    }
    if (kind == CXCursor_CallExpr && h->g) {
        CXCursor callee = clang_getCursorReferenced(c);
        int f = clang_getCursorKind(callee) == CXCursor_FunctionDecl
                ? function_index(h->g, callee) : -2;
        /* A function of another file of the program may run doalls: this
         * file cannot tell, so it is taken to. */
        if (f == -2 || (f >= 0 && h->g->runs[f]) ||
            (f == -1 && defined_elsewhere(h->r, callee)))
            h->found = true;
    }
    clang_visitChildren(c, scan_host_kid, h);
}

static enum CXChildVisitResult scan_host_kid(CXCursor c, CXCursor parent,
                                             CXClientData data)
{
    (void)parent;
    scan_host(data, c);
    return CXChildVisit_Continue;
}

static void mark_escaped(reader *r, const host_refs *h)
{
    for (int k = 0; k < h->narrays; k++)
        r->prog->arrays[h->arrays[k]].host_escapes = true;
}

/* Uses in an expression that controls statements holding doalls (a loop
 * condition, say) happen between doalls: those arrays stay current on the
 * host after every doall (hd_array.host_escapes). */
static void control_uses(reader *r, call_graph *g, CXCursor c)
{
    host_refs h = { .r = r, .g = g };
    scan_host(&h, c);
    mark_escaped(r, &h);
    host_refs_free(&h);
}

typedef struct {
    reader *r;
    call_graph *g;
} host_walk;

static void host_statement(reader *r, call_graph *g, CXCursor s, bool in_block);

static enum CXChildVisitResult host_block_kid(CXCursor c, CXCursor parent,
                                              CXClientData data)
{
    (void)parent;
    host_walk *w = data;
    host_statement(w->r, w->g, c, true);
    return CXChildVisit_Continue;
}

static enum CXChildVisitResult host_file_kid(CXCursor c, CXCursor parent,
                                             CXClientData data)
{
    (void)parent;
    host_walk *w = data;
    if (clang_getCursorKind(c) == CXCursor_VarDecl &&
        clang_Location_isFromMainFile(clang_getCursorLocation(c)))
        control_uses(w->r, w->g, c);
    return CXChildVisit_Continue;
}

/* A function's body, among its parameters and attributes. */
static enum CXChildVisitResult host_body_kid(CXCursor c, CXCursor parent,
                                             CXClientData data)
{
    (void)parent;
    host_walk *w = data;
    if (clang_getCursorKind(c) == CXCursor_CompoundStmt)
        host_statement(w->r, w->g, c, true);
    return CXChildVisit_Continue;
}

static void host_statement(reader *r, call_graph *g, CXCursor s, bool in_block)
{
    enum CXCursorKind kind = clang_getCursorKind(s);
    bool in_main = true;
    unsigned b = cursor_start(r, s, &in_main), e = cursor_end(r, s, &in_main);
    if (!in_main)
        return;
    for (int k = 0; k < r->prog->nloops; k++)
        if (r->prog->loops[k].begin == b && kind == CXCursor_ForStmt)
            return;                                   /* a doall */
    cursor_children kids = cursor_kids(s);
    if (kind == CXCursor_LabelStmt || kind == CXCursor_CaseStmt ||
        kind == CXCursor_DefaultStmt) {
        /* A jump to the label must not skip the host's update. */
        if (kids.n >= 1 && kids.n <= 8) {
            for (int k = 0; k + 1 < kids.n; k++)
                control_uses(r, g, kids.kid[k]);
            host_statement(r, g, kids.kid[kids.n - 1], false);
        }
        return;
    }
    if (kind == CXCursor_CompoundStmt) {
        /* Statement by statement: a block is not one statement to wrap. */
        host_walk w = { r, g };
        clang_visitChildren(s, host_block_kid, &w);
        return;
    }
    if (contains_doall(r, b, e)) {
        int body_from = 0, body_to = kids.n;   /* statement children */
        if (kind == CXCursor_ForStmt || kind == CXCursor_WhileStmt ||
            kind == CXCursor_SwitchStmt)
            body_from = kids.n - 1;
        else if (kind == CXCursor_DoStmt)
            body_to = 1;
        else if (kind == CXCursor_IfStmt)
            body_from = 1;
        for (int k = 0; k < kids.n && k < 8; k++) {
            bool is_body = (k >= body_from && k < body_to &&
                            clang_isStatement(clang_getCursorKind(kids.kid[k])));
            if (is_body)
                host_statement(r, g, kids.kid[k], false);
            else
                control_uses(r, g, kids.kid[k]);
        }
        return;
    }
    host_refs h = { .r = r, .g = g };
    scan_host(&h, s);
    if (h.narrays == 0) {
        host_refs_free(&h);
        return;
    }
    for (int k = 0; k < h.narrays; k++)
        if (h.escapes[k] || h.found)
            r->prog->arrays[h.arrays[k]].host_escapes = true;
    hd_program *p = r->prog;
    p->uses = hd_xrealloc(p->uses, (size_t)(p->nuses + 1) * sizeof *p->uses);
    hd_host_use *u = &p->uses[p->nuses++];
    u->begin = b;
    u->end = (unsigned)statement_end(r, e);
    u->line = cursor_pos(r, s).line;
    u->wrap = !in_block;
    u->narrays = h.narrays;
    u->arrays = h.arrays;   /* taken */
    free(h.escapes);
}

static enum CXChildVisitResult collect_function(CXCursor c, CXCursor parent,
                                                CXClientData data)
{
    (void)parent;
    call_graph *g = data;
    if (clang_getCursorKind(c) == CXCursor_FunctionDecl && clang_isCursorDefinition(c) &&
        clang_Location_isFromMainFile(clang_getCursorLocation(c))) {
        int cap = g->cap;
        hd_xreserve(&g->fn, &cap, g->n + 1, sizeof *g->fn);
        hd_xreserve(&g->runs, &g->cap, g->n + 1, sizeof *g->runs);
        g->fn[g->n] = clang_getCanonicalCursor(c);
        g->runs[g->n++] = false;
    }
    return CXChildVisit_Continue;
}

/* Every place other than its definition that names main: a call of main
 * from the program, its address, a declaration.  The host's main is
 * renamed, so they are too; one inside a macro cannot be. */
static enum CXChildVisitResult note_main_ref(CXCursor c, CXCursor parent, CXClientData data)
{
    reader *r = data;
    if (clang_getCursorKind(parent) == CXCursor_TranslationUnit &&
        !clang_Location_isFromMainFile(clang_getCursorLocation(c)))
        return CXChildVisit_Continue;   /* headers do not call main */
    enum CXCursorKind kind = clang_getCursorKind(c);
    bool is_ref = kind == CXCursor_DeclRefExpr;
    bool is_decl = kind == CXCursor_FunctionDecl && !clang_isCursorDefinition(c);
    if (is_ref || is_decl) {
        CXCursor target = is_ref ? clang_getCursorReferenced(c) : c;
        char *name = clang_getCursorKind(target) == CXCursor_FunctionDecl &&
                     clang_getCursorSemanticParent(target).kind == CXCursor_TranslationUnit
                     ? spelling(target) : NULL;
        position pos = cursor_pos(r, c);
        if (name && strcmp(name, "main") == 0 && pos.in_main) {
            hd_program *p = r->prog;
            const char *at = r->src + pos.offset;
            bool literal = pos.offset + 4 <= r->len && memcmp(at, "main", 4) == 0 &&
                           (pos.offset + 4 == r->len ||
                            !(isalnum((unsigned char)at[4]) || at[4] == '_'));
            if (!literal) {
                hd_report(&r->d, HD_ERROR, pos.offset, pos.line, "main is named here through a "
                       "macro: the translated program renames main, so name it directly");
            } else {
                p->main_refs = hd_xrealloc(p->main_refs,
                                           (size_t)(p->nmain_refs + 1) * sizeof *p->main_refs);
                p->main_refs[p->nmain_refs++] = pos.offset;
            }
        }
        free(name);
    }
    return CXChildVisit_Recurse;
}

static void note_inclusion(CXFile included, CXSourceLocation *stack,
                           unsigned depth, CXClientData data)
{
    (void)stack;
    reader *r = data;
    hd_program *p = r->prog;
    if (depth == 0)
        return;                       /* the file itself */
    CXString name = clang_getFileName(included);
    const char *text = clang_getCString(name);
    if (text) {
        p->includes = hd_xrealloc(p->includes, (size_t)(p->nincludes + 1) * sizeof *p->includes);
        p->includes[p->nincludes++] = hd_xstrdup(text);
    }
    clang_disposeString(name);
}

static CXCursor definition_of(CXCursor fn)
{
    CXCursor d = clang_getCursorDefinition(fn);
    return clang_Cursor_isNull(d) ? fn : d;
}

/*
 * What the code generator needs of the code outside the doall loops: the
 * statements that use distributed arrays (the host brings their elements
 * home first), the arrays whose address escapes, and main.
 */
void read_host_code(reader *r)
{
    hd_program *p = r->prog;
    call_graph g = { 0 };
    clang_visitChildren(clang_getTranslationUnitCursor(r->tu), collect_function, &g);
    /* Which functions run doalls: those that hold one, then their callers
     * until nothing changes. */
    for (int k = 0; k < g.n; k++) {
        CXCursor d = definition_of(g.fn[k]);
        bool in_main = true;
        unsigned b = cursor_start(r, d, &in_main), e = cursor_end(r, d, &in_main);
        g.runs[k] = contains_doall(r, b, e);
        if (clang_getCursorKind(d) == CXCursor_FunctionDecl &&
            (p->first_function == 0 || b < p->first_function)) {
            p->first_function = b;
            p->first_function_line =
                location_pos(r, clang_getRangeStart(clang_getCursorExtent(d))).line;
        }
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (int k = 0; k < g.n; k++) {
            if (g.runs[k])
                continue;
            host_refs h = { .r = r, .g = &g };
            scan_host(&h, definition_of(g.fn[k]));
            host_refs_free(&h);
            if (h.found) {
                g.runs[k] = true;
                changed = true;
            }
        }
    }
    for (int k = 0; k < g.n; k++) {
        CXCursor d = definition_of(g.fn[k]);
        char *name = spelling(d);
        if (name && strcmp(name, "main") == 0) {
            p->has_main = true;
            p->main_name = cursor_pos(r, d).offset;
            p->main_params = clang_Cursor_getNumArguments(d);
            /* The host calls it as int (*)(int, char **): other forms
             * (const argv, a third parameter, ...) are not supported. */
            CXType ft = clang_getCursorType(d);
            /* `int main()` defines a main without parameters (before C23 its
             * type has no prototype, which libclang calls variadic). */
            bool no_proto = clang_getCanonicalType(ft).kind == CXType_FunctionNoProto;
            bool fits = (no_proto || !clang_isFunctionTypeVariadic(ft)) &&
                        (p->main_params == 0 || p->main_params == 2);
            if (fits && p->main_params == 2) {
                CXType a0 = clang_getCanonicalType(clang_Cursor_getArgument(d, 0).kind
                            ? clang_getCursorType(clang_Cursor_getArgument(d, 0))
                            : ft);
                CXString s1 = clang_getTypeSpelling(clang_getCanonicalType(
                    clang_getCursorType(clang_Cursor_getArgument(d, 1))));
                /* char *argv[] is spelled so even though it is a char **. */
                fits = a0.kind == CXType_Int &&
                       (strcmp(clang_getCString(s1), "char **") == 0 ||
                        strcmp(clang_getCString(s1), "char *[]") == 0);
                clang_disposeString(s1);
            }
            if (!fits)
                p->main_params = -1;
        }
        free(name);
        host_walk w = { r, &g };
        clang_visitChildren(d, host_body_kid, &w);   /* after any number of parameters */
    }
    clang_visitChildren(clang_getTranslationUnitCursor(r->tu), note_main_ref, r);
    /* File-scope initialisers that take an array's address. */
    host_walk w = { r, &g };
    clang_visitChildren(clang_getTranslationUnitCursor(r->tu), host_file_kid, &w);
    clang_getInclusions(r->tu, note_inclusion, r);
    p->pragmas = hd_xmalloc((size_t)(r->npragmas + r->nsequential + 1) * sizeof *p->pragmas);
    for (int k = 0; k < r->npragmas; k++)
        if (r->pragmas[k].kind != PRAGMA_DOALL)
            p->pragmas[p->npragmas++] = r->pragmas[k].offset;
    for (int k = 0; k < r->nsequential; k++)
        p->pragmas[p->npragmas++] = r->sequential[k];
    free(g.fn);
    free(g.runs);
}
