/*
 * bodies.c — the walk of a doall body: which statements it may hold, its
 * array references (hd_ref) and the guards they are read under, the
 * variables of the enclosing scope it reads.
 */
#include "frontend_internal.h"

#include <stdlib.h>
#include <string.h>

bool is_local(reader *r, CXCursor decl)
{
    for (int k = 0; k < r->nlocals; k++)
        if (clang_equalCursors(r->locals[k], decl))
            return true;
    return false;
}

static bool mentions_local(reader *r, int x);
static bool mentions_plain(reader *r, int x);

static void add_ref(reader *r, int x, bool is_write)
{
    CXCursor c = cursor_of(r, x);
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
        at = strip_wrappers(r, kids.kid[0]);
    }
    CXCursor decl = clang_getCursorReferenced(cursor_of(r, at));
    int index = -1;
    if (kind_of(r, at) == CXCursor_DeclRefExpr &&
        (clang_getCursorKind(decl) == CXCursor_VarDecl ||
         clang_getCursorKind(decl) == CXCursor_ParmDecl))
        index = array_of(r, decl);
    if (nsubs == HD_MAX_DIMS && kind_of(r, at) == CXCursor_ArraySubscriptExpr) {
        error_at(r, c, "an array of more than %d dimensions is not supported", HD_MAX_DIMS);
        return;
    }
    if (index < 0 && kind_of(r, at) == CXCursor_DeclRefExpr && nsubs == 1 &&
        pointer_declaration(decl)) {
        char *name = spelling(decl);
        error_at(r, c, "'%s' is a pointer: name it with the number of elements it points to, "
                 "'#pragma hyperdo distribute(%s : block) extent(N)', in the function that "
                 "declares it (at file scope for a global; docs/annotations.md, \"Pointers "
                 "and the heap\")", name, name);
        free(name);
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
    for (int d = 0; d < nsubs; d++)
        ref->index_local |= mentions_local(r, subs[d]),
        ref->index_plain |= mentions_plain(r, subs[d]);
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
        if (s && (s->kid[0] = expr_of(r, subs[d])) != NULL)
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

static void walk_rvalue(reader *r, int x);
static bool member_of(reader *r, int x, int *base);

/* Is node x (a[s0][s1]...) an element of an array declared in the body? */
static bool local_array(reader *r, int x)
{
    int at = x;
    while (kind_of(r, at) == CXCursor_ArraySubscriptExpr) {
        children kids = kids_of(r, at);
        if (kids.n != 2)
            return false;
        at = strip_wrappers(r, kids.kid[0]);
    }
    return kind_of(r, at) == CXCursor_DeclRefExpr &&
           is_local(r, clang_getCursorReferenced(cursor_of(r, at)));
}

/* Which functions a body may call: purity.c. */
static void check_call(reader *r, CXCursor c)
{
    check_body_call(r, c);
}

/* A variable of the enclosing scope read in the body: the code generator
 * sends its value to every processor (hd_loop.outers). */
static void note_outer(reader *r, int x)
{
    if (!r->opt->host_code)
        return;                   /* only the code generator ships values */
    CXCursor decl = clang_getCursorReferenced(cursor_of(r, x));
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
    position pos = cursor_pos(r, cursor_of(r, x));
    hd_outer *o = &l->outers[l->nouters++];
    o->name = spelling(decl);
    o->type = type_text(clang_getCursorType(decl));
    o->local_type = type_is_local(clang_getCursorType(decl));
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
        is_local(r, clang_getCursorReferenced(cursor_of(r, x))))
        return true;
    for (int at = r->nodes[x].first; at >= 0; at = r->nodes[at].next)
        if (mentions_local(r, at))
            return true;
    return false;
}

