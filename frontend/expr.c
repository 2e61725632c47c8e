/*
 * expr.c — index expressions of doall bodies: when they are GF(2)-affine
 * in the bits of the loop variable, and what they evaluate to otherwise.
 *
 * An affine map gives every output bit as a sum over GF(2) of input bits
 * plus a constant (analysis.h).  XOR is that sum, so `^` is always affine;
 * `&`, `|`, `+` and `-` are affine bit by bit wherever one operand's bit is a
 * known constant or no carry or borrow can arise; shifts by constants move
 * rows.  Values are C integers of the node's width, kept in 64 bits sign- or
 * zero-extended, so the C semantics of signed and unsigned types carry over.
 */
#include "frontend.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

hd_expr *hd_expr_new(hd_expr_kind kind, int bits, bool is_signed)
{
    hd_expr *e = hd_xcalloc(1, sizeof *e);
    e->kind = kind;
    e->bits = bits;
    e->is_signed = is_signed;
    return e;
}

void hd_expr_free(hd_expr *e)
{
    if (!e)
        return;
    for (int k = 0; k < e->nkids; k++)
        hd_expr_free(e->kid[k]);
    free(e->reason);
    free(e);
}

static const struct {
    const char *name;
    int nargs;
} helpers[] = {
    [HD_HELPER_REVERSE] = { "reverse", 2 },
    [HD_HELPER_GRAY] = { "gray", 1 },
    [HD_HELPER_ROTL] = { "rotl", 3 },
    [HD_HELPER_ROTR] = { "rotr", 3 },
    [HD_HELPER_SHUFFLE] = { "shuffle", 2 },
    [HD_HELPER_UNSHUFFLE] = { "unshuffle", 2 },
    [HD_HELPER_TRANSPOSE] = { "transpose", 2 },
    [HD_HELPER_BIT] = { "bit", 2 },
};

int hd_helper_lookup(const char *name, int *nargs)
{
    for (int h = 0; h < (int)(sizeof helpers / sizeof helpers[0]); h++)
        if (strcmp(name, helpers[h].name) == 0) {
            *nargs = helpers[h].nargs;
            return h;
        }
    return -1;
}

__attribute__((format(printf, 3, 4)))
static bool fail(char *why, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, size, fmt, ap);
    va_end(ap);
    return false;
}

/* ------------------------------------------------------------ values */

/* Truncates v to `bits` and extends it back to 64 as the type says. */
static uint64_t extend(uint64_t v, int bits, bool is_signed)
{
    if (bits >= 64)
        return v;
    v &= hd_mask(bits);
    if (is_signed && ((v >> (bits - 1)) & 1))
        v |= ~hd_mask(bits);
    return v;
}

/* The same for an affine map: rows above the width copy the sign row. */
static void extend_map(hd_affine *f, int bits, bool is_signed)
{
    if (bits >= 64)
        return;
    for (int t = bits; t < 64; t++)
        f->row[t] = is_signed ? f->row[bits - 1] : 0;
    f->c = extend(f->c, bits, is_signed);
}

static const char *op_name(hd_op op)
{
    static const char *const names[] = {
        [HD_OP_ADD] = "+", [HD_OP_SUB] = "-", [HD_OP_MUL] = "*",
        [HD_OP_DIV] = "/", [HD_OP_MOD] = "%", [HD_OP_SHL] = "<<",
        [HD_OP_SHR] = ">>", [HD_OP_AND] = "&", [HD_OP_OR] = "|",
        [HD_OP_XOR] = "^", [HD_OP_LT] = "<", [HD_OP_GT] = ">",
        [HD_OP_LE] = "<=", [HD_OP_GE] = ">=", [HD_OP_EQ] = "==",
        [HD_OP_NE] = "!=", [HD_OP_LAND] = "&&", [HD_OP_LOR] = "||",
        [HD_OP_NEG] = "-", [HD_OP_PLUS] = "+", [HD_OP_NOT] = "~",
        [HD_OP_LNOT] = "!",
    };
    return names[op];
}

/* A constant power of two 2^s; -1 otherwise. */
static int log2_exact(uint64_t v)
{
    return v && !(v & (v - 1)) ? __builtin_ctzll(v) : -1;
}

/* ------------------------------------------------------ helpers' maps */

/*
 * What the affine reading of a tree works out: the map, and (for an LCC
 * family, hd_expr_affine_family) the bits of its constant that depend on
 * invariant unknowns, outer variables whose values come only at run time.
 * The map's constant is 0 at those bits.  An unknown bit is never taken
 * to equal another, nor to be zero: a sum with it may carry, a bit AND it
 * is affine only where the other operand's bit is a known constant.
 */
typedef struct {
    hd_affine f;
    uint64_t u;
} val;

