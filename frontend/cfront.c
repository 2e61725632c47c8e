/*
 * cfront.c — the C reader: finds the `#pragma hyperdo doall` loops of a C
 * file with libclang, checks that each is a canonical loop whose body is
 * plain assignments, turns every array subscript into an index expression
 * (expr.c), and works out under owner computes which references make
 * processors exchange data, and how (Hou et al. 2001, Section 3).
 *
 * The pass order: clang parses; the pragmas are read from the file's tokens
 * (libclang has no pragma cursors); the AST walk analyses each annotated
 * loop on its own (its index maps need only its trip count 2^k); then, with
 * the cube's dimension n known, every array gets its distribution and every
 * reference its owners and communication.
 *
 * libclang 14 does not expose an operator's kind, so operators are read
 * from the source text between the operands.  Inside a macro body operands
 * have no positions of their own; an operator there cannot be read, and an
 * index using one is reported as not understood rather than guessed.
 */
#define _XOPEN_SOURCE 700   /* realpath */

#include "analysis.h"
#include "frontend.h"

#include <clang-c/CXCompilationDatabase.h>
#include <clang-c/Index.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* hd_loop.home of a loop read without errors that writes no array
 * element: it has no effect outside itself and stays sequential code. */
#define NO_WRITES (-2)

typedef enum { PRAGMA_DOALL, PRAGMA_CUBE, PRAGMA_DISTRIBUTE } pragma_kind;

typedef struct {
    pragma_kind kind;
    int line;
    unsigned offset;
    unsigned next_offset;      /* DOALL: the first token after the line */
    bool used;
    long long value;           /* CUBE: n; DISTRIBUTE: B for block_cyclic */
    hd_dist_kind dist;
    int nnames;
    char **names;              /* DISTRIBUTE */
    int *name_cols;
} pragma;

/*
 * A node of the doall loop being read: the loop's whole subtree is recorded
 * by one clang_visitChildren, with each node's cursor, kind and children,
 * and its extent once asked for.  Asking libclang again per use (a visit per
 * node to list its children, an extent per operand) cost more than clang's
 * own parse of the file.
 */
typedef struct {
    CXCursor c;
    enum CXCursorKind kind;
    int first, last, next;     /* children and the next sibling; -1: none */
    int nkids;
    bool has_begin, has_extent;
    bool begin_main, end_main; /* where the extent's ends are */
    unsigned begin, end;       /* their offsets (expansion locations) */
} node;

/* An array declaration seen in a doall body. */
typedef struct {
    CXCursor decl;
    int index;                 /* in the program's arrays */
} array_decl;

typedef struct {
    const char *path;
    const hd_c_options *opt;
    CXTranslationUnit tu;
    CXFile file;
    const char *src;
    size_t len;

    hd_diags d;                /* what it reports */
    char *stdin_text;          /* the input, when it is standard input */
    size_t stdin_len;

    pragma *pragmas;
    int npragmas, pragmas_cap;
    int cube_pragma;           /* index, or -1 */
    CXSourceLocation *ignored; /* pragmas clang ignored (-Wunknown-pragmas) */
    int nignored;

    hd_program *prog;
    array_decl *decls;
    int ndecls;
    int arrays_cap, decls_cap, loops_cap; /* of prog->arrays, decls, prog->loops */
    unsigned *sequential;      /* pragma lines of doalls kept sequential */
    int nsequential;

    /* The loop being analysed. */
    node *nodes;
    int nnodes, nodes_cap;
    int *open;                 /* while recording: the open nodes */
    int depth, open_cap;
    bool lost;                 /* a node whose parent was not open */
    struct {                   /* integer types seen, canonical */
        CXType type;
        bool ok, is_signed;
        int bits;
    } types[8];
    int ntypes;
    hd_loop *loop;
    int refs_cap, guards_cap;  /* of loop->refs, loop->guards */
    hd_ref *ref_buffer;        /* loop->refs while its body is walked */
    int ref_buffer_cap;
    CXCursor loop_var;
    CXCursor *locals;          /* scalars declared in its body */
    int nlocals, locals_cap;
    CXCursor *outer_decls;     /* outer variables it reads (loop->outers) */
    int nouter_decls, outers_cap;
    int guard;                 /* the guard of the part being walked, or -1 */
    int rejected;              /* doall loops read with errors */

    CXCursor function;         /* the function definition being walked */

} reader;

/* ------------------------------------------------------- diagnostics */

typedef struct {
    unsigned offset;
    int line, col;
    bool in_main;
} position;

static position where(reader *r, CXSourceLocation loc)
{
    CXFile f;
    unsigned line, col, off;
    position p;
    clang_getExpansionLocation(loc, &f, &line, &col, &off);
    p.offset = off;
    p.line = (int)line;
    p.col = (int)col;
    p.in_main = f && clang_File_isEqual(f, r->file);
    return p;
}

static position cursor_pos(reader *r, CXCursor c)
{
    return where(r, clang_getCursorLocation(c));
}

#define error_at(r, c, ...) \
    do { position p_ = cursor_pos((r), (c)); \
         hd_report(&(r)->d, HD_ERROR, p_.offset, p_.line, __VA_ARGS__); } while (0)

static unsigned offset_of(reader *r, CXSourceLocation loc, bool *in_main);

/* clang's own diagnostics, in its format, with a caret where we can. */
static void pass_clang_diagnostics(reader *r)
{
    unsigned n = clang_getNumDiagnostics(r->tu);
    for (unsigned k = 0; k < n; k++) {
        CXDiagnostic d = clang_getDiagnostic(r->tu, k);
        enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
        CXString option = clang_getDiagnosticOption(d, NULL);
        bool unknown_pragma = strcmp(clang_getCString(option), "-Wunknown-pragmas") == 0;
        clang_disposeString(option);
        if (unknown_pragma && sev < CXDiagnostic_Error) {
            /* Asked for to find every pragma, ours among them; not news. */
            r->ignored = hd_xrealloc(r->ignored, (size_t)(r->nignored + 1) * sizeof *r->ignored);
            r->ignored[r->nignored++] = clang_getDiagnosticLocation(d);
        } else if (sev >= CXDiagnostic_Warning) {
            CXString s = clang_formatDiagnostic(d,
                CXDiagnostic_DisplaySourceLocation | CXDiagnostic_DisplayColumn |
                CXDiagnostic_DisplayOption);
            /* Placed by where it is expanded in the input; the caret goes
             * where clang would put it: the spelling. */
            CXFile f;
            unsigned line, col, off;
            size_t len = 0;
            bool in_main = false;
            unsigned at = offset_of(r, clang_getDiagnosticLocation(d), &in_main);
            clang_getSpellingLocation(clang_getDiagnosticLocation(d), &f,
                                      &line, &col, &off);
            const char *src = f ? clang_getFileContents(r->tu, f, &len) : NULL;
            hd_place place = in_main ? HD_IN_INPUT : f ? HD_IN_OTHER_FILE : HD_NOWHERE;
            hd_report_formatted(&r->d, place, at, sev >= CXDiagnostic_Error,
                                clang_getCString(s), src, len, off, (int)col);
            clang_disposeString(s);
        }
        clang_disposeDiagnostic(d);
    }
}

/* ------------------------------------------------------- small helpers */

static char *spelling(CXCursor c)
{
    CXString s = clang_getCursorSpelling(c);
    char *d = hd_xstrdup(clang_getCString(s));
    clang_disposeString(s);
    return d;
}

/* A type as the program spells it, without leading qualifiers: the code
 * generator declares copies of values of this type. */
static char *type_text(CXType t)
{
    CXString s = clang_getTypeSpelling(t);
    const char *c = clang_getCString(s);
    for (;;) {
        if (strncmp(c, "const ", 6) == 0)
            c += 6;
        else if (strncmp(c, "volatile ", 9) == 0)
            c += 9;
        else
            break;
    }
    char *d = hd_xstrdup(c);
    clang_disposeString(s);
    return d;
}

/* ------------------------------------------------------- loop nodes */

static int add_node(reader *r, CXCursor c)
{
    hd_xreserve(&r->nodes, &r->nodes_cap, r->nnodes + 1, sizeof *r->nodes);
    node *n = &r->nodes[r->nnodes];
    memset(n, 0, sizeof *n);
    n->c = c;
    n->kind = clang_getCursorKind(c);
    n->first = n->last = n->next = -1;
    return r->nnodes++;
}

static void push_open(reader *r, int x)
{
    hd_xreserve(&r->open, &r->open_cap, r->depth + 1, sizeof *r->open);
    r->open[r->depth++] = x;
}

/*
 * Is p the cursor the visitor was given for node c?  Not clang_equalCursors:
 * libclang fills a parent cursor's link to its own parent differently.  The
 * AST node is what counts, where clang_hashCursor finds it: data[1] for
 * statements and expressions, data[0] for the rest.
 */
static bool same_node(CXCursor c, CXCursor p)
{
    int k = clang_isExpression(c.kind) || clang_isStatement(c.kind);
    return c.kind == p.kind && c.data[k] == p.data[k] && c.data[2] == p.data[2];
}

/* The visit is depth first, so a node's parent is on the path of open
 * nodes: those below it are finished. */
static enum CXChildVisitResult record(CXCursor c, CXCursor parent,
                                      CXClientData data)
{
    reader *r = data;
    while (r->depth > 0 && !same_node(r->nodes[r->open[r->depth - 1]].c, parent))
        r->depth--;
    if (r->depth == 0) {
        r->lost = true;
        return CXChildVisit_Break;
    }
    int p = r->open[r->depth - 1];
    int x = add_node(r, c);
    push_open(r, x);
    node *pn = &r->nodes[p];
    if (pn->last >= 0)
        r->nodes[pn->last].next = x;
    else
        pn->first = x;
    pn->last = x;
    pn->nkids++;
    return CXChildVisit_Recurse;
}

static bool is_pointer_like(CXCursor c)
{
    enum CXTypeKind k = clang_getCanonicalType(clang_getCursorType(c)).kind;
    return k == CXType_Pointer || k == CXType_ConstantArray || k == CXType_IncompleteArray ||
           k == CXType_VariableArray || k == CXType_DependentSizedArray;
}

/* E1[E2] is *((E1) + (E2)) (C11 6.5.2.1p2), so the array may come second,
 * as in 3[a]; libclang lists the operands in source order.  Every reader
 * of a subscript takes the array first. */
static void base_first(reader *r, int x)
{
    node *n = &r->nodes[x];
    if (n->kind != CXCursor_ArraySubscriptExpr || n->nkids != 2)
        return;
    int a = n->first, b = r->nodes[a].next;
    if (is_pointer_like(r->nodes[a].c) || !is_pointer_like(r->nodes[b].c))
        return;
    n->first = b;
    r->nodes[b].next = a;
    r->nodes[a].next = -1;
    n->last = a;
}

/* Records c's subtree after the nodes already recorded; returns c's node,
 * or -1 when libclang gave a node whose parent was not open (a visit that
 * is not depth first: the tree cannot be trusted). */
static int record_tree(reader *r, CXCursor c)
{
    int root = add_node(r, c);
    r->depth = 0;
    r->lost = false;
    push_open(r, root);
    clang_visitChildren(c, record, r);
    r->depth = 0;
    if (r->lost)
        return -1;
    for (int x = root; x < r->nnodes; x++)
        base_first(r, x);
    return root;
}

static CXCursor cur(reader *r, int x)
{
    return r->nodes[x].c;
}

static enum CXCursorKind kind_of(reader *r, int x)
{
    return r->nodes[x].kind;
}

/* The offset of loc's expansion in its file, and whether that is the main
 * file; line and column are left alone (they cost more than the offset). */
static unsigned offset_of(reader *r, CXSourceLocation loc, bool *in_main)
{
    CXFile f;
    unsigned off;
    clang_getExpansionLocation(loc, &f, NULL, NULL, &off);
    *in_main = f && clang_File_isEqual(f, r->file);
    return off;
}

static node *extent_of(reader *r, int x)
{
    node *n = &r->nodes[x];
    if (!n->has_extent) {
        CXSourceRange range = clang_getCursorExtent(n->c);
        n->begin = offset_of(r, clang_getRangeStart(range), &n->begin_main);
        n->end = offset_of(r, clang_getRangeEnd(range), &n->end_main);
        n->has_begin = n->has_extent = true;
    }
    return n;
}

