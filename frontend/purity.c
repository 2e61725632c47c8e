/*
 * purity.c — which functions a doall body may call: the helpers of
 * hyperdo/bits.h, the pure functions of math.h and complex.h, and the
 * functions of the translation unit that are pure, which is checked here
 * through their bodies and those of the functions they call, never
 * assumed (docs/annotations.md, "Calls").
 *
 * Pure means that a call's only effect is its value, and that the value
 * depends only on the arguments: run on any processor, at any iteration,
 * it gives what the sequential program's call gives there.  A processor's
 * copy of a file-scope variable is not the host's (under MPI every rank
 * has its own, which the host's sequential code never updates), so a pure
 * function reads no variable outside it that could change: only those
 * whose whole object is const, holds no pointer and is defined in the
 * translation unit (every copy holds its initialiser, and writing it is
 * undefined behaviour, C11 6.7.3p6).  It writes only its own automatic
 * variables and by-value parameters (no static locals at all), never
 * through a pointer, and takes no pointer: an argument could be a
 * distributed array, whose elements live elsewhere.  Recursion is
 * allowed: a function is pure when it is, supposing the calls that lead
 * back to it are (the greatest fixed point: a cycle of calls none of
 * which has an effect is pure).
 *
 * libclang 14 gives no operator kinds: an assignment is recognised by
 * its shape (its target is an lvalue, never an implicit conversion, as
 * in bodies.c), and ++, -- and unary * by their tokens; where a token
 * cannot be read (a macro wrote it), the reading that refuses more is
 * taken.
 */
#include "frontend_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A function's verdict: final (PURE, IMPURE), or conditional on the
 * functions still being checked (CHECKING: on the stack, supposed pure;
 * TENTATIVE: pure if they are). */
typedef enum { CHECKING, TENTATIVE, PURE, IMPURE } verdict;

struct purity_entry {
    CXCursor fn;               /* canonical cursor of the function */
    verdict v;
    char *why;                 /* IMPURE: "writes 'g', declared outside it (line 12)" */
};

/* The walk of one function's body. */
typedef struct {
    reader *r;
    CXCursor fn;               /* its definition */
    CXCursor canon;            /* its canonical cursor */
    char *why;                 /* the first reason it is not pure, or NULL */
} scan;

static verdict check_function(reader *r, CXCursor def, char **why);

/* ------------------------------------------------------- the entries */

static struct purity_entry *entry_of(reader *r, CXCursor canon)
{
    for (int k = 0; k < r->npurity; k++)
        if (clang_equalCursors(r->purity[k].fn, canon))
            return &r->purity[k];
    return NULL;
}

static struct purity_entry *add_entry(reader *r, CXCursor canon, verdict v)
{
    hd_xreserve(&r->purity, &r->purity_cap, r->npurity + 1, sizeof *r->purity);
    struct purity_entry *e = &r->purity[r->npurity++];
    e->fn = canon;
    e->v = v;
    e->why = NULL;
    return e;
}

void free_purity(reader *r)
{
    for (int k = 0; k < r->npurity; k++)
        free(r->purity[k].why);
    free(r->purity);
    r->purity = NULL;
    r->npurity = r->purity_cap = 0;
}

/* ----------------------------------------------------------- helpers */

static char *format(const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return hd_xstrdup(buf);
}

/* "line 12" in the input, "util.h:12" in a file it includes. */
static void where(reader *r, CXCursor c, char *buf, size_t size)
{
    CXFile f;
    unsigned line;
    clang_getExpansionLocation(clang_getCursorLocation(c), &f, &line, NULL, NULL);
    if (!f || clang_File_isEqual(f, r->file)) {
        snprintf(buf, size, "line %u", line);
        return;
    }
    CXString name = clang_getFileName(f);
    snprintf(buf, size, "%s:%u", clang_getCString(name), line);
    clang_disposeString(name);
}