/* Where a reason goes, and whether invariant unknowns are allowed. */
typedef struct {
    char *why;
    size_t size;
    bool family;
} reading;

__attribute__((format(printf, 2, 3)))
static bool refuse(const reading *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->why, r->size, fmt, ap);
    va_end(ap);
    return false;
}

/* The value's bits known to be 0 for every i and every unknown. */
static uint64_t zero_bits(const val *v)
{
    return hd_affine_zero_bits(&v->f) & ~v->u;
}

/* A known constant: no input bit and no unknown. */
static bool is_constant(const val *v)
{
    return hd_affine_is_constant(&v->f) && !v->u;
}

/* The same at every i (a constant, or known only at run time). */
static bool is_invariant(const val *v)
{
    return hd_affine_is_constant(&v->f);
}

/* Every bit of e's type unknown: the value of an invariant expression the
 * reading cannot follow bit by bit (I + J, I * J, f(I)). */
static bool unknown_value(const hd_expr *e, int k, val *out)
{
    out->f = hd_affine_constant(k, 0);
    out->u = e->is_signed || e->bits >= 64 ? ~UINT64_C(0) : hd_mask(e->bits);
    return true;
}

/* An operation's map in the type of its expression e, whose width and
 * signedness C converts the result to; true, for `return` at the end of
 * each operator's map. */
static bool in_type_of(const hd_expr *e, val *out)
{
    extend_map(&out->f, e->bits, e->is_signed);
    out->u = extend(out->u, e->bits, e->is_signed);
    out->f.c &= ~out->u;
    return true;
}

/* Bit t of the result takes bit src[t] of the argument (-1: zero), for t
 * below 64; this is how every helper of hyperdo/bits.h acts on bits. */
static void permute_bits(val *v, const int src[64])
{
    val g = { hd_affine_constant(v->f.in, 0), 0 };
    for (int t = 0; t < 64; t++)
        if (src[t] >= 0) {
            g.f.row[t] = v->f.row[src[t]];
            g.f.c |= ((v->f.c >> src[t]) & 1) << t;
            g.u |= ((v->u >> src[t]) & 1) << t;
        }
    *v = g;
}

/* The bit moves of a helper with constant extra arguments p[]; false when
 * the arguments are out of the helper's domain. */
static bool helper_moves(hd_helper h, const uint64_t *p, int src[64],
                         char *why, size_t size)
{
    int n = 0, r = 0;
    for (int t = 0; t < 64; t++)
        src[t] = -1;
    switch (h) {
    case HD_HELPER_GRAY:
        return true;   /* handled as i ^ (i >> 1) by the caller */
    case HD_HELPER_BIT:
        if (p[0] > 63)
            return fail(why, size, "bit(i, %llu): bit index out of range",
                        (unsigned long long)p[0]);
        src[0] = (int)p[0];
        return true;
    case HD_HELPER_ROTL:
    case HD_HELPER_ROTR:
        n = (int)p[1];
        if (p[1] < 1 || p[1] > 64)
            return fail(why, size, "%s: n = %llu out of 1..64",
                        helpers[h].name, (unsigned long long)p[1]);
        /* As bits.h computes it in int: r %= n, then made non-negative. */
        r = (int)((int64_t)p[0] % n);
        if (r < 0)
            r += n;
        if (h == HD_HELPER_ROTR)
            r = (n - r) % n;
        break;
    default:
        n = (int)p[0];
        if (p[0] < 1 || p[0] > 64)
            return fail(why, size, "%s: n = %llu out of 1..64",
                        helpers[h].name, (unsigned long long)p[0]);
        break;
    }
    for (int t = 0; t < n; t++) {
        switch (h) {
        case HD_HELPER_REVERSE: src[t] = n - 1 - t; break;
        case HD_HELPER_SHUFFLE: src[t] = (t + n - 1) % n; break;
        case HD_HELPER_UNSHUFFLE: src[t] = (t + 1) % n; break;
        case HD_HELPER_TRANSPOSE:
            /* Halves of h = n/2 bits swap; for odd n bit n-1 stays. */
            src[t] = t >= 2 * (n / 2) ? t : (t + n / 2) % (2 * (n / 2));
            break;
        default: /* rotations: result bit (t + r) mod n is bit t */
            src[(t + r) % n] = t;
            break;
        }
    }
    return true;
}

/* ------------------------------------------------------------ affine */

static bool affine(const hd_expr *e, int k, val *out, const reading *r);

static bool const_value(const hd_expr *e, int k, uint64_t *v, const reading *r)
{
    val x;
    if (!affine(e, k, &x, r))
        return false;
    if (!is_constant(&x))
        return refuse(r, "the operand must be a constant");
    *v = x.f.c;
    return true;
}

