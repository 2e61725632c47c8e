/*
 * index_exprs.c — the index expression (hd_expr, expr.c) of a recorded node:
 * integer types, constants clang folds, the operators of C an index may
 * use, the helpers of hyperdo/bits.h; anything else is opaque, with the
 * reason it cannot be analysed.
 */
#include "frontend_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool integer_type_of(CXType t, int *bits, bool *is_signed);

/* An integer type's width and signedness; false for other types. */
bool integer_type(CXType t, int *bits, bool *is_signed)
{
    t = clang_getCanonicalType(t);
    return integer_type_of(t, bits, is_signed);
}

/* The same, remembered: an index has few types but many nodes. */
static bool integer_type_cached(reader *r, CXType t, int *bits, bool *is_signed)
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
bool evaluate(CXCursor c, long long *value)
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

static hd_expr *opaque_expr(int bits, bool is_signed, const char *fmt, const char *arg)
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

static bool fold_constant(hd_expr *e)
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

static hd_expr *constant_expr(int bits, bool sg, long long value)
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

static hd_expr *expr_with_kids(reader *r, hd_expr *e, const int *kids, int n)
{
    if (!e)
        return NULL;
    for (int k = 0; k < n; k++) {
        e->kid[k] = expr_of(r, kids[k]);
        if (!e->kid[k]) {
            hd_expr_free(e);
            return NULL;
        }
        e->nkids = k + 1;
    }
    fold_constant(e);
    return e;
}

/* The node of call x's argument a: the callee comes first among a call's
 * children, the arguments after it in order. */
static int call_argument(reader *r, int x, int a)
{
    children kids = kids_of(r, x);
    CXCursor arg = clang_Cursor_getArgument(cursor_of(r, x), (unsigned)a);
    if (a + 1 < kids.n && a + 1 < 8 && clang_equalCursors(cursor_of(r, kids.kid[a + 1]), arg))
        return kids.kid[a + 1];
    return record_tree(r, arg);   /* not seen that way: recorded apart */
}

static hd_expr *call_expr(reader *r, int x, int bits, bool sg)
{
    CXCursor c = cursor_of(r, x);
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
                if ((args[a] = call_argument(r, x, a)) < 0)
                    nargs = -1;
            e = nargs >= 0 ? hd_expr_new(HD_EX_CALL, bits, sg) : NULL;
            if (e)
                e->helper = (hd_helper)h;
            free(name);
            return expr_with_kids(r, e, args, nargs);
        }
    }
    /* A pure function of the program or the library (purity.c checks the
     * call): evaluated when the loop runs, a general communication. */
    e = opaque_expr(bits, sg, "the index calls '%s', whose value is known only when "
                    "the loop runs: of the calls, only the helpers of hyperdo/bits.h "
                    "are read as GF(2) maps", name && *name ? name : "a function");
    free(name);
    return e;
}

/* s.m, s.t.m: a member, through '.' only, of a variable declared outside
 * the loop, which the body cannot change (its value is shipped whole,
 * docs/codegen.md), so it is the same at every iteration. */
static bool outer_member(reader *r, int x)
{
    while (kind_of(r, x) == CXCursor_MemberRefExpr) {
        children kids = kids_of(r, x);
        if (kids.n != 1)
            return false;
        x = strip_wrappers(r, kids.kid[0]);
        enum CXTypeKind t = clang_getCanonicalType(clang_getCursorType(cursor_of(r, x))).kind;
        if (t != CXType_Record)
            return false;   /* p->m: the body may not read through a pointer */
    }
    if (kind_of(r, x) != CXCursor_DeclRefExpr)
        return false;
    CXCursor decl = clang_getCursorReferenced(cursor_of(r, x));
    return clang_getCursorKind(decl) == CXCursor_VarDecl && !is_local(r, decl) &&
           !clang_equalCursors(decl, r->loop_var);
}

/* libclang 14 gives no operator kinds, and an operator a macro writes has
 * no text of its own in the file to read one from. */
static hd_expr *macro_operator_expr(int bits, bool sg)
{
    return opaque_expr(bits, sg, "%s", "an operator inside a macro body cannot be "
                       "read (libclang 14 gives no operator kinds); write the index "
                       "without the macro, or use a helper of hyperdo/bits.h");
}