/* Records the first reason only: "<what> (line L)", then ": <because>"
 * when there is more to say. */
static void impure(scan *s, CXCursor c, const char *because, const char *fmt, ...)
{
    if (s->why)
        return;
    char what[768], at[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    where(s->r, c, at, sizeof at);
    s->why = format("%s (%s)%s%s", what, at, because ? ": " : "", because ? because : "");
}

/* A cursor's children (the first 8; all counted). */
typedef struct {
    CXCursor kid[8];
    int n;
} cursor_kids;

static enum CXChildVisitResult collect_kid(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    cursor_kids *k = data;
    if (k->n < 8)
        k->kid[k->n] = c;
    k->n++;
    return CXChildVisit_Continue;
}

static cursor_kids kids(CXCursor c)
{
    cursor_kids k = { .n = 0 };
    clang_visitChildren(c, collect_kid, &k);
    return k;
}

static CXCursor strip_parens(CXCursor c)
{
    while (clang_getCursorKind(c) == CXCursor_ParenExpr) {
        cursor_kids k = kids(c);
        if (k.n != 1)
            break;
        c = k.kid[0];
    }
    return c;
}

/* Through implicit conversions too (an array decaying to a pointer). */
static CXCursor strip_conversions(CXCursor c)
{
    for (;;) {
        enum CXCursorKind kind = clang_getCursorKind(c);
        if (kind != CXCursor_ParenExpr && kind != CXCursor_UnexposedExpr)
            return c;
        cursor_kids k = kids(c);
        if (k.n != 1)
            return c;
        c = k.kid[0];
    }
}

static bool is_pointer(CXType t)
{
    enum CXTypeKind k = clang_getCanonicalType(t).kind;
    return k == CXType_Pointer || k == CXType_BlockPointer;
}

static bool is_array(CXType t)
{
    enum CXTypeKind k = clang_getCanonicalType(t).kind;
    return k == CXType_ConstantArray || k == CXType_IncompleteArray ||
           k == CXType_VariableArray || k == CXType_DependentSizedArray;
}

/* The spelling of token k of c's extent (k < 0: from the end), when c is
 * written in a file, not by a macro; "" otherwise. */
static void token_of(reader *r, CXCursor c, int k, char *buf, size_t size)
{
    buf[0] = '\0';
    CXSourceRange range = clang_getCursorExtent(c);
    CXSourceLocation ends[2] = { clang_getRangeStart(range), clang_getRangeEnd(range) };
    for (int e = 0; e < 2; e++) {
        CXFile ef, sf;
        unsigned eo, so;
        clang_getExpansionLocation(ends[e], &ef, NULL, NULL, &eo);
        clang_getSpellingLocation(ends[e], &sf, NULL, NULL, &so);
        if (!ef || !sf || !clang_File_isEqual(ef, sf) || eo != so)
            return;                   /* inside a macro's expansion */
    }
    CXToken *tokens = NULL;
    unsigned n = 0;
    clang_tokenize(r->tu, range, &tokens, &n);
    int at = k >= 0 ? k : (int)n + k;
    if (at >= 0 && (unsigned)at < n) {
        CXString t = clang_getTokenSpelling(r->tu, tokens[at]);
        snprintf(buf, size, "%s", clang_getCString(t));
        clang_disposeString(t);
    }
    clang_disposeTokens(r->tu, tokens, n);
}

/* The prefix or postfix operator of a unary operator node. */
static void unary_operator(reader *r, CXCursor c, char *op, size_t size)
{
    char first[16], last[16];
    token_of(r, c, 0, first, sizeof first);
    token_of(r, c, -1, last, sizeof last);
    op[0] = '\0';
    if (strcmp(last, "++") == 0 || strcmp(last, "--") == 0)
        snprintf(op, size, "%s", last);
    else if (first[0])
        snprintf(op, size, "%s", first);
}

/* Is the expression an lvalue as it stands (no conversion around it)?
 * Only then can an operator whose operand it is write it. */
static bool lvalue_shaped(CXCursor c)
{
    switch (clang_getCursorKind(c)) {
    case CXCursor_DeclRefExpr: case CXCursor_ArraySubscriptExpr:
    case CXCursor_MemberRefExpr: case CXCursor_UnaryOperator:
    case CXCursor_CompoundLiteralExpr:
        return true;
    case CXCursor_ParenExpr: {
        cursor_kids k = kids(c);
        return k.n == 1 && lvalue_shaped(k.kid[0]);
    }
    default:
        return false;
    }
}

/* ------------------------------------------------- the variables */

/* An automatic variable or parameter of the function being checked. */
static bool own_variable(scan *s, CXCursor decl)
{
    enum CXCursorKind k = clang_getCursorKind(decl);
    if (k != CXCursor_VarDecl && k != CXCursor_ParmDecl)
        return false;
    enum CX_StorageClass sc = clang_Cursor_getStorageClass(decl);
    if (sc == CX_SC_Static || sc == CX_SC_Extern)
        return false;
    CXCursor parent = clang_getCursorSemanticParent(decl);
    return clang_getCursorKind(parent) == CXCursor_FunctionDecl &&
           clang_equalCursors(clang_getCanonicalCursor(parent), s->canon);
}

static enum CXVisitorResult field_without_pointer(CXCursor field, CXClientData data);

/* Does the type hold no pointer and nothing volatile, and is all of it
 * const (need_const) or not asked? */
static bool fixed_type(CXType t, bool need_const)
{
    if (clang_isVolatileQualifiedType(t))
        return false;
    if (need_const && clang_isConstQualifiedType(t))
        need_const = false;               /* a const object: all of it */
    CXType c = clang_getCanonicalType(t);
    if (clang_isVolatileQualifiedType(c))
        return false;
    if (need_const && clang_isConstQualifiedType(c))
        need_const = false;
    switch (c.kind) {
    case CXType_Pointer: case CXType_BlockPointer: case CXType_FunctionProto:
    case CXType_FunctionNoProto: case CXType_Unexposed:
        return false;
    case CXType_ConstantArray: case CXType_IncompleteArray: case CXType_VariableArray:
        return fixed_type(clang_getArrayElementType(c), need_const);
    case CXType_Record: {
        if (need_const)
            return false;
        bool ok = true;
        clang_Type_visitFields(c, field_without_pointer, &ok);
        return ok;
    }
    default:
        return !need_const;
    }
}

static enum CXVisitorResult field_without_pointer(CXCursor field, CXClientData data)
{
    bool *ok = data;
    if (!fixed_type(clang_getCursorType(field), false)) {
        *ok = false;
        return CXVisit_Break;
    }
    return CXVisit_Continue;
}

/* A const object that holds pointers (`const char *const names[]`): all
 * of it const but for the pointers' targets. */
static bool const_pointers(CXCursor decl)
{
    /* (libclang 14 puts an array's qualifiers on the canonical array
     * type, and gives its element type without them.) */
    CXType t = clang_getCanonicalType(clang_getCursorType(decl));
    return clang_isConstQualifiedType(t) && !clang_isVolatileQualifiedType(t);
}

/* A variable from outside the function, named at c: fine when it is a
 * constant every processor's copy holds (const, no pointer, nothing
 * volatile, defined in the translation unit). */
static void outside_variable(scan *s, CXCursor c, CXCursor decl, bool written)
{
    char *name = spelling(decl);
    /* Defined here: a definition, or a file-scope declaration without
     * extern, which is one (a tentative definition, C11 6.9.2p2). */
    bool defined = !clang_Cursor_isNull(clang_getCursorDefinition(decl)) ||
                   (clang_Cursor_getStorageClass(decl) != CX_SC_Extern &&
                    clang_getCursorKind(clang_getCursorSemanticParent(decl)) ==
                        CXCursor_TranslationUnit);
    if (!written && fixed_type(clang_getCursorType(decl), true) && defined)
        ;
    else if (written)
        impure(s, c, NULL, "writes '%s', declared outside it", name);
    else if (clang_getCursorKind(clang_getCursorSemanticParent(decl)) == CXCursor_FunctionDecl &&
             clang_Cursor_getStorageClass(decl) == CX_SC_Static)
        impure(s, c, NULL, "reads '%s', a static variable", name);
    else if (fixed_type(clang_getCursorType(decl), true))
        impure(s, c, "its value cannot be checked to be a constant", "reads '%s', declared "
               "outside it and not defined in this file", name);
    else if (const_pointers(decl))
        impure(s, c, "what they point to may change", "reads '%s', declared outside "
               "it, which holds pointers", name);
    else
        impure(s, c, "each processor has a copy of its own, which the host's code "
               "does not update", "reads '%s', declared outside it and not a constant", name);
    free(name);
}

/*
 * The target of an assignment, ++ or -- (c):
 *
 *   target = own | own "." member | target "[" index "]"   (an array)
 *          | "(" target ")" | "__real__" target | "__imag__" target
 *
 * own an automatic variable or by-value parameter of the function.
 */
static void written(scan *s, CXCursor c)
{
    c = strip_parens(c);
    cursor_kids k = kids(c);
    switch (clang_getCursorKind(c)) {
    case CXCursor_DeclRefExpr: {
        CXCursor decl = clang_getCursorReferenced(c);
        enum CXCursorKind dk = clang_getCursorKind(decl);
        if ((dk == CXCursor_VarDecl || dk == CXCursor_ParmDecl) && !own_variable(s, decl))
            outside_variable(s, c, decl, true);
        return;                           /* (an enum constant: no lvalue) */
    }
    case CXCursor_ArraySubscriptExpr:
        for (int j = 0; j < k.n && j < 2; j++) {
            CXCursor base = strip_conversions(k.kid[j]);
            if (is_array(clang_getCursorType(base))) {
                written(s, base);
                return;
            }
        }
        impure(s, c, NULL, "writes through a pointer");
        return;
    case CXCursor_MemberRefExpr:
        if (k.n == 1 && !is_pointer(clang_getCursorType(k.kid[0]))) {
            written(s, k.kid[0]);
            return;
        }
        impure(s, c, NULL, "writes through a pointer");
        return;
    case CXCursor_UnaryOperator: {
        if (k.n != 1)
            return;
        char op[16];
        unary_operator(s->r, c, op, sizeof op);
        bool through = is_pointer(clang_getCursorType(k.kid[0]));
        if (strcmp(op, "*") == 0 || (!op[0] && through))
            impure(s, c, NULL, "writes through a pointer");
        else if ((!op[0] || strcmp(op, "__real__") == 0 || strcmp(op, "__imag__") == 0) &&
                 lvalue_shaped(k.kid[0]))
            written(s, k.kid[0]);
        return;                           /* -x, !p: no lvalue */
    }
    case CXCursor_CompoundLiteralExpr:    /* an object of its own, automatic */
    case CXCursor_CallExpr:               /* f(x).m: a value, no lvalue */
    case CXCursor_CStyleCastExpr:
    case CXCursor_ConditionalOperator:
    case CXCursor_BinaryOperator:
        return;
    default:
        impure(s, c, NULL, "writes something that is not one of its own variables");
        return;
    }
}

/* ----------------------------------------------------- the calls */

static bool is_pure_library(const char *name)
{
    static const char *const names[] = {
        /* math.h (C11 7.12), and abs of stdlib.h */
        "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh",
        "tanh", "asinh", "acosh", "atanh", "exp", "exp2", "expm1", "log",
        "log2", "log10", "log1p", "sqrt", "cbrt", "hypot", "pow", "fabs",
        "floor", "ceil", "round", "trunc", "rint", "nearbyint", "fmod",
        "remainder", "fmin", "fmax", "fdim", "fma", "copysign", "ldexp",
        "scalbn", "erf", "erfc", "tgamma", "lgamma", "abs", "labs", "llabs",
        /* complex.h (C11 7.3) */
        "creal", "cimag", "conj", "cabs", "carg", "cproj", "cexp", "clog",
        "csqrt", "cpow", "csin", "ccos", "ctan", "casin", "cacos", "catan",
        "csinh", "ccosh", "ctanh", "casinh", "cacosh", "catanh",
    };
    size_t n = strlen(name);
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        size_t m = strlen(names[k]);
        if (strcmp(name, names[k]) == 0 ||
            (n == m + 1 && strncmp(name, names[k], m) == 0 &&
             (name[m] == 'f' || name[m] == 'l')))
            return true;
    }
    return false;
}

