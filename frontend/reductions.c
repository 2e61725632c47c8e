/*
 * reductions.c — the statements of a doall body that write a variable
 * declared outside the loop: a reduction (docs/annotations.md,
 * "Reductions") when the statement only combines a value into it and the
 * body reads it nowhere else, an error otherwise.
 *
 * Why these forms only: the translated loop gives each processor a
 * private copy of s that starts at op's identity, combines its own
 * iterations' values into it, and the host then sets s = s op (all the
 * copies combined).  That is the sequential loop's value exactly when op
 * is associative and commutative over s's type (up to the rounding of a
 * floating-point op, docs/annotations.md) and when no iteration sees s
 * itself: a read of s anywhere else would see the private copy, not the
 * value the sequential loop has there.
 *
 * The same holds element by element for an array h that the body only
 * combines values into, `h[e] op= x` with e any index (h[key[i]] += 1, a
 * histogram): each processor combines into a private copy of the whole
 * of h, and the copies are combined by Stout and Wagar 1990's HISTOGRAM
 * (Section 8).  A statement of that form is such a reduction when two
 * iterations may write one element (e is not one-to-one on the loop's
 * iterations, or is not known when translating) or when a reduction
 * clause names h; with a one-to-one e it stays the ordinary write it is.
 */

#include "frontend_internal.h"

#include <stdlib.h>
#include <string.h>

/* The variable of the enclosing scope (or a parameter) that node x names,
 * or a null cursor. */
static CXCursor outer_variable(reader *r, int x)
{
    x = strip_wrappers(r, x);
    if (kind_of(r, x) != CXCursor_DeclRefExpr)
        return clang_getNullCursor();
    CXCursor decl = clang_getCursorReferenced(cursor_of(r, x));
    enum CXCursorKind kind = clang_getCursorKind(decl);
    if ((kind != CXCursor_VarDecl && kind != CXCursor_ParmDecl) ||
        clang_equalCursors(decl, r->loop_var) || is_local(r, decl))
        return clang_getNullCursor();
    return decl;
}

static bool names(reader *r, int x, CXCursor decl)
{
    x = strip_wrappers(r, x);
    return kind_of(r, x) == CXCursor_DeclRefExpr &&
           clang_equalCursors(clang_getCursorReferenced(cursor_of(r, x)), decl);
}

/* What a reduction statement combines into: the scalar decl, or (element)
 * the array element at node lhs, which the statement may name again only
 * with the same text (the same element: a body expression has no side
 * effects). */
typedef struct {
    CXCursor decl;
    int lhs;
    bool element;
} red_target;

static bool same_text(reader *r, int x, int y);

static bool is_target(reader *r, int x, const red_target *t)
{
    if (!t->element)
        return names(r, x, t->decl);
    x = strip_wrappers(r, x);
    return kind_of(r, x) == CXCursor_ArraySubscriptExpr && same_text(r, x, t->lhs);
}

/* The reduction's element type, from s's type; false when s may not be
 * one (said by the caller). */
static bool reduction_type(CXType t, hd_red_type *kind)
{
    t = clang_getCanonicalType(t);
    int bits;
    bool is_signed;
    switch (t.kind) {
    case CXType_Float: *kind = HD_RED_FLOAT; return true;
    case CXType_Double: *kind = HD_RED_DOUBLE; return true;
    case CXType_LongDouble: *kind = HD_RED_LDOUBLE; return true;
    case CXType_Complex:
        switch (clang_getCanonicalType(clang_getElementType(t)).kind) {
        case CXType_Float: *kind = HD_RED_CFLOAT; return true;
        case CXType_Double: *kind = HD_RED_CDOUBLE; return true;
        case CXType_LongDouble: *kind = HD_RED_CLDOUBLE; return true;
        default: return false;
        }
    case CXType_Bool: case CXType_Enum: case CXType_Char16: case CXType_Char32:
    case CXType_WChar:
        /* _Bool's and an enumeration's values are not a ring to sum in. */
        return false;
    default:
        break;
    }
    if (!integer_type(t, &bits, &is_signed))
        return false;
    int w = bits == 8 ? 0 : bits == 16 ? 1 : bits == 32 ? 2 : bits == 64 ? 3 : -1;
    if (w < 0)
        return false;
    *kind = (hd_red_type)((is_signed ? HD_RED_INT8 : HD_RED_UINT8) + w);
    return true;
}