/*
 * Does an expression of this kind start at its cursor's location?  libclang
 * gives the location of most expressions as their first token, as does the
 * extent, but an extent also measures the last token with the lexer, which
 * costs ten times as much.  Not for implicit conversions (UnexposedExpr):
 * their location is the operand's, which for `s.x` is the member's name.
 */
static bool starts_at_location(enum CXCursorKind kind)
{
    switch (kind) {
    case CXCursor_DeclRefExpr: case CXCursor_IntegerLiteral:
    case CXCursor_CharacterLiteral: case CXCursor_ParenExpr:
    case CXCursor_UnaryOperator: case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator: case CXCursor_ConditionalOperator:
    case CXCursor_CallExpr: case CXCursor_ArraySubscriptExpr:
    case CXCursor_CStyleCastExpr:
        return true;
    default:
        return false;
    }
}

static unsigned start_of(reader *r, int x, bool *in_main)
{
    node *n = &r->nodes[x];
    if (!n->has_begin && starts_at_location(n->kind)) {
        n->begin = offset_of(r, clang_getCursorLocation(n->c), &n->begin_main);
        n->has_begin = true;
    }
    if (!n->has_begin)
        n = extent_of(r, x);
    *in_main = *in_main && n->begin_main;
    return n->begin;
}

static unsigned end_of(reader *r, int x, bool *in_main)
{
    node *n = extent_of(r, x);
    *in_main = *in_main && n->end_main;
    return n->end;
}

/* The text of x's extent in the main file. */
static char *source_text(reader *r, int x)
{
    node *n = extent_of(r, x);
    if (!n->begin_main || !n->end_main || n->end < n->begin || n->end > r->len)
        return spelling(n->c);
    char *d = hd_xmalloc(n->end - n->begin + 1);
    if (d) {
        memcpy(d, r->src + n->begin, n->end - n->begin);
        d[n->end - n->begin] = '\0';
    }
    return d;
}

/* A node's first children (all of them counted in n). */
typedef struct {
    int kid[8];
    int n;
} children;

static children kids_of(reader *r, int x)
{
    children k;
    k.n = r->nodes[x].nkids;
    int at = r->nodes[x].first;
    for (int j = 0; j < 8 && at >= 0; j++, at = r->nodes[at].next)
        k.kid[j] = at;
    return k;
}

/* Strips parentheses and implicit conversions. */
static int strip(reader *r, int x)
{
    while ((kind_of(r, x) == CXCursor_ParenExpr ||
            kind_of(r, x) == CXCursor_UnexposedExpr) && r->nodes[x].nkids == 1)
        x = r->nodes[x].first;
    return x;
}

static bool is_loop_var(reader *r, int x)
{
    x = strip(r, x);
    return kind_of(r, x) == CXCursor_DeclRefExpr &&
           clang_equalCursors(clang_getCursorReferenced(cur(r, x)), r->loop_var);
}

/* The operator written in the source between offsets b and e, without
 * white space and comments; "" when that is not one operator token (as
 * inside a macro body, where both offsets are the macro call's). */
static void operator_between(reader *r, unsigned b, unsigned e, bool ok,
                             char *op, size_t size)
{
    size_t n = 0;
    op[0] = '\0';
    if (!ok || b >= e || e > r->len)
        return;
    for (unsigned k = b; k < e; k++) {
        char ch = r->src[k];
        if (ch == '/' && k + 1 < e && r->src[k + 1] == '*') {
            for (k += 2; k + 1 < e && !(r->src[k] == '*' && r->src[k + 1] == '/'); k++)
                ;
            k++;
        } else if (ch == '/' && k + 1 < e && r->src[k + 1] == '/') {
            while (k < e && r->src[k] != '\n')
                k++;
        } else if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' ||
                   ch == '\f' || ch == '\v' || ch == '\\') {
            continue;
        } else if (strchr("+-*/%<>=!&|^~", ch) && n + 1 < size) {
            op[n++] = ch;
        } else {
            n = 0;
            break;
        }
    }
    op[n] = '\0';
}

/* The operator of a binary operator or compound assignment whose
 * operands are kids (exactly two). */
static void operator_text(reader *r, const children *kids, char *op,
                          size_t size)
{
    bool ok = kids->n == 2;
    unsigned b = ok ? end_of(r, kids->kid[0], &ok) : 0;
    unsigned e = ok ? start_of(r, kids->kid[1], &ok) : 0;
    operator_between(r, b, e, ok, op, size);
}

/* A unary operator's text, and whether it is postfix. */
static void unary_text(reader *r, int x, int sub, char *op, size_t size,
                       bool *postfix)
{
    bool ok = true;
    unsigned cb = start_of(r, x, &ok), ce = end_of(r, x, &ok);
    unsigned sb = start_of(r, sub, &ok), se = end_of(r, sub, &ok);
    *postfix = cb == sb && se < ce;
    if (*postfix)
        operator_between(r, se, ce, ok, op, size);
    else
        operator_between(r, cb, sb, ok, op, size);
}

static bool integer_type_of(CXType t, int *bits, bool *is_signed);

/* An integer type's width and signedness; false for other types. */
static bool integer_type(CXType t, int *bits, bool *is_signed)
{
    t = clang_getCanonicalType(t);
    return integer_type_of(t, bits, is_signed);
}

/* The same, remembered: an index has few types but many nodes. */
static bool integer_type_in(reader *r, CXType t, int *bits, bool *is_signed)
{
    t = clang_getCanonicalType(t);
    for (int k = 0; k < r->ntypes; k++)
        if (clang_equalTypes(r->types[k].type, t)) {
            *bits = r->types[k].bits;
            *is_signed = r->types[k].is_signed;
            return r->types[k].ok;
        }
    bool ok = integer_type_of(t, bits, is_signed);
    if (r->ntypes < 8) {
        r->types[r->ntypes].type = t;
        r->types[r->ntypes].ok = ok;
        r->types[r->ntypes].bits = ok ? *bits : 0;
        r->types[r->ntypes++].is_signed = ok && *is_signed;
    }
    return ok;
}

/* An integer type's width and signedness, for a canonical type t. */
static bool integer_type_of(CXType t, int *bits, bool *is_signed)
{
    switch (t.kind) {
    case CXType_Bool: case CXType_Char_U: case CXType_UChar:
    case CXType_UShort: case CXType_UInt: case CXType_ULong:
    case CXType_ULongLong: case CXType_Char16: case CXType_Char32:
        *is_signed = false;
        break;
    case CXType_Char_S: case CXType_SChar: case CXType_Short:
    case CXType_Int: case CXType_Long: case CXType_LongLong:
    case CXType_WChar:
        *is_signed = true;
        break;
    case CXType_Enum:
        return integer_type(clang_getEnumDeclIntegerType(
                   clang_getTypeDeclaration(t)), bits, is_signed);
    default:
        return false;
    }
    long long size = clang_Type_getSizeOf(t);
    if (size < 1 || size > 8)
        return false;
    *bits = t.kind == CXType_Bool ? 1 : (int)size * 8;
    return true;
}

/* The value of a constant expression, if clang can fold it. */
static bool evaluate(CXCursor c, long long *value)
{
    CXEvalResult res = clang_Cursor_Evaluate(c);
    bool ok = false;
    if (res) {
        if (clang_EvalResult_getKind(res) == CXEval_Int) {
            *value = clang_EvalResult_isUnsignedInt(res)
                ? (long long)clang_EvalResult_getAsUnsigned(res)
                : clang_EvalResult_getAsLongLong(res);
            ok = true;
        }
        clang_EvalResult_dispose(res);
    }
    return ok;
}

/* ------------------------------------------------------- pragmas */

typedef struct {
    CXToken *tok;
    unsigned n;
    unsigned at;
    int line;                  /* the pragma's line: tokens end there */
} token_cursor;

static char *token_text(reader *r, CXToken t)
{
    CXString s = clang_getTokenSpelling(r->tu, t);
    char *d = hd_xstrdup(clang_getCString(s));
    clang_disposeString(s);
    return d;
}

static position token_pos(reader *r, CXToken t)
{
    return where(r, clang_getTokenLocation(r->tu, t));
}

static bool token_on_line(reader *r, token_cursor *tc)
{
    return tc->at < tc->n && token_pos(r, tc->tok[tc->at]).line == tc->line;
}

/* Accepts the token `want` on the pragma's line. */
static bool accept(reader *r, token_cursor *tc, const char *want)
{
    if (!token_on_line(r, tc))
        return false;
    char *s = token_text(r, tc->tok[tc->at]);
    bool ok = s && strcmp(s, want) == 0;
    free(s);
    if (ok)
        tc->at++;
    return ok;
}

static void pragma_error(reader *r, token_cursor *tc, const char *fmt,
                         const char *arg)
{
    unsigned k = tc->at < tc->n && token_on_line(r, tc) ? tc->at : tc->at - 1;
    position p = token_pos(r, tc->tok[k]);
    hd_report(&r->d, HD_ERROR, p.offset, p.line, fmt, arg);
}

/* An integer literal on the pragma's line; *at is its token. */
static bool pragma_number(reader *r, token_cursor *tc, long long *value,
                          unsigned *at)
{
    *at = tc->at;
    if (!token_on_line(r, tc) ||
        clang_getTokenKind(tc->tok[tc->at]) != CXToken_Literal)
        return false;
    char *s = token_text(r, tc->tok[tc->at]), *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    bool ok = errno == 0 && end != s && v <= INT_MAX &&
              strspn(end, "uUlL") == strlen(end);
    free(s);
    if (ok) {
        *value = (long long)v;
        tc->at++;
    }
    return ok;
}

static bool parse_distribute(reader *r, token_cursor *tc, pragma *p)
{
    if (!accept(r, tc, "(")) {
        pragma_error(r, tc, "expected '(' after 'distribute'%s", "");
        return false;
    }
    do {
        if (!token_on_line(r, tc) ||
            clang_getTokenKind(tc->tok[tc->at]) != CXToken_Identifier) {
            pragma_error(r, tc, "expected an array name in 'distribute'%s", "");
            return false;
        }
        p->names = hd_xrealloc(p->names, (size_t)(p->nnames + 1) * sizeof *p->names);
        p->name_cols = hd_xrealloc(p->name_cols, (size_t)(p->nnames + 1) * sizeof *p->name_cols);
        p->names[p->nnames] = token_text(r, tc->tok[tc->at]);
        p->name_cols[p->nnames++] = (int)token_pos(r, tc->tok[tc->at]).offset;
        tc->at++;
    } while (accept(r, tc, ","));
    if (!accept(r, tc, ":")) {
        pragma_error(r, tc, "expected ':' and a distribution (cyclic, block or "
                     "block_cyclic(B)) after the array names%s", "");
        return false;
    }
    if (accept(r, tc, "cyclic")) {
        p->dist = HD_DIST_CYCLIC;
    } else if (accept(r, tc, "block")) {
        p->dist = HD_DIST_BLOCK;
    } else if (accept(r, tc, "block_cyclic")) {
        p->dist = HD_DIST_BLOCK_CYCLIC;
        unsigned at = 0;
        if (!accept(r, tc, "(") || !pragma_number(r, tc, &p->value, &at) ||
            !accept(r, tc, ")")) {
            pragma_error(r, tc, "expected block_cyclic(B) with B an integer "
                         "literal%s", "");
            return false;
        }
        if (p->value < 1 || (p->value & (p->value - 1))) {
            tc->at = at;
            pragma_error(r, tc, "the block size of block_cyclic must be a "
                         "power of two%s", "");
            return false;
        }
    } else {
        pragma_error(r, tc, "unknown distribution: expected cyclic, block or "
                     "block_cyclic(B)%s", "");
        return false;
    }
    if (!accept(r, tc, ")")) {
        pragma_error(r, tc, "expected ')' to end 'distribute'%s", "");
        return false;
    }
    return true;
}

/* Is offset inside a region the preprocessor skipped (#if 0 ...)? */
static bool skipped(CXSourceRangeList *ranges, reader *r, unsigned offset)
{
    for (unsigned k = 0; ranges && k < ranges->count; k++) {
        position b = where(r, clang_getRangeStart(ranges->ranges[k]));
        position e = where(r, clang_getRangeEnd(ranges->ranges[k]));
        if (offset >= b.offset && offset <= e.offset)
            return true;
    }
    return false;
}