static bool affine_call(const hd_expr *e, int k, val *out, const reading *r)
{
    uint64_t p[2] = { 0, 0 };
    int src[64];
    if (!affine(e->kid[0], k, out, r))
        return false;
    for (int a = 1; a < e->nkids; a++)
        if (!const_value(e->kid[a], k, &p[a - 1], r)) {
            val arg;
            /* rotl(I, s, n) with I and s outer variables: known at run time. */
            if (is_invariant(out) && affine(e->kid[a], k, &arg, r) && is_invariant(&arg))
                return unknown_value(e, k, out);
            return refuse(r, "%s: argument %d is not a constant",
                          helpers[e->helper].name, a + 1);
        }
    /* The helpers take and return unsigned long. */
    extend_map(&out->f, 64, false);
    if (e->helper == HD_HELPER_GRAY) {
        val shifted = *out;
        int moves[64];
        for (int t = 0; t < 64; t++)
            moves[t] = t + 1 < 64 ? t + 1 : -1;
        permute_bits(&shifted, moves);
        for (int t = 0; t < 64; t++)
            out->f.row[t] ^= shifted.f.row[t];
        out->f.c ^= shifted.f.c;
        out->u |= shifted.u;
        out->f.c &= ~out->u;
        return true;
    }
    if (!helper_moves(e->helper, p, src, r->why, r->size))
        return false;
    permute_bits(out, src);
    return true;
}

/* Bit by bit: the result's bit t when one operand's bit t is the constant
 * c; false when neither operand's bit is constant.  An unknown bit is not
 * constant, but AND or OR of it with an unknown one is unknown. */
static bool bitwise(hd_op op, const val *a, const val *b, val *out, const reading *r)
{
    uint64_t live = hd_mask(a->f.in);
    *out = (val){ hd_affine_constant(a->f.in, 0), 0 };
    for (int t = 0; t < 64; t++) {
        bool au = (a->u >> t) & 1, bu = (b->u >> t) & 1;
        bool ac = !(a->f.row[t] & live) && !au, bc = !(b->f.row[t] & live) && !bu;
        int av = (a->f.c >> t) & 1, bv = (b->f.c >> t) & 1;
        const val *other;
        int cv;
        if (ac && bc) {
            int v = op == HD_OP_AND ? (av & bv) : (av | bv);
            out->f.c |= (uint64_t)v << t;
            continue;
        }
        if (!ac && !bc) {
            if (!(a->f.row[t] & live) && !(b->f.row[t] & live)) {
                out->u |= UINT64_C(1) << t;
                continue;
            }
            return refuse(r, "'%s' of two values that both depend on the same "
                          "bit of the loop variable is not affine over GF(2)",
                          op_name(op));
        }
        other = ac ? b : a;
        cv = ac ? av : bv;
        /* x & 0 = 0, x & 1 = x;  x | 0 = x, x | 1 = 1. */
        if ((op == HD_OP_AND && cv) || (op == HD_OP_OR && !cv)) {
            out->f.row[t] = other->f.row[t];
            out->f.c |= other->f.c & (UINT64_C(1) << t);
            out->u |= other->u & (UINT64_C(1) << t);
        } else if (op == HD_OP_OR) {
            out->f.c |= UINT64_C(1) << t;
        }
    }
    return true;
}

static void shift_rows(val *v, int s, bool left, bool arithmetic)
{
    int src[64];
    for (int t = 0; t < 64; t++) {
        int from = left ? t - s : t + s;
        src[t] = from >= 0 && from < 64 ? from : (arithmetic && !left ? 63 : -1);
    }
    permute_bits(v, src);
}

/* Bit t of a equals bit t of b (or its complement) for every i; never
 * for an unknown bit. */
static bool same_bit(const val *a, const val *b, int t, bool complement)
{
    uint64_t live = hd_mask(a->f.in);
    return !(((a->u | b->u) >> t) & 1) &&
           (a->f.row[t] & live) == (b->f.row[t] & live) &&
           (((a->f.c ^ b->f.c) >> t) & 1) == (uint64_t)complement;
}