/* The builtins math.h's classification and comparison macros and its
 * constants expand to (glibc: isnan(x) is __builtin_isnan(x), INFINITY
 * __builtin_inff()), and __builtin_expect: functions of their arguments. */
static bool is_pure_builtin(const char *name)
{
    static const char *const names[] = {
        "__builtin_inf", "__builtin_inff", "__builtin_infl", "__builtin_huge_val",
        "__builtin_huge_valf", "__builtin_huge_vall", "__builtin_nan",
        "__builtin_nanf", "__builtin_nanl", "__builtin_expect",
        "__builtin_isnan", "__builtin_isinf", "__builtin_isinf_sign",
        "__builtin_isfinite", "__builtin_isnormal", "__builtin_fpclassify",
        "__builtin_signbit", "__builtin_signbitf", "__builtin_signbitl",
        "__builtin_isgreater", "__builtin_isgreaterequal", "__builtin_isless",
        "__builtin_islessequal", "__builtin_islessgreater", "__builtin_isunordered",
    };
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (strcmp(name, names[k]) == 0)
            return true;
    return false;
}

static bool in_bits_h(CXCursor decl)
{
    CXFile f;
    clang_getSpellingLocation(clang_getCursorLocation(decl), &f, NULL, NULL, NULL);
    CXString fname = clang_getFileName(f);
    const char *fn = clang_getCString(fname);
    size_t fl = fn ? strlen(fn) : 0;
    bool ok = fl >= 14 && strcmp(fn + fl - 14, "hyperdo/bits.h") == 0;
    clang_disposeString(fname);
    return ok;
}

