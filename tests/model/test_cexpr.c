/*
 * test_cexpr.c — index expressions (frontend/expr.c): hd_expr_affine's
 * GF(2)-affine map of the loop variable's bits, and hd_expr_eval.
 *
 * Trees are built here with a small DSL that applies C's conversion rules
 * the way clang's AST does (integer promotions, the usual arithmetic
 * conversions, the helpers' parameter types), so every tree is one a C
 * index expression could give:
 *
 *     C(v)  CT(type, v)  CUL(v)    constants (int, any type, unsigned long)
 *     I()   IT(type)               the loop variable (int, or another type)
 *     BIN(op, a, b)  UN(op, a)  COND(c, a, b)  CALL(helper, x, ...)
 *     CAST(bits, signed, a)        an explicit conversion
 *     OPAQUE(reason)
 *
 * Nothing is compared with the library's own output.  The expected values
 * come from ref_eval below, a separate evaluator that does plain C
 * arithmetic on int / unsigned / long / unsigned long as each node's type
 * says and calls the real helpers of runtime/include/hyperdo/bits.h.  The
 * expected affine map comes from brute force over all i in [0, 2^k):
 * c = f(0), column j = f(2^j) ^ f(0), and the function is affine exactly
 * when f(i) = c ^ XOR_{j: i_j = 1} column_j for every i.
 *
 * The reference's C semantics: C11 throughout, plus two-complement
 * wrap-around on signed overflow of + - * << and unary - (what every
 * compiler Hyperdo targets does; hd_expr documents values as wrapped C
 * integers), arithmetic >> on negative signed values (GCC and clang
 * define it so).  Undefined: shifts by a negative amount or >= the width of
 * the promoted left operand, / and % by zero, and / or % whose quotient
 * overflows (INT_MIN / -1).
 */
#include "testutil.h"

#include "frontend.h"

#include <hyperdo/bits.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(short) == 2 && sizeof(int) == 4 && sizeof(long) == 8,
               "the reference evaluator assumes LP64");

/* ------------------------------------------------------------ C types */

typedef struct {
    int bits;      /* 1 (_Bool), 8, 16, 32, 64 */
    bool sg;
} ctype;

static ctype ty(int bits, bool sg)
{
    ctype t = { bits, sg };
    return t;
}

#define T_BOOL ty(1, false)
#define T_SCHAR ty(8, true)
#define T_UCHAR ty(8, false)
#define T_SHORT ty(16, true)
#define T_USHORT ty(16, false)
#define T_INT ty(32, true)
#define T_UINT ty(32, false)
#define T_LONG ty(64, true)
#define T_ULONG ty(64, false)

static bool same_type(ctype a, ctype b)
{
    return a.bits == b.bits && a.sg == b.sg;
}

/* Integer promotions: every type narrower than int fits in int. */
static ctype promote(ctype t)
{
    return t.bits < 32 ? T_INT : t;
}

/* The usual arithmetic conversions (C11 6.3.1.8) for these types. */
static ctype common_type(ctype a, ctype b)
{
    a = promote(a);
    b = promote(b);
    if (same_type(a, b))
        return a;
    if (a.sg == b.sg)
        return a.bits > b.bits ? a : b;
    ctype u = a.sg ? b : a, s = a.sg ? a : b;
    if (u.bits >= s.bits)
        return u;
    return s;    /* wider signed type: holds every value of u */
}

static const char *type_name(ctype t)
{
    switch (t.bits) {
    case 1: return "_Bool";
    case 8: return t.sg ? "signed char" : "unsigned char";
    case 16: return t.sg ? "short" : "unsigned short";
    case 32: return t.sg ? "int" : "unsigned";
    default: return t.sg ? "long" : "unsigned long";
    }
}

/* ---------------------------------------------------- reference values */

/* A value of one of the types above, as C holds it: s when signed, u when
 * unsigned. */
typedef struct {
    ctype t;
    long long s;
    unsigned long long u;
} rv;

static rv rv_signed(ctype t, long long s)
{
    rv r = { t, s, 0 };
    return r;
}

static rv rv_unsigned(ctype t, unsigned long long u)
{
    rv r = { t, 0, u };
    return r;
}

/* C's conversion of the value v to type t (6.3.1.2, 6.3.1.3). */
#define CONVERT_TO(t, r, v)                                               \
    do {                                                                  \
        switch ((t).bits) {                                               \
        case 1: (r).u = (_Bool)(v); break;                                \
        case 8:                                                           \
            if ((t).sg) (r).s = (signed char)(v);                         \
            else (r).u = (unsigned char)(v);                              \
            break;                                                        \
        case 16:                                                          \
            if ((t).sg) (r).s = (short)(v);                               \
            else (r).u = (unsigned short)(v);                             \
            break;                                                        \
        case 32:                                                          \
            if ((t).sg) (r).s = (int)(v);                                 \
            else (r).u = (unsigned)(v);                                   \
            break;                                                        \
        default:                                                          \
            if ((t).sg) (r).s = (long)(v);                                \
            else (r).u = (unsigned long)(v);                              \
            break;                                                        \
        }                                                                 \
    } while (0)

static rv conv(rv x, ctype t)
{
    rv r = { t, 0, 0 };
    if (x.t.sg)
        CONVERT_TO(t, r, x.s);
    else
        CONVERT_TO(t, r, x.u);
    return r;
}

/* The value in 64 bits, sign- or zero-extended (hd_expr's convention). */
static uint64_t held(rv x)
{
    return x.t.sg ? (uint64_t)x.s : (uint64_t)x.u;
}

static bool truth(rv x)
{
    return x.t.sg ? x.s != 0 : x.u != 0;
}

/* + - * / % & | ^ on one of int, unsigned, long, unsigned long; false when
 * undefined.  Signed + - * wrap (computed in the unsigned type). */
#define DEFINE_ARITH(NAME, T, UT, IS_SIGNED, MIN)                         \
    static bool NAME(hd_op op, T a, T b, T *r)                            \
    {                                                                     \
        switch (op) {                                                     \
        case HD_OP_ADD: *r = (T)((UT)a + (UT)b); return true;             \
        case HD_OP_SUB: *r = (T)((UT)a - (UT)b); return true;             \
        case HD_OP_MUL: *r = (T)((UT)a * (UT)b); return true;             \
        case HD_OP_DIV:                                                   \
        case HD_OP_MOD:                                                   \
            if (b == 0 || (IS_SIGNED && a == (MIN) && b == (T)-1))        \
                return false;                                             \
            *r = op == HD_OP_DIV ? a / b : a % b;                         \
            return true;                                                  \
        case HD_OP_AND: *r = a & b; return true;                          \
        case HD_OP_OR: *r = a | b; return true;                           \
        case HD_OP_XOR: *r = a ^ b; return true;                          \
        default: break;                                                   \
        }                                                                 \
        fail();                                                           \
        return false;                                                     \
    }

DEFINE_ARITH(arith_int, int, unsigned, 1, INT_MIN)
DEFINE_ARITH(arith_uint, unsigned, unsigned, 0, 0U)
DEFINE_ARITH(arith_long, long, unsigned long, 1, LONG_MIN)
DEFINE_ARITH(arith_ulong, unsigned long, unsigned long, 0, 0UL)

#define DEFINE_SHIFT(NAME, T, UT)                                         \
    static T NAME(hd_op op, T a, int n)                                   \
    {                                                                     \
        return op == HD_OP_SHL ? (T)((UT)a << n) : (T)(a >> n);           \
    }

DEFINE_SHIFT(shift_int, int, unsigned)
DEFINE_SHIFT(shift_uint, unsigned, unsigned)
DEFINE_SHIFT(shift_long, long, unsigned long)
DEFINE_SHIFT(shift_ulong, unsigned long, unsigned long)

#define DEFINE_COMPARE(NAME, T)                                           \
    static int NAME(hd_op op, T a, T b)                                   \
    {                                                                     \
        switch (op) {                                                     \
        case HD_OP_LT: return a < b;                                      \
        case HD_OP_GT: return a > b;                                      \
        case HD_OP_LE: return a <= b;                                     \
        case HD_OP_GE: return a >= b;                                     \
        case HD_OP_EQ: return a == b;                                     \
        case HD_OP_NE: return a != b;                                     \
        default: break;                                                   \
        }                                                                 \
        fail();                                                           \
        return 0;                                                         \
    }

DEFINE_COMPARE(compare_int, int)
DEFINE_COMPARE(compare_uint, unsigned)
DEFINE_COMPARE(compare_long, long)
DEFINE_COMPARE(compare_ulong, unsigned long)

/* a op b in type t (32 or 64 bits, after promotion). */
static bool ref_arith(hd_op op, rv a, rv b, ctype t, rv *out)
{
    a = conv(a, t);
    b = conv(b, t);
    *out = rv_signed(t, 0);
    if (t.bits == 32 && t.sg) {
        int v;
        if (!arith_int(op, (int)a.s, (int)b.s, &v))
            return false;
        out->s = v;
    } else if (t.bits == 32) {
        unsigned v;
        if (!arith_uint(op, (unsigned)a.u, (unsigned)b.u, &v))
            return false;
        out->u = v;
    } else if (t.sg) {
        long v;
        if (!arith_long(op, (long)a.s, (long)b.s, &v))
            return false;
        out->s = v;
    } else {
        unsigned long v;
        if (!arith_ulong(op, (unsigned long)a.u, (unsigned long)b.u, &v))
            return false;
        out->u = v;
    }
    return true;
}

/* a << n or a >> n, a already of the promoted left type t. */
static bool ref_shift(hd_op op, rv a, rv amount, ctype t, rv *out)
{
    if (amount.t.sg ? (amount.s < 0 || amount.s >= t.bits)
                    : amount.u >= (unsigned long long)t.bits)
        return false;
    int n = (int)(amount.t.sg ? amount.s : (long long)amount.u);
    a = conv(a, t);
    *out = rv_signed(t, 0);
    if (t.bits == 32 && t.sg)
        out->s = shift_int(op, (int)a.s, n);
    else if (t.bits == 32)
        out->u = shift_uint(op, (unsigned)a.u, n);
    else if (t.sg)
        out->s = shift_long(op, (long)a.s, n);
    else
        out->u = shift_ulong(op, (unsigned long)a.u, n);
    return true;
}

static int ref_compare(hd_op op, rv a, rv b)
{
    ctype t = common_type(a.t, b.t);
    a = conv(a, t);
    b = conv(b, t);
    if (t.bits == 32 && t.sg)
        return compare_int(op, (int)a.s, (int)b.s);
    if (t.bits == 32)
        return compare_uint(op, (unsigned)a.u, (unsigned)b.u);
    if (t.sg)
        return compare_long(op, (long)a.s, (long)b.s);
    return compare_ulong(op, (unsigned long)a.u, (unsigned long)b.u);
}

static rv ref_not(rv a)
{
    if (a.t.bits == 32 && a.t.sg)
        return rv_signed(a.t, ~(int)a.s);
    if (a.t.bits == 32)
        return rv_unsigned(a.t, ~(unsigned)a.u);
    if (a.t.sg)
        return rv_signed(a.t, ~(long)a.s);
    return rv_unsigned(a.t, ~(unsigned long)a.u);
}

static bool ref_eval(const hd_expr *e, uint64_t i, rv *out);