static bool affine_binary(const hd_expr *e, int k, val *out, const reading *r)
{
    val a, b;
    if (!affine(e->kid[0], k, &a, r) || !affine(e->kid[1], k, &b, r))
        return false;
    bool ac = is_constant(&a), bc = is_constant(&b);
    /* Both the same at every i, one known only at run time: where the
     * rules below cannot follow the bits, the whole value is unknown. */
    bool invariant = is_invariant(&a) && is_invariant(&b);
    uint64_t az = zero_bits(&a), bz = zero_bits(&b);
    int s;

    if (ac && bc) {
        /* Folded by evaluation, which also reports undefined operations. */
        uint64_t v;
        if (!hd_expr_eval(e, 0, &v, r->why, r->size))
            return false;
        out->f = hd_affine_constant(k, v);
        out->u = 0;
        return true;
    }
    switch (e->op) {
    case HD_OP_XOR:
        break;
    case HD_OP_AND:
    case HD_OP_OR:
        if (!bitwise(e->op, &a, &b, out, r))
            return false;
        return in_type_of(e, out);
    case HD_OP_ADD:
        /* No carry when at every bit one operand is zero, or they are
         * each other's complement (then the sum bit is 1). */
        for (int t = 0; t < 64; t++)
            if (!((az >> t) & 1) && !((bz >> t) & 1) && !same_bit(&a, &b, t, true))
                return invariant ? unknown_value(e, k, out)
                                 : refuse(r, "'+' may carry between bits, which "
                                          "is not affine over GF(2)");
        break;
    case HD_OP_SUB:
        /* No borrow when every bit the subtrahend can set is set in the
         * minuend: it is the same bit, or the minuend's is always 1. */
        for (int t = 0; t < 64; t++) {
            bool b_zero = (bz >> t) & 1;
            bool a_one = !(a.f.row[t] & hd_mask(a.f.in)) && !((a.u >> t) & 1) &&
                         ((a.f.c >> t) & 1);
            if (!b_zero && !a_one && !same_bit(&a, &b, t, false))
                return invariant ? unknown_value(e, k, out)
                                 : refuse(r, "'-' may borrow between bits, "
                                          "which is not affine over GF(2)");
        }
        break;
    case HD_OP_MUL:
        s = ac ? log2_exact(a.f.c) : bc ? log2_exact(b.f.c) : -1;
        if (s < 0)
            return invariant ? unknown_value(e, k, out)
                             : refuse(r, "'*' is affine over GF(2) only by a "
                                      "constant power of two");
        *out = ac ? b : a;
        shift_rows(out, s, true, false);
        return in_type_of(e, out);
    case HD_OP_SHL:
    case HD_OP_SHR:
    case HD_OP_DIV:
    case HD_OP_MOD:
        if (!bc)
            return invariant ? unknown_value(e, k, out)
                             : refuse(r, "'%s' by a non-constant amount is not "
                                      "affine over GF(2)", op_name(e->op));
        if (e->op == HD_OP_SHL || e->op == HD_OP_SHR) {
            if (b.f.c >= (uint64_t)e->bits)
                return refuse(r, "shift by %lld is undefined for a %d-bit type",
                              (long long)b.f.c, e->bits);
            s = (int)b.f.c;
        } else {
            s = log2_exact(b.f.c);
            if (s < 0 || (e->is_signed && !((az >> 63) & 1))) {
                if (invariant)
                    return unknown_value(e, k, out);
                if (s < 0)
                    return refuse(r, "'%s' is affine over GF(2) only by a "
                                  "constant power of two", op_name(e->op));
                return refuse(r, "'%s' of a value that may be negative",
                              op_name(e->op));
            }
        }
        *out = a;
        if (e->op == HD_OP_MOD) {
            for (int t = s; t < 64; t++)
                out->f.row[t] = 0;
            out->f.c &= hd_mask(s);
            out->u &= hd_mask(s);
        } else {
            shift_rows(out, s, e->op == HD_OP_SHL, e->is_signed);
        }
        return in_type_of(e, out);
    default:
        if (invariant)
            return unknown_value(e, k, out);
        return refuse(r, "'%s' is not affine over GF(2)", op_name(e->op));
    }
    /* XOR, and + or - without carries or borrows. */
    for (int t = 0; t < 64; t++)
        a.f.row[t] ^= b.f.row[t];
    a.f.c ^= b.f.c;
    a.u |= b.u;
    a.f.c &= ~a.u;
    *out = a;
    return in_type_of(e, out);
}

/* C's conversion to _Bool is x != 0, not a truncation: affine when x is
 * a constant or has a single bit that can be set. */
static bool to_bool(const hd_expr *e, int k, val *v, const reading *r)
{
    uint64_t live = ~zero_bits(v);
    if (is_constant(v)) {
        v->f = hd_affine_constant(v->f.in, v->f.c != 0);
        return true;
    }
    if (is_invariant(v)) {
        unknown_value(e, k, v);
        v->u = 1;
        return true;
    }
    if ((live & (live - 1)) || v->u)
        return refuse(r, "conversion to _Bool (x != 0) of a value with "
                      "several varying bits is not affine over GF(2)");
    int t = __builtin_ctzll(live);
    hd_affine g = hd_affine_constant(v->f.in, (v->f.c >> t) & 1);
    g.row[0] = v->f.row[t];
    v->f = g;
    return true;
}