/* Does the function's definition hold a doall pragma? */
static bool holds_doall(reader *r, CXCursor def)
{
    bool b_main = true, e_main = true;
    unsigned b = cursor_start(r, def, &b_main), e = cursor_end(r, def, &e_main);
    if (!b_main || !e_main)
        return false;
    for (int k = 0; k < r->npragmas; k++)
        if (r->pragmas[k].kind == PRAGMA_DOALL && r->pragmas[k].offset >= b &&
            r->pragmas[k].offset < e)
            return true;
    return false;
}

/* Why a call of callee (a function declaration) is not pure, "calls ..."
 * or "is ..." as it reads after the callee's name; NULL when it is pure.
 * *def is the definition checked, or a null cursor for the library's. */
static char *callee_impurity(reader *r, CXCursor callee, CXCursor *def)
{
    *def = clang_getNullCursor();
    char *name = spelling(callee);
    int nargs;
    char *why = NULL;
    CXSourceLocation loc = clang_getCursorLocation(callee);
    /* A builtin is declared where it is first used, and defined nowhere. */
    bool builtin = strncmp(name, "__builtin_", 10) == 0 &&
                   clang_Cursor_isNull(clang_getCursorDefinition(callee));
    if (hd_helper_lookup(name, &nargs) >= 0 && in_bits_h(callee))
        ;
    else if (is_pure_library(name) && clang_Location_isInSystemHeader(loc))
        ;
    else if (is_pure_builtin(name) && builtin)
        ;
    else if (builtin)
        why = format("is a compiler builtin not known to be pure");
    else if (clang_Location_isInSystemHeader(loc))
        why = format("is a library function not known to be pure (only the "
                     "helpers of hyperdo/bits.h and the pure functions of math.h "
                     "and complex.h are)");
    else if (strcmp(name, "main") == 0)
        why = format("is the program's main");
    else {
        CXCursor d = clang_getCursorDefinition(callee);
        char at[256];
        where(r, callee, at, sizeof at);
        if (clang_Cursor_isNull(d))
            why = format("is only declared (%s), not defined in this file: its "
                         "body cannot be checked", at);
        else if (clang_Location_isInSystemHeader(clang_getCursorLocation(d)))
            why = format("is a library function not known to be pure (only the "
                         "helpers of hyperdo/bits.h and the pure functions of math.h "
                     "and complex.h are)");
        else if (check_function(r, d, &why) != IMPURE)
            *def = d;
    }
    free(name);
    return why;
}

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent, CXClientData data);