/* The helpers of hyperdo/bits.h, called for real. */
static bool ref_call(const hd_expr *e, uint64_t i, rv *out)
{
    rv a[3];
    for (int k = 0; k < e->nkids; k++)
        if (!ref_eval(e->kid[k], i, &a[k]))
            return false;
    unsigned long x = (unsigned long)conv(a[0], T_ULONG).u, v = 0;
    int p = e->nkids > 1 ? (int)conv(a[1], T_INT).s : 0;
    int q = e->nkids > 2 ? (int)conv(a[2], T_INT).s : 0;
    switch (e->helper) {
    case HD_HELPER_REVERSE: v = reverse(x, p); break;
    case HD_HELPER_GRAY: v = gray(x); break;
    case HD_HELPER_ROTL: v = rotl(x, p, q); break;
    case HD_HELPER_ROTR: v = rotr(x, p, q); break;
    case HD_HELPER_SHUFFLE: v = shuffle(x, p); break;
    case HD_HELPER_UNSHUFFLE: v = unshuffle(x, p); break;
    case HD_HELPER_TRANSPOSE: v = transpose(x, p); break;
    case HD_HELPER_BIT: v = bit(x, p); break;
    }
    *out = conv(rv_unsigned(T_ULONG, v), ty(e->bits, e->is_signed));
    return true;
}

/* The value of e at iteration i; false when C leaves it undefined (or it
 * is OPAQUE). */
static bool ref_eval(const hd_expr *e, uint64_t i, rv *out)
{
    ctype t = ty(e->bits, e->is_signed);
    rv a, b;
    switch (e->kind) {
    case HD_EX_CONST:
        *out = conv(t.sg ? rv_signed(T_LONG, (long long)e->value)
                         : rv_unsigned(T_ULONG, e->value), t);
        return true;
    case HD_EX_INDEX:
        *out = conv(rv_unsigned(T_ULONG, i), t);
        return true;
    case HD_EX_CAST:
        if (!ref_eval(e->kid[0], i, &a))
            return false;
        *out = conv(a, t);
        return true;
    case HD_EX_UNARY:
        if (!ref_eval(e->kid[0], i, &a))
            return false;
        switch (e->op) {
        case HD_OP_LNOT:
            *out = conv(rv_signed(T_INT, !truth(a)), t);
            return true;
        case HD_OP_PLUS:
            *out = conv(a, t);
            return true;
        case HD_OP_NOT:
            *out = ref_not(conv(a, t));
            return true;
        case HD_OP_NEG:
            return ref_arith(HD_OP_SUB, rv_signed(T_INT, 0), a, t, out);
        default:
            fail();
            return false;
        }
    case HD_EX_BINARY:
        if (!ref_eval(e->kid[0], i, &a))
            return false;
        if (e->op == HD_OP_LAND || e->op == HD_OP_LOR) {
            bool v = truth(a);
            if (v == (e->op == HD_OP_LOR)) {
                *out = conv(rv_signed(T_INT, v), t);
                return true;
            }
            if (!ref_eval(e->kid[1], i, &b))
                return false;
            *out = conv(rv_signed(T_INT, truth(b)), t);
            return true;
        }
        if (!ref_eval(e->kid[1], i, &b))
            return false;
        switch (e->op) {
        case HD_OP_SHL:
        case HD_OP_SHR:
            return ref_shift(e->op, a, b, t, out);
        case HD_OP_LT: case HD_OP_GT: case HD_OP_LE: case HD_OP_GE:
        case HD_OP_EQ: case HD_OP_NE:
            *out = conv(rv_signed(T_INT, ref_compare(e->op, a, b)), t);
            return true;
        default:
            return ref_arith(e->op, a, b, t, out);
        }
    case HD_EX_COND:
        if (!ref_eval(e->kid[0], i, &a) ||
            !ref_eval(e->kid[truth(a) ? 1 : 2], i, &b))
            return false;
        *out = conv(b, t);
        return true;
    case HD_EX_CALL:
        return ref_call(e, i, out);
    case HD_EX_OPAQUE:
        /* An outer variable of test_random_family: the value the test
         * gave it for this run. */
        if (!e->invariant)
            return false;
        *out = conv(t.sg ? rv_signed(T_LONG, (long long)e->value)
                         : rv_unsigned(T_ULONG, e->value), t);
        return true;
    }
    return false;
}

/* ------------------------------------------------------------ the DSL */

static hd_expr *node(hd_expr_kind kind, ctype t)
{
    hd_expr *e = hd_expr_new(kind, t.bits, t.sg);
    if (!e) {
        fprintf(stderr, "out of memory\n");
        abort();
    }
    return e;
}

static ctype type_of(const hd_expr *e)
{
    return ty(e->bits, e->is_signed);
}

static void add_kid(hd_expr *e, hd_expr *kid)
{
    e->kid[e->nkids++] = kid;
}

/* An explicit conversion (a cast written in the source). */
static hd_expr *CASTT(ctype t, hd_expr *a)
{
    hd_expr *e = node(HD_EX_CAST, t);
    add_kid(e, a);
    return e;
}

static hd_expr *CAST(int bits, bool is_signed, hd_expr *a)
{
    return CASTT(ty(bits, is_signed), a);
}

/* An implicit conversion, present only when the type changes. */
static hd_expr *implicit(hd_expr *a, ctype t)
{
    return same_type(type_of(a), t) ? a : CASTT(t, a);
}

/* The constant v (a long long value) converted to type t. */
static hd_expr *CT(ctype t, long long v)
{
    hd_expr *e = node(HD_EX_CONST, t);
    e->value = held(conv(rv_signed(T_LONG, v), t));
    return e;
}

static hd_expr *C(long long v)
{
    return CT(T_INT, v);
}

static hd_expr *CUL(unsigned long long v)
{
    hd_expr *e = node(HD_EX_CONST, T_ULONG);
    e->value = v;
    return e;
}

static hd_expr *IT(ctype t)
{
    return node(HD_EX_INDEX, t);
}

static hd_expr *I(void)
{
    return IT(T_INT);
}

static bool is_comparison(hd_op op)
{
    return op == HD_OP_LT || op == HD_OP_GT || op == HD_OP_LE ||
           op == HD_OP_GE || op == HD_OP_EQ || op == HD_OP_NE;
}

static hd_expr *BIN(hd_op op, hd_expr *a, hd_expr *b)
{
    ctype t;
    hd_expr *e;
    if (op == HD_OP_LAND || op == HD_OP_LOR) {
        e = node(HD_EX_BINARY, T_INT);
    } else if (op == HD_OP_SHL || op == HD_OP_SHR) {
        /* Each operand is promoted on its own; the result has the left's
         * promoted type. */
        t = promote(type_of(a));
        e = node(HD_EX_BINARY, t);
        a = implicit(a, t);
        b = implicit(b, promote(type_of(b)));
    } else if (is_comparison(op)) {
        t = common_type(type_of(a), type_of(b));
        e = node(HD_EX_BINARY, T_INT);
        a = implicit(a, t);
        b = implicit(b, t);
    } else {
        t = common_type(type_of(a), type_of(b));
        e = node(HD_EX_BINARY, t);
        a = implicit(a, t);
        b = implicit(b, t);
    }
    e->op = op;
    add_kid(e, a);
    add_kid(e, b);
    return e;
}

static hd_expr *UN(hd_op op, hd_expr *a)
{
    ctype t = op == HD_OP_LNOT ? T_INT : promote(type_of(a));
    hd_expr *e = node(HD_EX_UNARY, t);
    e->op = op;
    add_kid(e, op == HD_OP_LNOT ? a : implicit(a, t));
    return e;
}

static hd_expr *COND(hd_expr *c, hd_expr *a, hd_expr *b)
{
    ctype t = common_type(type_of(a), type_of(b));
    hd_expr *e = node(HD_EX_COND, t);
    add_kid(e, c);
    add_kid(e, implicit(a, t));
    add_kid(e, implicit(b, t));
    return e;
}

static int helper_arity(hd_helper h)
{
    switch (h) {
    case HD_HELPER_GRAY: return 1;
    case HD_HELPER_ROTL: case HD_HELPER_ROTR: return 3;
    default: return 2;
    }
}

static const char *helper_name(hd_helper h)
{
    static const char *const names[] = {
        "reverse", "gray", "rotl", "rotr", "shuffle", "unshuffle",
        "transpose", "bit",
    };
    return names[h];
}

/* helper(x, ...): x converted to unsigned long, the others to int, as the
 * prototypes of hyperdo/bits.h say. */
static hd_expr *CALL(hd_helper h, hd_expr *x, ...)
{
    va_list ap;
    hd_expr *e = node(HD_EX_CALL, T_ULONG);
    e->helper = h;
    add_kid(e, implicit(x, T_ULONG));
    va_start(ap, x);
    for (int k = 1; k < helper_arity(h); k++)
        add_kid(e, implicit(va_arg(ap, hd_expr *), T_INT));
    va_end(ap);
    return e;
}

static hd_expr *OPAQUE(const char *reason)
{
    hd_expr *e = node(HD_EX_OPAQUE, T_INT);
    e->reason = malloc(strlen(reason) + 1);
    if (!e->reason)
        abort();
    strcpy(e->reason, reason);
    return e;
}

/* ------------------------------------------------------------ printing */

typedef struct {
    char s[4096];
    size_t n;
} text;

__attribute__((format(printf, 2, 3)))
static void put(text *t, const char *fmt, ...)
{
    va_list ap;
    if (t->n >= sizeof t->s - 1)
        return;
    va_start(ap, fmt);
    int w = vsnprintf(t->s + t->n, sizeof t->s - t->n, fmt, ap);
    va_end(ap);
    if (w > 0)
        t->n += (size_t)w < sizeof t->s - t->n ? (size_t)w : sizeof t->s - t->n - 1;
}

static const char *op_text(hd_op op)
{
    static const char *const names[] = {
        "+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "<", ">", "<=",
        ">=", "==", "!=", "&&", "||", "-", "+", "~", "!",
    };
    return names[op];
}

/* e as C text; implicit conversions show as casts. */
static void show(text *t, const hd_expr *e)
{
    ctype ct = type_of(e);
    switch (e->kind) {
    case HD_EX_CONST:
        if (same_type(ct, T_INT))
            put(t, "%lld", (long long)e->value);
        else if (ct.sg)
            put(t, "(%s)%lld", type_name(ct), (long long)e->value);
        else
            put(t, "(%s)%llu", type_name(ct), (unsigned long long)e->value);
        break;
    case HD_EX_INDEX:
        if (same_type(ct, T_INT))
            put(t, "i");
        else
            put(t, "i:%s", type_name(ct));
        break;
    case HD_EX_UNARY:
        put(t, "%s", op_text(e->op));
        show(t, e->kid[0]);
        break;
    case HD_EX_BINARY:
        put(t, "(");
        show(t, e->kid[0]);
        put(t, " %s ", op_text(e->op));
        show(t, e->kid[1]);
        put(t, ")");
        break;
    case HD_EX_COND:
        put(t, "(");
        show(t, e->kid[0]);
        put(t, " ? ");
        show(t, e->kid[1]);
        put(t, " : ");
        show(t, e->kid[2]);
        put(t, ")");
        break;
    case HD_EX_CALL:
        put(t, "%s(", helper_name(e->helper));
        for (int k = 0; k < e->nkids; k++) {
            if (k)
                put(t, ", ");
            show(t, e->kid[k]);
        }
        put(t, ")");
        break;
    case HD_EX_CAST:
        put(t, "(%s)", type_name(ct));
        show(t, e->kid[0]);
        break;
    case HD_EX_OPAQUE:
        put(t, "OPAQUE");
        break;
    }
}

static const char *shown(const hd_expr *e)
{
    static text t;
    t.n = 0;
    t.s[0] = '\0';
    show(&t, e);
    return t.s;
}

/* -------------------------------------------------------- brute force */