/* ... one that is not an active inner loop variable with known values? */
static bool mentions_plain(reader *r, int x)
{
    if (kind_of(r, x) == CXCursor_DeclRefExpr) {
        CXCursor decl = clang_getCursorReferenced(cursor_of(r, x));
        if (is_local(r, decl) && !inner_variable(r, decl))
            return true;
    }
    for (int at = r->nodes[x].first; at >= 0; at = r->nodes[at].next)
        if (mentions_plain(r, at))
            return true;
    return false;
}

/* A new guard: what follows is evaluated only when the condition at
 * node cond is nonzero (when) or zero (!when), inside the current part.
 * Returns its index. */
int add_guard(reader *r, int cond, bool when)
{
    hd_loop *l = r->loop;
    hd_xreserve(&l->guards, &r->guards_cap, l->nguards + 1, sizeof *l->guards);
    hd_guard *g = &l->guards[l->nguards];
    memset(g, 0, sizeof *g);
    node *ext = extent_of(r, cond);
    position pos = cursor_pos(r, cursor_of(r, cond));
    g->begin = ext->begin;
    g->end = ext->end;
    g->line = pos.line;
    g->col = pos.col;
    g->when = when;
    g->parent = r->guard;
    g->cond = expr_of(r, cond);
    g->uses_locals = mentions_local(r, cond);
    g->uses_plain = mentions_plain(r, cond);
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
    position pos = cursor_pos(r, cursor_of(r, x));
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
    if (clang_Type_getSizeOf(clang_getCursorType(cursor_of(r, kids->kid[0]))) < 0)
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

/* The subscripts of the reference a[s0][s1]... at node x, which may read
 * arrays too: s0, s1, ... walked as rvalues. */
static void walk_subscripts(reader *r, int x)
{
    for (int at = x; kind_of(r, at) == CXCursor_ArraySubscriptExpr;) {
        children sub = kids_of(r, at);
        if (sub.n != 2)
            break;
        walk_rvalue(r, sub.kid[1]);
        at = strip_wrappers(r, sub.kid[0]);
    }
}

/*
 * An expression the body evaluates:
 *
 *   rvalue = a C expression without assignments, ++, --, unary * and &,
 *            statement expressions and blocks, whose calls are of pure
 *            functions only (purity.c)
 *
 * every array element it reads a reference (add_ref), under the guard of
 * the part of ?:, && or || it is in.
 */
static void walk_rvalue(reader *r, int x)
{
    CXCursor c = cursor_of(r, x);
    enum CXCursorKind kind = kind_of(r, x);
    char op[16];
    bool postfix;
    if (kind == CXCursor_ArraySubscriptExpr) {
        /* p[i].v[k]: an element of a member array; the reference is p[i]. */
        children parts = kids_of(r, x);
        int inner;
        int base = parts.n == 2 ? strip_wrappers(r, parts.kid[0]) : x;
        while (parts.n == 2 && kind_of(r, base) == CXCursor_ArraySubscriptExpr) {
            children more = kids_of(r, base);
            if (more.n != 2)
                break;
            base = strip_wrappers(r, more.kid[0]);
        }
        if (parts.n == 2 && member_of(r, base, &inner)) {
            walk_rvalue(r, parts.kid[0]);
            walk_rvalue(r, parts.kid[1]);
            return;
        }
        /* An element of an array of the body: plain C, each iteration's own. */
        if (local_array(r, x)) {
            walk_subscripts(r, x);
            return;
        }
        /* One reference a[s0][s1]...; its subscripts may read arrays too. */
        add_ref(r, x, false);
        walk_subscripts(r, x);
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
             clang_getCanonicalType(clang_getCursorType(cursor_of(r, kids.kid[0]))).kind ==
                 CXType_Pointer)) {
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

void walk_operand(reader *r, int x)
{
    walk_rvalue(r, x);
}

/*
 *   bound = a C expression of constants and variables declared outside
 *           the loop, without assignments, calls or array elements
 */
bool walk_bound(reader *r, int x, const char *what)
{
    CXCursor c = cursor_of(r, x);
    enum CXCursorKind kind = kind_of(r, x);
    children kids = kids_of(r, x);
    char op[16];
    bool postfix;
    bool bad = kind == CXCursor_ArraySubscriptExpr || kind == CXCursor_CallExpr ||
               kind == CXCursor_CompoundAssignOperator || kind == CXCursor_StmtExpr ||
               kind == CXCursor_MemberRefExpr;
    if (kind == CXCursor_BinaryOperator && kids.n == 2 &&
        kind_of(r, kids.kid[0]) != CXCursor_UnexposedExpr) {
        operator_text(r, &kids, op, sizeof op);
        bad |= strcmp(op, "=") == 0;
    }
    if (kind == CXCursor_UnaryOperator && kids.n == 1) {
        unary_text(r, x, kids.kid[0], op, sizeof op, &postfix);
        bad |= strcmp(op, "++") == 0 || strcmp(op, "--") == 0 || strcmp(op, "*") == 0 ||
               strcmp(op, "&") == 0;
    }
    if (kind == CXCursor_DeclRefExpr) {
        CXCursor decl = clang_getCursorReferenced(c);
        enum CXCursorKind dk = clang_getCursorKind(decl);
        if (dk == CXCursor_VarDecl || dk == CXCursor_ParmDecl) {
            int bits;
            bool sg;
            if (clang_equalCursors(decl, r->loop_var) ||
                !integer_type(clang_getCursorType(decl), &bits, &sg)) {
                bad = true;
            } else {
                note_outer(r, x);
                hd_xreserve(&r->bound_decls, &r->bound_cap, r->nbound_decls + 1,
                            sizeof *r->bound_decls);
                r->bound_decls[r->nbound_decls++] = decl;
            }
        }
    }
    if (bad) {
        error_at(r, c, "the %s of a doall loop may read only constants and integer "
                 "variables declared outside the loop (no array elements, calls, "
                 "members or assignments): the processors receive their values "
                 "before the loop", what);
        return false;
    }
    for (int at = r->nodes[x].first; at >= 0; at = r->nodes[at].next)
        if (!walk_bound(r, at, what))
            return false;
    return true;
}

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

/*
 * The target of an assignment statement (also read for op=):
 *
 *   lvalue  = element {"." member {"[" rvalue "]"}} | local
 *   element = array "[" rvalue "]" {"[" rvalue "]"}
 *
 * the array of constant size, one subscript per dimension; local a scalar
 * declared in the body.
 */
static void walk_lvalue(reader *r, int lhs, bool also_read)
{
    int t = strip_wrappers(r, lhs);
    /* q[i].x = ...: a write of part of element q[i] (and a[i].v[2] = ...). */
    bool partial = false;
    for (int base;;) {
        if (member_of(r, t, &base)) {
            t = strip_wrappers(r, base);
            partial = true;
            continue;
        }
        /* a[i].v[j][k]: subscripts of a member array, down to the member. */
        int at = t;
        while (kind_of(r, at) == CXCursor_ArraySubscriptExpr) {
            children kids = kids_of(r, at);
            if (kids.n != 2)
                break;
            at = strip_wrappers(r, kids.kid[0]);
        }
        if (at != t && member_of(r, at, &base)) {
            for (int s = t; s != at;) {
                children kids = kids_of(r, s);
                walk_rvalue(r, kids.kid[1]);
                s = strip_wrappers(r, kids.kid[0]);
            }
            t = at;
            continue;
        }
        break;
    }
    CXCursor target = cursor_of(r, t);
    enum CXCursorKind kind = kind_of(r, t);
    if (kind == CXCursor_ArraySubscriptExpr && local_array(r, t)) {
        walk_subscripts(r, t);
        return;
    }
    if (kind == CXCursor_ArraySubscriptExpr) {
        add_ref(r, t, true);
        if (partial && r->loop->nrefs > 0)
            r->loop->refs[r->loop->nrefs - 1].partial = true;
        if (also_read)
            add_ref(r, t, false);
        walk_subscripts(r, t);
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
        /* reduction_statement took every statement whose target is an
         * outer variable: this is a target inside another (a member's
         * subscript cannot write). */
        char *name = spelling(target);
        error_at(r, target, "'%s' is declared outside the doall loop: every "
                 "iteration writing it would race; declare it inside the loop "
                 "body", name ? name : "?");
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

/*
 * The body language, a statement at a time:
 *
 *   statement   = ";" | "{" {statement} "}" | declaration
 *               | lvalue "=" rvalue | lvalue op"=" rvalue
 *               | local "++" | local "--" | "++" local | "--" local
 *               | control                              (control.c)
 *   declaration = scalar variables and arrays of constant size, not
 *                 static, {"=" rvalue} initialisers
 */
void walk_statement(reader *r, int x)
{
    CXCursor s = cursor_of(r, x);
    enum CXCursorKind kind = kind_of(r, x);
    children kids = kids_of(r, x);
    char op[16];
    /* A write of a variable declared outside: a reduction, or an error. */
    if (reduction_statement(r, x))
        return;
    if (walk_control(r, x))
        return;
    switch (kind) {
    case CXCursor_NullStmt:
        return;
    case CXCursor_CompoundStmt:
        for (int at = r->nodes[x].first; at >= 0; at = r->nodes[at].next)
            walk_statement(r, at);
        return;
    case CXCursor_DeclStmt:
        for (int at_decl = r->nodes[x].first; at_decl >= 0; at_decl = r->nodes[at_decl].next) {
            CXCursor v = cursor_of(r, at_decl);
            if (clang_getCursorKind(v) != CXCursor_VarDecl) {
                error_at(r, v, "only scalar variables may be declared in a "
                         "doall body");
                continue;
            }
            CXType t = clang_getCanonicalType(clang_getCursorType(v));
            if (t.kind == CXType_VariableArray || t.kind == CXType_IncompleteArray ||
                t.kind == CXType_Pointer) {
                error_at(r, v, "only scalar variables and arrays of constant size may "
                         "be declared in a doall body");
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
            bool any = false;
            for (int at = r->nodes[at_decl].first; at >= 0; at = r->nodes[at].next) {
                note_flow(r, at_decl, at);
                any = true;
            }
            if (!any)
                note_flow(r, at_decl, -1);
        }
        return;
    case CXCursor_BinaryOperator:
        if (kids.n == 2) {
            operator_text(r, &kids, op, sizeof op);
            if (strcmp(op, "=") == 0) {
                walk_rvalue(r, kids.kid[1]);
                walk_lvalue(r, kids.kid[0], false);
                note_flow(r, kids.kid[0], kids.kid[1]);
                return;
            }
        }
        break;
    case CXCursor_CompoundAssignOperator:
        if (kids.n == 2) {
            walk_rvalue(r, kids.kid[1]);
            walk_lvalue(r, kids.kid[0], true);
            note_flow(r, kids.kid[0], kids.kid[1]);
            return;
        }
        break;
    case CXCursor_UnaryOperator: {
        /* k++ and the like, of a variable of the body (an inner loop's step). */
        bool postfix;
        if (kids.n != 1)
            break;
        unary_text(r, x, kids.kid[0], op, sizeof op, &postfix);
        if (strcmp(op, "++") != 0 && strcmp(op, "--") != 0)
            break;
        int t = strip_wrappers(r, kids.kid[0]);
        if (kind_of(r, t) == CXCursor_DeclRefExpr &&
            is_local(r, clang_getCursorReferenced(cursor_of(r, t)))) {
            note_flow(r, t, -1);
            return;
        }
        if (kind_of(r, t) == CXCursor_ArraySubscriptExpr && local_array(r, t)) {
            walk_subscripts(r, t);
            note_flow(r, t, -1);
            return;
        }
        break;
    }
    default:
        break;
    }
    error_at(r, s, "a doall body may contain only assignments, declarations, "
             "if/else, for, while and do loops, break and continue");
}