/* The text of node x without white space: two operands of one statement
 * with the same text have the same value (a body expression has no side
 * effects, and nothing changes between them). */
static char *squeezed(reader *r, int x)
{
    char *s = source_text(r, x);
    size_t k = 0;
    for (size_t j = 0; s && s[j]; j++)
        if (s[j] != ' ' && s[j] != '\t' && s[j] != '\n' && s[j] != '\r')
            s[k++] = s[j];
    if (s)
        s[k] = '\0';
    return s;
}

static bool same_text(reader *r, int x, int y)
{
    char *a = squeezed(r, x), *b = squeezed(r, y);
    bool same = a && b && *a && strcmp(a, b) == 0;
    free(a);
    free(b);
    return same;
}

/* A statement recognised as a reduction of s: its operator, the operands
 * that give the value combined (walked as the body's other expressions
 * are), and the nodes where it names s itself. */
typedef struct {
    hd_red_op op;
    int operand[2];
    int noperands;
    int self[3];           /* the target, and s in s = s op e or both of a choice's */
    int nself;
    bool call;             /* fmin or fmax */
} red_form;

static bool compound_op(const char *text, hd_red_op *op)
{
    static const struct { const char *text; hd_red_op op; } ops[] = {
        { "+=", HD_RED_SUM }, { "-=", HD_RED_SUM }, { "*=", HD_RED_PROD },
        { "&=", HD_RED_BAND }, { "|=", HD_RED_BOR }, { "^=", HD_RED_BXOR },
    };
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
        if (strcmp(text, ops[k].text) == 0) {
            *op = ops[k].op;
            return true;
        }
    return false;
}

/* s = fmin(s, e) and the others of math.h's fmin and fmax. */
static bool min_max_call(reader *r, int call, const red_target *s, red_form *f)
{
    if (kind_of(r, call) != CXCursor_CallExpr)
        return false;
    children kids = kids_of(r, call);
    if (kids.n != 3)
        return false;
    CXCursor callee = clang_getCursorReferenced(cursor_of(r, call));
    char *name = spelling(callee);
    bool is_min = name && (!strcmp(name, "fmin") || !strcmp(name, "fminf") ||
                           !strcmp(name, "fminl"));
    bool is_max = name && (!strcmp(name, "fmax") || !strcmp(name, "fmaxf") ||
                           !strcmp(name, "fmaxl"));
    free(name);
    if ((!is_min && !is_max) ||
        !clang_Location_isInSystemHeader(clang_getCursorLocation(callee)))
        return false;
    int self = is_target(r, kids.kid[1], s) ? 1 : is_target(r, kids.kid[2], s) ? 2 : 0;
    if (!self)
        return false;
    f->op = is_min ? HD_RED_MIN : HD_RED_MAX;
    f->call = true;
    f->self[f->nself++] = strip_wrappers(r, kids.kid[self]);
    f->operand[f->noperands++] = kids.kid[3 - self];
    return true;
}

/* s = A rel B ? X : Y, with {A, B} = {s, e} and {X, Y} = {s, e} (the two
 * e's the same text): a minimum or a maximum of s and e. */
static bool min_max_choice(reader *r, int cond_op, const red_target *s, red_form *f)
{
    if (kind_of(r, cond_op) != CXCursor_ConditionalOperator)
        return false;
    children kids = kids_of(r, cond_op);
    if (kids.n != 3)
        return false;
    int cond = strip_wrappers(r, kids.kid[0]);
    children cmp = kids_of(r, cond);
    char rel[16];
    if (kind_of(r, cond) != CXCursor_BinaryOperator || cmp.n != 2)
        return false;
    operator_text(r, &cmp, rel, sizeof rel);
    bool less = !strcmp(rel, "<") || !strcmp(rel, "<=");
    bool more = !strcmp(rel, ">") || !strcmp(rel, ">=");
    if (!less && !more)
        return false;
    bool s_first = is_target(r, cmp.kid[0], s);
    if (s_first == is_target(r, cmp.kid[1], s))
        return false;
    int e_cond = s_first ? cmp.kid[1] : cmp.kid[0];
    bool x_is_s = is_target(r, kids.kid[1], s);
    if (x_is_s == is_target(r, kids.kid[2], s))
        return false;
    int e_branch = x_is_s ? kids.kid[2] : kids.kid[1];
    if (!same_text(r, e_cond, e_branch))
        return false;
    /* The condition holding picks X: A when X is A. */
    bool picks_first = x_is_s == s_first;
    f->op = less == picks_first ? HD_RED_MIN : HD_RED_MAX;
    f->self[f->nself++] = strip_wrappers(r, s_first ? cmp.kid[0] : cmp.kid[1]);
    f->self[f->nself++] = strip_wrappers(r, x_is_s ? kids.kid[1] : kids.kid[2]);
    /* Both e's are walked unguarded: the branch's reads the very elements
     * the condition reads, at every iteration. */
    f->operand[f->noperands++] = e_cond;
    f->operand[f->noperands++] = e_branch;
    return true;
}