/* The reference values f(i), i < 2^k; *undefined_at is the first i where C
 * leaves f undefined, or UINT64_MAX. */
static uint64_t *ref_table(const hd_expr *e, int k, uint64_t *undefined_at)
{
    uint64_t count = UINT64_C(1) << k;
    uint64_t *v = malloc(count * sizeof *v);
    if (!v)
        abort();
    *undefined_at = UINT64_MAX;
    for (uint64_t i = 0; i < count; i++) {
        rv x;
        if (!ref_eval(e, i, &x)) {
            if (*undefined_at == UINT64_MAX)
                *undefined_at = i;
            v[i] = 0;
            continue;
        }
        v[i] = held(x);
    }
    return v;
}

/* The affine map the values would have: c = f(0), column j = f(2^j) ^ f(0);
 * row t bit j = bit t of column j.  Written without the hd_affine
 * functions. */
typedef struct {
    uint64_t c;
    uint64_t col[64];
    uint64_t row[64];
} bf_map;

static bf_map brute_map(const uint64_t *v, int k)
{
    bf_map m;
    memset(&m, 0, sizeof m);
    m.c = v[0];
    for (int j = 0; j < k; j++) {
        m.col[j] = v[UINT64_C(1) << j] ^ v[0];
        for (int t = 0; t < 64; t++)
            m.row[t] |= ((m.col[j] >> t) & 1) << j;
    }
    return m;
}

/* Whether f(i) == c ^ XOR_{j: i_j} col_j for all i; *bad the first i
 * where not. */
static bool brute_is_affine(const uint64_t *v, int k, const bf_map *m,
                            uint64_t *bad)
{
    /* By induction on i: v[i & (i - 1)] already equals its sum, so v[i]
     * must add the column of i's lowest set bit to it. */
    if (v[0] != m->c) {
        *bad = 0;
        return false;
    }
    for (uint64_t i = 1; i < (UINT64_C(1) << k); i++)
        if (v[i] != (v[i & (i - 1)] ^ m->col[__builtin_ctzll(i)])) {
            *bad = i;
            return false;
        }
    return true;
}

/* First output bit t where hd's map differs from the brute-force one, or
 * -1; -2 when the input width differs. */
static int map_difference(const hd_affine *got, const bf_map *want, int k)
{
    if (got->in != k)
        return -2;
    if (got->c != want->c)
        return 64;
    for (int t = 0; t < 64; t++)
        if (got->row[t] != want->row[t])
            return t;
    return -1;
}

/* hd_expr_eval against the reference at every i < 2^k: equal values where
 * C defines one, false with a reason where it does not.  Returns the first
 * disagreeing i, or UINT64_MAX. */
static uint64_t eval_disagreement(const hd_expr *e, int k, const uint64_t *ref,
                                  uint64_t undefined_at, uint64_t *got,
                                  bool *got_ok, char *why, size_t why_size)
{
    for (uint64_t i = 0; i < (UINT64_C(1) << k); i++) {
        bool defined = true;
        if (undefined_at != UINT64_MAX) {
            rv x;
            defined = ref_eval(e, i, &x);
        }
        why[0] = '\0';
        *got = 0;
        *got_ok = hd_expr_eval(e, i, got, why, why_size);
        if (defined ? (!*got_ok || *got != ref[i]) : (*got_ok || !why[0]))
            return i;
        /* The block evaluator agrees, whatever block i falls in. */
        uint64_t values[HD_EVAL_BLOCK];
        bool known[HD_EVAL_BLOCK];
        int n = (int)(i % HD_EVAL_BLOCK) + 1;
        hd_expr_eval_block(e, i + 1 - (uint64_t)n, n, values, known);
        if (known[n - 1] != *got_ok || (*got_ok && values[n - 1] != *got)) {
            snprintf(why, why_size, "hd_expr_eval_block gave %s %#llx",
                     known[n - 1] ? "true" : "false",
                     (unsigned long long)values[n - 1]);
            *got_ok = !*got_ok;
            return i;
        }
    }
    return UINT64_MAX;
}

/* ---------------------------------------------------------- checkers */

/* e is affine by construction (a form of the issue): C defines it for every
 * i < 2^k, brute force proves it affine, hd_expr_affine accepts it with the
 * brute-force map on all 64 output bits, and hd_expr_eval gives the
 * reference values.  Frees e. */
static void check_affine(const char *what, hd_expr *e, int k)
{
    uint64_t undefined_at, bad = 0, got = 0;
    uint64_t *ref = ref_table(e, k, &undefined_at);
    char why[256] = "";
    bool ok;
    TU_CHECK(undefined_at == UINT64_MAX, "%s: %s, k = %d: C leaves it "
             "undefined at i = %llu (the form is wrong)", what, shown(e), k,
             (unsigned long long)undefined_at);
    bf_map m = brute_map(ref, k);
    TU_CHECK(brute_is_affine(ref, k, &m, &bad), "%s: %s, k = %d is not "
             "affine by brute force (i = %llu)", what, shown(e), k,
             (unsigned long long)bad);

    hd_affine f;
    memset(&f, 0xa5, sizeof f);
    ok = hd_expr_affine(e, k, &f, why, sizeof why);
    TU_CHECK(ok, "%s: %s, k = %d: hd_expr_affine refused it: %s", what,
             shown(e), k, why);
    int t = map_difference(&f, &m, k);
    TU_CHECK(t == -1, "%s: %s, k = %d: map differs at output %s %d: "
             "got row %#llx c %#llx in %d, brute force row %#llx c %#llx",
             what, shown(e), k, t == 64 ? "constant" : "bit", t,
             t >= 0 && t < 64 ? (unsigned long long)f.row[t] : 0ULL,
             (unsigned long long)f.c, f.in,
             t >= 0 && t < 64 ? (unsigned long long)m.row[t] : 0ULL,
             (unsigned long long)m.c);

    uint64_t i = eval_disagreement(e, k, ref, undefined_at, &got, &ok, why,
                                   sizeof why);
    TU_CHECK(i == UINT64_MAX, "%s: %s at i = %llu: hd_expr_eval gave %s "
             "%#llx (%s), the reference %#llx", what, shown(e),
             (unsigned long long)i, ok ? "true" : "false",
             (unsigned long long)got, why,
             (unsigned long long)(i != UINT64_MAX ? ref[i] : 0));
    free(ref);
    hd_expr_free(e);
}

/* e is not affine for this k: hd_expr_affine says no with a reason, brute
 * force agrees that it is not (when C defines it everywhere), and
 * hd_expr_eval follows the reference.  Frees e. */
static void check_general(const char *what, hd_expr *e, int k)
{
    uint64_t undefined_at, bad = 0, got = 0;
    uint64_t *ref = ref_table(e, k, &undefined_at);
    char why[256];
    bool ok;
    if (undefined_at == UINT64_MAX && e->kind != HD_EX_OPAQUE) {
        bf_map m = brute_map(ref, k);
        TU_CHECK(!brute_is_affine(ref, k, &m, &bad), "%s: %s, k = %d is "
                 "affine after all (the form is wrong)", what, shown(e), k);
    }
    hd_affine f;
    strcpy(why, "");
    ok = hd_expr_affine(e, k, &f, why, sizeof why);
    TU_CHECK(!ok, "%s: %s, k = %d: hd_expr_affine accepted a map that is "
             "not affine", what, shown(e), k);
    TU_CHECK(why[0] != '\0', "%s: %s: no reason given", what, shown(e));

    uint64_t i = eval_disagreement(e, k, ref, undefined_at, &got, &ok, why,
                                   sizeof why);
    TU_CHECK(i == UINT64_MAX, "%s: %s at i = %llu: hd_expr_eval gave %s "
             "%#llx (%s), the reference %s %#llx", what, shown(e),
             (unsigned long long)i, ok ? "true" : "false",
             (unsigned long long)got, why,
             undefined_at <= i ? "(maybe undefined)" : "",
             (unsigned long long)(i != UINT64_MAX ? ref[i] : 0));
    free(ref);
    hd_expr_free(e);
}

/* For inputs where hd may legitimately refuse (arguments outside what it
 * supports): either it refuses with a reason, or it is right.  Frees e. */
static void check_refuse_or_right(const char *what, hd_expr *e, int k)
{
    uint64_t undefined_at, bad = 0;
    uint64_t *ref = ref_table(e, k, &undefined_at);
    char why[256] = "";
    hd_affine f;
    if (hd_expr_affine(e, k, &f, why, sizeof why)) {
        bf_map m = brute_map(ref, k);
        TU_CHECK(undefined_at == UINT64_MAX && brute_is_affine(ref, k, &m, &bad),
                 "%s: %s, k = %d: accepted as affine, but it is not", what,
                 shown(e), k);
        int t = map_difference(&f, &m, k);
        TU_CHECK(t == -1, "%s: %s, k = %d: map differs at output bit %d "
                 "(64: the constant)", what, shown(e), k, t);
    } else {
        TU_CHECK(why[0] != '\0', "%s: %s: refused without a reason", what,
                 shown(e));
    }
    for (uint64_t i = 0; i < (UINT64_C(1) << k); i++) {
        uint64_t got = 0;
        rv x;
        bool defined = ref_eval(e, i, &x);
        why[0] = '\0';
        if (hd_expr_eval(e, i, &got, why, sizeof why))
            TU_CHECK(defined && got == held(x), "%s: %s at i = %llu: "
                     "hd_expr_eval gave %#llx, the reference %s %#llx", what,
                     shown(e), (unsigned long long)i, (unsigned long long)got,
                     defined ? "" : "(undefined)",
                     (unsigned long long)held(x));
        else
            TU_CHECK(why[0] != '\0', "%s: %s: eval refused without a reason",
                     what, shown(e));
    }
    free(ref);
    hd_expr_free(e);
}

/* ------------------------------------------------------- random bits */

static uint64_t mask_of(int bits)
{
    return bits >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
}

/* A constant interesting for bit tricks: small, a power of two, a mask,
 * random, negative. */
static long long random_constant(void)
{
    switch (tu_below(6)) {
    case 0: return (long long)tu_below(17);
    case 1: return (long long)(UINT64_C(1) << tu_below(63));
    case 2: return (long long)mask_of(1 + (int)tu_below(63));
    case 3: return -(long long)tu_below(17);
    case 4: return (long long)tu_bits(16);
    default: return (long long)tu_rand();
    }
}

static const ctype arith_types[4] = {
    { 32, true }, { 32, false }, { 64, true }, { 64, false },
};
static const ctype int_types[8] = {
    { 8, true }, { 8, false }, { 16, true }, { 16, false },
    { 32, true }, { 32, false }, { 64, true }, { 64, false },
};

static ctype random_arith_type(void)
{
    return arith_types[tu_below(4)];
}

/* 2^s for a random s at which it is positive in type t. */
static hd_expr *random_power_of_two(ctype t)
{
    uint64_t v = UINT64_C(1) << tu_below((uint64_t)(t.bits - (t.sg ? 1 : 0)));
    return t.sg ? CT(t, (long long)v) : CUL(v);
}

/* A type for the loop variable that holds 0 .. 2^k - 1. */
static ctype random_index_type(int k)
{
    for (;;) {
        ctype t = int_types[tu_below(8)];
        if (k < t.bits - (t.sg ? 1 : 0))
            return t;
    }
}

/* ------------------------------------------------------ the forms */

/* Each builds, for k index bits, one instance of a form of the issue with
 * random constants where the form has any. */
typedef hd_expr *(*form_fn)(int k);

static int half(int k) { return k / 2; }