static bool affine(const hd_expr *e, int k, val *out, const reading *r)
{
    uint64_t v;
    switch (e->kind) {
    case HD_EX_CONST:
        *out = (val){ hd_affine_constant(k, e->value), 0 };
        return true;
    case HD_EX_INDEX:
        *out = (val){ hd_affine_identity(k), 0 };
        return true;
    case HD_EX_CAST:
        if (!affine(e->kid[0], k, out, r))
            return false;
        if (e->bits == 1)
            return to_bool(e, k, out, r);
        return in_type_of(e, out);
    case HD_EX_UNARY:
        if (!affine(e->kid[0], k, out, r))
            return false;
        if (e->op == HD_OP_NOT) {
            out->f.c = ~out->f.c & ~out->u;
        } else if (e->op != HD_OP_PLUS) {
            if (!is_constant(out)) {
                if (is_invariant(out))
                    return unknown_value(e, k, out);
                return refuse(r, "unary '%s' is not affine over GF(2)", op_name(e->op));
            }
            if (!hd_expr_eval(e, 0, &v, r->why, r->size))
                return false;
            out->f = hd_affine_constant(k, v);
        }
        return in_type_of(e, out);
    case HD_EX_BINARY:
        return affine_binary(e, k, out, r);
    case HD_EX_COND:
        if (!const_value(e->kid[0], k, &v, r)) {
            val c, x, y;
            if (affine(e->kid[0], k, &c, r) && is_invariant(&c) &&
                affine(e->kid[1], k, &x, r) && is_invariant(&x) &&
                affine(e->kid[2], k, &y, r) && is_invariant(&y))
                return unknown_value(e, k, out);
            return refuse(r, "'?:' with a condition that depends on the loop "
                          "variable is not affine over GF(2)");
        }
        if (!affine(e->kid[v ? 1 : 2], k, out, r))
            return false;
        return in_type_of(e, out);
    case HD_EX_CALL:
        return affine_call(e, k, out, r);
    case HD_EX_OPAQUE:
        /* An outer variable is the same at every iteration: in a family
         * its bits are unknowns; anything else is not affine. */
        if (r->family && e->invariant)
            return unknown_value(e, k, out);
        return refuse(r, "%s", e->reason ? e->reason : "unknown value");
    }
    return refuse(r, "unknown expression");
}

bool hd_expr_affine(const hd_expr *e, int k, hd_affine *out, char *why,
                    size_t why_size)
{
    reading r = { why, why_size, false };
    val v;
    if (!affine(e, k, &v, &r))
        return false;
    *out = v.f;
    return true;
}

bool hd_expr_affine_family(const hd_expr *e, int k, hd_affine *out,
                           uint64_t *unknown, char *why, size_t why_size)
{
    reading r = { why, why_size, true };
    val v;
    if (!affine(e, k, &v, &r))
        return false;
    *out = v.f;
    *unknown = v.u;
    return true;
}

/* ------------------------------------------------------------ values */

static bool eval(const hd_expr *e, uint64_t i, const int64_t *vars, uint64_t *v,
                 char *why, size_t size);

static bool eval_call(const hd_expr *e, uint64_t i, const int64_t *vars, uint64_t *v,
                      char *why, size_t size)
{
    uint64_t x, p[2] = { 0, 0 };
    int src[64];
    if (!eval(e->kid[0], i, vars, &x, why, size))
        return false;
    for (int a = 1; a < e->nkids; a++)
        if (!eval(e->kid[a], i, vars, &p[a - 1], why, size))
            return false;
    if (e->helper == HD_HELPER_GRAY) {
        *v = x ^ (x >> 1);
        return true;
    }
    if (!helper_moves(e->helper, p, src, why, size))
        return false;
    *v = 0;
    for (int t = 0; t < 64; t++)
        if (src[t] >= 0)
            *v |= ((x >> src[t]) & 1) << t;
    return true;
}

static bool eval_binary(const hd_expr *e, uint64_t a, uint64_t b,
                        uint64_t *v, char *why, size_t size)
{
    /* Operands arrive converted to their common type (kid 0's); a
     * comparison's own type is int whatever that type was. */
    bool sg = e->kid[0]->is_signed;
    int64_t sa = (int64_t)a, sb = (int64_t)b;
    int w = e->kid[0]->bits;
    switch (e->op) {
    case HD_OP_ADD: *v = a + b; break;
    case HD_OP_SUB: *v = a - b; break;
    case HD_OP_MUL: *v = a * b; break;
    case HD_OP_DIV:
    case HD_OP_MOD:
        if (b == 0)
            return fail(why, size, "division by zero");
        if (sg && sb == -1 && w >= 2 && w <= 64 &&
            a == extend(UINT64_C(1) << (w - 1), w, true))
            return fail(why, size, "division overflows");
        if (e->op == HD_OP_DIV)
            *v = sg ? (uint64_t)(sa / sb) : a / b;
        else
            *v = sg ? (uint64_t)(sa % sb) : a % b;
        break;
    case HD_OP_SHL:
    case HD_OP_SHR:
        sg = e->is_signed;
        if (b >= (uint64_t)e->bits)
            return fail(why, size, "shift by %lld is undefined for a %d-bit "
                        "type", (long long)sb, e->bits);
        if (e->op == HD_OP_SHL)
            *v = a << b;
        else
            *v = sg ? (uint64_t)(sa >> b) : a >> b;
        break;
    case HD_OP_AND: *v = a & b; break;
    case HD_OP_OR: *v = a | b; break;
    case HD_OP_XOR: *v = a ^ b; break;
    case HD_OP_LT: *v = sg ? sa < sb : a < b; break;
    case HD_OP_GT: *v = sg ? sa > sb : a > b; break;
    case HD_OP_LE: *v = sg ? sa <= sb : a <= b; break;
    case HD_OP_GE: *v = sg ? sa >= sb : a >= b; break;
    case HD_OP_EQ: *v = a == b; break;
    case HD_OP_NE: *v = a != b; break;
    case HD_OP_LAND: *v = a && b; break;
    case HD_OP_LOR: *v = a || b; break;
    default:
        return fail(why, size, "bad operator");
    }
    return true;
}