/* Skips white space and comments from offset k; returns the next offset. */
static size_t skip_blank(const char *src, size_t len, size_t k)
{
    while (k < len) {
        if (src[k] == '/' && k + 1 < len && src[k + 1] == '*') {
            for (k += 2; k + 1 < len && !(src[k] == '*' && src[k + 1] == '/'); k++)
                ;
            k += 2;
        } else if (src[k] == '/' && k + 1 < len && src[k + 1] == '/') {
            while (k < len && src[k] != '\n')
                k++;
        } else if (strchr(" \t\r\n\f\v", src[k]) ||
                   (src[k] == '\\' && k + 1 < len && src[k + 1] == '\n')) {
            k++;
        } else {
            break;
        }
    }
    return k < len ? k : len;
}

static bool word_at(const char *src, size_t len, size_t k, const char *word)
{
    size_t n = strlen(word);
    return k + n <= len && memcmp(src + k, word, n) == 0 &&
           (k + n == len || !(src[k + n] == '_' || (src[k + n] >= '0' && src[k + n] <= '9') ||
                              ((src[k + n] | 32) >= 'a' && (src[k + n] | 32) <= 'z')));
}

/* The offsets of the `#` of every `#pragma hyperdo` line, found by a small
 * scan of the text that knows comments, strings and line starts (cheaper
 * than asking clang for every token of the file). */
static size_t pragma_lines(const char *src, size_t len, size_t **out)
{
    size_t n = 0, cap = 0, k = 0;
    bool line_start = true;
    *out = NULL;
    while (k < len) {
        char ch = src[k];
        if (ch == '\n') {
            line_start = true;
            k++;
        } else if (ch == '/' && k + 1 < len && src[k + 1] == '/') {
            /* To the end of the line; its newline starts the next one. */
            while (k < len && src[k] != '\n')
                k++;
        } else if (ch == '/' && k + 1 < len && src[k + 1] == '*') {
            /* A block comment is one space (C11 5.1.1.2): the line goes on,
             * even when the comment spans lines. */
            for (k += 2; k + 1 < len && !(src[k] == '*' && src[k + 1] == '/'); k++)
                ;
            k += 2;
        } else if (ch == '"' || ch == '\'') {
            for (k++; k < len && src[k] != ch && src[k] != '\n'; k++)
                if (src[k] == '\\')
                    k++;
            k++;
            line_start = false;
        } else if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v') {
            k++;
        } else if (ch == '#' && line_start) {
            size_t j = skip_blank(src, len, k + 1);
            if (word_at(src, len, j, "pragma")) {
                j = skip_blank(src, len, j + 6);
                if (word_at(src, len, j, "hyperdo")) {
                    if (n == cap)
                        *out = hd_xrealloc(*out, (cap = cap ? 2 * cap : 16) * sizeof **out);
                    (*out)[n++] = k;
                }
            }
            while (k < len && src[k] != '\n')
                k++;
        } else {
            line_start = false;
            k++;
        }
    }
    return n;
}

/* Does the text of c's extent (in whatever file) mention a hyperdo pragma? */
static bool defines_hyperdo_pragma(reader *r, CXCursor def)
{
    CXSourceRange ext = clang_getCursorExtent(def);
    CXFile f;
    unsigned b, e;
    size_t len = 0;
    clang_getSpellingLocation(clang_getRangeStart(ext), &f, NULL, NULL, &b);
    clang_getSpellingLocation(clang_getRangeEnd(ext), NULL, NULL, NULL, &e);
    const char *src = f ? clang_getFileContents(r->tu, f, &len) : NULL;
    if (!src || e > len || b >= e)
        return false;
    bool has_pragma = false, ours = false;
    for (unsigned k = b; k + 7 <= e; k++) {
        has_pragma = has_pragma || memcmp(src + k, "_Pragma", 7) == 0;
        ours = ours || memcmp(src + k, "hyperdo", 7) == 0;
    }
    return has_pragma && ours;
}

typedef struct {
    reader *r;
    char name[256];
    bool ours;
} macro_search;

static enum CXChildVisitResult find_macro(CXCursor c, CXCursor parent,
                                          CXClientData data)
{
    (void)parent;
    macro_search *m = data;
    if (clang_getCursorKind(c) == CXCursor_MacroDefinition) {
        CXString s = clang_getCursorSpelling(c);
        if (strcmp(clang_getCString(s), m->name) == 0)
            m->ours = defines_hyperdo_pragma(m->r, c);
        clang_disposeString(s);
    }
    return CXChildVisit_Continue;
}

/*
 * Every pragma clang ignored was reported (-Wunknown-pragmas, added to the
 * compile flags).  Those on `#pragma hyperdo` lines are read above; a
 * hyperdo pragma written as _Pragma("...") or coming from a macro is not
 * supported, and must not be skipped silently either.
 */
static void check_ignored_pragmas(reader *r, const size_t *hashes, size_t count)
{
    for (int k = 0; k < r->nignored; k++) {
        position at = where(r, r->ignored[k]);
        if (!at.in_main)
            continue;
        bool read = false;
        for (size_t h = 0; h < count && !read; h++)
            read = hashes[h] <= at.offset && at.offset - hashes[h] < 4096 &&
                   !memchr(r->src + hashes[h], '\n', at.offset - hashes[h]);
        if (read)
            continue;
        const char *text = r->src + at.offset;
        size_t left = r->len - at.offset;
        bool ours = false;
        if (left > 7 && memcmp(text, "_Pragma", 7) == 0) {
            size_t j = skip_blank(r->src, r->len, at.offset + 7);
            if (j < r->len && r->src[j] == '(')
                j = skip_blank(r->src, r->len, j + 1);
            if (j < r->len && r->src[j] == '"') {
                while (j + 1 < r->len && r->src[j + 1] == ' ')
                    j++;
                ours = word_at(r->src, r->len, j + 1, "hyperdo");
            }
        } else {
            /* A macro: find its definition by name. */
            size_t n = 0;
            while (n < left && n < 255 && (text[n] == '_' ||
                   (text[n] >= '0' && text[n] <= '9') ||
                   ((text[n] | 32) >= 'a' && (text[n] | 32) <= 'z')))
                n++;
            macro_search search = { r, { 0 }, false };
            memcpy(search.name, text, n);
            if (n > 0)
                clang_visitChildren(clang_getTranslationUnitCursor(r->tu),
                                    find_macro, &search);
            ours = search.ours;
        }
        if (ours)
            hd_report(&r->d, HD_ERROR, at.offset, at.line, "a hyperdo pragma must be "
                   "written as a '#pragma hyperdo ...' line: _Pragma and "
                   "pragmas from macros are not supported");
    }
}

/* Reads every `#pragma hyperdo ...` line of the main file. */
static void scan_pragmas(reader *r)
{
    CXSourceRangeList *skip = clang_getSkippedRanges(r->tu, r->file);
    size_t *hashes;
    size_t count = pragma_lines(r->src, r->len, &hashes);
    for (size_t h = 0; h < count; h++) {
        size_t eol = hashes[h];
        while (eol < r->len && r->src[eol] != '\n')
            eol++;
        if (skipped(skip, r, (unsigned)hashes[h]))
            continue;
        token_cursor tc = { NULL, 0, 0, 0 };
        clang_tokenize(r->tu, clang_getRange(
            clang_getLocationForOffset(r->tu, r->file, (unsigned)hashes[h]),
            clang_getLocationForOffset(r->tu, r->file, (unsigned)eol)),
            &tc.tok, &tc.n);
        /* Comments on the line are not part of the pragma. */
        unsigned kept = 0, all = tc.n;
        for (unsigned t = 0; t < tc.n; t++)
            if (clang_getTokenKind(tc.tok[t]) != CXToken_Comment)
                tc.tok[kept++] = tc.tok[t];
        tc.n = kept;
        position hash = where(r, clang_getLocationForOffset(r->tu, r->file,
                                                            (unsigned)hashes[h]));
        pragma p;
        memset(&p, 0, sizeof p);
        p.line = hash.line;
        p.offset = hash.offset;
        tc.at = 3;            /* after `#`, `pragma`, `hyperdo` */
        tc.line = hash.line;
        bool ok = tc.n >= 3;
        if (!ok) {
            /* nothing: a line clang does not lex as three tokens */
        } else if (accept(r, &tc, "doall")) {
            p.kind = PRAGMA_DOALL;
        } else if (accept(r, &tc, "cube")) {
            p.kind = PRAGMA_CUBE;
            unsigned at = 0;
            if (!accept(r, &tc, "(") || !pragma_number(r, &tc, &p.value, &at) ||
                !accept(r, &tc, ")")) {
                pragma_error(r, &tc, "expected cube(n) with n an integer "
                             "literal%s", "");
                ok = false;
            } else if (p.value < 1 || p.value > HD_DP_MAX_DIM) {
                tc.at = at;
                pragma_error(r, &tc, "cube(n) needs 1 <= n <= 26 (the mapping "
                             "optimizer's limit)%s", "");
                ok = false;
            }
        } else if (accept(r, &tc, "distribute")) {
            p.kind = PRAGMA_DISTRIBUTE;
            ok = parse_distribute(r, &tc, &p);
        } else {
            char *word = token_on_line(r, &tc) ? token_text(r, tc.tok[tc.at])
                                               : hd_xstrdup("");
            pragma_error(r, &tc, "unknown '#pragma hyperdo %s': expected doall, "
                         "cube(n) or distribute(arrays : distribution)", word);
            free(word);
            ok = false;
        }
        if (ok && token_on_line(r, &tc)) {
            pragma_error(r, &tc, "unexpected text after the pragma%s", "");
            ok = false;
        }
        clang_disposeTokens(r->tu, tc.tok, all);
        if (!ok) {
            for (int k = 0; k < p.nnames; k++)
                free(p.names[k]);
            free(p.names);
            free(p.name_cols);
            continue;
        }
        if (p.kind == PRAGMA_DOALL) {
            /* The loop must come next: only comments may stand between. */
            size_t next = skip_blank(r->src, r->len, eol);
            if (!word_at(r->src, r->len, next, "for")) {
                /* Another directive in the way (#pragma omp parallel for):
                 * name it. */
                size_t e = next;
                while (e < r->len && r->src[e] != '\n' && r->src[e] != '\r' && e - next < 80)
                    e++;
                while (e > next && (r->src[e - 1] == ' ' || r->src[e - 1] == '\t'))
                    e--;
                r->rejected++;   /* its arrays are not known */
                if (next < r->len && r->src[next] == '#')
                    hd_report(&r->d, HD_ERROR, p.offset, p.line, "'#pragma hyperdo doall' "
                              "must be followed by a for loop, but '%.*s' comes first: "
                              "put the doall pragma right before the loop",
                              (int)(e - next), r->src + next);
                else
                    hd_report(&r->d, HD_ERROR, p.offset, p.line, "'#pragma hyperdo doall' "
                       "must be followed by a for loop");
                continue;
            }
            p.next_offset = (unsigned)next;
        }
        hd_xreserve(&r->pragmas, &r->pragmas_cap, r->npragmas + 1, sizeof *r->pragmas);
        r->pragmas[r->npragmas++] = p;
        if (p.kind == PRAGMA_CUBE) {
            if (r->cube_pragma >= 0)
                hd_report(&r->d, HD_ERROR, p.offset, p.line, "a second '#pragma hyperdo "
                       "cube' (the first is on line %d)",
                       r->pragmas[r->cube_pragma].line);
            else
                r->cube_pragma = r->npragmas - 1;
        }
    }
    check_ignored_pragmas(r, hashes, count);
    free(hashes);
    clang_disposeSourceRangeList(skip);
}

/* ------------------------------------------------- index expressions */

static hd_expr *opaque(int bits, bool is_signed, const char *fmt, const char *arg)
{
    hd_expr *e = hd_expr_new(HD_EX_OPAQUE, bits, is_signed);
    char buf[256];
    snprintf(buf, sizeof buf, fmt, arg);
    if (e)
        e->reason = hd_xstrdup(buf);
    return e;
}