static void walk(scan *s, CXCursor c)
{
    clang_visitChildren(c, visit, s);
}

static void check_call(scan *s, CXCursor c)
{
    CXCursor callee = clang_getCursorReferenced(c);
    if (clang_getCursorKind(callee) != CXCursor_FunctionDecl) {
        impure(s, c, "the function called cannot be checked", "calls through a function pointer");
        return;
    }
    CXCursor def;
    char *why = callee_impurity(s->r, callee, &def);
    if (why) {
        char *name = spelling(callee);
        char at[256];
        where(s->r, c, at, sizeof at);
        /* "calls 'g' (line 20), which writes 'h', declared outside it (line 12)" */
        s->why = format("calls '%s' (%s), which %s", name, at, why);
        free(name);
        free(why);
    }
}

/* The body of the function being checked, a node at a time (and then its
 * children): what it writes, the variables it reads, what it calls. */
static enum CXChildVisitResult visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    scan *s = data;
    if (s->why)
        return CXChildVisit_Break;
    cursor_kids k;
    char op[16];
    switch (clang_getCursorKind(c)) {
    case CXCursor_VarDecl: {
        enum CX_StorageClass sc = clang_Cursor_getStorageClass(c);
        if (sc == CX_SC_Static) {
            char *name = spelling(c);
            impure(s, c, "it would keep its value from call to call, on each "
                   "processor apart", "declares '%s' static", name);
            free(name);
            return CXChildVisit_Break;
        }
        if (sc == CX_SC_Extern)
            return CXChildVisit_Continue;   /* a global: checked where named */
        break;
    }
    case CXCursor_DeclRefExpr: {
        CXCursor decl = clang_getCursorReferenced(c);
        enum CXCursorKind dk = clang_getCursorKind(decl);
        if ((dk == CXCursor_VarDecl || dk == CXCursor_ParmDecl) && !own_variable(s, decl))
            outside_variable(s, c, decl, false);
        return CXChildVisit_Continue;
    }
    case CXCursor_CallExpr:
        check_call(s, c);
        break;
    case CXCursor_BinaryOperator:
        /* An assignment (or a comma) when its left operand is an lvalue. */
        k = kids(c);
        if (k.n == 2 && lvalue_shaped(k.kid[0]))
            written(s, k.kid[0]);
        break;
    case CXCursor_CompoundAssignOperator:
        k = kids(c);
        if (k.n == 2)
            written(s, k.kid[0]);
        break;
    case CXCursor_UnaryOperator:
        k = kids(c);
        if (k.n != 1 || !lvalue_shaped(k.kid[0]))
            break;
        unary_operator(s->r, c, op, sizeof op);
        if (strcmp(op, "++") == 0 || strcmp(op, "--") == 0 || !op[0])
            written(s, k.kid[0]);
        break;
    case CXCursor_AsmStmt:
    case CXCursor_MSAsmStmt:
        impure(s, c, NULL, "holds inline assembly");
        break;
    default:
        break;
    }
    if (s->why)
        return CXChildVisit_Break;
    walk(s, c);
    return s->why ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* ------------------------------------------------- the functions */