/* The statement at x, whose target names s (at node lhs), as a reduction
 * of s; false when it is none of the forms. */
static bool reduction_form(reader *r, int x, int lhs, const red_target *s, red_form *f)
{
    enum CXCursorKind kind = kind_of(r, x);
    children kids = kids_of(r, x);
    char op[16];
    memset(f, 0, sizeof *f);
    f->self[f->nself++] = strip_wrappers(r, lhs);
    if (kind == CXCursor_UnaryOperator) {
        bool postfix;
        unary_text(r, x, kids.kid[0], op, sizeof op, &postfix);
        f->op = HD_RED_SUM;
        return !strcmp(op, "++") || !strcmp(op, "--");
    }
    operator_text(r, &kids, op, sizeof op);
    if (kind == CXCursor_CompoundAssignOperator) {
        f->operand[f->noperands++] = kids.kid[1];
        return compound_op(op, &f->op);
    }
    if (kind != CXCursor_BinaryOperator || strcmp(op, "="))
        return false;
    int rhs = strip_wrappers(r, kids.kid[1]);
    if (min_max_call(r, rhs, s, f) || min_max_choice(r, rhs, s, f))
        return true;
    children parts = kids_of(r, rhs);
    if (kind_of(r, rhs) != CXCursor_BinaryOperator || parts.n != 2)
        return false;
    operator_text(r, &parts, op, sizeof op);
    char compound[20];
    snprintf(compound, sizeof compound, "%s=", op);
    if (!compound_op(compound, &f->op))
        return false;
    if (is_target(r, parts.kid[0], s)) {               /* s = s op e */
        f->self[f->nself++] = strip_wrappers(r, parts.kid[0]);
        f->operand[f->noperands++] = parts.kid[1];
        return true;
    }
    if (is_target(r, parts.kid[1], s) && strcmp(op, "-")) {   /* s = e op s */
        f->self[f->nself++] = strip_wrappers(r, parts.kid[1]);
        f->operand[f->noperands++] = parts.kid[0];
        return true;
    }
    return false;
}

static const char forms[] =
    "a reduction is 's op= e' (op one of + - * & | ^), 's = s op e', 's++', 's--', "
    "'s = fmin(s, e)', 's = fmax(s, e)' or 's = e < s ? e : s' (min; > for max), "
    "e not reading s";

/* Does operand x have a floating or complex type (before C converts it)? */
static bool not_integer(reader *r, int x)
{
    int bits;
    bool is_signed;
    CXType t = clang_getCursorType(cursor_of(r, strip_wrappers(r, x)));
    return !integer_type(t, &bits, &is_signed);
}

/* Is the reduction a doall pragma's clause names?  (Whether an array
 * statement is a reduction depends on it.) */
static bool clause_names(const reader *r, const char *name)
{
    for (int c = 0; r->doall && c < r->doall->nreds; c++)
        if (strcmp(r->doall->reds[c].name, name) == 0)
            return true;
    return false;
}

/* Is node lhs an element h[e] of a one-dimensional array of constant
 * size declared outside the loop (its subscript e at *sub, its
 * declaration *decl, log2 of its size or -1 at *log2_size)?  The array is
 * not recorded (array_of) yet: the program's arrays are numbered in the
 * order the body first names them, whatever this statement turns out to
 * be. */