static hd_expr *f_const_int(int k) { (void)k; return C(random_constant()); }
static hd_expr *f_const_any(int k)
{
    (void)k;
    return CT(int_types[tu_below(8)], random_constant());
}
static hd_expr *f_index(int k) { (void)k; return I(); }
static hd_expr *f_index_typed(int k) { return IT(random_index_type(k)); }
static hd_expr *f_xor_const(int k) { (void)k; return BIN(HD_OP_XOR, I(), C(random_constant())); }
static hd_expr *f_const_xor(int k)
{
    return BIN(HD_OP_XOR, CT(random_arith_type(), random_constant()),
               IT(random_index_type(k)));
}
static hd_expr *f_and_const(int k) { (void)k; return BIN(HD_OP_AND, I(), C(random_constant())); }
static hd_expr *f_and_const_typed(int k)
{
    return BIN(HD_OP_AND, CT(random_arith_type(), random_constant()),
               IT(random_index_type(k)));
}
static hd_expr *f_or_const(int k) { (void)k; return BIN(HD_OP_OR, I(), C(random_constant())); }
static hd_expr *f_or_const_typed(int k)
{
    return BIN(HD_OP_OR, IT(random_index_type(k)),
               CT(random_arith_type(), random_constant()));
}
static hd_expr *f_shl(int k) { (void)k; return BIN(HD_OP_SHL, I(), C((long long)tu_below(32))); }
static hd_expr *f_shl_long(int k)
{
    (void)k;
    return BIN(HD_OP_SHL, IT(T_LONG), C((long long)tu_below(64)));
}
static hd_expr *f_shr(int k) { (void)k; return BIN(HD_OP_SHR, I(), C((long long)tu_below(32))); }
static hd_expr *f_shr_unsigned(int k)
{
    (void)k;
    return BIN(HD_OP_SHR, IT(T_UINT), CT(T_ULONG, (long long)tu_below(32)));
}
static hd_expr *f_not(int k) { (void)k; return UN(HD_OP_NOT, I()); }   /* negative */
static hd_expr *f_not_masked(int k)
{
    return BIN(HD_OP_AND, UN(HD_OP_NOT, I()), C((long long)mask_of(k)));
}
static hd_expr *f_not_unsigned(int k)
{
    (void)k;
    return UN(HD_OP_NOT, CAST(32, false, I()));
}
/* N - 1 - i with N = 1 << k, as written: ((1 << k) - 1) - i. */
static hd_expr *f_n_minus_1_minus_i(int k)
{
    return BIN(HD_OP_SUB, BIN(HD_OP_SUB, BIN(HD_OP_SHL, C(1), C(k)), C(1)), I());
}
static hd_expr *f_n_minus_1_xor_i(int k)
{
    return BIN(HD_OP_XOR, BIN(HD_OP_SUB, BIN(HD_OP_SHL, C(1), C(k)), C(1)), I());
}
/* The transpose (i >> h) | ((i & (2^h - 1)) << h), k = 2h. */
static hd_expr *f_transpose_or(int k)
{
    int h = half(k);
    return BIN(HD_OP_OR, BIN(HD_OP_SHR, I(), C(h)),
               BIN(HD_OP_SHL, BIN(HD_OP_AND, I(), C((long long)mask_of(h))), C(h)));
}
/* The same swap with + (no carries): (i >> h) + ((i & (2^h - 1)) << (k-h)),
 * any k. */
static hd_expr *f_transpose_add(int k)
{
    int h = half(k);
    return BIN(HD_OP_ADD, BIN(HD_OP_SHR, I(), C(h)),
               BIN(HD_OP_SHL, BIN(HD_OP_AND, I(), C((long long)mask_of(h))),
                   C(k - h)));
}
static hd_expr *f_gray_expr(int k)
{
    (void)k;
    return BIN(HD_OP_XOR, I(), BIN(HD_OP_SHR, I(), C(1)));
}
/* ((i & m1) << s1) op ((i & m2) >> s2): XOR always, OR when the two
 * parts cannot overlap. */
static hd_expr *f_parts(int k)
{
    uint64_t m1 = tu_bits(k), m2 = tu_bits(k);
    int s1 = (int)tu_below(8), s2 = (int)tu_below(8);
    bool disjoint = ((m1 << s1) & (m2 >> s2)) == 0;
    return BIN(disjoint && tu_chance(1, 2) ? HD_OP_OR : HD_OP_XOR,
               BIN(HD_OP_SHL, BIN(HD_OP_AND, I(), C((long long)m1)), C(s1)),
               BIN(HD_OP_SHR, BIN(HD_OP_AND, I(), C((long long)m2)), C(s2)));
}
static int random_width(void)
{
    return 1 + (int)tu_below(64);
}
static hd_expr *f_reverse_k(int k)
{
    return CALL(HD_HELPER_REVERSE, I(), C(k > 0 ? k : 1));
}
static hd_expr *f_reverse_n(int k)
{
    (void)k;
    return CALL(HD_HELPER_REVERSE, I(), C(random_width()));
}
static hd_expr *f_gray(int k) { (void)k; return CALL(HD_HELPER_GRAY, I()); }
static hd_expr *f_rotl(int k)
{
    (void)k;
    int n = random_width();
    return CALL(HD_HELPER_ROTL, I(), C((long long)tu_below(3 * (uint64_t)n)), C(n));
}
static hd_expr *f_rotr(int k)
{
    (void)k;
    int n = random_width();
    return CALL(HD_HELPER_ROTR, I(), C((long long)tu_below(3 * (uint64_t)n)), C(n));
}
static hd_expr *f_shuffle(int k)
{
    (void)k;
    return CALL(HD_HELPER_SHUFFLE, I(), C(random_width()));
}
static hd_expr *f_unshuffle(int k)
{
    (void)k;
    return CALL(HD_HELPER_UNSHUFFLE, I(), C(random_width()));
}
static hd_expr *f_transpose_helper(int k)
{
    (void)k;
    return CALL(HD_HELPER_TRANSPOSE, I(), C(2 + 2 * (long long)tu_below(32)));
}
static hd_expr *f_bit(int k)
{
    (void)k;
    return CALL(HD_HELPER_BIT, I(), C((long long)tu_below(64)));
}
/* a[f][g] with f = i & (2^(k-h) - 1), g = i >> (k-h), extents 2^(k-h) x
 * 2^h, flattened as the C reader does: (long)f * 2^h + (long)g. */
static hd_expr *flatten2(hd_expr *f, hd_expr *g, int e1_log2)
{
    return BIN(HD_OP_ADD,
               BIN(HD_OP_MUL, CAST(64, true, f), CT(T_LONG, 1LL << e1_log2)),
               CAST(64, true, g));
}
static hd_expr *f_array2_transpose(int k)
{
    int h = half(k);
    return flatten2(BIN(HD_OP_AND, I(), C((long long)mask_of(k - h))),
                    BIN(HD_OP_SHR, I(), C(k - h)), h);
}
static hd_expr *f_array2_helpers(int k)
{
    int h = half(k);
    /* a[reverse(i, k) >> h][gray(i) & (2^h - 1)] */
    return flatten2(BIN(HD_OP_SHR, CALL(HD_HELPER_REVERSE, I(), C(k > 0 ? k : 1)), C(h)),
                    BIN(HD_OP_AND, CALL(HD_HELPER_GRAY, I()), CUL(mask_of(h))), h);
}
static hd_expr *f_array3(int k)
{
    /* a[i & 1][(i >> 1) ^ 1 & ...][...]: extents 2 x 2^a x 2^b. */
    int a = (k - 1) / 2, b = k - 1 - a;
    if (k == 0)
        a = b = 0;
    hd_expr *s0 = BIN(HD_OP_AND, I(), C(1));
    hd_expr *s1 = BIN(HD_OP_AND, BIN(HD_OP_XOR, BIN(HD_OP_SHR, I(), C(1)),
                                      C((long long)tu_bits(a))),
                      C((long long)mask_of(a)));
    hd_expr *s2 = BIN(HD_OP_SHR, I(), C(a + 1));
    hd_expr *flat = flatten2(s0, s1, a);
    return BIN(HD_OP_ADD,
               BIN(HD_OP_MUL, flat, CT(T_LONG, 1LL << b)), CAST(64, true, s2));
}
static hd_expr *f_sub_no_borrow(int k)
{
    return BIN(HD_OP_SUB, C((long long)mask_of(k)), I());
}
static hd_expr *f_sub_no_borrow_masked(int k)
{
    uint64_t big = tu_bits(k) | tu_bits(k), small = big & tu_bits(k);
    return BIN(HD_OP_SUB, C((long long)big), BIN(HD_OP_AND, I(), C((long long)small)));
}
static hd_expr *f_mul_pow2(int k)
{
    (void)k;
    hd_expr *p = C(1LL << tu_below(31));
    return tu_chance(1, 2) ? BIN(HD_OP_MUL, I(), p) : BIN(HD_OP_MUL, p, I());
}
/* (i ^ c) / 2^s and % 2^s with c >= 0, so the dividend is never negative
 * and the map has a constant part. */
static hd_expr *f_div_pow2(int k)
{
    (void)k;
    return BIN(HD_OP_DIV, BIN(HD_OP_XOR, I(), C((long long)tu_bits(31))),
               C(1LL << tu_below(31)));
}
static hd_expr *f_mod_pow2(int k)
{
    (void)k;
    return BIN(HD_OP_MOD, BIN(HD_OP_XOR, I(), C((long long)tu_bits(31))),
               C(1LL << tu_below(31)));
}
static hd_expr *f_div_mod_unsigned(int k)
{
    hd_expr *p = CT(T_ULONG, 1LL << tu_below(63));
    return BIN(tu_chance(1, 2) ? HD_OP_DIV : HD_OP_MOD, IT(random_index_type(k)), p);
}
static hd_expr *f_cast_uchar(int k)
{
    (void)k;
    return CAST(8, false, BIN(HD_OP_SHL, I(), C(4)));
}
static hd_expr *f_cast_narrow(int k)
{
    (void)k;
    ctype t = int_types[tu_below(8)];
    return CASTT(t, BIN(HD_OP_SHL, I(), C((long long)tu_below(32))));
}
static hd_expr *f_cast_widen_not(int k)
{
    (void)k;
    /* (unsigned long)~i sign-extends; (long)(unsigned)~i does not. */
    return tu_chance(1, 2) ? CAST(64, false, UN(HD_OP_NOT, I()))
                           : CAST(64, true, CAST(32, false, UN(HD_OP_NOT, I())));
}
static hd_expr *f_cond_const(int k)
{
    (void)k;
    /* 1 ? i ^ c : i * 3 — the branch not taken is not affine. */
    long long c = random_constant();
    return tu_chance(1, 2)
        ? COND(C(1), BIN(HD_OP_XOR, I(), C(c)), BIN(HD_OP_MUL, I(), C(3)))
        : COND(BIN(HD_OP_GT, C(2), C(5)), BIN(HD_OP_ADD, I(), C(1)),
               BIN(HD_OP_XOR, I(), C(c)));
}
static hd_expr *f_shr_negative(int k)
{
    (void)k;
    /* ~i is negative: >> is arithmetic. */
    return BIN(HD_OP_SHR, UN(HD_OP_NOT, I()), C((long long)tu_below(32)));
}
static hd_expr *f_shr_negative_masked(int k)
{
    return BIN(HD_OP_AND, BIN(HD_OP_SHR, UN(HD_OP_NOT, I()), C(1)),
               C((long long)mask_of(k)));
}
static hd_expr *f_unary_plus(int k)
{
    (void)k;
    return UN(HD_OP_PLUS, BIN(HD_OP_XOR, I(), C(random_constant())));
}