/* The index expression tree of node x. */
hd_expr *expr_of(reader *r, int x)
{
    int bits = 64;
    bool sg = true;
    long long value;
    CXCursor c = cursor_of(r, x);
    enum CXCursorKind kind = kind_of(r, x);
    if (!integer_type_cached(r, clang_getCursorType(c), &bits, &sg))
        return opaque_expr(64, true, "%s is not an integer", "the value");
    children kids = kids_of(r, x);
    char op[16];
    bool postfix;
    hd_expr *e;

    switch (kind) {
    case CXCursor_ParenExpr:
        if (kids.n == 1)
            return expr_of(r, kids.kid[0]);
        break;
    case CXCursor_UnexposedExpr:
    case CXCursor_CStyleCastExpr:
        /* An implicit or explicit conversion: its operand is the last kid
         * (a cast's first kid may name the type). */
        if (kids.n >= 1) {
            e = hd_expr_new(HD_EX_CAST, bits, sg);
            return expr_with_kids(r, e, &kids.kid[kids.n - 1], 1);
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
            return constant_expr(bits, sg, value);
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
            return expr_with_kids(r, e, kids.kid, 1);
        if (!op[0])
            return macro_operator_expr(bits, sg);
        return opaque_expr(bits, sg, "unary '%s' is not supported in an index", op);
    case CXCursor_BinaryOperator:
        if (kids.n != 2)
            break;
        operator_text(r, &kids, op, sizeof op);
        if (!op[0] && evaluate(c, &value))
            return constant_expr(bits, sg, value);   /* e.g. a macro's (N - 1) */
        for (size_t k = 0; k < sizeof binary_ops / sizeof binary_ops[0]; k++)
            if (strcmp(op, binary_ops[k].text) == 0) {
                e = hd_expr_new(HD_EX_BINARY, bits, sg);
                e->op = binary_ops[k].op;
                return expr_with_kids(r, e, kids.kid, 2);
            }
        if (!op[0])
            return macro_operator_expr(bits, sg);
        return opaque_expr(bits, sg, "operator '%s' is not supported in an index", op);
    case CXCursor_ConditionalOperator:
        if (kids.n == 3)
            return expr_with_kids(r, hd_expr_new(HD_EX_COND, bits, sg), kids.kid, 3);
        break;
    case CXCursor_CallExpr:
        return call_expr(r, x, bits, sg);
    case CXCursor_ArraySubscriptExpr: {
        int base = strip_wrappers(r, kids.n ? kids.kid[0] : x);
        char *name = spelling(clang_getCursorReferenced(cursor_of(r, base)));
        e = opaque_expr(bits, sg, "the index depends on the contents of '%s'",
                        name && *name ? name : "an array");
        free(name);
        return e;
    }
    default:
        break;
    }
    if (evaluate(c, &value))
        return constant_expr(bits, sg, value);
    if (kind == CXCursor_MemberRefExpr && outer_member(r, x)) {
        char *name = source_text(r, x);
        e = opaque_expr(bits, sg, "the index depends on '%s', which is not a "
                        "compile-time constant", name ? name : "?");
        if (e)
            e->invariant = true;   /* a member of an outer structure, shipped by value */
        free(name);
        return e;
    }
    if (kind == CXCursor_DeclRefExpr) {
        char *name = spelling(c);
        int var = inner_variable(r, clang_getCursorReferenced(c));
        if (var) {
            e = opaque_expr(bits, sg, "the index depends on '%s', the variable of an "
                            "inner loop", name ? name : "?");
            if (e)
                e->var = var, e->body_local = true;
        } else if (is_local(r, clang_getCursorReferenced(c))) {
            e = opaque_expr(bits, sg, "the index depends on '%s', a variable of the "
                            "loop body; write its expression into the index to have "
                            "it analysed", name ? name : "?");
            if (e)
                e->body_local = true;
        }
        else {
            e = opaque_expr(bits, sg, "the index depends on '%s', which is not a "
                            "compile-time constant", name ? name : "?");
            if (e) {
                e->invariant = true;   /* an outer variable: the body cannot write it */
                e->decl = declaration_mark(r, clang_getCursorReferenced(c));
            }
        }
        free(name);
        return e;
    }
    return opaque_expr(bits, sg, "%s", "this kind of expression is not supported in an index");
}