static const struct {
    const char *text;
    hd_op op;
} binary_ops[] = {
    { "+", HD_OP_ADD }, { "-", HD_OP_SUB }, { "*", HD_OP_MUL },
    { "/", HD_OP_DIV }, { "%", HD_OP_MOD }, { "<<", HD_OP_SHL },
    { ">>", HD_OP_SHR }, { "&", HD_OP_AND }, { "|", HD_OP_OR },
    { "^", HD_OP_XOR }, { "<", HD_OP_LT }, { ">", HD_OP_GT },
    { "<=", HD_OP_LE }, { ">=", HD_OP_GE }, { "==", HD_OP_EQ },
    { "!=", HD_OP_NE }, { "&&", HD_OP_LAND }, { "||", HD_OP_LOR },
};

static bool fold(hd_expr *e)
{
    char why[64];
    uint64_t v;
    for (int k = 0; k < e->nkids; k++)
        if (e->kid[k]->kind != HD_EX_CONST)
            return false;
    if (!hd_expr_eval(e, 0, &v, why, sizeof why))
        return false;
    for (int k = 0; k < e->nkids; k++)
        hd_expr_free(e->kid[k]);
    e->nkids = 0;
    e->kind = HD_EX_CONST;
    e->value = v;
    return true;
}

static hd_expr *build(reader *r, int x);
static bool is_local(reader *r, CXCursor decl);

static hd_expr *constant(int bits, bool sg, long long value)
{
    hd_expr *e = hd_expr_new(HD_EX_CONST, bits, sg);
    if (e) {
        char why[8];
        uint64_t v;
        e->value = (uint64_t)value;
        hd_expr_eval(e, 0, &v, why, sizeof why);   /* extends it */
        e->value = v;
    }
    return e;
}

static hd_expr *build_kids(reader *r, hd_expr *e, const int *kids, int n)
{
    if (!e)
        return NULL;
    for (int k = 0; k < n; k++) {
        e->kid[k] = build(r, kids[k]);
        if (!e->kid[k]) {
            hd_expr_free(e);
            return NULL;
        }
        e->nkids = k + 1;
    }
    fold(e);
    return e;
}

/* The node of call x's argument a: the callee comes first among a call's
 * children, the arguments after it in order. */
static int argument(reader *r, int x, int a)
{
    children kids = kids_of(r, x);
    CXCursor arg = clang_Cursor_getArgument(cur(r, x), (unsigned)a);
    if (a + 1 < kids.n && a + 1 < 8 && clang_equalCursors(cur(r, kids.kid[a + 1]), arg))
        return kids.kid[a + 1];
    return record_tree(r, arg);   /* not seen that way: recorded apart */
}

static hd_expr *build_call(reader *r, int x, int bits, bool sg)
{
    CXCursor c = cur(r, x);
    CXCursor callee = clang_getCursorReferenced(c);
    char *name = spelling(callee);
    int nargs = 0, h = name ? hd_helper_lookup(name, &nargs) : -1;
    hd_expr *e = NULL;
    if (h >= 0 && clang_Cursor_getNumArguments(c) == nargs) {
        CXFile f;
        clang_getSpellingLocation(clang_getCursorLocation(callee), &f, NULL, NULL, NULL);
        CXString fname = clang_getFileName(f);
        const char *fn = clang_getCString(fname);
        size_t fl = fn ? strlen(fn) : 0;
        bool from_bits = fl >= 14 && strcmp(fn + fl - 14, "hyperdo/bits.h") == 0;
        clang_disposeString(fname);
        if (from_bits) {
            int args[3];
            for (int a = 0; a < nargs; a++)
                if ((args[a] = argument(r, x, a)) < 0)
                    nargs = -1;
            e = nargs >= 0 ? hd_expr_new(HD_EX_CALL, bits, sg) : NULL;
            if (e)
                e->helper = (hd_helper)h;
            free(name);
            return build_kids(r, e, args, nargs);
        }
    }
    e = opaque(bits, sg, "the value of '%s(...)' is not known at compile time",
               name ? name : "?");
    free(name);
    return e;
}

/* The index expression tree of node x. */
/* s.m, s.t.m: a member, through '.' only, of a variable declared outside
 * the loop, which the body cannot change (its value is shipped whole,
 * docs/codegen.md), so it is the same at every iteration. */
static bool outer_member(reader *r, int x)
{
    while (kind_of(r, x) == CXCursor_MemberRefExpr) {
        children kids = kids_of(r, x);
        if (kids.n != 1)
            return false;
        x = strip(r, kids.kid[0]);
        enum CXTypeKind t = clang_getCanonicalType(clang_getCursorType(cur(r, x))).kind;
        if (t != CXType_Record)
            return false;   /* p->m: the body may not read through a pointer */
    }
    if (kind_of(r, x) != CXCursor_DeclRefExpr)
        return false;
    CXCursor decl = clang_getCursorReferenced(cur(r, x));
    return clang_getCursorKind(decl) == CXCursor_VarDecl && !is_local(r, decl) &&
           !clang_equalCursors(decl, r->loop_var);
}

static hd_expr *build(reader *r, int x)
{
    int bits = 64;
    bool sg = true;
    long long value;
    CXCursor c = cur(r, x);
    enum CXCursorKind kind = kind_of(r, x);
    if (!integer_type_in(r, clang_getCursorType(c), &bits, &sg))
        return opaque(64, true, "%s is not an integer", "the value");
    children kids = kids_of(r, x);
    char op[16];
    bool postfix;
    hd_expr *e;

    switch (kind) {
    case CXCursor_ParenExpr:
        if (kids.n == 1)
            return build(r, kids.kid[0]);
        break;
    case CXCursor_UnexposedExpr:
    case CXCursor_CStyleCastExpr:
        /* An implicit or explicit conversion: its operand is the last kid
         * (a cast's first kid may name the type). */
        if (kids.n >= 1) {
            e = hd_expr_new(HD_EX_CAST, bits, sg);
            return build_kids(r, e, &kids.kid[kids.n - 1], 1);
        }
        break;
    case CXCursor_DeclRefExpr:
        if (is_loop_var(r, x))
            return hd_expr_new(HD_EX_INDEX, bits, sg);
        break;
    case CXCursor_UnaryOperator:
        if (kids.n != 1)
            break;
        unary_text(r, x, kids.kid[0], op, sizeof op, &postfix);
        if (!op[0] && evaluate(c, &value))
            return constant(bits, sg, value);
        e = NULL;
        if (!postfix && strcmp(op, "~") == 0)
            e = hd_expr_new(HD_EX_UNARY, bits, sg), e->op = HD_OP_NOT;
        else if (!postfix && strcmp(op, "-") == 0)
            e = hd_expr_new(HD_EX_UNARY, bits, sg), e->op = HD_OP_NEG;
        else if (!postfix && strcmp(op, "+") == 0)
            e = hd_expr_new(HD_EX_UNARY, bits, sg), e->op = HD_OP_PLUS;
        else if (!postfix && strcmp(op, "!") == 0)
            e = hd_expr_new(HD_EX_UNARY, bits, sg), e->op = HD_OP_LNOT;
        if (e)
            return build_kids(r, e, kids.kid, 1);
        if (!op[0])
            return opaque(bits, sg, "%s", "an operator inside a macro body "
                          "cannot be read (libclang 14 gives no operator kinds); "
                          "write the index without the macro, or use a helper "
                          "of hyperdo/bits.h");
        return opaque(bits, sg, "unary '%s' is not supported in an index", op);
    case CXCursor_BinaryOperator:
        if (kids.n != 2)
            break;
        operator_text(r, &kids, op, sizeof op);
        if (!op[0] && evaluate(c, &value))
            return constant(bits, sg, value);   /* e.g. a macro's (N - 1) */
        for (size_t k = 0; k < sizeof binary_ops / sizeof binary_ops[0]; k++)
            if (strcmp(op, binary_ops[k].text) == 0) {
                e = hd_expr_new(HD_EX_BINARY, bits, sg);
                if (e)
                    e->op = binary_ops[k].op;
                return build_kids(r, e, kids.kid, 2);
            }
        if (!op[0])
            return opaque(bits, sg, "%s", "an operator inside a macro body "
                          "cannot be read (libclang 14 gives no operator kinds); "
                          "write the index without the macro, or use a helper "
                          "of hyperdo/bits.h");
        return opaque(bits, sg, "operator '%s' is not supported in an index", op);
    case CXCursor_ConditionalOperator:
        if (kids.n == 3)
            return build_kids(r, hd_expr_new(HD_EX_COND, bits, sg), kids.kid, 3);
        break;
    case CXCursor_CallExpr:
        return build_call(r, x, bits, sg);
    case CXCursor_ArraySubscriptExpr: {
        int base = strip(r, kids.n ? kids.kid[0] : x);
        char *name = spelling(clang_getCursorReferenced(cur(r, base)));
        e = opaque(bits, sg, "the index depends on the contents of '%s'",
                   name && *name ? name : "an array");
        free(name);
        return e;
    }
    default:
        break;
    }
    if (evaluate(c, &value))
        return constant(bits, sg, value);
    if (kind == CXCursor_MemberRefExpr && outer_member(r, x)) {
        char *name = source_text(r, x);
        e = opaque(bits, sg, "the index depends on '%s', which is not a "
                   "compile-time constant", name ? name : "?");
        if (e)
            e->invariant = true;   /* a member of an outer structure, shipped by value */
        free(name);
        return e;
    }
    if (kind == CXCursor_DeclRefExpr) {
        char *name = spelling(c);
        if (is_local(r, clang_getCursorReferenced(c)))
            e = opaque(bits, sg, "the index depends on '%s', a variable of the "
                       "loop body; write its expression into the index to have "
                       "it analysed", name ? name : "?");
        else {
            e = opaque(bits, sg, "the index depends on '%s', which is not a "
                       "compile-time constant", name ? name : "?");
            if (e)
                e->invariant = true;   /* an outer variable: the body cannot write it */
        }
        free(name);
        return e;
    }
    return opaque(bits, sg, "%s", "this kind of expression is not supported in an index");
}

/* ------------------------------------------------------- arrays */

static size_t declaration_end(reader *r, size_t k);
static unsigned cend(reader *r, CXCursor c, bool *in_main);
static size_t statement_end(reader *r, size_t k);

static int array_of(reader *r, CXCursor decl)
{
    for (int k = 0; k < r->ndecls; k++)
        if (clang_equalCursors(r->decls[k].decl, decl))
            return r->decls[k].index;
    hd_program *p = r->prog;
    hd_array a;
    memset(&a, 0, sizeof a);
    CXType t = clang_getCanonicalType(clang_getCursorType(decl));
    a.log2_size = 0;
    while (t.kind == CXType_ConstantArray && a.ndims < HD_MAX_DIMS) {
        long long ext = clang_getArraySize(t);
        a.extent[a.ndims++] = ext;
        if (a.log2_size >= 0 && ext > 0 && !(ext & (ext - 1)))
            a.log2_size += __builtin_ctzll((unsigned long long)ext);
        else
            a.log2_size = -1;
        t = clang_getCanonicalType(clang_getArrayElementType(t));
    }
    if (a.ndims == 0 || t.kind == CXType_ConstantArray)
        return -1;
    if (r->opt->host_code) {
        /* What the code generator declares and where it resets. */
        CXType elem = clang_getCursorType(decl);
        while (clang_getCanonicalType(elem).kind == CXType_ConstantArray) {
            if (elem.kind != CXType_ConstantArray)
                elem = clang_getCanonicalType(elem);
            elem = clang_getArrayElementType(elem);
        }
        a.elem_type = type_text(elem);
        a.elem_size = clang_Type_getSizeOf(elem);
        a.is_const = clang_isConstQualifiedType(elem) ||
                     clang_isConstQualifiedType(clang_getCanonicalType(elem));
        a.is_global = clang_getCursorKind(clang_getCursorSemanticParent(decl)) ==
                      CXCursor_TranslationUnit;
        CXCursor def = clang_getCursorDefinition(decl);
        a.has_init = !clang_Cursor_isNull(clang_Cursor_getVarDeclInitializer(
            clang_Cursor_isNull(def) ? decl : def));
        if (!a.is_global) {
            bool in_main = true;
            unsigned end = (unsigned)declaration_end(r, cend(r, decl, &in_main));
            if (clang_Cursor_getStorageClass(decl) != CX_SC_Static)
                a.decl_end = end;
            else
                a.static_end = end;
        }
    }
    position pos = cursor_pos(r, decl);
    a.name = spelling(decl);
    a.line = pos.line;
    a.col = pos.col;
    hd_xreserve(&p->arrays, &r->arrays_cap, p->narrays + 1, sizeof *p->arrays);
    hd_xreserve(&r->decls, &r->decls_cap, r->ndecls + 1, sizeof *r->decls);
    p->arrays[p->narrays] = a;
    r->decls[r->ndecls].decl = decl;
    r->decls[r->ndecls++].index = p->narrays;
    return p->narrays++;
}