static bool element_target(reader *r, int lhs, CXCursor *decl, int *sub, int *log2_size)
{
    lhs = strip_wrappers(r, lhs);
    children kids = kids_of(r, lhs);
    if (kind_of(r, lhs) != CXCursor_ArraySubscriptExpr || kids.n != 2)
        return false;
    int base = strip_wrappers(r, kids.kid[0]);
    if (kind_of(r, base) != CXCursor_DeclRefExpr)
        return false;
    *decl = clang_getCursorReferenced(cursor_of(r, base));
    if (clang_getCursorKind(*decl) != CXCursor_VarDecl || is_local(r, *decl))
        return false;
    CXType t = clang_getCanonicalType(clang_getCursorType(*decl));
    if (t.kind != CXType_ConstantArray ||
        clang_getCanonicalType(clang_getArrayElementType(t)).kind == CXType_ConstantArray)
        return false;
    long long size = clang_getArraySize(t);
    *log2_size = size > 0 && !(size & (size - 1)) ? __builtin_ctzll((unsigned long long)size)
                                                  : -1;
    *sub = kids.kid[1];
    return true;
}

/*
 * Does each iteration write its own element h[e], as analysis/owners.c's
 * check_writes would find (e a one-to-one GF(2)-affine map of the loop
 * variable, one-to-one whatever the outer variables, or every value known
 * and different)?  Then `h[e] += x` is an ordinary write, computed where
 * h[e] lives.  An e that depends on data (key[i]), or that two iterations
 * share (i & 7, i / 4), makes it a reduction.  An array whose size is no
 * power of two, or an e that goes out of bounds, is left to the ordinary
 * write's checks, which say what is wrong.
 */
static bool one_per_iteration(reader *r, int sub, int log2_size)
{
    int k = r->loop->k;
    if (log2_size < 0)
        return true;
    hd_expr *e = hd_expr_new(HD_EX_CAST, 64, true);
    if (!e)
        return true;
    if ((e->kid[0] = expr_of(r, sub)) == NULL) {
        hd_expr_free(e);
        return true;
    }
    e->nkids = 1;
    hd_affine map;
    char why[8];
    bool one;
    if (hd_expr_affine(e, k, &map, why, sizeof why)) {
        one = hd_affine_collision(&map, log2_size) == 0;
    } else if (hd_expr_injective(e, k)) {
        one = true;
    } else if (k > HD_ENUMERATE_MAX_BITS || log2_size > HD_ENUMERATE_MAX_BITS) {
        one = false;
    } else {
        uint8_t *seen = hd_xcalloc((size_t)1 << log2_size, 1);
        uint64_t value[HD_EVAL_BLOCK];
        bool known[HD_EVAL_BLOCK];
        bool outside = false;
        one = true;
        for (uint64_t i = 0; i < (UINT64_C(1) << k) && one && !outside; i += HD_EVAL_BLOCK) {
            uint64_t left = (UINT64_C(1) << k) - i;
            int n = left < HD_EVAL_BLOCK ? (int)left : HD_EVAL_BLOCK;
            hd_expr_eval_block(e, i, n, value, known);
            for (int j = 0; j < n && one && !outside; j++) {
                /* Out of bounds: the ordinary write's check reports it. */
                outside = known[j] && (value[j] >> log2_size) != 0;
                if (outside)
                    break;
                one = known[j] && !seen[value[j]];
                if (one)
                    seen[value[j]] = 1;
            }
        }
        one |= outside;
        free(seen);
    }
    hd_expr_free(e);
    return one;
}

/* The reduction of decl (a scalar, or array `array`) that the recognised
 * statement x (form f) is, checked and recorded; its index in loop->reds,
 * or -1 when it is refused (said). */