static bool eval(const hd_expr *e, uint64_t i, const int64_t *vars, uint64_t *v,
                 char *why, size_t size)
{
    uint64_t a, b;
    switch (e->kind) {
    case HD_EX_CONST:
        *v = e->value;
        break;
    case HD_EX_INDEX:
        *v = i;
        break;
    case HD_EX_CAST:
        if (!eval(e->kid[0], i, vars, v, why, size))
            return false;
        if (e->bits == 1)
            *v = *v != 0;   /* _Bool */
        break;
    case HD_EX_UNARY:
        if (!eval(e->kid[0], i, vars, &a, why, size))
            return false;
        *v = e->op == HD_OP_NEG ? -a : e->op == HD_OP_NOT ? ~a
           : e->op == HD_OP_LNOT ? !a : a;
        break;
    case HD_EX_BINARY:
        if (!eval(e->kid[0], i, vars, &a, why, size))
            return false;
        /* && and || do not evaluate their right operand needlessly. */
        if ((e->op == HD_OP_LAND && !a) || (e->op == HD_OP_LOR && a)) {
            *v = e->op == HD_OP_LOR;
            break;
        }
        if (!eval(e->kid[1], i, vars, &b, why, size) ||
            !eval_binary(e, a, b, v, why, size))
            return false;
        break;
    case HD_EX_COND:
        if (!eval(e->kid[0], i, vars, &a, why, size) ||
            !eval(e->kid[a ? 1 : 2], i, vars, v, why, size))
            return false;
        break;
    case HD_EX_CALL:
        if (!eval_call(e, i, vars, v, why, size))
            return false;
        break;
    case HD_EX_OPAQUE:
        if (e->var > 0 && vars) {
            *v = (uint64_t)vars[e->var - 1];
            break;
        }
        return fail(why, size, "%s", e->reason ? e->reason : "unknown value");
    }
    *v = extend(*v, e->bits, e->is_signed);
    return true;
}

/* Does e change with the loop variable (or may it: data)? */
static bool varies(const hd_expr *e)
{
    if (!e || e->kind == HD_EX_INDEX)
        return true;
    if (e->kind == HD_EX_CONST)
        return false;
    if (e->kind == HD_EX_OPAQUE)
        return !e->invariant;
    for (int k = 0; k < e->nkids; k++)
        if (varies(e->kid[k]))
            return true;
    return false;
}

/*
 * One-to-one in the loop variable i (of k bits) for every value of the
 * invariant unknowns.  x ^ c, x + c, x - c, c - x, -x, ~x and +x of an
 * invariant c are bijections of the integers modulo 2^w for every w, so a
 * chain of them from i stays one-to-one on i's 2^k values after what keeps
 * the low w >= k bits: a mask x & (2^w - 1), a conversion to w bits.
 * Anything else is not claimed.
 */
static bool injective(const hd_expr *e, int k)
{
    if (!e)
        return false;
    switch (e->kind) {
    case HD_EX_INDEX:
        return true;
    case HD_EX_CAST:
        return e->nkids == 1 && e->bits >= k && injective(e->kid[0], k);
    case HD_EX_UNARY:
        return e->nkids == 1 && (e->op == HD_OP_NEG || e->op == HD_OP_NOT ||
                                 e->op == HD_OP_PLUS) &&
               injective(e->kid[0], k);
    case HD_EX_BINARY:
        if (e->nkids != 2)
            return false;
        if (e->op == HD_OP_XOR || e->op == HD_OP_ADD || e->op == HD_OP_SUB)
            return (injective(e->kid[0], k) && !varies(e->kid[1])) ||
                   (injective(e->kid[1], k) && !varies(e->kid[0]));
        if (e->op == HD_OP_AND)
            for (int s = 0; s < 2; s++) {
                const hd_expr *m = e->kid[s];
                if (m && m->kind == HD_EX_CONST && m->value != UINT64_MAX &&
                    (m->value & (m->value + 1)) == 0 &&
                    __builtin_popcountll(m->value) >= k && e->bits >= k &&
                    injective(e->kid[1 - s], k))
                    return true;
            }
        return false;
    default:
        return false;
    }
}