/* ------------------------------------------------------- loop bodies */

static bool is_local(reader *r, CXCursor decl)
{
    for (int k = 0; k < r->nlocals; k++)
        if (clang_equalCursors(r->locals[k], decl))
            return true;
    return false;
}

static void add_ref(reader *r, int x, bool is_write)
{
    CXCursor c = cur(r, x);
    int subs[HD_MAX_DIMS];
    int nsubs = 0;
    int at = x;
    /* a[s0][s1]... is ((a[s0])[s1]); collect subscripts outermost last. */
    while (kind_of(r, at) == CXCursor_ArraySubscriptExpr) {
        children kids = kids_of(r, at);
        if (kids.n != 2 || nsubs == HD_MAX_DIMS)
            break;
        memmove(subs + 1, subs, (size_t)nsubs * sizeof *subs);
        subs[0] = kids.kid[1];
        nsubs++;
        at = strip(r, kids.kid[0]);
    }
    CXCursor decl = clang_getCursorReferenced(cur(r, at));
    int index = -1;
    if (kind_of(r, at) == CXCursor_DeclRefExpr &&
        clang_getCursorKind(decl) == CXCursor_VarDecl)
        index = array_of(r, decl);
    if (nsubs == HD_MAX_DIMS && kind_of(r, at) == CXCursor_ArraySubscriptExpr) {
        error_at(r, c, "an array of more than %d dimensions is not supported", HD_MAX_DIMS);
        return;
    }
    if (index < 0) {
        error_at(r, c, "unsupported array reference in a doall body: the base "
                 "must be an array of constant size declared in this file");
        return;
    }
    hd_array *a = &r->prog->arrays[index];
    if (nsubs != a->ndims) {
        error_at(r, c, "'%s' has %d dimensions but the reference gives %d "
                 "subscripts", a->name, a->ndims, nsubs);
        return;
    }
    hd_loop *l = r->loop;
    hd_xreserve(&l->refs, &r->refs_cap, l->nrefs + 1, sizeof *l->refs);
    hd_ref *ref = &l->refs[l->nrefs++];
    memset(ref, 0, sizeof *ref);
    position pos = cursor_pos(r, c);
    node *ext = extent_of(r, x);
    ref->array = index;
    ref->is_write = is_write;
    ref->guard = r->guard;
    ref->line = pos.line;
    ref->col = pos.col;
    ref->begin = ext->begin;
    ref->end = ext->end;
    ref->text = source_text(r, x);
    ref->subs = hd_xcalloc((size_t)nsubs, sizeof *ref->subs);
    /* For the code generator, which rewrites references in the text: the
     * subscripts' texts, and whether a macro wrote the reference. */
    for (int d = 0; r->opt->host_code && d < nsubs; d++) {
        bool in_main = true;
        hd_ref_sub *sd = &ref->subs[d];
        sd->begin = start_of(r, subs[d], &in_main);
        sd->end = end_of(r, subs[d], &in_main);
        if (!in_main || sd->end <= sd->begin || sd->begin < ref->begin || sd->end > ref->end)
            ref->in_macro = true;
    }
    if (r->opt->host_code) {
        CXFile f;
        unsigned spelled;
        clang_getSpellingLocation(clang_getRangeStart(clang_getCursorExtent(c)),
                                  &f, NULL, NULL, &spelled);
        if (spelled != ref->begin || !f || !clang_File_isEqual(f, r->file))
            ref->in_macro = true;
    }

    /* The flattened, row-major subscript ((s0 * E1 + s1) * E2 + s2) ... */
    hd_expr *flat = NULL;
    for (int d = 0; d < nsubs; d++) {
        hd_expr *s = hd_expr_new(HD_EX_CAST, 64, true);
        if (s && (s->kid[0] = build(r, subs[d])) != NULL)
            s->nkids = 1;
        ref->subs[ref->nsubs++].expr = s;
        if (!flat) {
            flat = s;
            continue;
        }
        hd_expr *mul = hd_expr_new(HD_EX_BINARY, 64, true);
        hd_expr *ext_c = hd_expr_new(HD_EX_CONST, 64, true);
        hd_expr *add = hd_expr_new(HD_EX_BINARY, 64, true);
        if (!mul || !ext_c || !add) {
            hd_expr_free(mul); hd_expr_free(ext_c); hd_expr_free(add);
            hd_expr_free(s);
            break;
        }
        ext_c->value = (uint64_t)a->extent[d];
        mul->op = HD_OP_MUL;
        mul->kid[0] = flat;
        mul->kid[1] = ext_c;
        mul->nkids = 2;
        add->op = HD_OP_ADD;
        add->kid[0] = mul;
        add->kid[1] = s;
        add->nkids = 2;
        flat = add;
    }
    ref->index = flat;   /* its map is worked out with the owners */
}

static bool is_pure_math(const char *name)
{
    static const char *const names[] = {
        "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh",
        "tanh", "asinh", "acosh", "atanh", "exp", "exp2", "expm1", "log",
        "log2", "log10", "log1p", "sqrt", "cbrt", "hypot", "pow", "fabs",
        "floor", "ceil", "round", "trunc", "rint", "nearbyint", "fmod",
        "remainder", "fmin", "fmax", "fdim", "fma", "copysign", "ldexp",
        "scalbn", "erf", "erfc", "tgamma", "lgamma", "abs", "labs", "llabs",
    };
    char base[32];
    size_t n = strlen(name);
    if (n >= sizeof base)
        return false;
    memcpy(base, name, n + 1);
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        size_t m = strlen(names[k]);
        if (strcmp(base, names[k]) == 0 ||
            (n == m + 1 && strncmp(base, names[k], m) == 0 &&
             (base[m] == 'f' || base[m] == 'l')))
            return true;
    }
    return false;
}

static void walk_rvalue(reader *r, int x);
static bool member_of(reader *r, int x, int *base);

static void check_call(reader *r, CXCursor c)
{
    CXCursor callee = clang_getCursorReferenced(c);
    char *name = spelling(callee);
    int nargs;
    bool ok = false;
    if (name && hd_helper_lookup(name, &nargs) >= 0) {
        CXFile f;
        clang_getSpellingLocation(clang_getCursorLocation(callee), &f, NULL, NULL, NULL);
        CXString fname = clang_getFileName(f);
        const char *fn = clang_getCString(fname);
        size_t fl = fn ? strlen(fn) : 0;
        ok = fl >= 14 && strcmp(fn + fl - 14, "hyperdo/bits.h") == 0;
        clang_disposeString(fname);
    }
    if (!ok && name && is_pure_math(name))
        ok = clang_Location_isInSystemHeader(clang_getCursorLocation(callee));
    if (!ok)
        error_at(r, c, "a doall body may call only the helpers of "
                 "hyperdo/bits.h and pure math.h functions; '%s' is neither",
                 name && *name ? name : "this function");
    free(name);
}

/* A variable of the enclosing scope read in the body: the code generator
 * sends its value to every processor (hd_loop.outers). */
static void note_outer(reader *r, int x)
{
    if (!r->opt->host_code)
        return;                   /* only the code generator ships values */
    CXCursor decl = clang_getCursorReferenced(cur(r, x));
    enum CXCursorKind kind = clang_getCursorKind(decl);
    if ((kind != CXCursor_VarDecl && kind != CXCursor_ParmDecl) ||
        clang_equalCursors(decl, r->loop_var) || is_local(r, decl))
        return;
    for (int k = 0; k < r->nouter_decls; k++)
        if (clang_equalCursors(r->outer_decls[k], decl))
            return;
    hd_loop *l = r->loop;
    hd_xreserve(&r->outer_decls, &r->outers_cap, r->nouter_decls + 1, sizeof *r->outer_decls);
    l->outers = hd_xrealloc(l->outers, (size_t)(l->nouters + 1) * sizeof *l->outers);
    r->outer_decls[r->nouter_decls++] = decl;
    position pos = cursor_pos(r, cur(r, x));
    hd_outer *o = &l->outers[l->nouters++];
    o->name = spelling(decl);
    o->type = type_text(clang_getCursorType(decl));
    enum CXTypeKind tk = clang_getCanonicalType(clang_getCursorType(decl)).kind;
    o->is_value = tk != CXType_Pointer && tk != CXType_ConstantArray &&
                  tk != CXType_IncompleteArray && tk != CXType_VariableArray &&
                  tk != CXType_FunctionProto && tk != CXType_FunctionNoProto;
    o->line = pos.line;
    o->col = pos.col;
}

/* Does the expression at x read a variable declared in the loop body? */
static bool mentions_local(reader *r, int x)
{
    if (kind_of(r, x) == CXCursor_DeclRefExpr &&
        is_local(r, clang_getCursorReferenced(cur(r, x))))
        return true;
    for (int at = r->nodes[x].first; at >= 0; at = r->nodes[at].next)
        if (mentions_local(r, at))
            return true;
    return false;
}

/* A new guard: what follows is evaluated only when the condition at
 * node cond is nonzero (when) or zero (!when), inside the current part.
 * Returns its index. */
static int add_guard(reader *r, int cond, bool when)
{
    hd_loop *l = r->loop;
    hd_xreserve(&l->guards, &r->guards_cap, l->nguards + 1, sizeof *l->guards);
    hd_guard *g = &l->guards[l->nguards];
    memset(g, 0, sizeof *g);
    node *ext = extent_of(r, cond);
    position pos = cursor_pos(r, cur(r, cond));
    g->begin = ext->begin;
    g->end = ext->end;
    g->line = pos.line;
    g->col = pos.col;
    g->when = when;
    g->parent = r->guard;
    g->cond = build(r, cond);
    g->uses_locals = mentions_local(r, cond);
    return l->nguards++;
}

/* The operand of sizeof or _Alignof (C11 6.5.3.4p2): not evaluated unless
 * its type is a variable length array.  Its reads are guarded by a
 * condition that never holds, so they are neither fetched nor checked
 * against their array's bounds (the type is all the body needs of them). */
static int add_unevaluated(reader *r, int x)
{
    hd_loop *l = r->loop;
    hd_xreserve(&l->guards, &r->guards_cap, l->nguards + 1, sizeof *l->guards);
    hd_expr *zero = hd_expr_new(HD_EX_CONST, 32, true);
    hd_guard *g = &l->guards[l->nguards];
    memset(g, 0, sizeof *g);
    node *ext = extent_of(r, x);
    position pos = cursor_pos(r, cur(r, x));
    g->begin = g->end = ext->begin;
    g->line = pos.line;
    g->col = pos.col;
    g->when = true;
    g->parent = r->guard;
    g->cond = zero;
    g->unevaluated = true;
    return l->nguards++;
}

/* sizeof e and _Alignof e with e of constant size: e is walked under a
 * guard that never holds.  (A type operand, or a variable length one, is
 * walked as evaluated: checked more, never less.) */
static bool walk_unevaluated(reader *r, enum CXCursorKind kind, const children *kids)
{
    if (kind != CXCursor_UnaryExpr || kids->n != 1 || !clang_isExpression(kind_of(r, kids->kid[0])))
        return false;
    if (clang_Type_getSizeOf(clang_getCursorType(cur(r, kids->kid[0]))) < 0)
        return false;
    int outer = r->guard;
    r->guard = add_unevaluated(r, kids->kid[0]);
    walk_rvalue(r, kids->kid[0]);
    r->guard = outer;
    return true;
}

/* c ? a : b, x && y, x || y: the condition is always evaluated, each
 * other operand only under its guard. */