typedef struct {
    const char *name;
    form_fn build;
    bool even_k_only;
} form;

static const form affine_forms[] = {
    { "constant int", f_const_int, false },
    { "constant of any type", f_const_any, false },
    { "i", f_index, false },
    { "i of another type", f_index_typed, false },
    { "i ^ c", f_xor_const, false },
    { "c ^ i (typed)", f_const_xor, false },
    { "i & c", f_and_const, false },
    { "c & i (typed)", f_and_const_typed, false },
    { "i | c", f_or_const, false },
    { "i | c (typed)", f_or_const_typed, false },
    { "i << s", f_shl, false },
    { "(long)i << s", f_shl_long, false },
    { "i >> s", f_shr, false },
    { "(unsigned)i >> s", f_shr_unsigned, false },
    { "~i (negative int)", f_not, false },
    { "~i & (N-1)", f_not_masked, false },
    { "~(unsigned)i", f_not_unsigned, false },
    { "N-1-i", f_n_minus_1_minus_i, false },
    { "(N-1) ^ i", f_n_minus_1_xor_i, false },
    { "transpose (i >> h) | ((i & m) << h)", f_transpose_or, true },
    { "transpose with +", f_transpose_add, false },
    { "Gray code i ^ (i >> 1)", f_gray_expr, false },
    { "disjoint masked parts", f_parts, false },
    { "reverse(i, k)", f_reverse_k, false },
    { "reverse(i, n)", f_reverse_n, false },
    { "gray(i)", f_gray, false },
    { "rotl(i, r, n)", f_rotl, false },
    { "rotr(i, r, n)", f_rotr, false },
    { "shuffle(i, n)", f_shuffle, false },
    { "unshuffle(i, n)", f_unshuffle, false },
    { "transpose(i, n)", f_transpose_helper, false },
    { "bit(i, k)", f_bit, false },
    { "a[f][g] transpose", f_array2_transpose, false },
    { "a[reverse >> h][gray & m]", f_array2_helpers, false },
    { "a[f][g][h]", f_array3, false },
    { "2^k - 1 - i", f_sub_no_borrow, false },
    { "c - (i & m), m within c", f_sub_no_borrow_masked, false },
    { "i * 2^s", f_mul_pow2, false },
    { "(i ^ c) / 2^s", f_div_pow2, false },
    { "(i ^ c) % 2^s", f_mod_pow2, false },
    { "unsigned / or % 2^s", f_div_mod_unsigned, false },
    { "(unsigned char)(i << 4)", f_cast_uchar, false },
    { "(narrow)(i << s)", f_cast_narrow, false },
    { "(unsigned long)~i", f_cast_widen_not, false },
    { "?: with a constant condition", f_cond_const, false },
    { "~i >> s", f_shr_negative, false },
    { "(~i >> 1) & (N-1)", f_shr_negative_masked, false },
    { "+(i ^ c)", f_unary_plus, false },
};

#define NFORMS ((int)(sizeof affine_forms / sizeof affine_forms[0]))

/* Every form of the issue, k = 0 .. 12, with random constants. */
static void test_affine_forms(void **state)
{
    (void)state;
    tu_rng_init("cexpr.affine_forms");
    long reps = tu_cases(12);
    char what[128];
    for (int f = 0; f < NFORMS; f++)
        for (int k = 0; k <= 12; k++) {
            if (affine_forms[f].even_k_only && k % 2)
                continue;
            for (long r = 0; r < reps; r++) {
                snprintf(what, sizeof what, "%s (rep %ld)", affine_forms[f].name, r);
                check_affine(what, affine_forms[f].build(k), k);
            }
        }
}

/* A few forms on a 20-bit loop variable (2^20 iterations each). */
static void test_affine_forms_k20(void **state)
{
    (void)state;
    tu_rng_init("cexpr.affine_forms_k20");
    const int k = 20;
    check_affine("i", I(), k);
    check_affine("reverse(i, 20)", CALL(HD_HELPER_REVERSE, I(), C(20)), k);
    check_affine("transpose", f_transpose_or(k), k);
    check_affine("gray", f_gray_expr(k), k);
    check_affine("N-1-i", f_n_minus_1_minus_i(k), k);
    check_affine("~i & (N-1)", f_not_masked(k), k);
    check_affine("a[f][g]", f_array2_transpose(k), k);
    check_affine("rotl(i, 7, 20)", CALL(HD_HELPER_ROTL, I(), C(7), C(20)), k);
    check_affine("(unsigned char)(i << 4)", f_cast_uchar(k), k);
    check_affine("i << 12 (into the sign bit of int)", BIN(HD_OP_SHL, I(), C(12)), k);
}

/* k = 0: a loop of one iteration; everything is a constant map. */
static void test_k0(void **state)
{
    (void)state;
    tu_rng_init("cexpr.k0");
    hd_affine f;
    char why[128];
    hd_expr *e = BIN(HD_OP_XOR, I(), C(5));
    TU_CHECK(hd_expr_affine(e, 0, &f, why, sizeof why), "i ^ 5, k = 0: %s", why);
    TU_CHECK_EQ(f.in, 0, "in");
    TU_CHECK_EQ(f.c, 5, "c");
    for (int t = 0; t < 64; t++)
        TU_CHECK_EQ(f.row[t], 0, "a row of a k = 0 map");
    hd_expr_free(e);
    /* i + 1 is the constant 1 when i can only be 0; accepting it or not
     * are both right, but an accepted map must be that constant. */
    check_refuse_or_right("i + 1, k = 0", BIN(HD_OP_ADD, I(), C(1)), 0);
    check_affine("reverse(i, 8), k = 0", CALL(HD_HELPER_REVERSE, I(), C(8)), 0);
}

/* ------------------------------------------------------- general forms */

static void test_general_forms(void **state)
{
    (void)state;
    tu_rng_init("cexpr.general_forms");
    for (int k = 3; k <= 10; k++) {
        check_general("i + 1", BIN(HD_OP_ADD, I(), C(1)), k);
        check_general("i * 3", BIN(HD_OP_MUL, I(), C(3)), k);
        check_general("i * i", BIN(HD_OP_MUL, I(), I()), k);
        check_general("i - 1", BIN(HD_OP_SUB, I(), C(1)), k);
        check_general("i << (i & 3)",
                      BIN(HD_OP_SHL, I(), BIN(HD_OP_AND, I(), C(3))), k);
        check_general("1 << (i & 7)", BIN(HD_OP_SHL, C(1), BIN(HD_OP_AND, I(), C(7))), k);
        check_general("i >> (i & 3)",
                      BIN(HD_OP_SHR, I(), BIN(HD_OP_AND, I(), C(3))), k);
        check_general("i & 1 ? i : 0",
                      COND(BIN(HD_OP_AND, I(), C(1)), I(), C(0)), k);
        check_general("i & (i >> 1)", BIN(HD_OP_AND, I(), BIN(HD_OP_SHR, I(), C(1))), k);
        check_general("i | (i >> 1)", BIN(HD_OP_OR, I(), BIN(HD_OP_SHR, I(), C(1))), k);
        check_general("OPAQUE", OPAQUE("the index depends on the contents of 'idx'"), k);
        check_general("OPAQUE ^ i", BIN(HD_OP_XOR, OPAQUE("data"), I()), k);
        check_general("i / 3", BIN(HD_OP_DIV, I(), C(3)), k);
        check_general("i % 3", BIN(HD_OP_MOD, I(), C(3)), k);
        check_general("-i", UN(HD_OP_NEG, I()), k);
        check_general("i < 5", BIN(HD_OP_LT, I(), C(5)), k);
        check_general("!i", UN(HD_OP_LNOT, I()), k);
        check_general("i && 1", BIN(HD_OP_LAND, I(), C(1)), k);
        /* / and % of a value that may be negative round towards zero. */
        check_general("~i / 4", BIN(HD_OP_DIV, UN(HD_OP_NOT, I()), C(4)), k);
        check_general("~i % 8", BIN(HD_OP_MOD, UN(HD_OP_NOT, I()), C(8)), k);
        check_general("(i ^ 1) + 1", BIN(HD_OP_ADD, BIN(HD_OP_XOR, I(), C(1)), C(1)), k);
        check_general("i + (i >> 1)", BIN(HD_OP_ADD, I(), BIN(HD_OP_SHR, I(), C(1))), k);
        /* i + i = i << 1 is affine; cexpr may refuse it (conservative). */
        check_refuse_or_right("i + i", BIN(HD_OP_ADD, I(), I()), k);
        check_general("5 - i", BIN(HD_OP_SUB, C(5), I()), k);
        check_general("i * -2", BIN(HD_OP_MUL, I(), C(-2)), k);
    }
}

/* ------------------------------------------------------ edge cases */

static void check_const_undefined(const char *what, hd_expr *e)
{
    uint64_t v = 0;
    char why[128] = "";
    rv x;
    TU_CHECK(!ref_eval(e, 0, &x), "%s: the reference defines it (test bug)", what);
    TU_CHECK(!hd_expr_eval(e, 0, &v, why, sizeof why),
             "%s (%s): undefined in C, but hd_expr_eval gave %#llx", what,
             shown(e), (unsigned long long)v);
    TU_CHECK(why[0] != '\0', "%s: no reason", what);
    hd_affine f;
    why[0] = '\0';
    TU_CHECK(!hd_expr_affine(e, 4, &f, why, sizeof why),
             "%s (%s): undefined in C, but hd_expr_affine gave the constant %#llx",
             what, shown(e), (unsigned long long)f.c);
    TU_CHECK(why[0] != '\0', "%s: no reason", what);
    hd_expr_free(e);
}

static void test_undefined_shifts(void **state)
{
    (void)state;
    tu_rng_init("cexpr.undefined_shifts");
    /* Shifts by >= the width of the promoted left operand, or negative. */
    check_general("i << 32 (int)", BIN(HD_OP_SHL, I(), C(32)), 6);
    check_general("i >> 32 (int)", BIN(HD_OP_SHR, I(), C(32)), 6);
    check_general("i << 40 (int)", BIN(HD_OP_SHL, I(), C(40)), 6);
    check_general("i << -1", BIN(HD_OP_SHL, I(), C(-1)), 6);
    check_general("(unsigned)i >> 32", BIN(HD_OP_SHR, CAST(32, false, I()), C(32)), 6);
    check_general("(long)i << 64", BIN(HD_OP_SHL, CAST(64, true, I()), C(64)), 6);
    check_general("(unsigned char)i << 32 (promoted to int: too far)",
                  BIN(HD_OP_SHL, CAST(8, false, I()), C(32)), 6);
    check_general("i << (i + 28)",
                  BIN(HD_OP_SHL, I(), BIN(HD_OP_ADD, I(), C(28))), 6);
    check_const_undefined("1 << 32", BIN(HD_OP_SHL, C(1), C(32)));
    check_const_undefined("1 >> -3", BIN(HD_OP_SHR, C(1), C(-3)));
    check_const_undefined("1ul << 64", BIN(HD_OP_SHL, CUL(1), C(64)));
    /* In range: the amount's own type does not matter, the left's does. */
    check_affine("(long)i << 40", BIN(HD_OP_SHL, CAST(64, true, I()), C(40)), 6);
    check_affine("(unsigned char)i << 31",
                 BIN(HD_OP_SHL, CAST(8, false, I()), CUL(31)), 6);
    check_affine("i << 31 (only the sign bit)", BIN(HD_OP_SHL, I(), C(31)), 6);
}