static int record_reduction(reader *r, int x, CXCursor decl, CXType type_of, int array,
                            const red_form *f)
{
    CXCursor at = cursor_of(r, x);
    char *name = spelling(decl);
    hd_red_type type;
    if (!reduction_type(type_of, &type)) {
        char *t = type_text(type_of);
        if (array >= 0)
            error_at(r, at, "the elements of '%s' have type '%s': an array reduced into "
                     "must have integer, floating or _Complex elements", name, t);
        else
            error_at(r, at, "'%s' has type '%s': a reduction variable must have an "
                     "integer, floating or _Complex type", name, t);
        free(t);
        free(name);
        return -1;
    }
    const char *why = NULL;
    if (hd_red_type_complex(type) && f->op != HD_RED_SUM && f->op != HD_RED_PROD)
        why = "complex numbers are reduced by + and * only";
    else if (!hd_red_type_integer(type) && f->op >= HD_RED_BAND)
        why = "& | ^ reduce integers only";
    else if (hd_red_type_integer(type) && f->call)
        why = "fmin and fmax compute in floating point: for an integer, write "
              "'s = e < s ? e : s'";
    for (int k = 0; !why && k < f->noperands; k++)
        if (hd_red_type_integer(type) && not_integer(r, f->operand[k]))
            why = "its operand is not an integer, and C converts each step's result "
                  "back to the integer type, which partial results would round "
                  "differently: convert the operand to an integer type";
    if (why) {
        error_at(r, at, "this reduction of '%s' cannot be translated: %s", name, why);
        free(name);
        return -1;
    }

    /* The reduction: one per variable, every statement with its operator. */
    hd_loop *l = r->loop;
    int k = 0;
    while (k < l->nreds && !clang_equalCursors(r->red_decls[k], decl))
        k++;
    if (k < l->nreds && l->reds[k].op != f->op) {
        error_at(r, at, "'%s' is combined with '%s' on line %d and with '%s' here: a "
                 "reduction has one operator", name, hd_red_op_text(l->reds[k].op),
                 l->reds[k].line, hd_red_op_text(f->op));
        free(name);
        return -1;
    }
    if (k == l->nreds) {
        l->reds = hd_xrealloc(l->reds, (size_t)(l->nreds + 1) * sizeof *l->reds);
        hd_xreserve(&r->red_decls, &r->red_decls_cap, l->nreds + 1, sizeof *r->red_decls);
        r->red_decls[l->nreds] = decl;
        position pos = cursor_pos(r, at);
        l->reds[l->nreds++] = (hd_reduction){
            .name = name, .type = type_text(type_of), .local_type = type_is_local(type_of),
            .array = array, .kind = type, .op = f->op, .line = pos.line, .col = pos.col,
        };
        name = NULL;
    }
    l->reds[k].nstmts++;
    free(name);
    for (int j = 0; j < f->noperands; j++)
        walk_operand(r, f->operand[j]);
    return k;
}

/* Where the statement names element h[e] (node y) of its reduction k: a
 * site the code generator rewrites, its subscript walked as any index
 * (its references are the body's). */
static void add_site(reader *r, int y, int k)
{
    hd_loop *l = r->loop;
    children kids = kids_of(r, y);
    node *ext = extent_of(r, y);
    bool in_main = true;
    position pos = cursor_pos(r, cursor_of(r, y));
    hd_red_site site = { .red = k, .begin = ext->begin, .end = ext->end,
                         .line = pos.line, .col = pos.col };
    if (r->opt->host_code) {
        site.sub_begin = start_of(r, kids.kid[1], &in_main);
        site.sub_end = end_of(r, kids.kid[1], &in_main);
        CXFile f;
        unsigned spelled;
        clang_getSpellingLocation(clang_getRangeStart(clang_getCursorExtent(cursor_of(r, y))),
                                  &f, NULL, NULL, &spelled);
        site.in_macro = !in_main || site.sub_end <= site.sub_begin ||
                        site.sub_begin < site.begin || site.sub_end > site.end ||
                        spelled != site.begin || !f || !clang_File_isEqual(f, r->file);
    }
    l->sites = hd_xrealloc(l->sites, (size_t)(l->nsites + 1) * sizeof *l->sites);
    l->sites[l->nsites++] = site;
    walk_operand(r, kids.kid[1]);
}

/* The statement at x, whose target (node lhs) is an element of an array,
 * as a reduction into the array; false when it is an ordinary write. */
static bool array_reduction(reader *r, int x, int lhs)
{
    CXCursor decl;
    int sub, log2_size;
    if (!element_target(r, lhs, &decl, &sub, &log2_size))
        return false;
    red_target t = { decl, strip_wrappers(r, lhs), true };
    red_form f;
    if (!reduction_form(r, x, t.lhs, &t, &f))
        return false;   /* an ordinary write: owners.c checks it */
    char *name = spelling(decl);
    bool named = name && clause_names(r, name);
    free(name);
    if (!named && one_per_iteration(r, sub, log2_size))
        return false;
    int a = array_of(r, decl);
    if (a < 0)
        return false;
    /* Where the statement names h itself is no other use of h, even when
     * the statement is refused: one error per statement. */
    for (int j = 0; j < f.nself; j++) {
        children kids = kids_of(r, f.self[j]);
        hd_xreserve(&r->red_self, &r->red_self_cap, r->nred_self + 1, sizeof *r->red_self);
        r->red_self[r->nred_self++] = strip_wrappers(r, kids.kid[0]);
    }
    int k = record_reduction(r, x, decl, clang_getCursorType(cursor_of(r, t.lhs)), a, &f);
    if (k >= 0)
        for (int j = 0; j < f.nself; j++)
            add_site(r, f.self[j], k);
    return true;
}