static bool walk_guarded(reader *r, enum CXCursorKind kind, const children *kids)
{
    int outer = r->guard;
    if (kind == CXCursor_ConditionalOperator && kids->n == 3) {
        walk_rvalue(r, kids->kid[0]);
        r->guard = add_guard(r, kids->kid[0], true);
        walk_rvalue(r, kids->kid[1]);
        r->guard = outer;
        r->guard = add_guard(r, kids->kid[0], false);
        walk_rvalue(r, kids->kid[2]);
        r->guard = outer;
        return true;
    }
    char op[16];
    if (kind != CXCursor_BinaryOperator || kids->n != 2)
        return false;
    operator_text(r, kids, op, sizeof op);
    if (strcmp(op, "&&") != 0 && strcmp(op, "||") != 0)
        return false;
    walk_rvalue(r, kids->kid[0]);
    r->guard = add_guard(r, kids->kid[0], strcmp(op, "&&") == 0);
    walk_rvalue(r, kids->kid[1]);
    r->guard = outer;
    return true;
}

static void walk_rvalue(reader *r, int x)
{
    CXCursor c = cur(r, x);
    enum CXCursorKind kind = kind_of(r, x);
    char op[16];
    bool postfix;
    if (kind == CXCursor_ArraySubscriptExpr) {
        /* p[i].v[k]: an element of a member array; the reference is p[i]. */
        children parts = kids_of(r, x);
        int inner;
        int base = parts.n == 2 ? strip(r, parts.kid[0]) : x;
        while (parts.n == 2 && kind_of(r, base) == CXCursor_ArraySubscriptExpr) {
            children more = kids_of(r, base);
            if (more.n != 2)
                break;
            base = strip(r, more.kid[0]);
        }
        if (parts.n == 2 && member_of(r, base, &inner)) {
            walk_rvalue(r, parts.kid[0]);
            walk_rvalue(r, parts.kid[1]);
            return;
        }
        /* One reference a[s0][s1]...; its subscripts may read arrays too. */
        add_ref(r, x, false);
        for (int at = x; kind_of(r, at) == CXCursor_ArraySubscriptExpr;) {
            children sub = kids_of(r, at);
            if (sub.n != 2)
                break;
            walk_rvalue(r, sub.kid[1]);
            at = strip(r, sub.kid[0]);
        }
        return;
    }
    if (kind == CXCursor_DeclRefExpr) {
        note_outer(r, x);
        return;
    }
    children kids = kids_of(r, x);
    if (walk_guarded(r, kind, &kids) || walk_unevaluated(r, kind, &kids))
        return;
    switch (kind) {
    case CXCursor_CallExpr:
        check_call(r, c);
        break;
    case CXCursor_UnaryOperator:
        /* ++, -- and & take an lvalue, * a pointer: other operands arrive
         * through an implicit conversion, and their operator is harmless. */
        if (kids.n == 1 &&
            (kind_of(r, kids.kid[0]) != CXCursor_UnexposedExpr ||
             clang_getCanonicalType(clang_getCursorType(cur(r, kids.kid[0]))).kind == CXType_Pointer)) {
            unary_text(r, x, kids.kid[0], op, sizeof op, &postfix);
            if (strcmp(op, "++") == 0 || strcmp(op, "--") == 0) {
                error_at(r, c, "'%s' in a doall body: only plain assignments "
                         "may change values", op);
                return;
            }
            if (!postfix && (strcmp(op, "*") == 0 || strcmp(op, "&") == 0)) {
                error_at(r, c, "pointers ('%s') are not supported in a doall "
                         "body", op);
                return;
            }
        }
        break;
    case CXCursor_BinaryOperator:
        /* An assignment's target is an lvalue, never an implicit
         * conversion: only then is the operator worth reading. */
        if (kids.n == 2 && kind_of(r, kids.kid[0]) != CXCursor_UnexposedExpr) {
            operator_text(r, &kids, op, sizeof op);
            if (strcmp(op, "=") == 0) {
                error_at(r, c, "an assignment inside an expression is not "
                         "supported in a doall body");
                return;
            }
        }
        break;
    case CXCursor_CompoundAssignOperator:
        error_at(r, c, "an assignment inside an expression is not supported "
                 "in a doall body");
        return;
    case CXCursor_StmtExpr:
    case CXCursor_BlockExpr:
        error_at(r, c, "this expression is not supported in a doall body");
        return;
    default:
        break;
    }
    for (int at = r->nodes[x].first; at >= 0; at = r->nodes[at].next)
        walk_rvalue(r, at);
}

/* The target of an assignment statement. */
/* `base.member` (not `->`): a member of the element `base`. */
static bool member_of(reader *r, int x, int *base)
{
    if (kind_of(r, x) != CXCursor_MemberRefExpr)
        return false;
    children kids = kids_of(r, x);
    if (kids.n != 1)
        return false;
    bool in_main = true;
    unsigned b = end_of(r, kids.kid[0], &in_main);
    size_t k = skip_blank(r->src, r->len, b);
    if (!in_main || k >= r->len || r->src[k] != '.')
        return false;
    *base = kids.kid[0];
    return true;
}

static void walk_lvalue(reader *r, int lhs, bool also_read)
{
    int t = strip(r, lhs);
    /* q[i].x = ...: a write of part of element q[i] (and a[i].v[2] = ...). */
    bool partial = false;
    for (int base;;) {
        if (member_of(r, t, &base)) {
            t = strip(r, base);
            partial = true;
            continue;
        }
        /* a[i].v[j][k]: subscripts of a member array, down to the member. */
        int at = t;
        while (kind_of(r, at) == CXCursor_ArraySubscriptExpr) {
            children kids = kids_of(r, at);
            if (kids.n != 2)
                break;
            at = strip(r, kids.kid[0]);
        }
        if (at != t && member_of(r, at, &base)) {
            for (int s = t; s != at;) {
                children kids = kids_of(r, s);
                walk_rvalue(r, kids.kid[1]);
                s = strip(r, kids.kid[0]);
            }
            t = at;
            continue;
        }
        break;
    }
    CXCursor target = cur(r, t);
    enum CXCursorKind kind = kind_of(r, t);
    if (kind == CXCursor_ArraySubscriptExpr) {
        add_ref(r, t, true);
        if (partial && r->loop->nrefs > 0)
            r->loop->refs[r->loop->nrefs - 1].partial = true;
        if (also_read)
            add_ref(r, t, false);
        /* Subscripts may read other arrays: walk a[s0][s1]'s s0, s1. */
        for (int at = t; kind_of(r, at) == CXCursor_ArraySubscriptExpr;) {
            children kids = kids_of(r, at);
            if (kids.n != 2)
                break;
            walk_rvalue(r, kids.kid[1]);
            at = strip(r, kids.kid[0]);
        }
        return;
    }
    if (kind == CXCursor_DeclRefExpr) {
        CXCursor decl = clang_getCursorReferenced(target);
        if (clang_equalCursors(decl, r->loop_var)) {
            error_at(r, target, "the doall loop variable may not be assigned "
                     "in its body");
            return;
        }
        if (is_local(r, decl))
            return;
        char *name = spelling(target);
        error_at(r, target, "'%s' is declared outside the doall loop: every "
                 "iteration writing it would race (no reductions yet); "
                 "declare it inside the loop body", name ? name : "?");
        free(name);
        return;
    }
    error_at(r, target, "a doall body may assign only to array elements and "
             "to scalars declared in the body");
}

static void add_local(reader *r, CXCursor decl)
{
    hd_xreserve(&r->locals, &r->locals_cap, r->nlocals + 1, sizeof *r->locals);
    r->locals[r->nlocals++] = decl;
}

static void walk_statement(reader *r, int x)
{
    CXCursor s = cur(r, x);
    enum CXCursorKind kind = kind_of(r, x);
    children kids = kids_of(r, x);
    char op[16];
    switch (kind) {
    case CXCursor_NullStmt:
        return;
    case CXCursor_CompoundStmt:
        for (int at = r->nodes[x].first; at >= 0; at = r->nodes[at].next)
            walk_statement(r, at);
        return;
    case CXCursor_DeclStmt:
        for (int at_decl = r->nodes[x].first; at_decl >= 0; at_decl = r->nodes[at_decl].next) {
            CXCursor v = cur(r, at_decl);
            if (clang_getCursorKind(v) != CXCursor_VarDecl) {
                error_at(r, v, "only scalar variables may be declared in a "
                         "doall body");
                continue;
            }
            CXType t = clang_getCanonicalType(clang_getCursorType(v));
            if (t.kind == CXType_ConstantArray || t.kind == CXType_VariableArray ||
                t.kind == CXType_IncompleteArray || t.kind == CXType_Pointer) {
                error_at(r, v, "only scalar variables may be declared in a "
                         "doall body");
                continue;
            }
            if (clang_Cursor_getStorageClass(v) == CX_SC_Static) {
                error_at(r, v, "a static variable in a doall body would be "
                         "shared by all iterations");
                continue;
            }
            for (int at = r->nodes[at_decl].first; at >= 0; at = r->nodes[at].next)
                walk_rvalue(r, at);
            add_local(r, v);
        }
        return;
    case CXCursor_BinaryOperator:
        if (kids.n == 2) {
            operator_text(r, &kids, op, sizeof op);
            if (strcmp(op, "=") == 0) {
                walk_rvalue(r, kids.kid[1]);
                walk_lvalue(r, kids.kid[0], false);
                return;
            }
        }
        break;
    case CXCursor_CompoundAssignOperator:
        if (kids.n == 2) {
            walk_rvalue(r, kids.kid[1]);
            walk_lvalue(r, kids.kid[0], true);
            return;
        }
        break;
    default:
        break;
    }
    error_at(r, s, "a doall body may contain only assignments and "
             "declarations of scalars");
}


/* ------------------------------------------------------- loop headers */

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
            for (k++; k < r->len && r->src[k] != ch; k++)
                if (r->src[k] == '\\')
                    k++;
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

static bool is_const(reader *r, int x, long long want)
{
    long long v;
    return evaluate(cur(r, x), &v) && v == want;
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
        return strcmp(op, "+=") == 0 && is_const(r, kids.kid[1], 1);
    case CXCursor_BinaryOperator: {
        if (kids.n != 2 || !is_loop_var(r, kids.kid[0]))
            return false;
        operator_text(r, &kids, op, sizeof op);
        int sum = strip(r, kids.kid[1]);
        children terms = kids_of(r, sum);
        char plus[16];
        if (strcmp(op, "=") != 0 || kind_of(r, sum) != CXCursor_BinaryOperator ||
            terms.n != 2)
            return false;
        operator_text(r, &terms, plus, sizeof plus);
        return strcmp(plus, "+") == 0 &&
               ((is_loop_var(r, terms.kid[0]) && is_const(r, terms.kid[1], 1)) ||
                (is_loop_var(r, terms.kid[1]) && is_const(r, terms.kid[0], 1)));
    }
    default:
        return false;
    }
}

static const char canonical_form[] =
    "write 'for (int i = 0; i < N; i++)' (or '++i', 'i += 1', an 'i' "
    "declared earlier), N a power of two";