bool hd_expr_determined(const hd_expr *e)
{
    if (!e)
        return false;
    if (e->kind == HD_EX_OPAQUE)
        return e->invariant;
    for (int k = 0; k < e->nkids; k++)
        if (!hd_expr_determined(e->kid[k]))
            return false;
    return true;
}

bool hd_expr_equal(const hd_expr *a, const hd_expr *b)
{
    if (!a || !b || a->kind != b->kind || a->bits != b->bits || a->is_signed != b->is_signed ||
        a->nkids != b->nkids)
        return false;
    switch (a->kind) {
    case HD_EX_CONST:
        return a->value == b->value;
    case HD_EX_OPAQUE:
        return a->invariant && b->invariant && a->reason && b->reason &&
               strcmp(a->reason, b->reason) == 0;
    case HD_EX_UNARY: case HD_EX_BINARY:
        if (a->op != b->op)
            return false;
        break;
    case HD_EX_CALL:
        if (a->helper != b->helper)
            return false;
        break;
    default:
        break;
    }
    for (int k = 0; k < a->nkids; k++)
        if (!hd_expr_equal(a->kid[k], b->kid[k]))
            return false;
    return true;
}

bool hd_ref_same_index(const hd_program *p, const hd_ref *x, const hd_ref *y)
{
    const hd_array *a = &p->arrays[x->array];
    const hd_array *b = &p->arrays[y->array];
    if (x->nsubs != y->nsubs || a->ndims != b->ndims || x->nsubs != a->ndims ||
        !hd_expr_determined(x->index))
        return false;
    for (int d = 1; d < a->ndims; d++)
        if (a->extent[d] != b->extent[d])
            return false;
    return hd_expr_equal(x->index, y->index);
}

bool hd_expr_injective(const hd_expr *e, int k)
{
    return injective(e, k);
}

bool hd_expr_eval(const hd_expr *e, uint64_t i, uint64_t *value, char *why,
                  size_t why_size)
{
    return eval(e, i, NULL, value, why, why_size);
}

bool hd_expr_eval_vars(const hd_expr *e, uint64_t i, const int64_t *vars, uint64_t *value,
                       char *why, size_t why_size)
{
    return eval(e, i, vars, value, why, why_size);
}

hd_expr *hd_expr_copy_node(const hd_expr *e)
{
    hd_expr *c = hd_expr_new(e->kind, e->bits, e->is_signed);
    c->op = e->op;
    c->helper = e->helper;
    c->value = e->value;
    c->invariant = e->invariant;
    c->body_local = e->body_local;
    c->var = e->var;
    c->decl = e->decl;
    c->reason = e->reason ? hd_xstrdup(e->reason) : NULL;
    return c;
}

bool hd_expr_uses_vars(const hd_expr *e)
{
    if (!e)
        return false;
    if (e->kind == HD_EX_OPAQUE)
        return e->var > 0;
    for (int k = 0; k < e->nkids; k++)
        if (hd_expr_uses_vars(e->kid[k]))
            return true;
    return false;
}

hd_expr *hd_expr_bind_vars(const hd_expr *e, const int64_t *vals)
{
    if (!e)
        return NULL;
    if (e->kind == HD_EX_OPAQUE && e->var > 0) {
        hd_expr *c = hd_expr_new(HD_EX_CONST, e->bits, e->is_signed);
        c->value = extend((uint64_t)vals[e->var - 1], e->bits, e->is_signed);
        return c;
    }
    hd_expr *c = hd_expr_copy_node(e);
    c->nkids = e->nkids;
    for (int k = 0; k < e->nkids; k++)
        c->kid[k] = hd_expr_bind_vars(e->kid[k], vals);
    return c;
}

/*
 * Checking a general reference evaluates its index at every iteration; one
 * call per iteration spent most of its time getting from node to node.
 * Here every node is evaluated for a block of iterations at once.  Where
 * hd_expr_eval would not evaluate an operand (the right of && and ||, the
 * branch of ?: not taken) it is evaluated all the same but its result not
 * used: eval_binary is defined for every input.  Calls of the helpers are
 * rare in indexes and go one iteration at a time.
 */