static enum CXChildVisitResult find_body(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_CompoundStmt) {
        *(CXCursor *)data = c;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

static CXCursor body_of(CXCursor def)
{
    CXCursor body = clang_getNullCursor();
    clang_visitChildren(def, find_body, &body);
    return body;
}

/* The tokens of a definition's head, up to its body's '{' (comments
 * left out); *n of them, to dispose of with clang_disposeTokens. */
static CXToken *head_tokens(reader *r, CXCursor def, unsigned *n)
{
    CXToken *tokens = NULL;
    *n = 0;
    CXCursor body = body_of(def);
    if (clang_Cursor_isNull(body))
        return NULL;
    CXSourceRange head = clang_getRange(clang_getRangeStart(clang_getCursorExtent(def)),
                                        clang_getRangeStart(clang_getCursorExtent(body)));
    clang_tokenize(r->tu, head, &tokens, n);
    return tokens;
}

/* A definition with an identifier list and declarations of its parameters
 * (`double f(x) double x; { ... }`, C11 6.9.1p6), which has no prototype:
 * its head is no declaration to repeat. */
static bool old_style(reader *r, CXCursor def)
{
    unsigned n;
    CXToken *tokens = head_tokens(r, def, &n);
    bool found = false;
    for (unsigned t = 0; t < n && !found; t++) {
        CXString sp = clang_getTokenSpelling(r->tu, tokens[t]);
        found = strcmp(clang_getCString(sp), ";") == 0;
        clang_disposeString(sp);
    }
    if (tokens)
        clang_disposeTokens(r->tu, tokens, n);
    return found;
}

/* Its signature: parameters by value, without pointers. */
static void check_parameters(scan *s)
{
    CXType t = clang_getCursorType(s->fn);
    if (clang_isFunctionTypeVariadic(t)) {
        impure(s, s->fn, NULL, "takes a variable argument list");
        return;
    }
    int n = clang_Cursor_getNumArguments(s->fn);
    if (n > 0 && old_style(s->r, s->fn)) {
        impure(s, s->fn, NULL, "has an old-style definition without a prototype");
        return;
    }
    for (int a = 0; a < n; a++) {
        CXCursor p = clang_Cursor_getArgument(s->fn, (unsigned)a);
        CXType pt = clang_getCursorType(p);
        char *name = spelling(p);
        if (is_pointer(pt) || is_array(pt))
            impure(s, p, "the argument could be a distributed array, whose elements "
                   "are on other processors", "takes a pointer, '%s'", name);
        else if (!fixed_type(pt, false))
            impure(s, p, NULL, "takes '%s', which holds a pointer or something volatile", name);
        free(name);
        if (s->why)
            return;
    }
}

/* The verdict on the function defined at def (checked once, and again only
 * when a check it depended on failed), with the reason it is not pure. */
static verdict check_function(reader *r, CXCursor def, char **why)
{
    CXCursor canon = clang_getCanonicalCursor(def);
    struct purity_entry *e = entry_of(r, canon);
    *why = NULL;
    if (e && e->v == IMPURE) {
        *why = hd_xstrdup(e->why);
        return IMPURE;
    }
    if (e)
        return e->v;                      /* supposed pure while checked */
    int at = r->npurity;
    add_entry(r, canon, CHECKING);
    scan s = { .r = r, .fn = def, .canon = canon };
    check_parameters(&s);
    if (!s.why && holds_doall(r, def))
        impure(&s, def, NULL, "holds a doall loop");
    CXCursor body = body_of(def);
    if (!s.why && !clang_Cursor_isNull(body))
        walk(&s, body);
    e = &r->purity[at];
    if (s.why) {
        e->v = IMPURE;
        e->why = s.why;
        *why = hd_xstrdup(s.why);
        return IMPURE;
    }
    e->v = TENTATIVE;
    return TENTATIVE;
}

/* After a check from a doall body: verdicts that depended on functions
 * being checked become final if all of them were pure, and are forgotten
 * otherwise (they supposed something false). */
static void settle(reader *r, bool pure)
{
    int to = 0;
    for (int k = 0; k < r->npurity; k++) {
        struct purity_entry *e = &r->purity[k];
        if (e->v == TENTATIVE || e->v == CHECKING) {
            if (!pure)
                continue;
            e->v = PURE;
        }
        r->purity[to++] = *e;
    }
    r->npurity = to;
}

/* --------------------------------------------- calls in doall bodies */

/* The declaration of a pure function of the file that the node code must
 * repeat: the call sees a declaration that is not at file scope before
 * the function holding the doall (a block-scope one, or an implicit one),
 * where the node functions are written (docs/codegen.md).  It is the
 * definition's own header, its tokens and so its storage class and
 * `inline` as written (C11 6.7.4p7: a prototype must not make an inline
 * definition an external one). */
static void note_prototype(reader *r, CXCursor visible, CXCursor def)
{
    hd_loop *l = r->loop;
    if (!l)
        return;
    bool in_main = true;
    unsigned at = offset_of(r, clang_getCursorLocation(visible), &in_main);
    if (!in_main || at < l->func_begin || !r->opt->host_code)
        return;
    bool def_in_main = true;
    if (cursor_start(r, def, &def_in_main) < l->func_begin && def_in_main)
        return;                           /* defined before: seen there */
    unsigned n;
    CXToken *tokens = head_tokens(r, def, &n);
    if (!tokens)
        return;
    size_t cap = 64, len = 0;
    char *text = hd_xmalloc(cap);
    text[0] = '\0';
    for (unsigned t = 0; t < n; t++) {
        CXString sp = clang_getTokenSpelling(r->tu, tokens[t]);
        const char *tok = clang_getCString(sp);
        if (strcmp(tok, "{") != 0 && clang_getTokenKind(tokens[t]) != CXToken_Comment) {
            size_t m = strlen(tok);
            if (len + m + 3 > cap) {
                cap = 2 * (len + m + 3);
                text = hd_xrealloc(text, cap);
            }
            if (len)
                text[len++] = ' ';
            memcpy(text + len, tok, m + 1);
            len += m;
        }
        clang_disposeString(sp);
    }
    clang_disposeTokens(r->tu, tokens, n);
    memcpy(text + len, ";", 2);
    for (int k = 0; k < l->nprotos; k++)
        if (strcmp(l->protos[k], text) == 0) {
            free(text);
            return;
        }
    l->protos = hd_xrealloc(l->protos, (size_t)(l->nprotos + 1) * sizeof *l->protos);
    l->protos[l->nprotos++] = text;
}

void check_body_call(reader *r, CXCursor call)
{
    CXCursor callee = clang_getCursorReferenced(call);
    if (clang_getCursorKind(callee) != CXCursor_FunctionDecl) {
        error_at(r, call, "a doall body may call only pure functions; this is "
                 "a call through a function pointer, which cannot be checked");
        return;
    }
    CXCursor def;
    char *why = callee_impurity(r, callee, &def);
    settle(r, why == NULL);
    char *name = spelling(callee);
    if (why) {
        bool calls = strncmp(why, "is ", 3) != 0;
        error_at(r, call, "a doall body may call only pure functions, and '%s' %s%s",
                 name, calls ? "is not: it " : "", why);
    } else if (!clang_Cursor_isNull(def)) {
        note_prototype(r, callee, def);
    }
    free(name);
    free(why);
}