/* Reads `for (init; cond; inc) body`; false after reporting an error. */
static bool read_header(reader *r, int loop, int *body)
{
    unsigned semi1 = 0, semi2 = 0, rparen = 0;
    if (!header_offsets(r, loop, &semi1, &semi2, &rparen)) {
        error_at(r, cur(r, loop), "a doall loop needs the canonical form: %s",
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
        error_at(r, cur(r, loop), "a doall loop needs the canonical form: %s",
                 canonical_form);
        return false;
    }

    /* init: `int i = 0` or `i = 0`. */
    int start = -1;
    children ik = kids_of(r, init);
    if (kind_of(r, init) == CXCursor_DeclStmt && ik.n == 1 &&
        kind_of(r, ik.kid[0]) == CXCursor_VarDecl) {
        r->loop_var = cur(r, ik.kid[0]);
        children vk = kids_of(r, ik.kid[0]);
        if (vk.n >= 1)
            start = vk.kid[vk.n < 8 ? vk.n - 1 : 7];
    } else if (kind_of(r, init) == CXCursor_BinaryOperator && ik.n == 2 &&
               kind_of(r, strip(r, ik.kid[0])) == CXCursor_DeclRefExpr) {
        char op[16];
        operator_text(r, &ik, op, sizeof op);
        if (strcmp(op, "=") == 0) {
            r->loop_var = clang_getCursorReferenced(cur(r, strip(r, ik.kid[0])));
            start = ik.kid[1];
        }
    }
    int bits;
    bool sg;
    if (start < 0 || clang_Cursor_isNull(r->loop_var) ||
        !integer_type(clang_getCursorType(r->loop_var), &bits, &sg)) {
        error_at(r, cur(r, init), "a doall loop must start an integer variable "
                 "at 0: %s", canonical_form);
        return false;
    }
    if (!is_const(r, start, 0)) {
        error_at(r, cur(r, start), "a doall loop must start at 0: %s",
                 canonical_form);
        return false;
    }

    /* cond: `i < N`, N a constant power of two. */
    children ck = kids_of(r, cond);
    char op[16] = "";
    if (kind_of(r, cond) == CXCursor_BinaryOperator && ck.n == 2)
        operator_text(r, &ck, op, sizeof op);
    if (strcmp(op, "<") != 0 || !is_loop_var(r, ck.kid[0])) {
        error_at(r, cur(r, cond), "the condition of a doall loop must be "
                 "'i < N': %s", canonical_form);
        return false;
    }
    CXCursor limit = cur(r, ck.kid[1]);
    long long bound;
    if (!evaluate(limit, &bound)) {
        error_at(r, limit, "the bound of a doall loop must be a constant "
                 "expression");
        return false;
    }
    if (bound < 1 || (bound & (bound - 1))) {
        error_at(r, limit, "the bound %lld of a doall loop is not a power "
                 "of two", bound);
        return false;
    }
    r->loop->k = __builtin_ctzll((unsigned long long)bound);
    if (r->loop->k >= bits - (sg ? 1 : 0)) {
        error_at(r, limit, "the loop variable's type cannot hold the bound "
                 "%lld", bound);
        return false;
    }
    if (!canonical_increment(r, inc)) {
        error_at(r, cur(r, inc), "a doall loop must step by one: %s",
                 canonical_form);
        return false;
    }
    r->loop->var = spelling(r->loop_var);
    r->loop->var_type = type_text(clang_getCursorType(r->loop_var));
    r->loop->var_outside = kind_of(r, init) != CXCursor_DeclStmt;
    return true;
}

/* ------------------------------------------------------- the AST walk */

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
                error_at(r, cur(r, at), "nested doall loops are not supported "
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
    size_t line_start = pr->offset;
    while (line_start > 0 && r->src[line_start - 1] != '\n')
        line_start--;
    l->pragma_begin = (unsigned)line_start;
    if (!clang_Cursor_isNull(r->function)) {
        position f = where(r, clang_getRangeStart(clang_getCursorExtent(r->function)));
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
    if (read_header(r, loop, &body)) {
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
                l->home = NO_WRITES;   /* finish() turns it into sequential code */
        }
    }
    find_nested(r, loop);
    if (r->d.errors != errors)
        r->rejected++;
}

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent,
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
    if (kind == CXCursor_FunctionDecl && clang_isCursorDefinition(c))
        r->function = c;
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

/* ------------------------------------------------- owners and messages */

static const pragma *distribution_of(reader *r, const char *name, int *which)
{
    for (int k = 0; k < r->npragmas; k++) {
        pragma *p = &r->pragmas[k];
        if (p->kind != PRAGMA_DISTRIBUTE)
            continue;
        for (int j = 0; j < p->nnames; j++)
            if (strcmp(p->names[j], name) == 0) {
                if (which)
                    *which = j;
                return p;
            }
    }
    return NULL;
}

static void read_host_code(reader *r);

/* Each array's distribution over the 2^n processors (n is known). */
static void distribute_each(reader *r)
{
    hd_program *p = r->prog;
    for (int k = 0; k < p->narrays; k++) {
        hd_array *a = &p->arrays[k];
        int which = 0;
        const pragma *d = distribution_of(r, a->name, &which);
        if (!d) {
            /* A const array is never written: every processor reads its own
             * copy (the host could not take elements back into it). */
            a->dist = a->log2_size == p->n && !a->is_const ? HD_DIST_EXACT : HD_DIST_NONE;
            continue;
        }
        if (a->is_const) {
            hd_report(&r->d, HD_ERROR, (unsigned)d->name_cols[which], d->line,
                   "'%s' is const: it is never written, so it is not distributed "
                   "(every processor reads its own copy); leave it out of distribute",
                   a->name);
            continue;
        }
        int block_log2 = d->dist == HD_DIST_BLOCK_CYCLIC
                         ? __builtin_ctzll((unsigned long long)d->value) : 0;
        if (a->log2_size < 0 || a->log2_size < p->n) {
            hd_report(&r->d, HD_ERROR, (unsigned)d->name_cols[which], d->line,
                   "'%s' cannot be distributed this way: it needs a power-of-two "
                   "number of elements, at least 2^%d", a->name, p->n);
            continue;
        }
        if (a->log2_size < p->n + block_log2) {
            /* Blocks of b over 2^n processors need b 2^n elements: with
             * fewer, some processors would hold none, which the slices of
             * equal size cannot express.  Smaller blocks give the same
             * results (a layout never changes what the program computes). */
            hd_report(&r->d, HD_WARNING, (unsigned)d->name_cols[which], d->line,
                   "'%s' has %lld elements: blocks of %lld would leave processors of "
                   "the %d-cube without any, so it is distributed in blocks of %lld "
                   "(the block layout)", a->name, 1LL << a->log2_size, (long long)d->value,
                   p->n, 1LL << (a->log2_size - p->n));
            block_log2 = a->log2_size - p->n;
        }
        a->dist = d->dist;
        a->block_log2 = block_log2;
        a->shift = d->dist == HD_DIST_BLOCK ? a->log2_size - p->n : a->block_log2;
    }
}

/* Every name in a distribute pragma must be an array the loops use; not
 * said when a loop was rejected, whose arrays are not all known. */
static void check_distributed_names(reader *r)
{
    hd_program *p = r->prog;
    if (r->rejected)
        return;
    for (int k = 0; k < r->npragmas; k++) {
        pragma *d = &r->pragmas[k];
        for (int j = 0; d->kind == PRAGMA_DISTRIBUTE && j < d->nnames; j++) {
            bool found = false;
            for (int a = 0; a < p->narrays && !found; a++)
                found = strcmp(p->arrays[a].name, d->names[j]) == 0;
            if (!found)
                hd_report(&r->d, HD_ERROR, (unsigned)d->name_cols[j], d->line,
                       "'%s' in distribute is not an array used in a doall "
                       "loop of this file", d->names[j]);
        }
    }
}

static void distribute_arrays(reader *r)
{
    distribute_each(r);
    check_distributed_names(r);
}

/* Each loop's maps, bounds, owners and communications (analysis.h). */
static void check_loops(reader *r)
{
    hd_analyse_loops(r->prog, &r->d);
}

/* ------------------------------------------------------- the reader */

/* ------------------------------------------- the sequential code */

/* The code outside the doall loops is walked through libclang's cursors
 * directly (the loops' record, kids_of and strip, covers loop bodies only). */
typedef struct {
    CXCursor kid[8];
    int n;
} cchildren;

static enum CXChildVisitResult collect_ckid(CXCursor c, CXCursor parent,
                                            CXClientData data)
{
    (void)parent;
    cchildren *k = data;
    if (k->n < 8)
        k->kid[k->n] = c;
    k->n++;
    return CXChildVisit_Continue;
}

static cchildren ckids(CXCursor c)
{
    cchildren k;
    k.n = 0;
    clang_visitChildren(c, collect_ckid, &k);
    return k;
}

static CXCursor cstrip(CXCursor c)
{
    for (;;) {
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k != CXCursor_ParenExpr && k != CXCursor_UnexposedExpr)
            return c;
        cchildren kids = ckids(c);
        if (kids.n != 1)
            return c;
        c = kids.kid[0];
    }
}

static unsigned cstart(reader *r, CXCursor c, bool *in_main)
{
    bool here;
    unsigned off = offset_of(r, clang_getRangeStart(clang_getCursorExtent(c)), &here);
    *in_main = *in_main && here;
    return off;
}

static unsigned cend(reader *r, CXCursor c, bool *in_main)
{
    bool here;
    unsigned off = offset_of(r, clang_getRangeEnd(clang_getCursorExtent(c)), &here);
    *in_main = *in_main && here;
    return off;
}


/* Just after a statement that ends at offset k: past its ';' if the
 * statement's extent stopped before it (expressions, do-while). */
static size_t statement_end(reader *r, size_t k)
{
    size_t next = skip_blank(r->src, r->len, k);
    return next < r->len && r->src[next] == ';' ? next + 1 : k;
}

/* Just after the ';' ending the declaration that goes on at offset k
 * (`double x[4], y[4] = { ... };`): brackets and literals skipped. */
static size_t declaration_end(reader *r, size_t k)
{
    int depth = 0;
    for (k = skip_blank(r->src, r->len, k); k < r->len;
         k = skip_blank(r->src, r->len, k + 1)) {
        char ch = r->src[k];
        if (ch == '"' || ch == '\'') {
            for (k++; k < r->len && r->src[k] != ch; k++)
                if (r->src[k] == '\\')
                    k++;
        } else if (strchr("([{", ch)) {
            depth++;
        } else if (strchr(")]}", ch)) {
            depth--;
        } else if (ch == ';' && depth <= 0) {
            return k + 1;
        }
    }
    return r->len;
}

/* The distributed array a cursor declares, or -1. */
static int distributed_array(reader *r, CXCursor decl)
{
    for (int k = 0; k < r->ndecls; k++)
        if (clang_equalCursors(r->decls[k].decl, decl))
            return r->prog->arrays[r->decls[k].index].dist != HD_DIST_NONE
                   ? r->decls[k].index : -1;
    return -1;
}