static void test_division_by_zero(void **state)
{
    (void)state;
    tu_rng_init("cexpr.division_by_zero");
    check_general("i / 0", BIN(HD_OP_DIV, I(), C(0)), 5);
    check_general("i % 0", BIN(HD_OP_MOD, I(), C(0)), 5);
    check_general("(unsigned long)i / 0", BIN(HD_OP_DIV, CAST(64, false, I()), C(0)), 5);
    check_general("100 / i (zero at i = 0)", BIN(HD_OP_DIV, C(100), I()), 5);
    check_general("100 % (i & 2)", BIN(HD_OP_MOD, C(100), BIN(HD_OP_AND, I(), C(2))), 5);
    check_const_undefined("7 / 0", BIN(HD_OP_DIV, C(7), C(0)));
    check_const_undefined("7 % 0", BIN(HD_OP_MOD, C(7), C(0)));
    check_const_undefined("7 / (i ^ i)", BIN(HD_OP_DIV, C(7), BIN(HD_OP_XOR, I(), I())));
    check_const_undefined("LONG_MIN / -1",
                          BIN(HD_OP_DIV, CT(T_LONG, LLONG_MIN), CT(T_LONG, -1)));
}

/* INT_MIN / -1 and INT_MIN % -1 overflow int: undefined (C11 6.5.5p6). */
static void test_division_overflow_int(void **state)
{
    (void)state;
    tu_rng_init("cexpr.division_overflow_int");
    check_const_undefined("INT_MIN / -1", BIN(HD_OP_DIV, C(INT_MIN), C(-1)));
    check_const_undefined("INT_MIN % -1", BIN(HD_OP_MOD, C(INT_MIN), C(-1)));
}

static void test_signed_shift_right(void **state)
{
    (void)state;
    tu_rng_init("cexpr.signed_shift_right");
    /* Constants: -8 >> 1 = -4 (int), (unsigned)-8 >> 1 = 0x7ffffffc. */
    char why[128];
    uint64_t v;
    hd_affine f;
    hd_expr *e = BIN(HD_OP_SHR, C(-8), C(1));
    TU_CHECK(hd_expr_eval(e, 0, &v, why, sizeof why) && v == (uint64_t)-4LL,
             "-8 >> 1 gave %#llx", (unsigned long long)v);
    TU_CHECK(hd_expr_affine(e, 3, &f, why, sizeof why) && f.c == (uint64_t)-4LL,
             "-8 >> 1 as a map: %#llx", (unsigned long long)f.c);
    hd_expr_free(e);
    e = BIN(HD_OP_SHR, CAST(32, false, C(-8)), C(1));
    TU_CHECK(hd_expr_eval(e, 0, &v, why, sizeof why) && v == 0x7ffffffcULL,
             "(unsigned)-8 >> 1 gave %#llx", (unsigned long long)v);
    hd_expr_free(e);
    for (int k = 1; k <= 10; k++) {
        check_affine("~i >> 3", BIN(HD_OP_SHR, UN(HD_OP_NOT, I()), C(3)), k);
        check_affine("(i - 2^k) >> 2 written as (i | ~(2^k - 1)) >> 2",
                     BIN(HD_OP_SHR, BIN(HD_OP_OR, I(), C(~(long long)mask_of(k))), C(2)), k);
        check_affine("(long)~i >> 63", BIN(HD_OP_SHR, CAST(64, true, UN(HD_OP_NOT, I())), C(63)), k);
        check_affine("(unsigned)~i >> 28",
                     BIN(HD_OP_SHR, CAST(32, false, UN(HD_OP_NOT, I())), C(28)), k);
        check_affine("(signed char)(i << 4) >> 2",
                     BIN(HD_OP_SHR, CAST(8, true, BIN(HD_OP_SHL, I(), C(4))), C(2)), k);
    }
}

static void test_casts(void **state)
{
    (void)state;
    tu_rng_init("cexpr.casts");
    for (int k = 0; k <= 12; k++) {
        check_affine("(unsigned char)(i << 4)", CAST(8, false, BIN(HD_OP_SHL, I(), C(4))), k);
        check_affine("(signed char)(i << 1)", CAST(8, true, BIN(HD_OP_SHL, I(), C(1))), k);
        check_affine("(short)(i << 9)", CAST(16, true, BIN(HD_OP_SHL, I(), C(9))), k);
        check_affine("(unsigned short)~i", CAST(16, false, UN(HD_OP_NOT, I())), k);
        check_affine("(int)(0x80000000u | i)",
                     CAST(32, true, BIN(HD_OP_OR, CT(T_UINT, 0x80000000LL), I())), k);
        check_affine("(unsigned long)(int)(i << 28)",
                     CAST(64, false, CAST(32, true, BIN(HD_OP_SHL, I(), C(28)))), k);
        check_affine("(long)(unsigned)(i << 28)",
                     CAST(64, true, CAST(32, false, BIN(HD_OP_SHL, I(), C(28)))), k);
        check_affine("(unsigned char)i ^ 0xff", BIN(HD_OP_XOR, CAST(8, false, I()), C(0xff)), k);
    }
}

/* A conversion to _Bool gives 1 for every nonzero value (C11 6.3.1.2); it
 * is not a truncation to one bit. */
static void test_cast_to_bool(void **state)
{
    (void)state;
    tu_rng_init("cexpr.cast_to_bool");
    check_affine("(_Bool)(i & 1)", CAST(1, false, BIN(HD_OP_AND, I(), C(1))), 4);
    check_affine("(_Bool)5", CAST(1, false, C(5)), 4);
    check_affine("(_Bool)2", CAST(1, false, C(2)), 4);
    check_general("(_Bool)i", CAST(1, false, I()), 4);
    check_general("(_Bool)(i & 6)", CAST(1, false, BIN(HD_OP_AND, I(), C(6))), 4);
}

/* Comparisons compare in the operands' common type, not in the int that
 * they give: (unsigned long)i - 1 < 4 is false at i = 0. */
static void test_compare_unsigned_long(void **state)
{
    (void)state;
    tu_rng_init("cexpr.compare_unsigned_long");
    hd_expr *iu = BIN(HD_OP_SUB, CAST(64, false, I()), C(1));
    check_general("(unsigned long)i - 1 < 4", BIN(HD_OP_LT, iu, C(4)), 4);
    /* Always 1; cexpr may call it general, but its values must be 1. */
    check_refuse_or_right("~0ul > (unsigned long)i",
                          BIN(HD_OP_GT, CUL(~0ULL), CAST(64, false, I())), 4);
    check_affine("(unsigned long)-1 > 5 (constant)", BIN(HD_OP_GT, CAST(64, false, C(-1)), C(5)), 4);
    check_affine("-1 < 0u (constant, unsigned int)",
                 BIN(HD_OP_LT, C(-1), CT(T_UINT, 0)), 4);
}

/* Helper arguments outside what cexpr supports: it may refuse, but what it
 * says must be what the helper computes. */
static void test_helpers_out_of_domain(void **state)
{
    (void)state;
    tu_rng_init("cexpr.helpers_out_of_domain");
    check_refuse_or_right("reverse(i, 0)", CALL(HD_HELPER_REVERSE, I(), C(0)), 6);
    check_refuse_or_right("reverse(i, -3)", CALL(HD_HELPER_REVERSE, I(), C(-3)), 6);
    check_refuse_or_right("reverse(i, 70)", CALL(HD_HELPER_REVERSE, I(), C(70)), 6);
    check_refuse_or_right("transpose(i, 7)", CALL(HD_HELPER_TRANSPOSE, I(), C(7)), 7);
    check_refuse_or_right("bit(i, -1)", CALL(HD_HELPER_BIT, I(), C(-1)), 6);
    check_refuse_or_right("bit(i, 64)", CALL(HD_HELPER_BIT, I(), C(64)), 6);
    check_refuse_or_right("rotl(i, 3, 0)", CALL(HD_HELPER_ROTL, I(), C(3), C(0)), 6);
    check_refuse_or_right("shuffle(i, 65)", CALL(HD_HELPER_SHUFFLE, I(), C(65)), 6);
    check_refuse_or_right("rotl(i, i, 8)", CALL(HD_HELPER_ROTL, I(), I(), C(8)), 4);
}

/* Negative rotation amounts rotate the other way (hyperdo/bits.h: "r mod
 * n, negative r rotates the other way"). */
static void test_rotate_negative(void **state)
{
    (void)state;
    tu_rng_init("cexpr.rotate_negative");
    check_refuse_or_right("rotl(i, -3, 8)", CALL(HD_HELPER_ROTL, I(), C(-3), C(8)), 8);
    check_refuse_or_right("rotl(i, -1, 6)", CALL(HD_HELPER_ROTL, I(), C(-1), C(6)), 6);
    check_refuse_or_right("rotr(i, -2, 6)", CALL(HD_HELPER_ROTR, I(), C(-2), C(6)), 6);
    check_refuse_or_right("rotl(i, -7, 10)", CALL(HD_HELPER_ROTL, I(), C(-7), C(10)), 10);
}

/* ----------------------------------------------------- random trees */

static hd_expr *gen_any(int depth, int k);

/* test_random_family: one leaf in `outer_leaves` is an outer variable
 * (an invariant unknown of a random type); 0: none. */
static int outer_leaves;

static hd_expr *OUTER(ctype t)
{
    hd_expr *e = node(HD_EX_OPAQUE, t);
    e->reason = malloc(sizeof "an outer variable");
    if (!e->reason)
        abort();
    strcpy(e->reason, "an outer variable");
    e->invariant = true;
    return e;
}

static hd_expr *random_leaf(int k)
{
    if (outer_leaves && tu_chance(1, outer_leaves))
        return OUTER(tu_chance(1, 2) ? T_INT : int_types[tu_below(8)]);
    switch (tu_below(4)) {
    case 0: return CT(random_arith_type(), random_constant());
    case 1: return IT(random_index_type(k));
    default: return I();
    }
}

/* A shift amount valid for left operand a. */
static hd_expr *valid_shift(const hd_expr *a)
{
    int w = promote(type_of(a)).bits;
    long long s = tu_chance(2, 3) ? (long long)tu_below(8) : (long long)tu_below((uint64_t)w);
    return CT(tu_chance(3, 4) ? T_INT : random_arith_type(), s);
}

/* A non-negative mask of the value's promoted type. */
static hd_expr *mask_const(uint64_t m, ctype *t)
{
    *t = random_arith_type();
    return CT(*t, (long long)(m & mask_of(t->bits - (t->sg ? 1 : 0))));
}

/* A tree that is GF(2)-affine in i by construction: every form of the
 * issue, nested. */