bool reduction_statement(reader *r, int x)
{
    enum CXCursorKind kind = kind_of(r, x);
    children kids = kids_of(r, x);
    if ((kind != CXCursor_BinaryOperator && kind != CXCursor_CompoundAssignOperator &&
         kind != CXCursor_UnaryOperator) ||
        kids.n < 1 || kids.n > 2 || (kind != CXCursor_UnaryOperator) != (kids.n == 2))
        return false;
    char op[16];
    if (kind == CXCursor_BinaryOperator) {
        operator_text(r, &kids, op, sizeof op);
        if (strcmp(op, "="))
            return false;
    }
    CXCursor s = outer_variable(r, kids.kid[0]);
    if (clang_Cursor_isNull(s))
        return array_reduction(r, x, kids.kid[0]);
    CXCursor at = cursor_of(r, x);
    red_target t = { s, -1, false };
    red_form f;
    bool is_form = reduction_form(r, x, kids.kid[0], &t, &f);
    /* Where the statement names s as its own target is no read, even when
     * the statement is refused: one error per statement. */
    for (int j = 0; j < f.nself; j++) {
        hd_xreserve(&r->red_self, &r->red_self_cap, r->nred_self + 1, sizeof *r->red_self);
        r->red_self[r->nred_self++] = f.self[j];
    }
    if (!is_form) {
        char *name = spelling(s);
        error_at(r, at, "'%s' is declared outside the doall loop and this statement "
                 "is not a reduction of it: every iteration writing it would race; %s "
                 "(docs/annotations.md, \"Reductions\"); otherwise declare it inside the "
                 "loop body", name, forms);
        free(name);
        return true;
    }
    record_reduction(r, x, s, clang_getCursorType(s), -1, &f);
    return true;
}

/* Every other place the body names a reduction variable: an error, since
 * there each processor has its partial value, not the sequential one. */
static void other_uses(reader *r, int x)
{
    if (kind_of(r, x) == CXCursor_DeclRefExpr) {
        CXCursor decl = clang_getCursorReferenced(cursor_of(r, x));
        for (int k = 0; k < r->loop->nreds; k++) {
            if (!clang_equalCursors(decl, r->red_decls[k]))
                continue;
            bool self = false;
            for (int j = 0; j < r->nred_self && !self; j++)
                self = r->red_self[j] == x;
            if (!self && r->loop->reds[k].array >= 0)
                error_at(r, cursor_of(r, x), "'%s' is an array this doall reduces into "
                         "(line %d) and is named here too: during the loop each processor "
                         "combines into a private copy of the whole array, which holds "
                         "neither the sequential loop's values nor its writes, so '%s' may "
                         "appear only as the target of its reduction statements",
                         r->loop->reds[k].name, r->loop->reds[k].line,
                         r->loop->reds[k].name);
            else if (!self)
                error_at(r, cursor_of(r, x), "'%s' is a reduction variable of this doall "
                         "(line %d) and is read here: during the loop each processor holds "
                         "only its partial value, so it may appear only as the target of "
                         "its reduction statements", r->loop->reds[k].name,
                         r->loop->reds[k].line);
        }
    }
    for (int at = r->nodes[x].first; at >= 0; at = r->nodes[at].next)
        other_uses(r, at);
}

void check_reductions(reader *r, int body, const pragma *pr)
{
    hd_loop *l = r->loop;
    if (l->nreds)
        other_uses(r, body);
    for (int c = 0; pr && c < pr->nreds; c++) {
        const red_clause *rc = &pr->reds[c];
        int k = 0;
        while (k < l->nreds && strcmp(l->reds[k].name, rc->name))
            k++;
        if (k == l->nreds) {
            hd_report(&r->d, HD_ERROR, rc->offset, rc->line, "'%s' is named in "
                      "reduction(%s: ...) but no statement of this doall combines a value "
                      "into it: %s", rc->name, hd_red_op_text(rc->op), forms);
            continue;
        }
        l->reds[k].clause = true;
        if (l->reds[k].op != rc->op)
            hd_report(&r->d, HD_ERROR, rc->offset, rc->line, "'%s' is named in "
                      "reduction(%s: ...) but the statement on line %d combines with '%s'",
                      rc->name, hd_red_op_text(rc->op), l->reds[k].line,
                      hd_red_op_text(l->reds[k].op));
    }
}