static void eval_block(const hd_expr *e, uint64_t base, int n, uint64_t *v,
                       bool *ok)
{
    uint64_t a[HD_EVAL_BLOCK], b[HD_EVAL_BLOCK];
    bool oka[HD_EVAL_BLOCK], okb[HD_EVAL_BLOCK];
    char why[8];
    switch (e->kind) {
    case HD_EX_CONST:
        for (int j = 0; j < n; j++)
            v[j] = e->value, ok[j] = true;
        break;
    case HD_EX_INDEX:
        for (int j = 0; j < n; j++)
            v[j] = base + (uint64_t)j, ok[j] = true;
        break;
    case HD_EX_CAST:
        eval_block(e->kid[0], base, n, v, ok);
        if (e->bits == 1)
            for (int j = 0; j < n; j++)
                v[j] = v[j] != 0;   /* _Bool */
        break;
    case HD_EX_UNARY:
        eval_block(e->kid[0], base, n, v, ok);
        for (int j = 0; j < n; j++)
            v[j] = e->op == HD_OP_NEG ? -v[j] : e->op == HD_OP_NOT ? ~v[j]
                 : e->op == HD_OP_LNOT ? !v[j] : v[j];
        break;
    case HD_EX_BINARY:
        eval_block(e->kid[0], base, n, a, oka);
        eval_block(e->kid[1], base, n, b, okb);
        /* The operators that cannot fail, in loops of their own. */
        switch (e->op) {
        case HD_OP_ADD: case HD_OP_SUB: case HD_OP_MUL:
        case HD_OP_AND: case HD_OP_OR: case HD_OP_XOR:
            for (int j = 0; j < n; j++)
                ok[j] = oka[j] && okb[j];
            if (e->op == HD_OP_ADD)
                for (int j = 0; j < n; j++) v[j] = a[j] + b[j];
            else if (e->op == HD_OP_SUB)
                for (int j = 0; j < n; j++) v[j] = a[j] - b[j];
            else if (e->op == HD_OP_MUL)
                for (int j = 0; j < n; j++) v[j] = a[j] * b[j];
            else if (e->op == HD_OP_AND)
                for (int j = 0; j < n; j++) v[j] = a[j] & b[j];
            else if (e->op == HD_OP_OR)
                for (int j = 0; j < n; j++) v[j] = a[j] | b[j];
            else
                for (int j = 0; j < n; j++) v[j] = a[j] ^ b[j];
            goto extend;
        default:
            break;
        }
        for (int j = 0; j < n; j++) {
            if (!oka[j]) {
                ok[j] = false;
            } else if ((e->op == HD_OP_LAND && !a[j]) ||
                       (e->op == HD_OP_LOR && a[j])) {
                v[j] = e->op == HD_OP_LOR;
                ok[j] = true;
            } else {
                ok[j] = okb[j] && eval_binary(e, a[j], b[j], &v[j], why, sizeof why);
            }
        }
        break;
    case HD_EX_COND:
        /* The condition goes in v, as the call above does for casts. */
        eval_block(e->kid[0], base, n, v, ok);
        eval_block(e->kid[1], base, n, a, oka);
        eval_block(e->kid[2], base, n, b, okb);
        for (int j = 0; j < n; j++) {
            ok[j] = ok[j] && (v[j] ? oka[j] : okb[j]);
            v[j] = v[j] ? a[j] : b[j];
        }
        break;
    case HD_EX_CALL:
        for (int j = 0; j < n; j++)
            ok[j] = eval(e, base + (uint64_t)j, NULL, &v[j], why, sizeof why);
        break;
    case HD_EX_OPAQUE:
        for (int j = 0; j < n; j++)
            ok[j] = false;
        break;
    }
extend:
    /* As eval ends (a value eval already extended stays the same); the
     * value of an iteration that fails is 0, never left unset. */
    if (e->bits >= 64) {
        for (int j = 0; j < n; j++)
            v[j] = ok[j] ? v[j] : 0;
        return;
    }
    for (int j = 0; j < n; j++)
        v[j] = ok[j] ? extend(v[j], e->bits, e->is_signed) : 0;
}

void hd_expr_eval_block(const hd_expr *e, uint64_t base, int n,
                        uint64_t *value, bool *ok)
{
    eval_block(e, base, n, value, ok);
}

/* ---------------------------------------------------------- guards */

hd_guard_truth hd_guard_at(const hd_loop *l, int g, uint64_t i)
{
    hd_guard_truth truth = HD_GUARD_YES;
    /* Inner conditions first: an outer one known false wins even where an
     * inner one cannot be evaluated (C would not evaluate it). */
    for (; g >= 0; g = l->guards[g].parent) {
        const hd_guard *gd = &l->guards[g];
        uint64_t v = 0;
        char why[8];
        if (!gd->cond || !hd_expr_eval(gd->cond, i, &v, why, sizeof why))
            truth = HD_GUARD_MAYBE;
        else if ((v != 0) != gd->when)
            return HD_GUARD_NO;
    }
    return truth;
}