static hd_expr *gen_affine(int depth, int k)
{
    if (depth <= 0 || tu_chance(1, 6)) {
        if (outer_leaves && tu_chance(1, outer_leaves))
            return OUTER(tu_chance(1, 2) ? T_INT : int_types[tu_below(8)]);
        return tu_chance(4, 5) ? (tu_chance(1, 2) ? I() : IT(random_index_type(k)))
                               : CT(random_arith_type(), random_constant());
    }
    switch (tu_below(17)) {
    case 0:
        return BIN(HD_OP_XOR, gen_affine(depth - 1, k), gen_affine(depth - 1, k));
    case 1: {
        hd_expr *c = CT(random_arith_type(), random_constant());
        hd_expr *a = gen_affine(depth - 1, k);
        hd_op op = tu_chance(1, 2) ? HD_OP_AND : HD_OP_OR;
        return tu_chance(1, 2) ? BIN(op, a, c) : BIN(op, c, a);
    }
    case 2: {
        hd_expr *a = gen_affine(depth - 1, k);
        return BIN(tu_chance(1, 2) ? HD_OP_SHL : HD_OP_SHR, a, valid_shift(a));
    }
    case 3:
        return UN(HD_OP_NOT, gen_affine(depth - 1, k));
    case 4:
        return CASTT(int_types[tu_below(8)], gen_affine(depth - 1, k));
    case 5: {
        /* M - (a & M): no borrow. */
        uint64_t m = mask_of((int)tu_below(31));
        ctype tm;
        hd_expr *mc = mask_const(m, &tm);
        return BIN(HD_OP_SUB, CT(tm, (long long)m),
                   BIN(HD_OP_AND, gen_affine(depth - 1, k), mc));
    }
    case 6: {
        /* (a & M1) + (b & M2), M1 and M2 disjoint: no carry. */
        uint64_t m1 = tu_rand(), m2 = tu_rand() & ~m1;
        ctype t1, t2;
        hd_expr *c1 = mask_const(m1, &t1), *c2 = mask_const(m2, &t2);
        return BIN(HD_OP_ADD, BIN(HD_OP_AND, gen_affine(depth - 1, k), c1),
                   BIN(HD_OP_AND, gen_affine(depth - 1, k), c2));
    }
    case 7: {
        /* a * 2^s, either order. */
        hd_expr *p = random_power_of_two(random_arith_type());
        hd_expr *a = gen_affine(depth - 1, k);
        return tu_chance(1, 2) ? BIN(HD_OP_MUL, a, p) : BIN(HD_OP_MUL, p, a);
    }
    case 8: {
        /* (a & M) / 2^s and % 2^s: non-negative dividend. */
        ctype tm;
        hd_expr *mc = mask_const(tu_rand(), &tm);
        hd_expr *p = random_power_of_two(random_arith_type());
        return BIN(tu_chance(1, 2) ? HD_OP_DIV : HD_OP_MOD,
                   BIN(HD_OP_AND, gen_affine(depth - 1, k), mc), p);
    }
    case 9: {
        /* unsigned / or % 2^s: any dividend. */
        hd_expr *a = CAST(64, false, gen_affine(depth - 1, k));
        return BIN(tu_chance(1, 2) ? HD_OP_DIV : HD_OP_MOD, a,
                   CUL(UINT64_C(1) << tu_below(64)));
    }
    case 10: {
        /* A constant condition; the other branch may be anything. */
        hd_expr *c = tu_chance(1, 2) ? C((long long)tu_below(2))
                                     : BIN(HD_OP_LT, C(random_constant()),
                                           C(random_constant()));
        hd_expr *a = gen_affine(depth - 1, k), *b = gen_any(depth - 1, k);
        rv cv;
        if (!ref_eval(c, 0, &cv))
            abort();
        return truth(cv) ? COND(c, a, b) : COND(c, b, a);
    }
    case 11: {
        hd_helper h = (hd_helper)tu_below(8);
        hd_expr *a = gen_affine(depth - 1, k);
        int n = random_width();
        switch (h) {
        case HD_HELPER_GRAY:
            return CALL(h, a);
        case HD_HELPER_ROTL:
        case HD_HELPER_ROTR:
            return CALL(h, a, C((long long)tu_below(3 * (uint64_t)n)), C(n));
        case HD_HELPER_TRANSPOSE:
            return CALL(h, a, C(2 + 2 * (long long)tu_below(32)));
        case HD_HELPER_BIT:
            return CALL(h, a, C((long long)tu_below(64)));
        default:
            return CALL(h, a, C(n));
        }
    }
    case 12: {
        /* a[f][g] flattened with extents 2^e0 x 2^e1. */
        int e1 = (int)tu_below(12), e0 = (int)tu_below(12);
        hd_expr *f = BIN(HD_OP_AND, gen_affine(depth - 1, k), CUL(mask_of(e0)));
        hd_expr *g = BIN(HD_OP_AND, gen_affine(depth - 1, k), CUL(mask_of(e1)));
        return flatten2(f, g, e1);
    }
    case 13:
        return BIN(HD_OP_XOR, gen_affine(depth - 1, k),
                   CT(random_arith_type(), random_constant()));
    case 14:
        return UN(HD_OP_PLUS, gen_affine(depth - 1, k));
    case 15:
        /* N - 1 - (a & (N - 1)) with N = 2^k, as written. */
        return BIN(HD_OP_SUB, C((long long)mask_of(k)),
                   BIN(HD_OP_AND, gen_affine(depth - 1, k), C((long long)mask_of(k))));
    default:
        /* The Gray code of a value, written out. */
        {
            hd_expr *a = gen_affine(depth - 1, k);
            hd_expr *b = gen_affine(depth - 1, k);
            return BIN(HD_OP_XOR, a, BIN(HD_OP_SHR, b, valid_shift(b)));
        }
    }
}

static const hd_op any_binary[] = {
    HD_OP_ADD, HD_OP_SUB, HD_OP_MUL, HD_OP_DIV, HD_OP_MOD, HD_OP_SHL,
    HD_OP_SHR, HD_OP_AND, HD_OP_OR, HD_OP_XOR, HD_OP_LT, HD_OP_GT,
    HD_OP_LE, HD_OP_GE, HD_OP_EQ, HD_OP_NE, HD_OP_LAND, HD_OP_LOR,
};

/* Any tree: the affine grammar plus every operator on any operands, casts
 * to every type including _Bool, conditions that depend on i, OPAQUE. */
static hd_expr *gen_any(int depth, int k)
{
    if (depth <= 0 || tu_chance(1, 5))
        return tu_chance(1, 20) ? OPAQUE("unknown") : random_leaf(k);
    switch (tu_below(8)) {
    case 0:
    case 1: {
        hd_op op = any_binary[tu_below(sizeof any_binary / sizeof any_binary[0])];
        hd_expr *a = gen_any(depth - 1, k), *b;
        if ((op == HD_OP_SHL || op == HD_OP_SHR) && tu_chance(3, 4))
            b = tu_chance(1, 2) ? valid_shift(a)
                                : BIN(HD_OP_AND, gen_any(depth - 1, k), C(7));
        else
            b = tu_chance(1, 3) ? CT(random_arith_type(), random_constant())
                                : gen_any(depth - 1, k);
        return BIN(op, a, b);
    }
    case 2: {
        static const hd_op un[] = { HD_OP_NEG, HD_OP_PLUS, HD_OP_NOT, HD_OP_LNOT };
        return UN(un[tu_below(4)], gen_any(depth - 1, k));
    }
    case 3:
        return COND(gen_any(depth - 1, k), gen_any(depth - 1, k), gen_any(depth - 1, k));
    case 4:
        return tu_chance(1, 8) ? CAST(1, false, gen_any(depth - 1, k))
                               : CASTT(int_types[tu_below(8)], gen_any(depth - 1, k));
    default:
        return gen_affine(depth, k);
    }
}

/* Failures of the random sweeps are counted and the first few of each
 * kind printed, so that one kind of failure does not hide the others.  The
 * kinds are told apart by what the tree contains (a heuristic: a tree with
 * a _Bool conversion may fail for another reason). */
enum { KIND_BOOL, KIND_ULONG_COMPARE, KIND_OTHER, NKINDS };

static const char *const kind_names[NKINDS] = {
    "trees with a conversion to _Bool (see test_cast_to_bool)",
    "trees comparing unsigned long values (see test_compare_unsigned_long)",
    "other trees",
};

typedef struct {
    long cases, affine_accepted, failures;
    long by_kind[NKINDS];
    int kind;           /* of the tree being checked */
} sweep;

static bool contains(const hd_expr *e, bool (*pred)(const hd_expr *))
{
    if (pred(e))
        return true;
    for (int k = 0; k < e->nkids; k++)
        if (contains(e->kid[k], pred))
            return true;
    return false;
}

static bool is_bool_cast(const hd_expr *e)
{
    return e->kind == HD_EX_CAST && e->bits == 1;
}

static bool is_ulong_compare(const hd_expr *e)
{
    return e->kind == HD_EX_BINARY && is_comparison(e->op) &&
           e->kid[0]->bits == 64 && !e->kid[0]->is_signed;
}

static int kind_of(const hd_expr *e)
{
    return contains(e, is_bool_cast) ? KIND_BOOL
         : contains(e, is_ulong_compare) ? KIND_ULONG_COMPARE : KIND_OTHER;
}

__attribute__((format(printf, 2, 3)))
static void sweep_failure(sweep *s, const char *fmt, ...)
{
    va_list ap;
    s->failures++;
    if (s->by_kind[s->kind]++ < 4) {
        fprintf(stderr, "  [%s]\n    ", kind_names[s->kind]);
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fprintf(stderr, "\n");
    }
}

static void sweep_summary(const sweep *s)
{
    if (!s->failures)
        return;
    fprintf(stderr, "  failures by kind:\n");
    for (int k = 0; k < NKINDS; k++)
        fprintf(stderr, "    %ld in %s\n", s->by_kind[k], kind_names[k]);
}

/* One random tree: hd_expr_eval against the reference at every i, and, if
 * hd_expr_affine accepts it, that the tree is affine with that map. */
static void sweep_one(sweep *s, hd_expr *e, int k, bool must_be_affine)
{
    uint64_t undefined_at, bad = 0, got = 0;
    uint64_t *ref = ref_table(e, k, &undefined_at);
    char why[256] = "";
    bool ok;
    hd_affine f;
    bf_map m = brute_map(ref, k);
    bool is_affine = undefined_at == UINT64_MAX && brute_is_affine(ref, k, &m, &bad);
    s->cases++;
    s->kind = kind_of(e);
    if (must_be_affine && !is_affine) {
        /* The generator is wrong, not the library: stop. */
        TU_CHECK(false, "generator: %s, k = %d is not affine (undefined at "
                 "%lld, differs at %llu)", shown(e), k,
                 undefined_at == UINT64_MAX ? -1LL : (long long)undefined_at,
                 (unsigned long long)bad);
    }
    ok = hd_expr_affine(e, k, &f, why, sizeof why);
    if (ok) {
        s->affine_accepted++;
        int t = map_difference(&f, &m, k);
        if (!is_affine)
            sweep_failure(s, "accepted as affine but is not: %s, k = %d "
                          "(undefined at %lld, not affine at i = %llu)",
                          shown(e), k,
                          undefined_at == UINT64_MAX ? -1LL : (long long)undefined_at,
                          (unsigned long long)bad);
        else if (t != -1)
            sweep_failure(s, "wrong map: %s, k = %d: output bit %d (64: the "
                          "constant) differs", shown(e), k, t);
    } else {
        if (must_be_affine)
            sweep_failure(s, "refused an affine form: %s, k = %d: %s",
                          shown(e), k, why);
        if (!why[0])
            sweep_failure(s, "refused without a reason: %s", shown(e));
    }
    uint64_t i = eval_disagreement(e, k, ref, undefined_at, &got, &ok, why,
                                   sizeof why);
    if (i != UINT64_MAX) {
        rv x;
        bool defined = ref_eval(e, i, &x);
        sweep_failure(s, "eval: %s at i = %llu: hd_expr_eval %s %#llx (%s), "
                      "the reference %s %#llx", shown(e), (unsigned long long)i,
                      ok ? "gave" : "refused", (unsigned long long)got, why,
                      defined ? "gives" : "leaves it undefined",
                      (unsigned long long)(defined ? held(x) : 0));
    }
    free(ref);
    hd_expr_free(e);
}

