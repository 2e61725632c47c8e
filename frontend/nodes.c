/*
 * nodes.c — the recorded syntax tree of the doall loop being read (see
 * `node` in frontend_internal.h): its nodes, their extents and children,
 * and the operators between them.
 *
 * libclang 14 does not expose an operator's kind, so operators are read
 * from the source text between the operands.  Inside a macro body operands
 * have no positions of their own; an operator there cannot be read, and an
 * index using one is reported as not understood rather than guessed.
 */
#include "frontend_internal.h"

#include <string.h>

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
static enum CXChildVisitResult record_child(CXCursor c, CXCursor parent,
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
int record_tree(reader *r, CXCursor c)
{
    int root = add_node(r, c);
    r->depth = 0;
    r->lost = false;
    push_open(r, root);
    clang_visitChildren(c, record_child, r);
    r->depth = 0;
    if (r->lost)
        return -1;
    for (int x = root; x < r->nnodes; x++)
        base_first(r, x);
    return root;
}

CXCursor cursor_of(reader *r, int x)
{
    return r->nodes[x].c;
}

enum CXCursorKind kind_of(reader *r, int x)
{
    return r->nodes[x].kind;
}

node *extent_of(reader *r, int x)
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

unsigned start_of(reader *r, int x, bool *in_main)
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

unsigned end_of(reader *r, int x, bool *in_main)
{
    node *n = extent_of(r, x);
    *in_main = *in_main && n->end_main;
    return n->end;
}

/* The text of x's extent in the main file. */
char *source_text(reader *r, int x)
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

children kids_of(reader *r, int x)
{
    children k;
    k.n = r->nodes[x].nkids;
    int at = r->nodes[x].first;
    for (int j = 0; j < 8 && at >= 0; j++, at = r->nodes[at].next)
        k.kid[j] = at;
    return k;
}

/* Strips parentheses and implicit conversions. */
int strip_wrappers(reader *r, int x)
{
    while ((kind_of(r, x) == CXCursor_ParenExpr ||
            kind_of(r, x) == CXCursor_UnexposedExpr) && r->nodes[x].nkids == 1)
        x = r->nodes[x].first;
    return x;
}

bool is_loop_var(reader *r, int x)
{
    x = strip_wrappers(r, x);
    return kind_of(r, x) == CXCursor_DeclRefExpr &&
           clang_equalCursors(clang_getCursorReferenced(cursor_of(r, x)), r->loop_var);
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
void operator_text(reader *r, const children *kids, char *op,
                   size_t size)
{
    bool ok = kids->n == 2;
    unsigned b = ok ? end_of(r, kids->kid[0], &ok) : 0;
    unsigned e = ok ? start_of(r, kids->kid[1], &ok) : 0;
    operator_between(r, b, e, ok, op, size);
}

/* A unary operator's text, and whether it is postfix. */
void unary_text(reader *r, int x, int sub, char *op, size_t size,
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