/* Functions of this file that run doall loops, directly or through calls
 * (a call through a pointer may run anything). */
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
    unsigned b = cstart(r, c, &in_main), ob = cstart(r, operand, &in_main);
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
    c = cstrip(c);
    enum CXCursorKind kind = clang_getCursorKind(c);
    cchildren kids = ckids(c);
    if (kind == CXCursor_ArraySubscriptExpr && kids.n == 2) {
        CXCursor base = cstrip(kids.kid[0]);
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
        CXCursor obj = cstrip(kids.kid[0]);
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
        cchildren kids = ckids(c);
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
        if (f == -2 || (f >= 0 && h->g->runs[f]))
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

static void escape_all(reader *r, const host_refs *h)
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
    escape_all(r, &h);
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
    unsigned b = cstart(r, s, &in_main), e = cend(r, s, &in_main);
    if (!in_main)
        return;
    for (int k = 0; k < r->prog->nloops; k++)
        if (r->prog->loops[k].begin == b && kind == CXCursor_ForStmt)
            return;                                   /* a doall */
    cchildren kids = ckids(s);
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
static void read_host_code(reader *r)
{
    hd_program *p = r->prog;
    call_graph g = { 0 };
    clang_visitChildren(clang_getTranslationUnitCursor(r->tu), collect_function, &g);
    /* Which functions run doalls: those that hold one, then their callers
     * until nothing changes. */
    for (int k = 0; k < g.n; k++) {
        CXCursor d = definition_of(g.fn[k]);
        bool in_main = true;
        unsigned b = cstart(r, d, &in_main), e = cend(r, d, &in_main);
        g.runs[k] = contains_doall(r, b, e);
        if (clang_getCursorKind(d) == CXCursor_FunctionDecl &&
            (p->first_function == 0 || b < p->first_function)) {
            p->first_function = b;
            p->first_function_line = where(r, clang_getRangeStart(clang_getCursorExtent(d))).line;
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

static char *exe_arg(const char *flag, const char *value)
{
    size_t n = strlen(flag) + strlen(value) + 1;
    char *s = hd_xmalloc(n);
    snprintf(s, n, "%s%s", flag, value);
    return s;
}

/* The compiler arguments: -p's compile command (less the compiler, the
 * file, -c and -o), then those after --, then the helpers' include dir. */
static int build_args(reader *r, const char *path, char ***out, int *nout)
{
    char **args = NULL;
    int n = 0;
    CXCompilationDatabase db = NULL;
    CXCompileCommands cmds = NULL;
    if (r->opt->build_dir) {
        CXCompilationDatabase_Error err = CXCompilationDatabase_CanNotLoadDatabase;
        char json[PATH_MAX + 32];
        snprintf(json, sizeof json, "%s/compile_commands.json", r->opt->build_dir);
        /* Checked first: libclang would print its own noise to stderr. */
        if (access(json, R_OK) == 0)
            db = clang_CompilationDatabase_fromDirectory(r->opt->build_dir, &err);
        if (err != CXCompilationDatabase_NoError) {
            hd_report_input(&r->d, "cannot load compile_commands.json from '%s'",
                            r->opt->build_dir);
            return -1;
        }
        char *abs = realpath(path, NULL);
        cmds = clang_CompilationDatabase_getCompileCommands(db, abs ? abs : path);
        free(abs);
        if (!cmds || clang_CompileCommands_getSize(cmds) == 0) {
            hd_report_input(&r->d, "'%s' has no entry in %s/compile_commands.json",
                            path, r->opt->build_dir);
            clang_CompileCommands_dispose(cmds);
            clang_CompilationDatabase_dispose(db);
            return -1;
        }
    }
    unsigned ncmd = cmds ? clang_CompileCommand_getNumArgs(
                               clang_CompileCommands_getCommand(cmds, 0)) : 0;
    args = hd_xcalloc((size_t)ncmd + (size_t)r->opt->nargs + 5, sizeof *args);
    if (cmds) {
        CXCompileCommand cmd = clang_CompileCommands_getCommand(cmds, 0);
        CXString dirs = clang_CompileCommand_getDirectory(cmd);
        const char *dir = clang_getCString(dirs);
        args[n++] = exe_arg("-working-directory=", dir);
        char *abs = realpath(path, NULL);
        for (unsigned k = 1; k < ncmd; k++) {
            CXString s = clang_CompileCommand_getArg(cmd, k);
            const char *a = clang_getCString(s);
            /* The command's own paths are relative to its directory. */
            char joined[PATH_MAX + 2];
            snprintf(joined, sizeof joined, "%s/%s", dir, a);
            char *aabs = realpath(a[0] == '/' ? a : joined, NULL);
            bool is_file = aabs && abs && strcmp(aabs, abs) == 0;
            free(aabs);
            if (strcmp(a, "-o") == 0 && k + 1 < ncmd) {
                k++;
            } else if (strcmp(a, "-c") != 0 && !is_file && strcmp(a, path) != 0) {
                args[n++] = hd_xstrdup(a);
            }
            clang_disposeString(s);
        }
        free(abs);
        clang_disposeString(dirs);
        clang_CompileCommands_dispose(cmds);
        clang_CompilationDatabase_dispose(db);
    }
    for (int k = 0; k < r->opt->nargs; k++)
        args[n++] = hd_xstrdup(r->opt->args[k]);
    if (r->opt->include_dir)
        args[n++] = exe_arg("-I", r->opt->include_dir);
    args[n++] = hd_xstrdup("-Wunknown-pragmas");
    /* Standard input, or a name without .c or .h, gives clang no language
     * to go by: C, unless the arguments say otherwise. */
    size_t plen = strlen(path);
    bool named_c = plen > 2 && (strcmp(path + plen - 2, ".c") == 0 || strcmp(path + plen - 2, ".h") == 0);
    bool has_x = false;
    for (int k = 0; k < n; k++)
        has_x = has_x || strncmp(args[k], "-x", 2) == 0;
    if ((r->stdin_text || !named_c) && !has_x)
        args[n++] = hd_xstrdup("-xc");
    *out = args;
    *nout = n;
    return 0;
}

static void free_pragmas(reader *r)
{
    for (int k = 0; k < r->npragmas; k++) {
        for (int j = 0; j < r->pragmas[k].nnames; j++)
            free(r->pragmas[k].names[j]);
        free(r->pragmas[k].names);
        free(r->pragmas[k].name_cols);
    }
    free(r->pragmas);
}

/* What a reader holds besides its program and its diagnostics. */
static void free_reader(reader *r)
{
    free_pragmas(r);
    free(r->sequential);
    free(r->ignored);
    free(r->decls);
    free(r->locals);
    free(r->ref_buffer);
    free(r->outer_decls);
    free(r->nodes);
    free(r->open);
    free(r->stdin_text);
    if (r->tu)
        clang_disposeTranslationUnit(r->tu);
}

static void init_reader(reader *r, const char *path, const hd_c_options *opt,
                        hd_program *prog)
{
    memset(r, 0, sizeof *r);
    memset(prog, 0, sizeof *prog);
    r->path = path;
    r->opt = opt;
    r->cube_pragma = -1;
    r->prog = prog;
    hd_diags_init(&r->d, path);
}

/*
 * Parses the file, passes clang's diagnostics on, reads the hyperdo
 * pragmas and walks every doall loop.  -1: clang could not parse at all;
 * 0: clang reported errors (nothing walked); 1: walked.
 */
static int parse_and_walk(reader *r, CXIndex index, const char *parse_path,
                           char **args, int nargs)
{
    struct CXUnsavedFile unsaved = { parse_path, r->stdin_text, (unsigned long)r->stdin_len };
    enum CXErrorCode ec = clang_parseTranslationUnit2(
        index, parse_path, (const char *const *)args, nargs,
        r->stdin_text ? &unsaved : NULL, r->stdin_text ? 1 : 0,
        CXTranslationUnit_DetailedPreprocessingRecord |
        CXTranslationUnit_KeepGoing, &r->tu);
    if (ec != CXError_Success || !r->tu) {
        hd_report_input(&r->d, "clang could not parse '%s' (libclang error %d)",
                        r->path, (int)ec);
        r->tu = NULL;
        return -1;
    }
    r->file = clang_getFile(r->tu, parse_path);
    r->src = r->file ? clang_getFileContents(r->tu, r->file, &r->len) : NULL;
    hd_diags_set_source(&r->d, r->src, r->len);
    pass_clang_diagnostics(r);
    if (r->d.errors != 0 || !r->file || !r->src)
        return 0;
    {
        scan_pragmas(r);
        clang_visitChildren(clang_getTranslationUnitCursor(r->tu), visit, r);
        for (int k = 0; k < r->npragmas; k++)
            if (r->pragmas[k].kind == PRAGMA_DOALL && !r->pragmas[k].used)
                hd_report(&r->d, HD_ERROR, r->pragmas[k].offset, r->pragmas[k].line,
                       "'#pragma hyperdo doall' must be followed by a for loop "
                       "inside a function");
    }
    return 1;
}


/*
 * A doall that writes no array element computes nothing that outlives an
 * iteration (its body may only assign local scalars), so running it as
 * the sequential loop it is gives the program's output; the host brings
 * the arrays it reads home first, as for any sequential code.
 */
static void keep_sequential(reader *r)
{
    hd_program *p = r->prog;
    int kept = 0;
    for (int k = 0; k < p->nloops; k++) {
        hd_loop *l = &p->loops[k];
        if (l->home != NO_WRITES) {
            p->loops[kept++] = *l;
            continue;
        }
        hd_report(&r->d, HD_WARNING, l->begin, l->line, "this doall loop writes no array "
               "element, so it has no effect outside itself: it runs as sequential "
               "code on the host");
        r->sequential = hd_xrealloc(r->sequential,
                                    (size_t)(r->nsequential + 1) * sizeof *r->sequential);
        r->sequential[r->nsequential++] = l->pragma_begin;
        hd_loop_free(l);
    }
    p->nloops = kept;
}

/* Once every loop is read: the cube's dimension, the arrays' distributions,
 * each loop's maps, owners and messages, and the sequential code. */
static void finish(reader *r)
{
    hd_program *out = r->prog;
    const hd_c_options *opt = r->opt;
    keep_sequential(r);
    /* --dim, else cube(n), else the first doall's 2^k iterations. */
    const hd_loop *first = NULL;
    for (int k = 0; k < out->nloops && !first; k++)
        if (out->loops[k].var)
            first = &out->loops[k];
    out->n = opt->dim > 0 ? opt->dim
           : r->cube_pragma >= 0 ? (int)r->pragmas[r->cube_pragma].value
           : first ? first->k : 0;
    if (first && out->n < 1)
        hd_report(&r->d, HD_ERROR, first->begin, first->line,
               "a doall loop of one iteration gives a cube of dimension 0; "
               "set the dimension with '#pragma hyperdo cube(n)' or --dim");
    if (out->n > HD_DP_MAX_DIM) {
        hd_report_input(&r->d, "a %d-cube is beyond the mapping optimizer's "
                        "limit of %d dimensions", out->n, HD_DP_MAX_DIM);
    }
    /* Loops read without errors are checked further even when others
     * had errors, so that one run reports all it can. */
    if (out->n >= 1 && out->n <= HD_DP_MAX_DIM) {
        distribute_arrays(r);
        check_loops(r);
        if (opt->host_code && r->d.errors == 0)
            read_host_code(r);
    }
}

/* All of standard input (NUL-terminated), or NULL. */
static char *read_stdin(size_t *len)
{
    char *text = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n + 65536 + 1 > cap) {
            text = hd_xrealloc(text, cap = 2 * (n + 65536 + 1));
        }
        size_t got = fread(text + n, 1, cap - n - 1, stdin);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(stdin)) {
        free(text);
        return NULL;
    }
    text[n] = '\0';
    *len = n;
    return text;
}

int hd_c_read(const char *path, const hd_c_options *opt, hd_program *out,
              char **diagnostics)
{
    /* "-" is standard input, read as C and named as compilers name it. */
    bool from_stdin = strcmp(path, "-") == 0;
    if (from_stdin)
        path = "<stdin>";
    reader r;
    init_reader(&r, path, opt, out);
    *diagnostics = NULL;

    char msg[1024] = "";
    struct stat st;
    size_t stdin_len = 0;
    char *stdin_text = from_stdin ? read_stdin(&stdin_len) : NULL;
    if (from_stdin) {
        if (!stdin_text)
            snprintf(msg, sizeof msg, "hyperdo: error: cannot read standard input\n");
    } else if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(msg, sizeof msg, "hyperdo: error: '%s' is a directory, not a C file\n",
                 path);
    } else {
        FILE *probe = fopen(path, "r");
        if (!probe)
            snprintf(msg, sizeof msg, "hyperdo: error: cannot open '%s': %s\n",
                     path, strerror(errno));
        else
            fclose(probe);
    }
    if (msg[0]) {
        *diagnostics = hd_xstrdup(msg);
        return 1;
    }
    r.stdin_text = stdin_text;
    r.stdin_len = stdin_len;

    char **args = NULL;
    int nargs = 0;
    if (build_args(&r, path, &args, &nargs) != 0) {
        *diagnostics = hd_diags_text(&r.d);
        int errors = r.d.errors ? r.d.errors : 1;
        hd_diags_free(&r.d);
        free_reader(&r);
        return errors;
    }
    /* With -p, clang works in the command's directory: give it the file by
     * its absolute name. */
    char *parse_path = opt->build_dir ? realpath(path, NULL) : NULL;
    if (!parse_path)
        parse_path = hd_xstrdup(path);
    int errors = 1;
    CXIndex index = clang_createIndex(0, 0);
    int walked = parse_and_walk(&r, index, parse_path, args, nargs);
    if (walked >= 0) {
        if (walked) {
            out->path = hd_xstrdup(path);
            if (opt->host_code) {
                out->source = hd_xmalloc(r.len + 1);
                if (out->source) {
                    memcpy(out->source, r.src, r.len);
                    out->source[r.len] = '\0';
                    out->source_len = r.len;
                }
            }
            finish(&r);
        }
        errors = r.d.errors;
    }
    *diagnostics = hd_diags_text(&r.d);
    hd_diags_free(&r.d);
    free_reader(&r);
    clang_disposeIndex(index);
    if (errors)
        hd_program_free(out);
    for (int k = 0; k < nargs; k++)
        free(args[k]);
    free(args);
    free(parse_path);
    return errors;
}