static void test_random_affine_grammar(void **state)
{
    (void)state;
    tu_rng_init("cexpr.random_affine_grammar");
    sweep s;
    memset(&s, 0, sizeof s);
    long n = tu_cases(6000);
    for (long c = 0; c < n; c++) {
        int k = 1 + (int)tu_below(10);
        tu_case(c, NULL, 0, NULL);
        sweep_one(&s, gen_affine(1 + (int)tu_below(5), k), k, true);
    }
    sweep_summary(&s);
    TU_CHECK(s.failures == 0, "%ld of %ld random affine trees failed (the "
             "first are printed above)", s.failures, s.cases);
    TU_CHECK_EQ(s.affine_accepted, s.cases, "affine trees accepted");
}

static void test_random_full_grammar(void **state)
{
    (void)state;
    tu_rng_init("cexpr.random_full_grammar");
    sweep s;
    memset(&s, 0, sizeof s);
    long n = tu_cases(8000);
    for (long c = 0; c < n; c++) {
        int k = (int)tu_below(11);
        tu_case(c, NULL, 0, NULL);
        sweep_one(&s, gen_any(1 + (int)tu_below(5), k), k, false);
    }
    sweep_summary(&s);
    /* The sweep must reach both outcomes to mean anything. */
    TU_CHECK(s.affine_accepted > n / 10 && s.affine_accepted < n - n / 10,
             "only %ld of %ld random trees were accepted as affine",
             s.affine_accepted, s.cases);
    TU_CHECK(s.failures == 0, "%ld failures in %ld random trees (the first "
             "are printed above)", s.failures, s.cases);
}

/* The forms of an LCC family the issue names (A[I][j], A[p][J], x[p ^
 * mask], a template number I % R), with their unknown bits, and what is
 * refused: a carry into an unknown, an unknown AND a varying bit, a shift
 * by an unknown amount. */
static void test_family_forms(void **state)
{
    (void)state;
    hd_affine f;
    uint64_t u;
    char why[256];
    /* A[I][j] of float A[16][16], I an int: I * 16 + j, k = 4. */
    hd_expr *e = BIN(HD_OP_ADD, BIN(HD_OP_MUL, OUTER(T_INT), C(16)), I());
    TU_CHECK(hd_expr_affine_family(e, 4, &f, &u, why, sizeof why), "I * 16 + j: %s", why);
    TU_CHECK_EQ(u, ~UINT64_C(0) << 4, "I * 16 + j: unknown bits");
    for (int t = 0; t < 4; t++)
        TU_CHECK_EQ(f.row[t], UINT64_C(1) << t, "I * 16 + j: row");
    TU_CHECK_EQ(f.c, 0, "I * 16 + j: constant");
    TU_CHECK(!hd_expr_affine(e, 4, &f, why, sizeof why), "hd_expr_affine must refuse it");
    hd_expr_free(e);
    /* A[p][J]: p * 16 + J with J unsigned below 16 as (J & 15). */
    e = BIN(HD_OP_ADD, BIN(HD_OP_MUL, I(), C(16)), BIN(HD_OP_AND, OUTER(T_UINT), C(15)));
    TU_CHECK(hd_expr_affine_family(e, 4, &f, &u, why, sizeof why), "p * 16 + (J & 15): %s", why);
    TU_CHECK_EQ(u, 15, "p * 16 + (J & 15): unknown bits");
    TU_CHECK_EQ(f.row[4], 1, "p * 16 + (J & 15): row 4");
    hd_expr_free(e);
    /* x[p ^ mask]. */
    e = BIN(HD_OP_XOR, I(), OUTER(T_UINT));
    TU_CHECK(hd_expr_affine_family(e, 6, &f, &u, why, sizeof why), "p ^ mask: %s", why);
    TU_CHECK_EQ(u, 0xffffffffu, "p ^ mask: unknown bits");
    hd_expr_free(e);
    /* (I % 4) * 4 + (p >> 2), the block template's row (I may be negative:
     * I % 4 is then negative, which the unknown bits above 1 cover). */
    e = BIN(HD_OP_ADD, BIN(HD_OP_MUL, BIN(HD_OP_MOD, OUTER(T_INT), C(4)), C(4)),
            BIN(HD_OP_SHR, I(), C(2)));
    TU_CHECK(hd_expr_affine_family(e, 4, &f, &u, why, sizeof why), "(I %% 4) * 4 + (p >> 2): %s", why);
    TU_CHECK_EQ(u, ~UINT64_C(0) << 2, "(I %% 4) * 4 + (p >> 2): unknown bits");
    TU_CHECK_EQ(f.row[0], 4, "row 0 is bit 2 of p");
    hd_expr_free(e);
    /* Refused: i + I may carry; i & I; i << I. */
    e = BIN(HD_OP_ADD, I(), OUTER(T_INT));
    TU_CHECK(!hd_expr_affine_family(e, 4, &f, &u, why, sizeof why) && strstr(why, "carry"),
             "i + I must be refused for its carries: %s", why);
    hd_expr_free(e);
    e = BIN(HD_OP_AND, I(), OUTER(T_INT));
    TU_CHECK(!hd_expr_affine_family(e, 4, &f, &u, why, sizeof why), "i & I must be refused");
    hd_expr_free(e);
    e = BIN(HD_OP_SHL, I(), OUTER(T_INT));
    TU_CHECK(!hd_expr_affine_family(e, 4, &f, &u, why, sizeof why), "i << I must be refused");
    hd_expr_free(e);
    /* Data is no outer variable. */
    e = BIN(HD_OP_XOR, I(), OPAQUE("the index depends on the contents of 'idx'"));
    TU_CHECK(!hd_expr_affine_family(e, 4, &f, &u, why, sizeof why) && strstr(why, "idx"),
             "data must stay refused: %s", why);
    hd_expr_free(e);
}

/* Gives every outer variable of e a value: small, negative, or any. */
static void give_values(hd_expr *e)
{
    if (!e)
        return;
    if (e->kind == HD_EX_OPAQUE && e->invariant) {
        long long v;
        switch (tu_below(4)) {
        case 0: v = (long long)tu_below(17); break;
        case 1: v = -(long long)tu_below(17) - 1; break;
        case 2: v = (long long)(tu_below(1024) << tu_below(20)); break;
        default: v = (long long)tu_rand(); break;
        }
        ctype t = ty(e->bits, e->is_signed);
        e->value = held(conv(rv_signed(T_LONG, v), t));
    }
    for (int j = 0; j < e->nkids; j++)
        give_values(e->kid[j]);
}

/* Whether e has an outer variable. */
static bool has_outer(const hd_expr *e)
{
    if (e->kind == HD_EX_OPAQUE && e->invariant)
        return true;
    for (int j = 0; j < e->nkids; j++)
        if (has_outer(e->kid[j]))
            return true;
    return false;
}

/*
 * hd_expr_affine_family on random trees with outer variables among their
 * leaves: when it accepts one as A i + b, then for 12 random values of
 * the outer variables, the tree computed by the reference evaluator at
 * every i is (A i) XOR (its value at i = 0), and that value agrees with
 * the map's constant outside the unknown bits.  Without outer variables
 * it must agree with hd_expr_affine.  Both generators are used, so that
 * the sweep reaches families that are and are not affine.
 */
static void test_random_family(void **state)
{
    (void)state;
    tu_rng_init("cexpr.random_family");
    long n = tu_cases(6000), accepted = 0, with_unknowns = 0, families = 0, failures = 0;
    outer_leaves = 3;
    for (long c = 0; c < n; c++) {
        int k = (int)tu_below(9);
        tu_case(c, NULL, 0, NULL);
        hd_expr *e = tu_chance(1, 2) ? gen_affine(1 + (int)tu_below(5), k)
                                     : gen_any(1 + (int)tu_below(5), k);
        hd_affine f, strict;
        uint64_t u = 0;
        char why[256] = "", why2[256];
        bool ok = hd_expr_affine_family(e, k, &f, &u, why, sizeof why);
        if (!has_outer(e)) {
            bool ok2 = hd_expr_affine(e, k, &strict, why2, sizeof why2);
            if (ok != ok2 || (ok && (u ||
                                    memcmp(f.row, strict.row, sizeof f.row) || f.c != strict.c))) {
                if (failures++ < 10)
                    fprintf(stderr, "  %s, k = %d: the family reading differs from "
                            "hd_expr_affine without outer variables\n", shown(e), k);
            }
        }
        if (ok) {
            accepted++;
            with_unknowns += u != 0;
            families += u != 0 && !hd_affine_is_constant(&f);
            TU_CHECK(!(f.c & u), "%s: the constant has bits where it is unknown", shown(e));
            for (int run = 0; run < 12; run++) {
                give_values(e);
                rv v0, vi;
                if (!ref_eval(e, 0, &v0))
                    continue;   /* undefined for these values: C says nothing */
                uint64_t b = held(v0);
                bool bad = (b & ~u) != f.c;
                for (uint64_t i = 1; i < (UINT64_C(1) << k) && !bad; i++) {
                    if (!ref_eval(e, i, &vi))
                        break;
                    bad = (held(vi) ^ b) != (hd_affine_apply(&f, i) ^ f.c);
                }
                if (bad && failures++ < 10)
                    fprintf(stderr, "  %s, k = %d: accepted as a family (unknown bits "
                            "%#llx) but is not one for some values\n", shown(e), k,
                            (unsigned long long)u);
            }
        } else if (!why[0] && failures++ < 10) {
            fprintf(stderr, "  %s: refused without a reason\n", shown(e));
        }
        hd_expr_free(e);
    }
    outer_leaves = 0;
    fprintf(stderr, "  %ld of %ld trees accepted, %ld of them with unknown bits, %ld of "
            "those varying with i\n", accepted, n, with_unknowns, families);
    TU_CHECK(failures == 0, "%ld failures (the first are printed above)", failures);
    TU_CHECK(families > n / 40 && accepted < n - n / 10,
             "the sweep must reach families and refusals: %ld accepted, %ld with unknowns",
             accepted, with_unknowns);
}

/* hd_helper_lookup: the names and arities of hyperdo/bits.h. */
static void test_helper_lookup(void **state)
{
    (void)state;
    for (int h = 0; h < 8; h++) {
        int nargs = -1;
        TU_CHECK_EQ(hd_helper_lookup(helper_name((hd_helper)h), &nargs), h,
                    helper_name((hd_helper)h));
        TU_CHECK_EQ(nargs, helper_arity((hd_helper)h), "arity");
    }
    int nargs;
    TU_CHECK(hd_helper_lookup("reversed", &nargs) == -1, "unknown name");
    TU_CHECK(hd_helper_lookup("", &nargs) == -1, "empty name");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_helper_lookup),
        cmocka_unit_test(test_affine_forms),
        cmocka_unit_test(test_affine_forms_k20),
        cmocka_unit_test(test_k0),
        cmocka_unit_test(test_general_forms),
        cmocka_unit_test(test_undefined_shifts),
        cmocka_unit_test(test_division_by_zero),
        cmocka_unit_test(test_division_overflow_int),
        cmocka_unit_test(test_signed_shift_right),
        cmocka_unit_test(test_casts),
        cmocka_unit_test(test_cast_to_bool),
        cmocka_unit_test(test_compare_unsigned_long),
        cmocka_unit_test(test_helpers_out_of_domain),
        cmocka_unit_test(test_rotate_negative),
        cmocka_unit_test(test_random_affine_grammar),
        cmocka_unit_test(test_random_full_grammar),
        cmocka_unit_test(test_family_forms),
        cmocka_unit_test(test_random_family),
    };
    /* HYPERDO_TEST_FILTER=test_casts runs one test (a cmocka pattern). */
    const char *filter = getenv("HYPERDO_TEST_FILTER");
    if (filter && *filter)
        cmocka_set_test_filter(filter);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
