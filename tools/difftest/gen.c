/*
 * gen.c — random annotated C programs for the differential tester
 * (tools/difftest/difftest.sh, docs/difftest.md).
 *
 *     gen [--avoid-known | --avoid NAME[,NAME...]] [--force-known NAME[,NAME...]] [--max-dim N] SEED > prog.c
 *     gen --list-known
 *
 * Each program is a valid, deterministic C11 program with defined
 * behaviour, annotated in the language of docs/annotations.md, that prints
 * checksums of every array it computes and exits with a status computed
 * from them.  Its first line says what it is:
 *
 *     // difftest: seed 42, dims 1-5, known: none
 *
 * "dims A-B" are the cube dimensions it is valid for (every distributed
 * array has at least 2^B elements, more with block_cyclic); "known" lists
 * the constructs of today's known translator bugs it contains (see
 * known_name[] below; --avoid-known keeps them all out, --force-known puts
 * the named ones in).
 *
 * Validity is by construction, not by checking afterwards:
 *   - every doall is truly parallel: its iterations write the elements
 *     f(i) of one group of arrays of one size and layout (so one owner per
 *     iteration) through an index f that is one-to-one on the iterations,
 *     and read a written array only at the iteration's own element f(i),
 *     never in an index or a guard;
 *   - every index is inside its array for every iteration (the generator
 *     knows the range of each index form), except under a guard that is
 *     false wherever it would not be;
 *   - values stay small: every stored value is reduced (% 32749, fmod) so
 *     that |v| < 32768, and every expression is built under a bound on its
 *     magnitude (no signed overflow, no float overflow, no NaN); floating
 *     point uses only correctly rounded functions (sqrt, floor, fmod, ...),
 *     so compile-time folding cannot differ from the run-time library;
 *   - nothing is read before it is written (static arrays are zero,
 *     automatic arrays are initialised by the host first);
 *   - the text is clean under -Wall -Wextra (the translated program is
 *     compiled with -Werror, and user code must not be what fails it).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ random */

static uint64_t rng_state;

/* splitmix64: the same sequence on every platform, so a seed names one
 * program forever. */
static uint64_t next64(void)
{
    uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static int below(int n)
{
    return n <= 1 ? 0 : (int)(next64() % (uint64_t)n);
}

static int chance(int percent)
{
    return below(100) < percent;
}

static int between(int lo, int hi)
{
    return lo + below(hi - lo + 1);
}

/* ------------------------------------------------------------ strings */

typedef struct {
    char *p;
    size_t len, cap;
} buf;

static void die(const char *msg)
{
    fprintf(stderr, "gen: %s\n", msg);
    exit(2);
}

static void bvput(buf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        die("vsnprintf failed");
    if (b->len + (size_t)n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (b->len + (size_t)n + 1 > cap)
            cap *= 2;
        b->p = realloc(b->p, cap);
        if (!b->p)
            die("out of memory");
        b->cap = cap;
    }
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

static void bput(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bput(buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    bvput(b, fmt, ap);
    va_end(ap);
}

/* A new string (never freed: the program is short-lived). */
static char *xs(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *xs(const char *fmt, ...)
{
    buf b = { 0, 0, 0 };
    va_list ap;
    va_start(ap, fmt);
    bvput(&b, fmt, ap);
    va_end(ap);
    if (!b.p)
        b.p = calloc(1, 1);
    return b.p;
}

/* Indentation: 4 spaces a level. */
static void ind(buf *b, int level)
{
    bput(b, "%*s", level * 4, "");
}

/* ------------------------------------------------------------ options and known bugs */

/* Constructs of translator bugs known today (being fixed in frontend/ and
 * codegen/).  --avoid-known leaves every one of them out, so a campaign
 * (and the ctest entry) sees only new failures; without it each appears
 * with a small probability; --force-known puts the named ones in. */
enum {
    KN_PTR,        /* int *p = &a[1]; int *row = m[1]; in sequential code */
    KN_MANY64,     /* one host statement naming more than 64 distributed arrays */
    KN_ATEXIT,     /* an atexit handler reading a distributed array */
    KN_MAINREC,    /* main calling itself */
    KN_COMMENT,    /* a comment inside an index: b[i ^ 1 / * partner * /] */
    KN_REGISTER,   /* a register outer scalar */
    KN_RTNAME,     /* a user identifier named like a runtime entry point */
    KN_OUTERWIDX,  /* a[i ^ s] = ... with s an outer scalar (refused) */
    KN_LOCALONLY,  /* a doall writing only local scalars (refused) */
    KN_MAINEMPTY,  /* int main() (refused) */
    KN_BCSMALL,    /* block_cyclic(B) with log2 B + n > log2 size (refused) */
    KN_NINE,       /* 9-dimensional arrays, 9 declarators in one declaration (refused) */
    /* found by this tester (docs/difftest.md) */
    KN_DEADARM,    /* a read through a distributed index array in an arm never evaluated */
    KN_SIZEOF,     /* sizeof of a distributed reference in a doall body */
    KN_SIZEOFOOB,  /* sizeof(a[i + 1]): its operand, never evaluated, outside a */
    KN_COMMUTED,   /* a subscript written x[a] (refused) */
    KN_COUNT
};

static const char *const known_name[KN_COUNT] = {
    "elem-pointer", "many-arrays", "atexit", "main-recursion", "index-comment",
    "register", "runtime-name", "outer-write-index", "locals-only-doall",
    "main-no-prototype", "block-cyclic-small", "nine",
    "dead-arm-request", "sizeof-reference", "sizeof-out-of-bounds", "commuted-subscript",
};

static int avoid_known;
static unsigned known_forced, known_avoided, known_on, known_used;
static int maxdim = 6;

/* Whether the program may contain construct k at all (decided once). */
static void decide_known(void)
{
    for (int k = 0; k < KN_COUNT; k++)
        if ((known_forced >> k) & 1u)
            known_on |= 1u << k;
        else if (!avoid_known && chance(5) && !((known_avoided >> k) & 1u))
            known_on |= 1u << k;
}

static int kon(int k)
{
    return (int)((known_on >> k) & 1u);
}

/* Asked for by --force-known: placed more often. */
static int kforced(int k)
{
    return (int)((known_forced >> k) & 1u);
}

static void kuse(int k)
{
    known_used |= 1u << k;
}

/* ------------------------------------------------------------ types */

enum { TK_INT, TK_LONG, TK_LLONG, TK_SHORT, TK_UCHAR, TK_UNS, TK_FLOAT, TK_DOUBLE, TK_STRUCT };
#define TK_BOOL 99   /* an ex that is a comparison's 0 or 1 */

static const char *const tk_c[] = { "int", "long", "long long", "short", "unsigned char",
                                    "unsigned", "float", "double", "?" };
static const char *const tk_tag[] = { "int", "long", "llong", "short", "uchar",
                                      "uns", "float", "double", "?" };

static int tk_float(int tk)
{
    return tk == TK_FLOAT || tk == TK_DOUBLE;
}

/* printf conversion of a value of type tk (after default promotions). */
static const char *tk_fmt(int tk)
{
    switch (tk) {
    case TK_LONG: return "%ld";
    case TK_LLONG: return "%lld";
    case TK_UNS: return "%u";
    case TK_FLOAT: case TK_DOUBLE: return "%a";
    default: return "%d";
    }
}

static int random_scalar_tk(void)
{
    static const int w[] = { TK_INT, TK_INT, TK_INT, TK_LONG, TK_LONG, TK_LLONG, TK_SHORT,
                             TK_UCHAR, TK_UNS, TK_UNS, TK_FLOAT, TK_DOUBLE, TK_DOUBLE, TK_DOUBLE };
    return w[below((int)(sizeof w / sizeof w[0]))];
}

#define MAXMEM 5
typedef struct {
    int nmem;
    int mtk[MAXMEM];   /* member types (scalars) */
    int mlen[MAXMEM];  /* 0: a scalar member, else an array member of mlen */
    int typedefd;      /* also "typedef struct sN sN_t" */
} stype;

static stype stypes[3];
static int nstypes;

static char *struct_cname(int s)
{
    return stypes[s].typedefd ? xs("s%d_t", s) : xs("struct s%d", s);
}

/* ------------------------------------------------------------ arrays */

enum { LAY_REPL, LAY_CYCLIC, LAY_BLOCK, LAY_BC, LAY_EXACT };
enum { ROLE_DATA, ROLE_INDEX, ROLE_SENT };
enum { SC_GLOBAL, SC_MAIN, SC_STATIC };

#define MAXARR 160
typedef struct {
    char name[16];
    int tk, st;          /* element type; struct type when tk == TK_STRUCT */
    int nd, ext[9];      /* subscripts and log2 of each extent */
    int m;               /* log2 of the element count (or of the largest power of two below it) */
    int size;            /* element count (a table's may be no power of two) */
    int layout, bclog;
    int role;
    int scope, fn;       /* SC_STATIC: the function; SC_MAIN: main */
    int used;            /* used in a doall: distributed (pragma) unless replicated/exact */
    int hostinit;        /* initialised by the host */
    int nodeonly;        /* never named by the host's own statements */
    int declgroup;       /* declarations sharing a line */
    int isconst;         /* const table with an initializer (never written) */
    int isstatic;        /* static storage class at file scope */
    int initlist;        /* initialised by an initializer list, not by the host */
    int tdef;            /* declared through a typedef name of its element type */
    int peek, poke;      /* host accessor functions naming it are used */
} array;

static array arrs[MAXARR];
static int narrs;
static int D;            /* the largest cube dimension the program is valid for */
static int exact_mode;   /* #pragma hyperdo cube(D), arrays of 2^D in no distribute */
static int idxlog;       /* index arrays hold values in [0, 2^idxlog) (-1 too: sentinels) */

static int distributed(const array *a)
{
    return a->layout != LAY_REPL;
}

/* |value| bound of an element (or member) of type tk of array a. */
static double elem_bound(const array *a, int tk)
{
    if (a->role != ROLE_DATA)
        return (double)(1 << idxlog);
    return tk == TK_UCHAR ? 255.0 : 32768.0;
}

static const char *elem_cname(const array *a)
{
    if (a->tdef && a->tk != TK_STRUCT)
        return xs("%s_t", tk_tag[a->tk]);
    return a->tk == TK_STRUCT ? struct_cname(a->st) : tk_c[a->tk];
}

static int new_array(const char *prefix, int tk, int st, int role, int scope, int fn)
{
    if (narrs >= MAXARR)
        die("too many arrays");
    arrs[narrs] = (array){ .tk = tk, .st = st, .role = role, .scope = scope, .fn = fn,
                           .hostinit = 1, .declgroup = -1 };
    snprintf(arrs[narrs].name, sizeof arrs[narrs].name, "%s%d", prefix, narrs);
    return narrs++;
}

/* Shape: m total bits over nd subscripts (each extent at least 2). */
static void set_shape(array *a, int m, int nd)
{
    if (nd > m)
        nd = m;
    if (nd < 1)
        nd = 1;
    a->m = m;
    a->nd = nd;
    int left = m;
    for (int d = 0; d < nd; d++) {
        int rest = nd - d - 1;
        int e = d == nd - 1 ? left : between(1, left - rest);
        a->ext[d] = e;
        left -= e;
    }
    a->size = 1 << m;
}

/* A distributed layout for an array of 2^m elements valid up to the D-cube. */
static void set_layout(array *a)
{
    int r = below(100);
    a->bclog = 0;
    if (r < 35) {
        a->layout = LAY_CYCLIC;
    } else if (r < 68) {
        a->layout = LAY_BLOCK;
    } else if (a->m - D >= 1) {
        a->layout = LAY_BC;
        a->bclog = between(1, a->m - D < 4 ? a->m - D : 4);
    } else {
        a->layout = LAY_CYCLIC;
    }
}

/* ------------------------------------------------------------ scalars */

enum { SK_VAL, SK_IDX, SK_OFF };
enum { SS_GLOBAL, SS_CONST, SS_LOCAL, SS_PARAM, SS_LOOP };

#define MAXSC 64
typedef struct {
    char name[16];
    int tk;        /* TK_INT, TK_LONG, TK_UNS, TK_DOUBLE, TK_FLOAT */
    int kind;
    int rlog;      /* SK_IDX: values in [0, 2^rlog) */
    int roff;      /* SK_OFF: |value| <= roff */
    int vbound;    /* SK_VAL: |value| <= vbound */
    int scope, fn;
    int reg;       /* declared register */
    int memberof;  /* a member of the outer structure variable PRn, or -1 */
} scalar;

static scalar scs[MAXSC];
static int nscs;

static int new_scalar(const char *prefix, int tk, int kind, int scope, int fn)
{
    if (nscs >= MAXSC)
        die("too many scalars");
    scs[nscs] = (scalar){ .tk = tk, .kind = kind, .scope = scope, .fn = fn,
                          .vbound = kind == SK_VAL ? 100 : 0, .memberof = -1 };
    scalar *s = &scs[nscs];
    snprintf(s->name, sizeof s->name, "%s%d", prefix, nscs);
    /* Not in the initializer, whose order of evaluation C leaves open:
     * the random draws come in this order. */
    s->rlog = between(1, 4);
    s->roff = between(1, 40);
    return nscs++;
}

/* |value| bound of a scalar read as a value. */
static double scalar_bound(const scalar *s)
{
    switch (s->kind) {
    case SK_IDX: return (double)(1 << s->rlog);
    case SK_OFF: return (double)s->roff;
    default: return (double)s->vbound;
    }
}

/* A constant a scalar may hold, as C text. */
static char *scalar_value(const scalar *s)
{
    switch (s->kind) {
    case SK_IDX: return xs("%d", below(1 << s->rlog));
    case SK_OFF: return xs("%d", between(-s->roff, s->roff));
    default:
        if (tk_float(s->tk))
            return xs("%d.%s", between(-s->vbound + 1, s->vbound - 1),
                      (const char *[]){ "0", "25", "5", "75", "125" }[below(5)]);
        if (s->tk == TK_UNS)
            return xs("%du", below(s->vbound + 1));
        if (s->tk == TK_UCHAR)
            return xs("%d", below(s->vbound + 1));
        if (s->tk == TK_LONG)
            return xs("%dL", between(-s->vbound, s->vbound));
        return xs("%d", between(-s->vbound, s->vbound));
    }
}

/* ------------------------------------------------------------ functions holding doalls */

#define MAXFN 4
typedef struct {
    char name[16];
    int params[4], nparams;
    int calls;
    int returns;   /* returns a long computed from an array */
    int recdepth;  /* the parameter that bounds its recursion, or -1 */
    buf text;
} func;

static func fns[MAXFN];
static int nfns;

/* ------------------------------------------------------------ scopes */

/* What a statement can see: arrays and scalars. */
typedef struct {
    int arr[MAXARR], narr;
    int sc[MAXSC], nsc;
    int fn;            /* -1: main */
} scope;

static void scope_add_sc(scope *sp, int s)
{
    if (sp->nsc < MAXSC)
        sp->sc[sp->nsc++] = s;
}

/* ------------------------------------------------------------ a doall under construction */

#define MAXW 4
#define MAXLOC 8
#define MAXPREV 24

typedef struct {
    char *t;     /* text */
    double b;    /* bound on |value| */
    int f;       /* floating */
    int tk;      /* the element type of a plain read, else -1 (-Wtype-limits) */
} ex;

typedef struct {
    const scope *sp;
    int k;             /* 2^k iterations */
    const char *iv;    /* the loop variable */
    int ivsigned;
    int wr[MAXW], nw;  /* written arrays */
    char *wsub[MAXW];  /* their subscripts at the iteration's element */
    struct { char *name; int f; double b; int used; } loc[MAXLOC];
    int nloc;
    ex prev[MAXPREV];  /* reads valid at every iteration (for repeating) */
    int nprev;
    struct { int arr; char *subs; } selem[8];   /* struct elements read */
    int nselem;
    int force_sc;      /* a scalar the body must read, or -1 */
    int reads;         /* distributed reads so far (keeps bodies small) */
} dstate;

enum {
    V_NOLOCAL = 1,   /* no body locals: a guard or index that may read distributed data */
    V_NODIST = 2,    /* no distributed reads: under a guard that uses a body local */
    V_INT = 4,       /* an integer value */
    V_NOGUARD = 8,   /* no ?:, && or || */
    V_NOWRITTEN = 16 /* no reads of the written arrays (guards) */
};

#define LIM 2147483647.0

static int is_written(const dstate *ds, int a)
{
    for (int j = 0; j < ds->nw; j++)
        if (ds->wr[j] == a)
            return j;
    return -1;
}

/* Arrays visible that may be read at any element (not written here). */
static int pick_readable(const dstate *ds, int flags, int want_role, int need_1d, int min_m)
{
    int cand[MAXARR], n = 0;
    for (int x = 0; x < ds->sp->narr; x++) {
        int a = ds->sp->arr[x];
        const array *A = &arrs[a];
        if (is_written(ds, a) >= 0)
            continue;
        if (want_role >= 0 && A->role != want_role)
            continue;
        if (need_1d && A->nd != 1)
            continue;
        if (A->m < min_m)
            continue;
        /* Under a guard that reads a body local, only arrays that stay
         * replicated on every cube (no power-of-two size: never exact). */
        if ((flags & V_NODIST) && (distributed(A) || (A->size & (A->size - 1)) == 0))
            continue;
        n++;
        cand[n - 1] = a;
    }
    return n ? cand[below(n)] : -1;
}

/* ------------------------------------------------------------ index expressions */

static char *mask_text(int m)
{
    switch (below(4)) {
    case 0: return xs("0x%X", (1u << m) - 1);
    case 1: return xs("(N%d - 1)", m);
    default: return xs("%u", (1u << m) - 1);
    }
}

/* A one-to-one map of [0, 2^k) onto itself applied to x (values in
 * [0, 2^k)); depth limits composition. */
static char *perm(int k, const char *x, int depth)
{
    if (k < 2)
        return xs("%s", x);
    char *r;
    int c = below(1 << k);
    switch (below(24)) {
    case 0: case 1: r = xs("%s", x); break;
    case 2: case 3: r = xs("(%s ^ %d)", x, c ? c : 1); break;
    case 4: r = xs("(%s - %s)", mask_text(k), x); break;
    case 5: r = xs("(%s ^ %s)", mask_text(k), x); break;
    case 6: r = xs("(~%s & %s)", x, mask_text(k)); break;
    case 7: r = xs("reverse(%s, %d)", x, k); break;
    case 8: r = xs("rotl(%s, %d, %d)", x, between(1, k - 1), k); break;
    case 9: r = xs("rotr(%s, %d, %d)", x, between(1, k - 1), k); break;
    case 10: r = xs(chance(50) ? "shuffle(%s, %d)" : "unshuffle(%s, %d)", x, k); break;
    case 11: r = xs("gray(%s)", x); break;
    case 12: r = xs("(%s ^ (%s >> %d))", x, x, between(1, k - 1)); break;
    case 13:
        r = k % 2 == 0 ? xs("transpose(%s, %d)", x, k) : xs("reverse(%s, %d)", x, k);
        break;
    case 14: {
        int h = between(1, k - 1);
        r = xs("((%s >> %d) | ((%s & %d) << %d))", x, h, x, (1 << h) - 1, k - h);
        break;
    }
    case 15: {
        int h = between(1, k - 1);
        r = xs("((%s >> %d) + ((%s & %d) << %d))", x, h, x, (1 << h) - 1, k - h);
        break;
    }
    case 16: {
        int h = between(1, k - 1);
        r = xs("(%s %% %d * %d + %s / %d)", x, 1 << h, 1 << (k - h), x, 1 << h);
        break;
    }
    case 17: r = xs("(int)((unsigned)%s ^ %du)", x, c); break;
    case 18: r = xs("(1 ? %s ^ %d : 0)", x, c); break;
    case 19: r = xs("((%s + %d) & %s)", x, between(1, 99), mask_text(k)); break;
    case 20: r = xs("((%s * %d) & %s)", x, 2 * between(0, 40) + 1, mask_text(k)); break;
    case 21: r = xs("((%s * %d + %d) & %s)", x, 2 * between(0, 20) + 1, between(0, 99), mask_text(k)); break;
    case 22: r = xs("((%s - %d) & %s)", x, between(1, 99), mask_text(k)); break;
    default: r = xs("((bit(%s, 0) << %d) | (%s >> 1))", x, k - 1, x); break;
    }
    if (depth > 0 && chance(35))
        r = perm(k, r, depth - 1);
    return r;
}

static char *index_expr(dstate *ds, int k, int m, int depth, int flags);
static int force_comment;   /* the next 1-D read gets a comment in its index */

/* An outer index scalar visible here (SK_IDX), with 2^rlog <= 2^maxlog, or -1. */
/* An outer scalar the body can name: not one the loop variable hides. */
static int sc_visible(const dstate *ds, int s)
{
    return strcmp(scs[s].name, ds->iv) != 0;
}

static int pick_idx_scalar(const dstate *ds, int maxlog)
{
    int cand[MAXSC], n = 0;
    for (int x = 0; x < ds->sp->nsc; x++) {
        const scalar *s = &scs[ds->sp->sc[x]];
        if (s->kind == SK_IDX && s->rlog <= maxlog && sc_visible(ds, ds->sp->sc[x]))
            cand[n++] = ds->sp->sc[x];
    }
    return n ? cand[below(n)] : -1;
}

/* An indirect index: q[...] with q an index array readable here. */
static char *indirect(dstate *ds, int k, int depth, int flags)
{
    int q = pick_readable(ds, flags, ROLE_INDEX, 0, 0);
    if (q < 0)
        return NULL;
    const array *Q = &arrs[q];
    char *sub;
    if (Q->nd == 1) {
        sub = xs("[%s]", index_expr(ds, k, Q->m, depth - 1, flags));
    } else {
        sub = xs("%s", "");
        for (int d = 0; d < Q->nd; d++)
            sub = xs("%s[%s]", sub, index_expr(ds, k, Q->ext[d], depth - 1, flags));
    }
    if (!distributed(Q) && Q->size != 1 << Q->m && chance(30))
        sub = xs("[(%s) %% %d]", index_expr(ds, k, Q->m, depth - 1, flags), Q->size);
    ds->reads++;
    return xs("%s%s", Q->name, sub);
}

/* An expression of the loop variable (k bits) with values in [0, 2^m). */
static char *index_expr(dstate *ds, int k, int m, int depth, int flags)
{
    const char *iv = ds->iv;
    int r = below(100);
    if (depth > 0 && r < 9 && m >= idxlog) {
        char *q = indirect(ds, k, depth, flags);
        if (q) {
            if (chance(30))
                return xs("(%s ^ %d)", q, below(1 << idxlog));
            return q;
        }
    }
    if (r < 16) {
        int s = pick_idx_scalar(ds, m);
        if (s >= 0) {
            const scalar *S = &scs[s];
            char *base = k <= m ? perm(k, iv, 0) : xs("(%s >> %d)", perm(k, iv, 0), k - m);
            switch (below(4)) {
            case 0: return xs("(%s ^ %s)", base, S->name);
            case 1: return xs("((%s + %s) & %s)", base, S->name, mask_text(m));
            case 2:
                if ((1 << S->rlog) - 1 < m)
                    return xs("(%s ^ (1 << %s))", base, S->name);
                return xs("(%s ^ %s)", base, S->name);
            default:
                if (k <= m)
                    return xs("rotl(%s, %s, %d)", iv, S->name, k);
                return xs("(%s ^ %s)", base, S->name);
            }
        }
    }
    if (r < 20)
        return xs("%d", below(1 << m));
    if (r < 21 && k <= m && m >= 4 && kon(KN_SIZEOF)) {
        /* sizeof in an index: i ^ 1, 2, 4 or 8 */
        int a = pick_readable(ds, flags, -1, 1, 0);
        if (a >= 0 && arrs[a].tk != TK_STRUCT) {   /* at most 8 < 2^m */
            kuse(KN_SIZEOF);
            return xs("(%s ^ (int)sizeof(%s[0]))", iv, arrs[a].name);
        }
    }
    if (k <= m) {
        char *p = perm(k, iv, depth > 0 ? 1 : 0);
        int c = below(1 << m);
        switch (below(16)) {
        case 0:
            if (m > k)
                return xs("(%s << %d)", p, between(1, m - k));
            return p;
        case 1: return xs("(%s | %d)", p, c);
        case 2: return xs("(%s ^ %d)", p, c);
        case 3: return xs("(%s & %d)", p, c);
        case 4: return xs("(%s >> %d)", p, between(1, k));
        case 5: return xs("((%s << %d) & %s)", p, between(1, 6), mask_text(m));
        case 6:
            if ((1 << m) > 100)
                return xs("(%s %% 100)", iv);
            return p;
        case 7: return xs("((%s * %s) & %s)", iv, iv, mask_text(m));
        case 8: return xs("(%s - (%s & 1))", iv, iv);
        case 9:
            /* the bit-reverse of the whole array's index, when the loop covers it */
            if (k == m)
                return xs("reverse(%s, %d)", iv, m);
            return p;
        default: return p;
        }
    }
    /* More iterations than elements: reduce. */
    char *p = perm(k, iv, depth > 0 ? 1 : 0);
    char *red;
    switch (below(3)) {
    case 0: red = xs("(%s >> %d)", p, k - m); break;
    case 1: red = xs("(%s & %s)", p, mask_text(m)); break;
    default: red = xs("(%s %% %d)", p, 1 << m); break;
    }
    if (chance(30))
        red = perm(m, red, 0);
    return red;
}

/* Subscripts of element 'flat' (a value in [0, 2^m)) of a. */
static char *subs_flat(const array *a, const char *flat)
{
    if (a->nd == 1)
        return xs("[%s]", flat);
    char *s = xs("%s", "");
    int sh = a->m;
    for (int d = 0; d < a->nd; d++) {
        sh -= a->ext[d];
        if (d == 0)
            s = xs("%s[(%s) >> %d]", s, flat, sh);
        else if (sh == 0)
            s = xs("%s[(%s) & %d]", s, flat, (1 << a->ext[d]) - 1);
        else
            s = xs("%s[((%s) >> %d) & %d]", s, flat, sh, (1 << a->ext[d]) - 1);
    }
    return s;
}

/* Subscripts for a read of a at some element of iteration i. */
static char *read_subs(dstate *ds, const array *a, int flags)
{
    char *s;
    if (a->nd > 1 && chance(50)) {
        s = xs("%s", "");
        for (int d = 0; d < a->nd; d++)
            s = xs("%s[%s]", s, index_expr(ds, ds->k, a->ext[d], 1, flags));
    } else if (!distributed(a) && a->size != 1 << a->m && chance(25)) {
        s = xs("[(%s) %% %d]", index_expr(ds, ds->k, a->m, 2, flags), a->size);
    } else {
        s = subs_flat(a, index_expr(ds, ds->k, a->m, 2, flags));
    }
    if (kon(KN_COMMENT) && (force_comment || chance(30)) && a->nd == 1) {
        force_comment = 0;
        /* the comment goes inside the brackets: b[i ^ 1 / * partner * /] */
        size_t n = strlen(s);
        s[n - 1] = '\0';
        s = xs("%s /* partner */]", s);
        kuse(KN_COMMENT);
    }
    return s;
}

/* A member of a struct element: ".f0" or ".f2[1]"; *tk its type. */
static char *member(int st, int *tk)
{
    const stype *S = &stypes[st];
    int j = below(S->nmem);
    *tk = S->mtk[j];
    if (S->mlen[j])
        return xs(".f%d[%d]", j, below(S->mlen[j]));
    return xs(".f%d", j);
}

/* ------------------------------------------------------------ value expressions */

static ex mk(char *t, double b, int f)
{
    ex e = { t, b, f, -1 };
    return e;
}

static ex cnst(int flags)
{
    if (!(flags & V_INT) && chance(30))
        return mk(xs("%d.%s", between(-9, 9), (const char *[]){ "0", "5", "25", "125" }[below(4)]), 10.0, 1);
    int c = between(-20, 40);
    return mk(c < 0 ? xs("(%d)", c) : xs("%d", c), c < 0 ? -c : c, 0);
}

/* Integer text of e (a cast when floating; |e| < 2^31 always). */
static ex as_int(ex e)
{
    if (!e.f)
        return e;
    return mk(xs("(int)(%s)", e.t), e.b, 0);
}

/* The value of one element (or member) of array a read with subscripts. */
/* A reference as written: a[x], rarely (a)[x], a<:x:> (digraphs) or, for
 * one subscript, x[a] (C allows the operands either way round). */
static char *spell_ref(const array *A, const char *subs)
{
    int r = below(1000);
    if (r < 15)
        return xs("(%s)%s", A->name, subs);
    if (r < 25) {
        buf d = { 0, 0, 0 };
        bput(&d, "%s", A->name);
        for (const char *c = subs; *c; c++)
            bput(&d, "%s", *c == '[' ? "<:" : *c == ']' ? ":>" : xs("%c", *c));
        return d.p;
    }
    if ((r < 27 || (kforced(KN_COMMUTED) && r < 100)) && A->nd == 1 && kon(KN_COMMUTED)) {
        size_t n = strlen(subs);
        kuse(KN_COMMUTED);
        return xs("(%.*s)[%s]", (int)n - 2, subs + 1, A->name);
    }
    return xs("%s%s", A->name, subs);
}

static ex read_value(dstate *ds, int a, const char *subs, int flags, int safe)
{
    const array *A = &arrs[a];
    int tk = A->tk;
    char *t;
    if (A->tk == TK_STRUCT) {
        char *mem = member(A->st, &tk);
        t = xs("%s%s%s", A->name, subs, mem);
        if (safe && ds->nselem < 8) {
            ds->selem[ds->nselem].arr = a;
            ds->selem[ds->nselem].subs = xs("%s", subs);
            ds->nselem++;
        }
    } else {
        t = spell_ref(A, subs);
    }
    ex e;
    if (tk == TK_UNS)
        e = mk(xs("(int)%s", t), elem_bound(A, tk), 0);
    else
        e = mk(t, elem_bound(A, tk), tk_float(tk));
    if (flags & V_INT)
        e = as_int(e);
    e.tk = tk;
    if (safe && ds->nprev < MAXPREV)
        ds->prev[ds->nprev++] = e;
    return e;
}

static ex gen_value(dstate *ds, int depth, double budget, int flags);
static char *gen_cond(dstate *ds, int depth, int flags);

/* The operand of sizeof is not evaluated: (int)sizeof(a[...]) is a
 * constant, whatever the element (even one outside the array). */
static ex sizeof_leaf(dstate *ds)
{
    int a = pick_readable(ds, 0, -1, 1, ds->k);
    if (a < 0)
        return mk(xs("(int)sizeof(int)"), 8, 0);
    const array *A = &arrs[a];
    char *sub;
    if (kon(KN_SIZEOFOOB) && (kforced(KN_SIZEOFOOB) || chance(10))) {
        sub = xs("[%s + 1]", ds->iv);   /* the last one is outside a, and never read */
        kuse(KN_SIZEOFOOB);
    } else {
        sub = read_subs(ds, A, 0);
    }
    return mk(xs(chance(50) ? "(int)sizeof(%s%s)" : "(int)sizeof %s%s", A->name, sub), 16, 0);
}

/* A read of a distributed or replicated array at an in-bounds element. */
static ex plain_read(dstate *ds, int flags)
{
    /* The written element itself: the iteration's own (a repetition). */
    if (!(flags & (V_NOWRITTEN | V_NODIST)) && ds->nw && chance(15)) {
        int j = below(ds->nw);
        return read_value(ds, ds->wr[j], ds->wsub[j], flags, 0);
    }
    /* Another member of a struct element already read. */
    if (!(flags & V_NODIST) && ds->nselem && chance(30)) {
        int j = below(ds->nselem);
        return read_value(ds, ds->selem[j].arr, ds->selem[j].subs, flags, 1);
    }
    int a = pick_readable(ds, flags, -1, 0, 0);
    if (a < 0)
        return cnst(flags);
    ds->reads++;
    return read_value(ds, a, read_subs(ds, &arrs[a], flags), flags, 1);
}

/* A read under a guard that C evaluates only where the read is in bounds
 * or needed: streams i + c / i - c, sentinels, data guards. */
static ex guarded(dstate *ds, int depth, double budget, int flags)
{
    const char *iv = ds->iv;
    int form = below(10);
    ex alt = gen_value(ds, depth - 1, budget, flags | V_NOGUARD);
    if (form <= 2) {
        /* a stream: i + c or i - c, c a constant or an outer scalar */
        int a = pick_readable(ds, flags, -1, 1, ds->k);
        if (a >= 0) {
            const array *A = &arrs[a];
            char *c = NULL;
            int sc = -1;
            if (form == 2 && ds->ivsigned) {
                for (int x = 0; x < ds->sp->nsc; x++)
                    if (scs[ds->sp->sc[x]].kind == SK_OFF && sc_visible(ds, ds->sp->sc[x]) && chance(60))
                        sc = ds->sp->sc[x];
            }
            if (sc >= 0) {
                const char *o = scs[sc].name;
                ex v = read_value(ds, a, xs("[%s + %s]", iv, o), flags, 0);
                ds->reads++;
                return mk(xs("((%s + %s >= 0 && %s + %s < %d) ? %s : %s)", iv, o, iv, o, A->size, v.t,
                             alt.t), v.b > alt.b ? v.b : alt.b, v.f || alt.f);
            }
            if (form == 1 && ds->ivsigned) {
                int s = pick_idx_scalar(ds, 30);
                if (s >= 0)
                    c = scs[s].name;
            }
            if (!c) {
                int cv = chance(60) ? between(1, 8) : between(1, A->size - 1);
                c = xs("%d", cv);
            }
            ex v;
            char *t;
            ds->reads++;
            if (chance(50)) {
                v = read_value(ds, a, chance(70) ? xs("[%s + %s]", iv, c) : xs("[%s + %s]", c, iv), flags, 0);
                t = xs("(%s + %s < %d ? %s : %s)", iv, c, A->size, v.t, alt.t);
            } else {
                v = read_value(ds, a, xs("[%s - %s]", iv, c), flags, 0);
                t = xs("(%s >= %s ? %s : %s)", iv, c, v.t, alt.t);
            }
            return mk(t, v.b > alt.b ? v.b : alt.b, v.f || alt.f);
        }
    }
    if (form == 3) {
        /* a sentinel: q[j] >= 0 ? x[q[j]] : alt */
        int q = pick_readable(ds, flags, ROLE_SENT, 0, 0);
        int a = pick_readable(ds, flags, -1, 0, 0);
        if (q >= 0 && a >= 0) {
            char *qref = xs("%s%s", arrs[q].name, read_subs(ds, &arrs[q], flags | V_NOLOCAL));
            ex v = read_value(ds, a, subs_flat(&arrs[a], qref), flags, 0);
            ds->reads += 2;
            return mk(xs("(%s >= 0 ? %s : %s)", qref, v.t, alt.t), v.b > alt.b ? v.b : alt.b, v.f || alt.f);
        }
    }
    if (form == 4) {
        /* a guard known false at every iteration, around an index that
         * would be out of bounds */
        int a = pick_readable(ds, flags, -1, 1, 0);
        if (a >= 0) {
            ex v = read_value(ds, a, xs("[%s ^ 8192]", iv), flags, 0);
            return mk(xs("(%s > %d ? %s : %s)", iv, 5000 + below(1000), v.t, alt.t),
                      v.b > alt.b ? v.b : alt.b, v.f || alt.f);
        }
    }
    if (form == 5 && ds->nloc && !(flags & V_NOLOCAL)) {
        /* a guard on a body local: its arms read nothing distributed (a
         * guarded distributed read is asked for before the body runs, so
         * its guard may not use the body's variables) */
        int l = below(ds->nloc);
        ds->loc[l].used = 1;
        ex a1 = gen_value(ds, depth - 1, budget, flags | V_NODIST);
        alt = gen_value(ds, depth - 1, budget, flags | V_NOGUARD | V_NODIST);
        return mk(xs("(%s > %d ? %s : %s)", ds->loc[l].name, between(-5, 50), a1.t, alt.t),
                  a1.b > alt.b ? a1.b : alt.b, a1.f || alt.f);
    }
    /* a condition on data, the loop variable, outer scalars or tables */
    char *c = gen_cond(ds, depth - 1, flags | V_NOLOCAL | V_NOWRITTEN);
    ex a1 = gen_value(ds, depth - 1, budget, flags);
    if (chance(20)) {
        /* as a value: c && x, c || x */
        char *c2 = gen_cond(ds, depth - 1, flags | V_NOLOCAL | V_NOWRITTEN);
        ex r = mk(xs("(%s %s %s)", c, chance(50) ? "&&" : "||", c2), 1, 0);
        r.tk = TK_BOOL;
        return r;
    }
    return mk(xs("(%s ? %s : %s)", c, a1.t, alt.t), a1.b > alt.b ? a1.b : alt.b, a1.f || alt.f);
}

/* A condition (int 0/1 or any int). */
static char *gen_cond(dstate *ds, int depth, int flags)
{
    const char *iv = ds->iv;
    int r = below(100);
    if ((r < 4 || (kforced(KN_DEADARM) && r < 12)) && kon(KN_DEADARM)) {
        /* a constant condition: one arm is never evaluated */
        kuse(KN_DEADARM);
        return chance(50) ? xs("%d", below(2)) : xs("(E%d > %d)", between(0, 10), below(1000));
    }
    if (r < 15)
        return xs("(%s & %d)", iv, 1 << below(ds->k));
    if (r < 22)
    {
        /* an interval of the loop variable; an empty one (an arm never
         * evaluated) only with the dead-arm construct */
        int lo = below(1 << ds->k), hi = below(1 << ds->k) + 1;
        if (hi <= lo + 1) {
            if (kon(KN_DEADARM))
                kuse(KN_DEADARM);
            else
                hi = lo + 2;
        }
        return xs("(%s > %d && %s < %d)", iv, lo, iv, hi);
    }
    if (r < 30) {
        for (int x = 0; x < ds->sp->nsc; x++) {
            const scalar *s = &scs[ds->sp->sc[x]];
            /* a const global is a known value: one arm never evaluated */
            if ((s->scope == SS_CONST && !kon(KN_DEADARM)) || !sc_visible(ds, ds->sp->sc[x]))
                continue;
            if (chance(40) && s->tk != TK_UNS && (s->kind == SK_VAL || s->kind == SK_IDX)) {
                if (s->scope == SS_CONST)
                    kuse(KN_DEADARM);
                /* an unsigned char is never below 0 (-Wtype-limits) */
                return xs(tk_float(s->tk) ? "(%s > %d.5)" : "(%s > %d)", s->name,
                          s->tk == TK_UCHAR ? between(1, 5) : between(-3, 5));
            }
        }
    }
    if (r < 40 && depth > 0) {
        char *a = gen_cond(ds, depth - 1, flags);
        char *b = gen_cond(ds, depth - 1, flags);
        return xs("(%s %s %s)", a, chance(50) ? "&&" : "||", b);
    }
    ex v = plain_read(ds, flags | V_NOWRITTEN | V_NOLOCAL);
    static const char *const ops[] = { ">", "<", ">=", "<=", "!=", "==" };
    const char *op = ops[below(6)];
    if (v.f)
        return xs("(%s %s %d.5)", v.t, op, between(-10, 100));
    /* an unsigned char is 0 .. 255: no comparison that is always true or false */
    return xs("(%s %s %d)", v.t, op, v.tk == TK_UCHAR ? between(1, 200) : between(-10, 100));
}

/* A leaf. */
static ex leaf(dstate *ds, int depth, double budget, int flags)
{
    int r = below(100);
    if (ds->force_sc >= 0) {
        const scalar *s = &scs[ds->force_sc];
        ds->force_sc = -1;
        return mk(xs("%s", s->name), scalar_bound(s), tk_float(s->tk));
    }
    if (r < 38 && ds->reads < 10)
        return plain_read(ds, flags);
    if (r < 48 && depth > 0 && !(flags & V_NOGUARD) && ds->reads < 10)
        return guarded(ds, depth, budget, flags);
    if (r < 56) {
        if (chance(50))
            return mk(xs("(int)(%s & %d)", ds->iv, (1 << between(1, ds->k)) - 1), 1 << ds->k, 0);
        return mk(xs("(int)%s", ds->iv), 1 << ds->k, 0);
    }
    if (r < 68) {
        int cand[MAXSC], n = 0;
        for (int x = 0; x < ds->sp->nsc; x++)
            if (scs[ds->sp->sc[x]].tk != TK_UNS && sc_visible(ds, ds->sp->sc[x]))
                cand[n++] = ds->sp->sc[x];
        if (n) {
            const scalar *s = &scs[cand[below(n)]];
            return mk(xs("%s", s->name), scalar_bound(s), tk_float(s->tk));
        }
    }
    if (r < 78 && ds->nloc && !(flags & V_NOLOCAL)) {
        int l = below(ds->nloc);
        ds->loc[l].used = 1;
        return mk(xs("%s", ds->loc[l].name), ds->loc[l].b, ds->loc[l].f);
    }
    if (r < 86 && ds->nprev && !(flags & V_NODIST)) {
        ex e = ds->prev[below(ds->nprev)];
        if ((flags & V_INT) && e.f)
            e = as_int(e);
        return e;
    }
    if ((r < 87 || ((kforced(KN_SIZEOF) || kforced(KN_SIZEOFOOB)) && chance(10))) && !(flags & V_NODIST) &&
        (kon(KN_SIZEOF) || kon(KN_SIZEOFOOB))) {
        kuse(KN_SIZEOF);
        return sizeof_leaf(ds);
    }
    if (r < 90) {
        /* a character constant with brackets in it */
        static const char *const cc[] = { "'['", "']'", "'a'", "'\\''" };
        return mk(xs("%s", cc[below(4)]), 127, 0);
    }
    return cnst(flags);
}

static double dmax(double a, double b)
{
    return a > b ? a : b;
}

/* A value with |value| <= budget (budget <= LIM). */
static ex gen_value(dstate *ds, int depth, double budget, int flags)
{
    ex e;
    for (int tries = 0;; tries++) {
        if (depth <= 0 || chance(25))
            e = leaf(ds, depth, budget, flags);
        else {
            ex a = gen_value(ds, depth - 1, budget, flags);
            ex b = gen_value(ds, depth - 1, budget, flags);
            int f = a.f || b.f;
            switch (below(14)) {
            case 0: case 1: case 2:
                e = mk(xs("(%s + %s)", a.t, b.t), a.b + b.b, f);
                break;
            case 3: case 4:
                e = mk(xs("(%s - %s)", a.t, b.t), a.b + b.b, f);
                break;
            case 5: {
                int c = between(2, 9);
                e = mk(xs("(%s * %d)", a.t, c), a.b * c, a.f);
                break;
            }
            case 6:
                e = mk(xs("(%s * %s)", a.t, b.t), a.b * b.b, f);
                break;
            case 7:
                if (a.f)
                    e = mk(xs("(%s * 0.5)", a.t), a.b, 1);
                else
                    e = mk(xs("(%s / %d)", a.t, between(2, 7)), a.b, 0);
                break;
            case 8:
                if (f) {
                    static const char *const fn1[] = { "floor", "ceil", "trunc", "round", "fabs", "rint" };
                    if (chance(40))
                        e = mk(xs(a.f ? "sqrt(fabs(%s))" : "sqrt(fabs((double)%s))", a.t), a.b < 1 ? 1 : a.b, 1);
                    else if (chance(30))
                        e = mk(xs("%s(%s, %s)", chance(50) ? "fmin" : "fmax", a.t, b.t), dmax(a.b, b.b), 1);
                    else if (chance(30))
                        e = mk(xs("fmod(%s, %d.0)", a.t, between(2, 99)), 100, 1);
                    else if (chance(30))
                        e = mk(xs("copysign(%s, %s)", a.t, b.t), a.b, 1);
                    else
                        e = mk(xs(a.f ? "%s(%s)" : "%s((double)%s)", fn1[below(6)], a.t), a.b + 1, 1);
                } else {
                    if (chance(50))
                        e = mk(xs("abs((int)(%s))", a.t), a.b, 0);
                    else
                        e = mk(xs("labs((long)(%s))", a.t), a.b, 0);
                }
                break;
            case 9: {
                ex ia = as_int(a);
                e = mk(xs("(%s %% %d)", ia.t, between(2, 97)), 97, 0);
                break;
            }
            case 10: {
                ex ia = as_int(a), ib = as_int(b);
                double m = 1;
                while (m <= dmax(ia.b, ib.b))
                    m *= 2;
                e = mk(xs("(%s ^ %s)", ia.t, ib.t), m, 0);
                break;
            }
            case 11: {
                ex ia = as_int(a);
                int c = between(1, 1023);
                e = mk(xs("(%s & %d)", ia.t, c), c, 0);
                break;
            }
            case 12:
                if (flags & V_NOGUARD) {
                    e = mk(xs("(%s + %s)", a.t, b.t), a.b + b.b, f);
                } else {
                    char *c = gen_cond(ds, depth - 1, flags | V_NOLOCAL | V_NOWRITTEN);
                    e = mk(xs("(%s ? %s : %s)", c, a.t, b.t), dmax(a.b, b.b), f);
                }
                break;
            default:
                if (f)
                    e = mk(xs("ldexp(%s, %d)", a.t, between(-3, 2)), a.b * 4, 1);
                else if (a.tk == TK_BOOL || b.tk == TK_BOOL || a.tk == TK_UCHAR || b.tk == TK_UCHAR)   /* -Wbool-compare, -Wtype-limits */
                    e = mk(xs("(%s + %s)", a.t, b.t), a.b + b.b, 0);
                else if (strcmp(a.t, b.t) != 0)
                    e = mk(xs("(%s > %s)", a.t, b.t), 1, 0);
                else
                    e = mk(xs("(%s > 0)", a.t), 1, 0);
                if (e.b == 1)
                    e.tk = TK_BOOL;
                break;
            }
        }
        if (e.b <= budget)
            break;
        if (tries > 6) {
            e = cnst(flags);
            break;
        }
    }
    if ((flags & V_INT) && e.f)
        e = as_int(e);
    return e;
}

/* e reduced into the range of an element of type tk and role. */
static char *store(ex e, int tk, int role)
{
    if (role == ROLE_INDEX) {
        if (e.f)
            return xs("(int)fmod(fabs(%s), %d.0)", e.t, 1 << idxlog);
        return xs("(int)((unsigned)(%s) %% %du)", e.t, 1 << idxlog);
    }
    if (role == ROLE_SENT) {
        if (e.f)
            return xs("((int)fmod(fabs(%s), %d.0) - 1)", e.t, (1 << idxlog) + 1);
        return xs("((int)((unsigned)(%s) %% %du) - 1)", e.t, (1 << idxlog) + 1);
    }
    switch (tk) {
    case TK_UNS:
        if (e.f)
            return xs("(unsigned)fmod(fabs(%s), 32749.0)", e.t);
        return xs("(unsigned)(%s) %% 32749u", e.t);
    case TK_UCHAR:
        if (e.f)
            return xs("(unsigned char)fmod(fabs(%s), 256.0)", e.t);
        return xs("(unsigned char)(%s)", e.t);
    case TK_FLOAT:
        return xs("fmodf((float)(%s), 32749.0f)", e.t);
    case TK_DOUBLE:
        return xs("fmod(%s, 32749.0)", e.t);
    default:
        if (e.f)
            return xs("(%s)fmod(%s, 32749.0)", tk_c[tk], e.t);
        return xs("(%s)((%s) %% 32749)", tk_c[tk], e.t);
    }
}

/* ------------------------------------------------------------ doalls */

/* The loop's bound, 2^k, in one of the forms the docs accept. */
static char *bound_text(const scope *sp, int k)
{
    switch (below(9)) {
    case 0: return xs("%d", 1 << k);
    case 1: return xs("0x%X", 1u << k);
    case 2: return xs("(1 << %d)", k);
    case 3: return xs("(1 << L%d)", k);
    case 4: return xs("E%d", k);
    case 5:
        if (k > 0)
            return xs("2 * N%d", k - 1);
        return xs("N%d", k);
    case 6:
        for (int x = 0; x < sp->narr; x++) {
            const array *a = &arrs[sp->arr[x]];
            if (a->nd == 1 && a->size == 1 << k && chance(50))
                return xs("(int)(sizeof %s / sizeof %s[0])", a->name, a->name);
        }
        return xs("N%d", k);
    default: return xs("N%d", k);
    }
}

/* Whether identifier name occurs in text (not as part of a longer one). */
static int names_in(const char *text, const char *name)
{
    size_t L = strlen(name);
    for (const char *q = text; (q = strstr(q, name)) != NULL; q += L) {
        int before_ok = q == text || !(q[-1] == '_' || (q[-1] >= 'a' && q[-1] <= 'z') ||
                                       (q[-1] >= 'A' && q[-1] <= 'Z') || (q[-1] >= '0' && q[-1] <= '9'));
        char c = q[L];
        int after_ok = !(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'));
        /* sizeof a / sizeof a[0] in a loop bound is no use of a */
        int in_sizeof = q - text >= 7 && strncmp(q - 7, "sizeof ", 7) == 0;
        if (before_ok && after_ok && !in_sizeof)
            return 1;
    }
    return 0;
}

static const char *const ivnames[] = { "i", "j", "k", "idx", "it" };

/* A doall in the scope, written to b at indentation lv.  force_w: an array
 * that must be written (or -1); force_r: one that must be read. */
enum { GD_LOCALONLY = 1, GD_OUTERW = 2 };

static void gen_doall(buf *b, int lv, const scope *sp, int force_w, int force_r, int force_sc, int opts)
{
    dstate ds0, *ds = &ds0;
    memset(ds, 0, sizeof *ds);
    ds->sp = sp;
    ds->force_sc = force_sc;

    /* Written arrays: distributed data or index arrays of the scope. */
    int cand[MAXARR], n = 0;
    for (int x = 0; x < sp->narr; x++) {
        const array *a = &arrs[sp->arr[x]];
        if (a->layout != LAY_REPL)
            cand[n++] = sp->arr[x];
    }
    int w0 = force_w >= 0 ? force_w : n ? cand[below(n)] : -1;
    if (w0 < 0)
        die("no array to write");
    if (w0 == force_r)
        force_r = -1;
    const array *W = &arrs[w0];
    ds->wr[ds->nw++] = w0;
    for (int x = 0; x < n && ds->nw < MAXW; x++) {
        const array *a = &arrs[cand[x]];
        if (cand[x] != w0 && cand[x] != force_r && a->m == W->m && a->layout == W->layout &&
            a->bclog == W->bclog && chance(25))
            ds->wr[ds->nw++] = cand[x];
    }

    /* Iterations: 2^k, k <= m. */
    int k = W->m;
    if (!(opts & GD_OUTERW) && chance(20) && W->m > 3)
        k = between(W->m - 3 > 3 ? W->m - 3 : 3, W->m - 1);
    ds->k = k;
    const char *iv = ivnames[below(5)];
    ds->iv = iv;
    int ivt = below(100);
    const char *ivtype = ivt < 70 ? "int" : ivt < 80 ? "unsigned" : ivt < 90 ? "long" : ivt < 95 ? "long long" : "unsigned long";
    ds->ivsigned = ivtype[0] != 'u';
    int before = chance(15);

    /* The written element: f(i), one-to-one into [0, 2^m). */
    char *f;
    int sidx = -1;
    if (((opts & GD_OUTERW) || (kon(KN_OUTERWIDX) && chance(40))) && k == W->m)
        sidx = pick_idx_scalar(ds, W->m);
    if (sidx >= 0) {
        f = xs("%s ^ %s", iv, scs[sidx].name);
        kuse(KN_OUTERWIDX);
    } else if (k == W->m) {
        f = perm(k, iv, 1);
    } else {
        switch (below(5)) {
        case 0: f = xs("(%s << %d)", perm(k, iv, 0), W->m - k); break;
        case 1: f = xs("(%s | %d)", perm(k, iv, 0), below(1 << (W->m - k)) << k); break;
        case 2: f = xs("(%s + %d)", iv, below((1 << W->m) - (1 << k) + 1)); break;
        case 3: f = xs("((%s << %d) | %d)", iv, W->m - k, below(1 << (W->m - k))); break;
        default: f = xs("%s", iv); break;
        }
    }
    /* A 2-D array written transposed, m[i & (R-1)][i >> r], is one-to-one
     * too; the other written arrays then get the same flattened element. */
    int transposed = W->nd == 2 && k == W->m && strcmp(f, iv) == 0 && chance(50);
    char *fflat = f;
    if (transposed)
        fflat = xs("(((%s & %d) << %d) | (%s >> %d))", iv, (1 << W->ext[0]) - 1, W->ext[1], iv, W->ext[0]);
    for (int j = 0; j < ds->nw; j++) {
        const array *a = &arrs[ds->wr[j]];
        if (j == 0 && transposed)
            ds->wsub[j] = xs("[%s & %d][%s >> %d]", iv, (1 << a->ext[0]) - 1, iv, a->ext[0]);
        else if (a->nd == 2 && strcmp(fflat, iv) == 0)
            ds->wsub[j] = xs("[%s >> %d][%s & %d]", iv, a->ext[1], iv, (1 << a->ext[1]) - 1);
        else
            ds->wsub[j] = subs_flat(a, fflat);
    }

    /* The body. */
    buf body = { 0, 0, 0 };
    int nstmt = 0;
    int localonly = (opts & GD_LOCALONLY) || (kon(KN_LOCALONLY) && force_w < 0 && force_r < 0 && chance(15));
    int nloc = localonly ? 1 + below(2) : below(100) < 55 ? 0 : between(1, 3);
    for (int l = 0; l < nloc && ds->nloc < MAXLOC; l++) {
        int f2 = chance(40);
        int tk = f2 ? (chance(50) ? TK_DOUBLE : TK_FLOAT) : (chance(70) ? TK_INT : TK_LONG);
        ex e = gen_value(ds, 2, 16777216.0, f2 ? 0 : V_INT);
        char *name = xs("v%d", ds->nloc);
        if (chance(25)) {
            bput(&body, "%s %s;\n", tk_c[tk], name);
            bput(&body, "%s = %s;\n", name, tk == TK_FLOAT ? xs("(float)(%s)", e.t) : e.t);
        } else {
            bput(&body, "%s %s = %s;\n", tk_c[tk], name, tk == TK_FLOAT ? xs("(float)(%s)", e.t) : e.t);
        }
        nstmt++;
        ds->loc[ds->nloc].name = name;
        ds->loc[ds->nloc].f = f2;
        ds->loc[ds->nloc].b = e.b;
        ds->loc[ds->nloc].used = 0;
        ds->nloc++;
        if (chance(20) && e.b < 1e6) {
            ex e2 = gen_value(ds, 1, 1e6, f2 ? 0 : V_INT);
            bput(&body, "%s += %s;\n", name, e2.t);
            ds->loc[ds->nloc - 1].b = e.b + e2.b;
            nstmt++;
        }
    }
    if (localonly) {
        kuse(KN_LOCALONLY);
    } else {
        for (int j = 0; j < ds->nw; j++) {
            const array *a = &arrs[ds->wr[j]];
            int last = j == ds->nw - 1;
            int reps = 1 + (chance(20) ? 1 : 0);
            for (int r = 0; r < reps; r++) {
                int fin = last && r == reps - 1;
                char *target = xs("%s%s", a->name, ds->wsub[j]);
                int tk = a->tk;
                if (a->tk == TK_STRUCT) {
                    /* the whole element from another array of the type, or a member */
                    if (chance(25)) {
                        int src = -1;
                        for (int x = 0; x < sp->narr; x++) {
                            const array *s2 = &arrs[sp->arr[x]];
                            if (s2->tk == TK_STRUCT && s2->st == a->st && is_written(ds, sp->arr[x]) < 0 &&
                                chance(60))
                                src = sp->arr[x];
                        }
                        if (src >= 0 && !fin) {
                            bput(&body, "%s = %s%s;\n", target, arrs[src].name, read_subs(ds, &arrs[src], 0));
                            ds->reads++;
                            nstmt++;
                            continue;
                        }
                    }
                    target = xs("%s%s", target, member(a->st, &tk));
                }
                ex e = gen_value(ds, 3, 1073741824.0, 0);
                if (fin) {
                    /* every local is read (-Wunused-variable), and the scalar
                     * the body must read is read */
                    for (int l = 0; l < ds->nloc; l++) {
                        if (ds->loc[l].f)
                            e = mk(xs("(%s + fmod(%s, 1000.0))", e.t, ds->loc[l].name), e.b + 1000, 1);
                        else
                            e = mk(xs("(%s + %s %% 1000)", e.t, ds->loc[l].name), e.b + 1000, e.f);
                    }
                    if (force_sc >= 0 && !names_in(body.p ? body.p : "", scs[force_sc].name) &&
                        !names_in(e.t, scs[force_sc].name))
                        e = mk(xs("(%s + %s)", e.t, scs[force_sc].name), e.b + scalar_bound(&scs[force_sc]),
                               e.f || tk_float(scs[force_sc].tk));
                }
                int compound = a->role == ROLE_DATA && tk != TK_SHORT && tk != TK_UCHAR && chance(30);
                if (compound && tk_float(tk)) {
                    bput(&body, "%s += %s;\n", target, e.t);
                    bput(&body, "%s = %s(%s, 32749.0%s);\n", target, tk == TK_FLOAT ? "fmodf" : "fmod", target,
                         tk == TK_FLOAT ? "f" : "");
                    nstmt += 2;
                } else if (compound && !e.f) {
                    static const char *const ops[] = { "+=", "-=", "^=", "*=" };
                    int op = below(fin && ds->nloc ? 3 : 4);   /* *= drops e and its locals */
                    if (op == 2)
                        bput(&body, "%s ^= %s;\n", target,
                             tk == TK_UNS ? xs("(unsigned)(%s & 1023)", e.t) : xs("(%s & 1023)", e.t));
                    else if (op == 3)
                        bput(&body, "%s *= %d;\n", target, between(2, 5));
                    else
                        bput(&body, "%s %s %s;\n", target, ops[op], tk == TK_UNS ? xs("(unsigned)(%s)", e.t) : e.t);
                    bput(&body, "%s %%= 32749%s;\n", target, tk == TK_UNS ? "u" : "");
                    nstmt += 2;
                } else {
                    bput(&body, "%s = %s;\n", target, store(e, tk, a->role));
                    nstmt++;
                }
            }
        }
        if (force_r >= 0) {
            /* a read of an array that must appear in some doall */
            const array *a = &arrs[force_r];
            const array *w = &arrs[ds->wr[0]];
            int tk = w->tk;
            char *target = xs("%s%s", w->name, ds->wsub[0]);
            if (w->tk == TK_STRUCT)
                target = xs("%s%s", target, member(w->st, &tk));
            ex v = read_value(ds, force_r, read_subs(ds, a, 0), 0, 1);
            bput(&body, "%s = %s;\n", target, store(mk(xs("(%s + %s)", target, v.t), 65536, v.f || tk_float(tk)), tk,
                                                     w->role));
            nstmt++;
        }
    }
    if (chance(5)) {
        bput(&body, ";\n");
        nstmt++;
    }

    /* Emit. */
    size_t start = b->len;
    if (before) {
        ind(b, lv);
        bput(b, "{\n");
        lv++;
        ind(b, lv);
        bput(b, "%s %s;\n", ivtype, iv);
    }
    ind(b, lv);
    bput(b, "#pragma hyperdo doall\n");
    if (chance(10)) {
        ind(b, lv);
        bput(b, "/* iterations are independent */\n");
    }
    static const char *const incs[] = { "%s++", "++%s", "%s += 1", "%s = %s + 1" };
    int inc = chance(70) ? 0 : below(4);
    char *incr = xs(incs[inc], iv, iv);
    ind(b, lv);
    if (before)
        bput(b, "for (%s = 0; %s < %s; %s)", iv, iv, bound_text(sp, k), incr);
    else
        bput(b, "for (%s %s = 0; %s < %s; %s)", ivtype, iv, iv, bound_text(sp, k), incr);
    int braces = nstmt != 1 || ds->nloc > 0 || chance(40);
    bput(b, braces ? " {\n" : "\n");
    char *p = body.p;
    while (p && *p) {
        char *nl = strchr(p, '\n');
        if (braces && chance(4)) {
            ind(b, lv + 1);
            bput(b, "/* b[i] = a[i]; */\n");
        }
        ind(b, lv + 1);
        bput(b, "%.*s%s\n", (int)(nl - p), p, chance(4) ? " // x[i ^ 1]" : "");
        p = nl + 1;
    }
    if (braces) {
        ind(b, lv);
        bput(b, "}\n");
    }
    if (before) {
        /* the loop variable after the loop: the trip count */
        ind(b, lv);
        bput(b, "printf(\"%s after the loop: %%ld\\n\", (long)%s);\n", iv, iv);
        lv--;
        ind(b, lv);
        bput(b, "}\n");
    }
    for (int x = 0; x < sp->narr; x++)
        if (names_in(b->p + start, arrs[sp->arr[x]].name))
            arrs[sp->arr[x]].used = 1;
}

/* ------------------------------------------------------------ the host's statements */

/* Element e (a flattened index text) of a, for the host. */
static char *elem_at(const array *a, const char *e)
{
    return xs("%s%s", a->name, subs_flat(a, e));
}

/* A loop over the elements of a (indentation lv) with one statement for
 * each scalar of an element (each member of a struct, each entry of an
 * array member): stmt writes it for the lvalue of type tk, entry x of its
 * member (0 outside arrays). */
typedef void (*scalar_stmt)(buf *b, const char *lvalue, int tk, int x, const void *ctx);

static void emit_per_scalar(buf *b, int lv, const array *a, scalar_stmt stmt, const void *ctx)
{
    char *el = elem_at(a, "e");
    ind(b, lv);
    bput(b, "for (int e = 0; e < %d; e++) {\n", a->size);
    if (a->tk == TK_STRUCT) {
        const stype *S = &stypes[a->st];
        for (int j = 0; j < S->nmem; j++) {
            int n = S->mlen[j] ? S->mlen[j] : 1;
            for (int x = 0; x < n; x++) {
                ind(b, lv + 1);
                stmt(b, S->mlen[j] ? xs("%s.f%d[%d]", el, j, x) : xs("%s.f%d", el, j),
                     S->mtk[j], x, ctx);
            }
        }
    } else {
        ind(b, lv + 1);
        stmt(b, el, a->tk, 0, ctx);
    }
    ind(b, lv);
    bput(b, "}\n");
}

static void mix_stmt(buf *b, const char *lvalue, int tk, int x, const void *into)
{
    const char *h = into;
    (void)x;
    if (tk_float(tk))
        bput(b, "%s = mixd(%s, %s);\n", h, h, lvalue);
    else
        bput(b, "%s = mixu(%s, (unsigned long long)(long long)%s);\n", h, h, lvalue);
}

/* Statements mixing every element of a into h (indentation lv). */
static void emit_mix(buf *b, int lv, const array *a, const char *h)
{
    emit_per_scalar(b, lv, a, mix_stmt, h);
}

static int stepno;

/* Print a checksum of a (inline, or through a function the array's address
 * escapes to). */
static void emit_checksum(buf *b, int lv, const array *a)
{
    stepno++;
    if (a->nd == 1 && chance(35)) {
        char *fn = a->tk == TK_STRUCT ? xs("ck_s%d", a->st) : xs("ck_%s", tk_tag[a->tk]);
        ind(b, lv);
        bput(b, "tot ^= %s(%s, %d);\n", fn, a->name, a->size);
        ind(b, lv);
        bput(b, "printf(\"%d: %s %%016llx\\n\", %s(%s, %d));\n", stepno, a->name, fn, a->name, a->size);
        return;
    }
    ind(b, lv);
    bput(b, "{\n");
    ind(b, lv + 1);
    bput(b, "unsigned long long h = 14695981039346656037ull;\n");
    emit_mix(b, lv + 1, a, "h");
    ind(b, lv + 1);
    bput(b, "tot ^= h;\n");
    ind(b, lv + 1);
    bput(b, "printf(\"%d: %s %%016llx\\n\", h);\n", stepno, a->name);
    ind(b, lv);
    bput(b, "}\n");
}

/* A value for element e (text) of a when the host initialises it. */
static char *init_value(const array *a, int tk, const char *e, int salt)
{
    int p = 2 * between(1, 60) + 1, q = between(0, 999) + salt;
    if (a->role == ROLE_INDEX)
        return xs("(%s * %d + %d) %% %d", e, p, q, 1 << idxlog);
    if (a->role == ROLE_SENT)
        return xs("%s %% 7 == %d ? -1 : (%s * %d + %d) %% %d", e, below(7), e, p, q, 1 << idxlog);
    switch (tk) {
    case TK_UNS: return xs("(unsigned)((%s * %d + %d) %% 30011)", e, p, q);
    case TK_UCHAR: return xs("(unsigned char)(%s * %d + %d)", e, p, q);
    case TK_FLOAT: return xs("(float)((%s * %d + %d) %% 1999) * 0.25f - 200.0f", e, p, q);
    case TK_DOUBLE: return xs("((%s * %d + %d) %% 1999) * 0.125 - 100.0", e, p, q);
    default: return xs("(%s)((%s * %d + %d) %% 1999 - 999)", tk_c[tk], e, p, q);
    }
}

static void init_stmt(buf *b, const char *lvalue, int tk, int x, const void *a)
{
    bput(b, "%s = %s;\n", lvalue, init_value(a, tk, "e", x));
}

static void emit_init(buf *b, int lv, const array *a)
{
    emit_per_scalar(b, lv, a, init_stmt, a);
}

/* An array of the scope the host may name (not node-only). */
static int pick_host_array(const scope *sp, int need_1d, int numeric)
{
    int cand[MAXARR], n = 0;
    for (int x = 0; x < sp->narr; x++) {
        const array *a = &arrs[sp->arr[x]];
        if (a->nodeonly || (need_1d && a->nd != 1) || (numeric && a->tk == TK_STRUCT))
            continue;
        cand[n++] = sp->arr[x];
    }
    return n ? cand[below(n)] : -1;
}

/* An array the host may write (not const). */
static int pick_host_writable(const scope *sp, int need_1d, int numeric)
{
    for (int t = 0; t < 8; t++) {
        int a = pick_host_array(sp, need_1d, numeric);
        if (a >= 0 && !arrs[a].isconst)
            return a;
    }
    return -1;
}

/* An element of a as text for the host: a member if a struct; *tk its type. */
static char *host_elem(const array *a, const char *e, int *tk)
{
    char *t = elem_at(a, e);
    *tk = a->tk;
    if (a->tk == TK_STRUCT)
        t = xs("%s%s", t, member(a->st, tk));
    return t;
}

/* The host rewrites arrays: a loop over every element, one element, memcpy,
 * memset, a helper function through a pointer. */
static void step_modify(buf *b, int lv, const scope *sp)
{
    int a = pick_host_writable(sp, 0, 0);
    if (a < 0)
        return;
    const array *A = &arrs[a];
    int r = below(100);
    if (r < 40) {
        int o = pick_host_array(sp, 0, 0);
        const array *O = o >= 0 ? &arrs[o] : A;
        int tk, tko;
        char *el = host_elem(A, "e", &tk);
        char *oel = host_elem(O, xs("e & %d", (1 << O->m) - 1), &tko);
        char *x = xs("(%s%s * %d + %s%s + e)", tk == TK_UNS ? "(int)" : "", el, between(1, 5),
                     tko == TK_UNS ? "(int)" : "", oel);
        ind(b, lv);
        bput(b, "for (int e = 0; e < %d; e++)\n", A->size);
        ind(b, lv + 1);
        bput(b, "%s = %s;\n", el, store(mk(x, 300000, tk_float(tk) || tk_float(tko)), tk, A->role));
    } else if (r < 60) {
        int tk;
        char *el = host_elem(A, xs("%d", below(A->size)), &tk);
        ind(b, lv);
        bput(b, "%s = %s;\n", el, store(mk(xs("%d", between(-500, 500)), 500, 0), tk, A->role));
    } else if (r < 72) {
        /* memcpy from an array of the same type, size and role */
        for (int x = 0; x < sp->narr; x++) {
            const array *O = &arrs[sp->arr[x]];
            if (sp->arr[x] != a && !O->nodeonly && O->tk == A->tk && O->st == A->st && O->size == A->size &&
                O->role == A->role) {
                ind(b, lv);
                bput(b, "memcpy(%s, %s, sizeof %s);\n", A->name, O->name, A->name);
                return;
            }
        }
        ind(b, lv);
        bput(b, "memset(%s, 0, sizeof %s);\n", A->name, A->name);
    } else if (r < 82 && A->nd == 1 && A->tk != TK_STRUCT && A->role == ROLE_DATA) {
        ind(b, lv);
        bput(b, "twiddle_%s(%s, %d);\n", tk_tag[A->tk], A->name, A->size);
    } else if (A->nd == 1 && A->tk != TK_STRUCT && A->size > 2) {
        /* a pointer into the array, used at once */
        int c = below(A->size - 1);
        ind(b, lv);
        bput(b, "{\n");
        ind(b, lv + 1);
        if (kon(KN_PTR) && chance(60)) {
            bput(b, "%s *pp = &%s[%d];\n", elem_cname(A), A->name, c);
            kuse(KN_PTR);
        } else {
            bput(b, "%s *pp = %s + %d;\n", elem_cname(A), A->name, c);
        }
        ind(b, lv + 1);
        bput(b, "pp[1] = %s;\n",
             store(mk(xs("(%s*pp * 3 + 7)", A->tk == TK_UNS ? "(int)" : ""), 200000, tk_float(A->tk)), A->tk,
                   A->role));
        ind(b, lv + 1);
        bput(b, "printf(\"ptr %s[%d] %s\\n\", *pp);\n", A->name, c, tk_fmt(A->tk));
        ind(b, lv);
        bput(b, "}\n");
    } else if (kon(KN_PTR) && A->nd == 2 && A->tk != TK_STRUCT) {
        /* a row of a 2-D array */
        int r2 = below(1 << A->ext[0]);
        ind(b, lv);
        bput(b, "{\n");
        ind(b, lv + 1);
        bput(b, "%s *row = %s[%d];\n", elem_cname(A), A->name, r2);
        ind(b, lv + 1);
        bput(b, "row[0] = %s;\n", store(mk(xs("(%s*row + 11)", A->tk == TK_UNS ? "(int)" : ""), 40000, tk_float(A->tk)),
                                       A->tk, A->role));
        ind(b, lv + 1);
        bput(b, "printf(\"row %s[%d] %s\\n\", row[1]);\n", A->name, r2, tk_fmt(A->tk));
        ind(b, lv);
        bput(b, "}\n");
        kuse(KN_PTR);
    } else {
        int tk;
        char *el = host_elem(A, "0", &tk);
        ind(b, lv);
        bput(b, "printf(\"%s[0] %s\\n\", %s);\n", A->name, tk_fmt(tk), el);
    }
}

/* Print a few elements. */
static void step_print(buf *b, int lv, const scope *sp)
{
    int a = pick_host_array(sp, 0, 0);
    if (a < 0)
        return;
    const array *A = &arrs[a];
    for (int x = 0, n = between(1, 3); x < n; x++) {
        int tk;
        int e = below(A->size);
        char *el = host_elem(A, xs("%d", e), &tk);
        ind(b, lv);
        bput(b, "printf(\"%s @%d %s\\n\", %s);\n", A->name, e, tk_fmt(tk), el);
    }
}

/* Mutable scalars of the scope get new values (constants or from data). */
static void step_scalars(buf *b, int lv, const scope *sp)
{
    for (int x = 0; x < sp->nsc; x++) {
        const scalar *s = &scs[sp->sc[x]];
        if ((s->scope != SS_GLOBAL && s->scope != SS_LOCAL) || s->reg || !chance(60))
            continue;
        if (s->scope == SS_LOCAL && s->fn != sp->fn)
            continue;
        ind(b, lv);
        int a = pick_host_array(sp, 1, 1);
        if (a >= 0 && chance(40) && s->kind != SK_OFF && s->tk != TK_UNS) {
            const array *A = &arrs[a];
            char *el = xs("%s[%d]", A->name, below(A->size));
            if (s->kind == SK_IDX)
                bput(b, "%s = (int)((unsigned)(%s) %% %du);\n", s->name,
                     tk_float(A->tk) ? xs("(int)fabs(%s)", el) : xs("(long long)%s", el), 1u << s->rlog);
            else if (tk_float(s->tk))
                bput(b, "%s = fmod(%s, %d.0);\n", s->name, el, s->vbound);
            else
                bput(b, "%s = (%s)%s %% %d;\n", s->name, tk_c[s->tk], tk_float(A->tk) ? xs("(int)%s", el) : el,
                     s->vbound);
        } else {
            bput(b, "%s = %s;\n", s->name, scalar_value(s));
        }
    }
}

/* ------------------------------------------------------------ functions and main */

static scope global_scope(void)
{
    scope sp;
    memset(&sp, 0, sizeof sp);
    sp.fn = -1;
    for (int a = 0; a < narrs; a++)
        if (arrs[a].scope == SC_GLOBAL)
            sp.arr[sp.narr++] = a;
    for (int s = 0; s < nscs; s++)
        if (scs[s].scope == SS_GLOBAL || scs[s].scope == SS_CONST)
            scope_add_sc(&sp, s);
    return sp;
}

/* A data array of the program: shape, type, layout valid up to the D-cube. */
static int make_data_array(const char *prefix, int scope_kind, int fn, int allow_struct)
{
    int tk = allow_struct && nstypes && chance(25) ? TK_STRUCT : random_scalar_tk();
    int a = new_array(prefix, tk, tk == TK_STRUCT ? below(nstypes) : 0, ROLE_DATA, scope_kind, fn);
    array *A = &arrs[a];
    int lo = D > 4 ? D : 4;
    int m = between(lo, 10);
    int r = below(100);
    set_shape(A, m, r < 70 ? 1 : r < 92 ? 2 : 3);
    set_layout(A);
    if (A->layout != LAY_BC && A->m - D >= 0 && chance(8) && exact_mode == 0)
        A->nodeonly = 1;
    return a;
}

/* Arguments for a call of function f (an expression, no ';'). */
static char *call_expr(int f)
{
    func *F = &fns[f];
    char *t = xs("%s(", F->name);
    for (int p = 0; p < F->nparams; p++)
        t = xs("%s%s%s", t, p ? ", " : "", scalar_value(&scs[F->params[p]]));
    F->calls++;
    return xs("%s)", t);
}

static char *call_text(int f)
{
    return xs("%s;\n", call_expr(f));
}

/* A 1-D numeric array of the scope the host may name, for a checksum
 * returned or printed: -1 if none. */
static int pick_host_1d(const scope *sp)
{
    return pick_host_array(sp, 1, 1);
}

/* A function holding doalls, called from main (and from later functions);
 * it may return a checksum and may call itself, one level less deep. */
static void gen_function(void)
{
    int f = nfns++;
    func *F = &fns[f];
    snprintf(F->name, sizeof F->name, "phase%d", f);
    scope sp = global_scope();
    sp.fn = f;
    static const int kinds[] = { SK_IDX, SK_VAL, SK_VAL, SK_OFF };
    F->nparams = between(1, 3);
    F->recdepth = -1;
    F->returns = chance(40);
    for (int p = 0; p < F->nparams; p++) {
        int kind = kinds[below(4)];
        int tk = kind == SK_VAL ? (chance(50) ? TK_DOUBLE : chance(50) ? TK_INT : TK_LONG) : TK_INT;
        int s = new_scalar("p", tk, kind, SS_PARAM, f);
        F->params[p] = s;
        scope_add_sc(&sp, s);
        if (kind == SK_IDX && F->recdepth < 0 && chance(30)) {
            scs[s].rlog = between(1, 2);
            F->recdepth = s;
        }
    }
    buf *b = &F->text;
    bput(b, "static %s %s(", F->returns ? "long" : "void", F->name);
    for (int p = 0; p < F->nparams; p++)
        bput(b, "%s%s %s", p ? ", " : "", tk_c[scs[F->params[p]].tk], scs[F->params[p]].name);
    bput(b, ")\n{\n");
    for (int p = 0; p < F->nparams; p++)
        bput(b, "    (void)%s;\n", scs[F->params[p]].name);
    if (F->recdepth >= 0)
        bput(b, "    if (%s <= 0)\n        return%s;\n", scs[F->recdepth].name, F->returns ? " 0" : "");
    /* static local arrays with their distribution */
    int nst = chance(35) ? between(1, 2) : 0;
    int st[2];
    for (int x = 0; x < nst; x++) {
        st[x] = make_data_array("h", SC_STATIC, f, 0);
        arrs[st[x]].nodeonly = 0;
        arrs[st[x]].hostinit = 0;
        sp.arr[sp.narr++] = st[x];
        array *A = &arrs[st[x]];
        bput(b, "    static %s %s", elem_cname(A), A->name);
        for (int d = 0; d < A->nd; d++)
            bput(b, "[%d]", 1 << A->ext[d]);
        bput(b, ";\n");
        bput(b, "#pragma hyperdo distribute(%s : %s)\n", A->name,
             A->layout == LAY_CYCLIC ? "cyclic" : A->layout == LAY_BLOCK ? "block" : xs("block_cyclic(%d)", 1 << A->bclog));
        arrs[st[x]].used = 1;
    }
    if (chance(40)) {
        int s = new_scalar("lf", chance(50) ? TK_INT : TK_DOUBLE, SK_VAL, SS_LOCAL, f);
        scope_add_sc(&sp, s);
        bput(b, "    %s %s = %s;\n", tk_c[scs[s].tk], scs[s].name, scalar_value(&scs[s]));
    }
    int nd = between(1, 2);
    for (int x = 0; x < sp.nsc; x++) {
        const scalar *S = &scs[sp.sc[x]];
        if (S->scope == SS_LOCAL && S->fn == f)
            bput(b, "    printf(\"%s %s\\n\", %s);\n", S->name, S->tk == TK_DOUBLE ? "%a" : "%d", S->name);
    }
    for (int d = 0; d < nd; d++) {
        gen_doall(b, 1, &sp, d < nst ? st[d] : -1, d == 0 && nst == 2 ? st[1] : -1, -1, 0);
        if (d == 0 && f > 0 && chance(30)) {
            /* a function holding doalls calls another */
            bput(b, "    ");
            bput(b, "%s", call_text(below(f)));
        }
    }
    for (int x = 0; x < nst; x++)
        emit_checksum(b, 1, &arrs[st[x]]);
    int ca = pick_host_array(&sp, 0, 0);
    if (ca >= 0 && chance(40))
        emit_checksum(b, 1, &arrs[ca]);
    if (F->recdepth >= 0) {
        /* the recursive call comes last: no doall of this call is left to
         * use the static arrays (docs/codegen.md, Limits) */
        bput(b, "    %s%s(", F->returns ? "long rr = " : "", F->name);
        for (int p = 0; p < F->nparams; p++) {
            const scalar *S = &scs[F->params[p]];
            if (F->params[p] == F->recdepth)
                bput(b, "%s%s - 1", p ? ", " : "", S->name);
            else
                bput(b, "%s%s", p ? ", " : "", S->name);
        }
        bput(b, ");\n");
    }
    if (F->returns) {
        int r = pick_host_1d(&sp);
        char *val = r >= 0 ? xs("(long)(ck_%s(%s, %d) %% 1000u)", tk_tag[arrs[r].tk], arrs[r].name, arrs[r].size)
                           : xs("%d", between(0, 99));
        bput(b, "    return %s%s;\n", val, F->recdepth >= 0 ? " + rr % 1000" : "");
    }
    bput(b, "}\n\n");
}

static buf mainb;
static int exited;       /* an exit() call was emitted: what follows is not reached */
static int nloops;

static void step(buf *b, int lv, scope *sp, int depth);

/* A sequential loop around doalls, its variable an outer scalar of theirs. */
static void step_loop(buf *b, int lv, scope *sp, int depth)
{
    int R = between(2, 4);
    int s = new_scalar("r", TK_INT, SK_IDX, SS_LOOP, -1);
    scs[s].rlog = R <= 2 ? 1 : 2;
    snprintf(scs[s].name, sizeof scs[s].name, "r%d", nloops++);
    int r = below(100);
    if (r < 70) {
        ind(b, lv);
        bput(b, "for (int %s = 0; %s < %d; %s++) {\n", scs[s].name, scs[s].name, R, scs[s].name);
    } else {
        /* a while loop whose condition reads a distributed array */
        int a = pick_host_array(sp, 1, 1);
        ind(b, lv);
        bput(b, "{\n");
        lv++;
        ind(b, lv);
        bput(b, "int %s = 0;\n", scs[s].name);
        ind(b, lv);
        if (a >= 0 && arrs[a].tk != TK_UCHAR)
            bput(b, "while (%s < %d && %s%s[%d] > %s) {\n", scs[s].name, R, arrs[a].tk == TK_UNS ? "(int)" : "",
                 arrs[a].name, below(arrs[a].size), arrs[a].tk == TK_SHORT ? "-32768" : "-40000");
        else
            bput(b, "while (%s < %d) {\n", scs[s].name, R);
    }
    int saved = sp->nsc;
    scope_add_sc(sp, s);
    int n = between(1, 3);
    for (int x = 0; x < n; x++)
        step(b, lv + 1, sp, depth + 1);
    gen_doall(b, lv + 1, sp, -1, -1, -1, 0);
    sp->nsc = saved;
    if (r >= 70) {
        ind(b, lv + 1);
        bput(b, "%s++;\n", scs[s].name);
        ind(b, lv);
        bput(b, "}\n");
        lv--;
    }
    ind(b, lv);
    bput(b, "}\n");
}

/* The host through a function that names a global array itself
 * (peek_X / poke_X, emitted for the arrays that use them). */
static void step_accessor(buf *b, int lv, const scope *sp)
{
    int cand[MAXARR], n = 0;
    for (int x = 0; x < sp->narr; x++) {
        const array *a = &arrs[sp->arr[x]];
        if (a->scope == SC_GLOBAL && a->nd == 1 && a->tk != TK_STRUCT && !a->nodeonly)
            cand[n++] = sp->arr[x];
    }
    if (!n)
        return;
    array *A = &arrs[cand[below(n)]];
    ind(b, lv);
    if (A->isconst || chance(50)) {
        A->peek = 1;
        bput(b, "printf(\"peek %s %%lld\\n\", peek_%s(%d));\n", A->name, A->name, below(A->size));
    } else {
        A->poke = 1;
        bput(b, "poke_%s(%d, %d);\n", A->name, below(A->size), between(-500, 500));
    }
}

/* A host block declaring a scalar named like a distributed array. */
static void step_shadow(buf *b, int lv, const scope *sp)
{
    int a = sp->arr[below(sp->narr)];
    if (arrs[a].isstatic)   /* its one use might be this name: -Wunused-variable */
        return;
    ind(b, lv);
    bput(b, "{\n");
    ind(b, lv + 1);
    bput(b, "int %s = %d;\n", arrs[a].name, between(0, 99));
    ind(b, lv + 1);
    bput(b, "printf(\"shadow %%d\\n\", %s * 2);\n", arrs[a].name);
    ind(b, lv);
    bput(b, "}\n");
}

/* A call of a function that returns a value: in a statement that also
 * names a distributed array, or not. */
static void step_call(buf *b, int lv, const scope *sp)
{
    int f = below(nfns);
    ind(b, lv);
    if (!fns[f].returns) {
        bput(b, "%s", call_text(f));
        return;
    }
    int a = pick_host_writable(sp, 1, 1);
    if (a >= 0 && chance(50)) {
        const array *A = &arrs[a];
        bput(b, "%s[%d] = %s;\n", A->name, below(A->size),
             store(mk(call_expr(f), 100000, 0), A->tk, A->role));
    } else if (chance(50)) {
        bput(b, "printf(\"ret %%ld\\n\", %s);\n", call_expr(f));
    } else {
        bput(b, "tot ^= (unsigned long long)%s;\n", call_expr(f));
    }
}

static void step(buf *b, int lv, scope *sp, int depth)
{
    int r = below(100);
    if (r < 12) {
        /* control flow of other shapes around doalls */
        int shape = below(4);
        if (depth >= 2)
            shape = 3;
        switch (shape) {
        case 0:
            ind(b, lv);
            bput(b, "switch ((int)(tot %% 3)) {\n");
            ind(b, lv);
            bput(b, "case 0:\n");
            gen_doall(b, lv + 1, sp, -1, -1, -1, 0);
            ind(b, lv + 1);
            bput(b, "break;\n");
            ind(b, lv);
            bput(b, "case 1:\n");
            step(b, lv + 1, sp, depth + 1);
            ind(b, lv + 1);
            bput(b, "break;\n");
            ind(b, lv);
            bput(b, "default:\n");
            ind(b, lv + 1);
            bput(b, "break;\n");
            ind(b, lv);
            bput(b, "}\n");
            return;
        case 1:
            ind(b, lv);
            bput(b, "do {\n");
            gen_doall(b, lv + 1, sp, -1, -1, -1, 0);
            ind(b, lv);
            bput(b, "} while (0);\n");
            return;
        case 2:
            /* if and else without braces, a doall as the body */
            ind(b, lv);
            bput(b, "if ((tot & %d) != 0)\n", 1 << below(3));
            gen_doall(b, lv + 1, sp, -1, -1, -1, 0);
            ind(b, lv);
            bput(b, "else\n");
            gen_doall(b, lv + 1, sp, -1, -1, -1, 0);
            return;
        default:
            if (chance(50))
                step_accessor(b, lv, sp);
            else
                step_shadow(b, lv, sp);
            return;
        }
    }
    r = below(100);
    if (r < 36) {
        gen_doall(b, lv, sp, -1, -1, -1, 0);
        int a = pick_host_array(sp, 0, 0);
        if (a >= 0 && chance(50))
            emit_checksum(b, lv, &arrs[a]);
    } else if (r < 48 && nfns) {
        step_call(b, lv, sp);
    } else if (r < 60) {
        step_modify(b, lv, sp);
    } else if (r < 68) {
        step_scalars(b, lv, sp);
    } else if (r < 74) {
        step_print(b, lv, sp);
    } else if (r < 80) {
        int a = pick_host_array(sp, 0, 0);
        if (a >= 0)
            emit_checksum(b, lv, &arrs[a]);
    } else if (r < 88 && depth < 2) {
        step_loop(b, lv, sp, depth);
    } else if (r < 95 && depth < 2) {
        /* if / else around doalls */
        ind(b, lv);
        bput(b, "if ((tot & %d) == 0) {\n", 1 << below(4));
        gen_doall(b, lv + 1, sp, -1, -1, -1, 0);
        ind(b, lv);
        bput(b, "} else {\n");
        step(b, lv + 1, sp, depth + 1);
        ind(b, lv);
        bput(b, "}\n");
    } else if (depth == 0 && !exited && chance(40)) {
        ind(b, lv);
        if (chance(50)) {
            bput(b, "stop_now(tot);\n");
        } else {
            bput(b, "printf(\"exit here\");\n");
            ind(b, lv);
            bput(b, "exit(%d);\n", between(0, 9));
        }
        exited = 1;
    } else {
        gen_doall(b, lv, sp, -1, -1, -1, 0);
    }
}

static int mainrec;

static void gen_main(void)
{
    buf *b = &mainb;
    scope sp = global_scope();
    if (kon(KN_MAINEMPTY)) {
        bput(b, "int main()\n{\n");
        kuse(KN_MAINEMPTY);
    } else {
        bput(b, "int main(void)\n{\n");
    }
    if (mainrec) {
        bput(b, "    main_depth++;\n");
        kuse(KN_MAINREC);
    }
    if (kon(KN_ATEXIT)) {
        bput(b, "    if (main_depth <= 1)\n        atexit(at_end);\n");
        kuse(KN_ATEXIT);
    }
    /* local scalars */
    int nl = between(0, 3);
    for (int x = 0; x < nl; x++) {
        static const int kinds[] = { SK_VAL, SK_VAL, SK_IDX, SK_OFF };
        int kind = kinds[below(4)];
        int tk = kind == SK_VAL ? (chance(50) ? TK_INT : chance(50) ? TK_DOUBLE : TK_LONG) : TK_INT;
        int s = new_scalar("lv", tk, kind, SS_LOCAL, -1);
        scope_add_sc(&sp, s);
        bput(b, "    %s %s = %s;\n", tk_c[tk], scs[s].name, scalar_value(&scs[s]));
    }
    if (chance(15)) {
        /* a local of main named like a doall's loop variable, which hides it there */
        static const char *const nm[] = { "i", "j", "k", "idx", "it" };
        int s = new_scalar("lv", TK_INT, SK_VAL, SS_LOCAL, -1);
        snprintf(scs[s].name, sizeof scs[s].name, "%s", nm[below(5)]);
        scope_add_sc(&sp, s);
        bput(b, "    int %s = %s;\n", scs[s].name, scalar_value(&scs[s]));
    }
    int regsc = -1;
    if (kon(KN_REGISTER)) {
        regsc = new_scalar("rg", TK_INT, chance(50) ? SK_VAL : SK_IDX, SS_LOCAL, -1);
        scs[regsc].reg = 1;
        scope_add_sc(&sp, regsc);
        bput(b, "    register int %s = %s;\n", scs[regsc].name, scalar_value(&scs[regsc]));
    }
    /* local arrays (automatic), initialised by the host */
    int nla = mainrec ? 0 : chance(30) ? between(1, 2) : 0;
    int la[2];
    for (int x = 0; x < nla; x++) {
        la[x] = make_data_array("la", SC_MAIN, -1, 1);
        arrs[la[x]].nodeonly = 0;
        sp.arr[sp.narr++] = la[x];
        const array *A = &arrs[la[x]];
        bput(b, "    %s %s", elem_cname(A), A->name);
        for (int d = 0; d < A->nd; d++)
            bput(b, "[%d]", 1 << A->ext[d]);
        bput(b, ";\n#pragma hyperdo distribute(%s : %s)\n", A->name,
             A->layout == LAY_CYCLIC ? "cyclic" : A->layout == LAY_BLOCK ? "block" : xs("block_cyclic(%d)", 1 << A->bclog));
        emit_init(b, 1, A);
    }
    /* a replicated table local to main, read by its doalls */
    if (chance(25)) {
        int tk;
        do
            tk = random_scalar_tk();
        while (tk == TK_STRUCT);
        int a = new_array("lt", tk, 0, ROLE_DATA, SC_MAIN, -1);
        array *A = &arrs[a];
        set_shape(A, between(idxlog, 7), 1);
        A->layout = LAY_REPL;
        A->size += between(1, 20);
        sp.arr[sp.narr++] = a;
        bput(b, "    %s %s[%d];\n", tk_c[tk], A->name, A->size);
        emit_init(b, 1, A);
    }
    /* the host initialises most arrays */
    for (int x = 0; x < sp.narr; x++) {
        const array *A = &arrs[sp.arr[x]];
        if (A->initlist)
            continue;
        if (A->scope == SC_GLOBAL && A->hostinit && !A->nodeonly && A->layout != LAY_REPL && chance(85))
            emit_init(b, 1, A);
        else if (A->scope == SC_GLOBAL && A->layout == LAY_REPL)
            emit_init(b, 1, A);
    }
    /* a pointer into an array, kept across doalls */
    if (chance(25) || kon(KN_PTR)) {
        int a = pick_host_writable(&sp, 1, 1);
        if (a >= 0 && arrs[a].size > 1) {
            const array *A = &arrs[a];
            int c = below(A->size);
            if (kon(KN_PTR)) {
                bput(b, "    %s *pk = &%s[%d];\n", elem_cname(A), A->name, c);
                kuse(KN_PTR);
            } else {
                bput(b, "    %s *pk = %s + %d;\n", elem_cname(A), A->name, c);
            }
            int n = between(2, 5);
            for (int x = 0; x < n && !exited; x++)
                step(b, 1, &sp, 0);
            bput(b, "    printf(\"*pk %s\\n\", *pk);\n", tk_fmt(A->tk));
            bput(b, "    *pk = %s;\n",
                 store(mk(xs("(%s*pk * 5 + 3)", A->tk == TK_UNS ? "(int)" : ""), 200000, tk_float(A->tk)), A->tk,
                       A->role));
        }
    }
    if (kon(KN_RTNAME) || regsc >= 0) {
        int s = -1;
        for (int x = 0; x < nscs; x++)
            if ((scs[x].reg || strncmp(scs[x].name, "v_", 2) == 0))
                s = x;
        if (s >= 0) {
            gen_doall(b, 1, &sp, -1, -1, s, 0);
            if (scs[s].reg)
                kuse(KN_REGISTER);
            else
                kuse(KN_RTNAME);
        }
        if (regsc >= 0 && s != regsc) {
            gen_doall(b, 1, &sp, -1, -1, regsc, 0);
            kuse(KN_REGISTER);
        }
    }
    if (kon(KN_MANY64)) {
        /* one doall reads all 66 arrays z; one host statement names them all */
        int z0 = -1, nz = 0;
        for (int a = 0; a < narrs; a++)
            if (arrs[a].name[0] == 'z') {
                if (z0 < 0)
                    z0 = a;
                nz++;
            }
        bput(b, "    for (int e = 0; e < %d; e++) {\n", arrs[z0].size);
        for (int x = 0; x < nz; x++)
            bput(b, "        %s[e] = e * %d %% 101;\n", arrs[z0 + x].name, x + 1);
        bput(b, "    }\n#pragma hyperdo doall\n    for (int i = 0; i < %d; i++)\n        %s[i] = (0", arrs[z0].size,
             arrs[z0].name);
        for (int x = 1; x < nz; x++)
            bput(b, " + %s[i ^ %d]", arrs[z0 + x].name, x % arrs[z0].size);
        bput(b, ") %% 32749;\n    printf(\"z %%ld\\n\", 0L");
        for (int x = 0; x < nz; x++)
            bput(b, " + %s[%d]", arrs[z0 + x].name, x % arrs[z0].size);
        bput(b, ");\n");
        for (int x = 0; x < nz; x++)
            arrs[z0 + x].used = 1;
        kuse(KN_MANY64);
    }
    int nsteps = between(3, 8);
    for (int x = 0; x < nsteps; x++)
        step(b, 1, &sp, 0);
    /* known constructs asked for and not placed yet */
    if (kon(KN_LOCALONLY) && !((known_used >> KN_LOCALONLY) & 1u))
        gen_doall(b, 1, &sp, -1, -1, -1, GD_LOCALONLY);
    if (kon(KN_OUTERWIDX) && !((known_used >> KN_OUTERWIDX) & 1u)) {
        int s = new_scalar("lw", TK_INT, SK_IDX, SS_LOCAL, -1);
        scs[s].rlog = 2;
        scope_add_sc(&sp, s);
        bput(b, "    int %s = %s;\n", scs[s].name, scalar_value(&scs[s]));
        gen_doall(b, 1, &sp, -1, -1, -1, GD_OUTERW);
    }
    if (kon(KN_COMMENT) && !((known_used >> KN_COMMENT) & 1u)) {
        for (int t = 0; t < 4 && !((known_used >> KN_COMMENT) & 1u); t++) {
            force_comment = 1;
            gen_doall(b, 1, &sp, -1, -1, -1, 0);
        }
    }
    if (kon(KN_PTR) && !((known_used >> KN_PTR) & 1u))
        for (int t = 0; t < 6 && !((known_used >> KN_PTR) & 1u); t++)
            step_modify(b, 1, &sp);
    /* every function called, every array that must be used used */
    for (int f = 0; f < nfns; f++)
        if (!fns[f].calls)
            bput(b, "    %s", call_text(f));
    for (int x = 0; x < sp.narr; x++) {
        const array *A = &arrs[sp.arr[x]];
        if (A->layout != LAY_REPL && (A->scope == SC_MAIN || A->layout == LAY_EXACT || (kon(KN_BCSMALL) && A->layout == LAY_BC) ||
             A->nd == 9 || A->declgroup == 9) && !A->used)
            gen_doall(b, 1, &sp, sp.arr[x], -1, -1, 0);
    }
    /* node-only arrays flow into an array the host prints */
    for (int x = 0; x < sp.narr; x++) {
        const array *A = &arrs[sp.arr[x]];
        if (A->nodeonly && A->used) {
            int w = -1;
            for (int y = 0; y < sp.narr; y++) {
                const array *B = &arrs[sp.arr[y]];
                if (!B->nodeonly && B->layout != LAY_REPL && chance(50))
                    w = sp.arr[y];
            }
            if (w >= 0)
                gen_doall(b, 1, &sp, w, sp.arr[x], -1, 0);
        }
    }
    /* every local scalar is read (-Wunused-variable) */
    for (int x = 0; x < nscs; x++)
        if (scs[x].scope == SS_LOCAL && scs[x].fn == -1)
            bput(b, "    printf(\"%s %s\\n\", %s);\n", scs[x].name, scs[x].tk == TK_DOUBLE ? "%a" : scs[x].tk == TK_LONG ? "%ld" : "%d", scs[x].name);
    /* the final checksums */
    for (int x = 0; x < sp.narr; x++) {
        const array *A = &arrs[sp.arr[x]];
        if (A->nodeonly)
            continue;
        if (A->role == ROLE_DATA || chance(60))
            emit_checksum(b, 1, A);
    }
    if (mainrec)
        bput(b, "    if (main_depth == 1) {\n        int inner = main();\n        printf(\"inner %%d\\n\", inner);\n    }\n");
    bput(b, "    printf(\"total %%016llx\\n\", tot);\n");
    if (chance(50))
        bput(b, "    return (int)(tot %% %d);\n", between(2, 7));
    else
        bput(b, "    return 0;\n");
    bput(b, "}\n");
}

/* ------------------------------------------------------------ the program */

static void setup(void)
{
    decide_known();
    mainrec = kon(KN_MAINREC);
    if (maxdim >= 4 && chance(8)) {
        exact_mode = 1;
        D = between(4, maxdim < 6 ? maxdim : 6);
    } else {
        D = between(1, maxdim);
    }
    if (kon(KN_BCSMALL) && D < 2)
        D = 2;
    nstypes = chance(35) ? between(1, 2) : 0;
    for (int t = 0; t < nstypes; t++) {
        stype *S = &stypes[t];
        S->nmem = between(2, 4);
        for (int j = 0; j < S->nmem; j++) {
            do
                S->mtk[j] = random_scalar_tk();
            while (S->mtk[j] == TK_STRUCT);
            S->mlen[j] = chance(25) ? between(2, 3) : 0;
        }
        S->typedefd = chance(50);
    }
    /* data arrays */
    int nd = between(3, 7);
    for (int x = 0; x < nd; x++) {
        int a = make_data_array("a", SC_GLOBAL, -1, 1);
        if (arrs[a].nd > 1)
            arrs[a].name[0] = 'm';
    }
    if (exact_mode)
        for (int x = 0, n = between(1, 3); x < n; x++) {
            int a = new_array("x", random_scalar_tk(), 0, ROLE_DATA, SC_GLOBAL, -1);
            set_shape(&arrs[a], D, chance(70) ? 1 : 2);
            arrs[a].layout = LAY_EXACT;
        }
    /* index arrays (values in [0, 2^idxlog)) and sentinel arrays (-1 too) */
    for (int x = 0, n = chance(60) ? between(1, 2) : 0; x < n; x++) {
        static const int itk[] = { TK_INT, TK_INT, TK_LONG, TK_UNS, TK_SHORT };
        int a = new_array("q", itk[below(5)], 0, ROLE_INDEX, SC_GLOBAL, -1);
        array *A = &arrs[a];
        set_shape(A, between(D > 4 ? D : 4, 10), chance(85) ? 1 : 2);
        if (chance(30)) {
            A->layout = LAY_REPL;
            set_shape(A, A->m, 1);
            A->size += chance(70) ? between(1, 40) : 0;
        } else {
            set_layout(A);
        }
    }
    if (chance(30)) {
        static const int stk[] = { TK_INT, TK_LONG, TK_SHORT };
        int a = new_array("qs", stk[below(3)], 0, ROLE_SENT, SC_GLOBAL, -1);
        array *A = &arrs[a];
        set_shape(A, between(D > 4 ? D : 4, 10), 1);
        if (chance(30)) {
            A->layout = LAY_REPL;
            A->size += chance(70) ? between(1, 40) : 0;
        } else {
            set_layout(A);
        }
    }
    /* replicated tables */
    for (int x = 0, n = chance(50) ? between(1, 2) : 0; x < n; x++) {
        int tk;
        do
            tk = random_scalar_tk();
        while (tk == TK_STRUCT);
        int a = new_array("t", tk, 0, ROLE_DATA, SC_GLOBAL, -1);
        array *A = &arrs[a];
        set_shape(A, between(4, 10), 1);
        A->layout = LAY_REPL;
        A->size += chance(70) ? between(1, 40) : 0;
    }
    if (kon(KN_BCSMALL)) {
        /* block_cyclic(B) with log2 B + n > log2 size on the top cube */
        int a = new_array("b", TK_INT, 0, ROLE_DATA, SC_GLOBAL, -1);
        array *A = &arrs[a];
        set_shape(A, D > 4 ? D : 4, 1);
        A->layout = LAY_BC;
        A->bclog = between(A->m - D + 1, A->m - 1);
        kuse(KN_BCSMALL);
    }
    if (kon(KN_NINE)) {
        kuse(KN_NINE);
        int a = new_array("n", TK_INT, 0, ROLE_DATA, SC_GLOBAL, -1);
        array *A = &arrs[a];
        A->m = 9;
        A->nd = 9;
        for (int d = 0; d < 9; d++)
            A->ext[d] = 1;
        A->size = 512;
        A->layout = LAY_CYCLIC;
        /* and nine declarators in one declaration */
        for (int x = 0; x < 9; x++) {
            int c = new_array("n", TK_LONG, 0, ROLE_DATA, SC_GLOBAL, -1);
            set_shape(&arrs[c], D > 4 ? D : 4, 1);
            arrs[c].layout = LAY_CYCLIC;
            arrs[c].declgroup = 9;
        }
    }
    if (kon(KN_MANY64))
        for (int x = 0; x < 66; x++) {
            int a = new_array("z", TK_INT, 0, ROLE_DATA, SC_GLOBAL, -1);
            set_shape(&arrs[a], D > 4 ? D : 4, 1);
            arrs[a].layout = LAY_CYCLIC;
            arrs[a].hostinit = 0;
        }
    idxlog = 10;
    for (int a = 0; a < narrs; a++)
        if (arrs[a].m < idxlog)
            idxlog = arrs[a].m;
    /* storage classes, typedef names, initializer lists, const tables */
    for (int a = 0; a < narrs; a++) {
        array *A = &arrs[a];
        if (A->declgroup > 0 || A->name[0] == 'z')
            continue;
        A->isstatic = chance(20);
        A->tdef = A->tk != TK_STRUCT && chance(20);
        if (A->nd == 1 && A->tk != TK_STRUCT && A->size <= 100 && !A->nodeonly && chance(25)) {
            A->initlist = 1;
            A->hostinit = 0;
            if (A->layout == LAY_REPL && chance(60))
                A->isconst = 1;
        }
    }
    /* an outer structure whose members the doalls read */
    if (chance(25)) {
        static const char *const mem[] = { "s", "f", "w" };
        static const int mtk[] = { TK_INT, TK_DOUBLE, TK_LONG };
        static const int mkind[] = { SK_IDX, SK_VAL, SK_VAL };
        for (int j = 0; j < 3; j++) {
            int x = new_scalar("PR", mtk[j], mkind[j], SS_GLOBAL, -1);
            snprintf(scs[x].name, sizeof scs[x].name, "PR0.%s", mem[j]);
            scs[x].memberof = 0;
            scs[x].rlog = 2;
        }
    }
    /* global scalars */
    for (int x = 0, n = between(0, 4); x < n; x++) {
        static const int kinds[] = { SK_VAL, SK_VAL, SK_IDX, SK_OFF };
        int kind = kinds[below(4)];
        static const int vtk[] = { TK_INT, TK_INT, TK_DOUBLE, TK_DOUBLE, TK_LONG, TK_FLOAT, TK_SHORT, TK_UCHAR };
        int tk = kind == SK_VAL ? vtk[below(8)] : TK_INT;
        new_scalar(chance(30) ? "cg" : "g", tk, kind, 0, -1);
        scs[nscs - 1].scope = scs[nscs - 1].name[0] == 'c' ? SS_CONST : SS_GLOBAL;
    }
    if (kon(KN_RTNAME)) {
        static const char *const rt[] = { "v_send", "v_receive", "v_get_pid", "v_barrier" };
        int s = new_scalar("g", TK_INT, SK_VAL, SS_GLOBAL, -1);
        snprintf(scs[s].name, sizeof scs[s].name, "%s", rt[below(4)]);
    }
    for (int f = 0, n = between(0, 2); f < n; f++)
        gen_function();
    gen_main();
}

/* An initializer list for a (1-D, numeric): every element, or a few
 * designated ones. */
static char *init_list(const array *a)
{
    char *t = xs("{");
    int designated = a->role == ROLE_DATA && chance(30);
    for (int e = 0; e < a->size; e++) {
        if (designated && !chance(20))
            continue;
        char *v;
        if (a->role == ROLE_INDEX)
            v = xs("%d", below(1 << idxlog));
        else if (a->role == ROLE_SENT)
            v = xs("%d", chance(15) ? -1 : below(1 << idxlog));
        else if (a->tk == TK_UCHAR)
            v = xs("%d", below(256));
        else if (a->tk == TK_UNS)
            v = xs("%du", below(30000));
        else if (tk_float(a->tk))
            v = xs("%d.%s%s", between(-999, 999), (const char *[]){ "0", "25", "5", "75" }[below(4)],
                   a->tk == TK_FLOAT ? "f" : "");
        else
            v = xs("%d", between(-999, 999));
        t = designated ? xs("%s [%d] = %s,", t, e, v) : xs("%s %s,", t, v);
    }
    if (designated && t[1] == '\0')   /* at least one: {} is not C11 */
        t = xs("%s [%d] = 1,", t, a->size - 1);
    return xs("%s }", t);
}

static const char *layout_text(const array *a)
{
    switch (a->layout) {
    case LAY_CYCLIC: return "cyclic";
    case LAY_BLOCK: return "block";
    case LAY_BC: return xs("block_cyclic(%d)", 1 << a->bclog);
    default: return "?";
    }
}

static void emit(FILE *out, const char *seed)
{
    /* the dimensions: every distributed array has at least 2^(hi + bclog) elements */
    int lo = exact_mode ? D : 1, hi = D;
    for (int a = 0; a < narrs; a++) {
        const array *A = &arrs[a];
        if (!A->used || A->layout == LAY_REPL || A->layout == LAY_EXACT)
            continue;
        if (A->m < hi || (A->m - A->bclog < hi && !kon(KN_BCSMALL)))
            die("internal error: an array too small for the dimensions");
    }
    fprintf(out, "// difftest: seed %s, dims %d-%d, known:", seed, lo, hi);
    if (!known_used)
        fprintf(out, " none");
    for (int k = 0, first = 1; k < KN_COUNT; k++)
        if ((known_used >> k) & 1u) {
            fprintf(out, "%s%s", first ? " " : ",", known_name[k]);
            first = 0;
        }
    fprintf(out, "\n/* A random annotated program written by tools/difftest/gen.c "
                 "(docs/difftest.md). */\n");
    fprintf(out, "#include <math.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\n"
                 "#include <hyperdo/bits.h>\n\n");
    if (exact_mode)
        fprintf(out, "#pragma hyperdo cube(%d)\n\n", D);
    for (int k = 0; k <= 10; k++)
        fprintf(out, "#define L%d %d\n#define N%d %d\n", k, k, k, 1 << k);
    fprintf(out, "enum { ");
    for (int k = 0; k <= 10; k++)
        fprintf(out, "E%d = %d%s", k, 1 << k, k < 10 ? ", " : " };\n\n");
    for (int tk = TK_INT; tk <= TK_DOUBLE; tk++)
        fprintf(out, "typedef %s %s_t;\n", tk_c[tk], tk_tag[tk]);
    for (int t = 0; t < nstypes; t++) {
        const stype *S = &stypes[t];
        fprintf(out, "%sstruct s%d {", S->typedefd ? "typedef " : "", t);
        for (int j = 0; j < S->nmem; j++) {
            fprintf(out, " %s f%d", tk_c[S->mtk[j]], j);
            if (S->mlen[j])
                fprintf(out, "[%d]", S->mlen[j]);
            fprintf(out, ";");
        }
        fprintf(out, " }%s;\n", S->typedefd ? xs(" s%d_t", t) : "");
    }
    /* a static array nothing names would be -Wunused-variable */
    for (int a = 0; a < narrs; a++) {
        array *A = &arrs[a];
        if (!A->isstatic || A->peek || A->poke || names_in(mainb.p, A->name))
            continue;
        int named = 0;
        for (int f = 0; f < nfns; f++)
            named |= names_in(fns[f].text.p, A->name);
        if (!named)
            A->isstatic = 0;
    }
    /* global arrays: declarations of one to three declarators of a type */
    int done[MAXARR] = { 0 };
    for (int a = 0; a < narrs; a++) {
        const array *A = &arrs[a];
        if (A->scope != SC_GLOBAL || done[a])
            continue;
        int group[12], n = 0;
        int want = A->declgroup > 0 ? A->declgroup : between(1, 3);
        for (int c = a; c < narrs && n < want; c++) {
            const array *C = &arrs[c];
            if (!done[c] && C->scope == SC_GLOBAL && C->tk == A->tk && C->st == A->st &&
                (C->declgroup > 0) == (A->declgroup > 0) && C->isstatic == A->isstatic &&
                C->isconst == A->isconst && C->tdef == A->tdef)
                group[n++] = c;
        }
        fprintf(out, "%s%s%s ", A->isstatic ? "static " : "", A->isconst ? "const " : "", elem_cname(A));
        for (int x = 0; x < n; x++) {
            const array *C = &arrs[group[x]];
            done[group[x]] = 1;
            fprintf(out, "%s%s", x ? ", " : "", C->name);
            if (C->layout == LAY_REPL)
                fprintf(out, "[%d]", C->size);
            else
                for (int d = 0; d < C->nd; d++) {
                    if (chance(50))
                        fprintf(out, "[N%d]", C->ext[d]);
                    else
                        fprintf(out, "[%d]", 1 << C->ext[d]);
                }
            if (C->initlist)
                fprintf(out, " = %s", init_list(C));
        }
        fprintf(out, ";\n");
    }
    /* distribute pragmas of the global arrays a doall uses */
    for (int lay = LAY_CYCLIC; lay <= LAY_BC; lay++)
        for (int bc = 0; bc <= 10; bc++) {
            int list[MAXARR], n = 0;
            for (int a = 0; a < narrs; a++)
                if (arrs[a].scope == SC_GLOBAL && arrs[a].used && arrs[a].layout == lay && arrs[a].bclog == bc)
                    list[n++] = a;
            for (int x = 0; x < n;) {
                int take = between(1, n - x);
                fprintf(out, "#pragma hyperdo distribute(");
                for (int y = 0; y < take; y++)
                    fprintf(out, "%s%s", y ? ", " : "", arrs[list[x + y]].name);
                fprintf(out, " : %s)\n", layout_text(&arrs[list[x]]));
                x += take;
            }
        }
    for (int s = 0; s < nscs; s++)
        if (scs[s].memberof == 0) {
            fprintf(out, "struct prm { int s; double f; long w; } PR0 = { %s, %s, %s };\n", scalar_value(&scs[s]),
                    scalar_value(&scs[s + 1]), scalar_value(&scs[s + 2]));
            break;
        }
    for (int s = 0; s < nscs; s++) {
        const scalar *S = &scs[s];
        if (S->memberof >= 0)
            continue;
        if (S->scope == SS_GLOBAL || S->scope == SS_CONST)
            fprintf(out, "%s%s %s = %s;\n", S->scope == SS_CONST ? "const " : "", tk_c[S->tk], S->name,
                    scalar_value(S));
    }
    fprintf(out, "\nstatic unsigned long long tot = 14695981039346656037ull;\n");
    if (mainrec || kon(KN_ATEXIT))
        fprintf(out, "static int main_depth;\n");
    /* the host's helpers: hashes of every element, a rewrite through a pointer */
    fprintf(out, "\nstatic inline unsigned long long mixu(unsigned long long h, unsigned long long v)\n{\n"
                 "    return (h ^ v) * 1099511628211ull;\n}\n\n"
                 "static inline unsigned long long mixd(unsigned long long h, double v)\n{\n"
                 "    unsigned long long u;\n    memcpy(&u, &v, sizeof u);\n    return mixu(h, u);\n}\n");
    for (int tk = TK_INT; tk <= TK_DOUBLE; tk++) {
        fprintf(out, "\nstatic inline unsigned long long ck_%s(const %s *p, int n)\n{\n"
                     "    unsigned long long h = 14695981039346656037ull;\n"
                     "    for (int e = 0; e < n; e++)\n        h = %s;\n    return h;\n}\n",
                tk_tag[tk], tk_c[tk], tk_float(tk) ? "mixd(h, p[e])" : "mixu(h, (unsigned long long)(long long)p[e])");
        ex x = mk(xs("(%sp[e] * 5 + e)", tk == TK_UNS ? "(int)" : ""), 200000, tk_float(tk));
        fprintf(out, "\nstatic inline void twiddle_%s(%s *p, int n)\n{\n    for (int e = 0; e < n; e++)\n"
                     "        p[e] = %s;\n}\n",
                tk_tag[tk], tk_c[tk], store(x, tk, ROLE_DATA));
    }
    for (int t = 0; t < nstypes; t++) {
        const stype *S = &stypes[t];
        fprintf(out, "\nstatic inline unsigned long long ck_s%d(const %s *p, int n)\n{\n"
                     "    unsigned long long h = 14695981039346656037ull;\n    for (int e = 0; e < n; e++) {\n",
                t, struct_cname(t));
        for (int j = 0; j < S->nmem; j++)
            for (int x = 0; x < (S->mlen[j] ? S->mlen[j] : 1); x++) {
                char *mem = S->mlen[j] ? xs("p[e].f%d[%d]", j, x) : xs("p[e].f%d", j);
                fprintf(out, "        h = %s;\n", tk_float(S->mtk[j]) ? xs("mixd(h, %s)", mem)
                                                                       : xs("mixu(h, (unsigned long long)(long long)%s)", mem));
            }
        fprintf(out, "    }\n    return h;\n}\n");
    }
    fprintf(out, "\nstatic inline void stop_now(unsigned long long t)\n{\n"
                 "    printf(\"stopping with %%016llx\", t);\n    exit((int)(t %% 5) + 1);\n}\n");
    if (kon(KN_ATEXIT)) {
        int a = -1;
        for (int x = 0; x < narrs; x++)
            if (arrs[x].scope == SC_GLOBAL && arrs[x].used && !arrs[x].nodeonly && arrs[x].nd == 1 &&
                arrs[x].tk != TK_STRUCT && arrs[x].layout != LAY_REPL)
                a = x;
        fprintf(out, "\nstatic void at_end(void)\n{\n");
        if (a >= 0)
            fprintf(out, "    printf(\"at exit %%016llx\\n\", ck_%s(%s, %d));\n", tk_tag[arrs[a].tk], arrs[a].name,
                    arrs[a].size);
        else
            fprintf(out, "    printf(\"at exit\\n\");\n");
        fprintf(out, "}\n");
    }
    for (int a = 0; a < narrs; a++) {
        const array *A = &arrs[a];
        if (A->peek)
            fprintf(out, "\nstatic long long peek_%s(int e)\n{\n    return (long long)%s[e];\n}\n", A->name, A->name);
        if (A->poke)
            fprintf(out, "\nstatic void poke_%s(int e, int v)\n{\n    %s[e] = %s;\n}\n", A->name, A->name,
                    store(mk(xs("v"), 1000, 0), A->tk, A->role));
    }
    fprintf(out, "\n");
    for (int f = 0; f < nfns; f++)
        fputs(fns[f].text.p, out);
    fputs(mainb.p, out);
}

int main(int argc, char **argv)
{
    const char *seed = NULL;
    for (int x = 1; x < argc; x++) {
        if (strcmp(argv[x], "--avoid-known") == 0) {
            avoid_known = 1;
        } else if (strcmp(argv[x], "--list-known") == 0) {
            for (int k = 0; k < KN_COUNT; k++)
                printf("%s\n", known_name[k]);
            return 0;
        } else if ((strcmp(argv[x], "--force-known") == 0 || strcmp(argv[x], "--avoid") == 0) && x + 1 < argc) {
            unsigned *set = strcmp(argv[x], "--avoid") == 0 ? &known_avoided : &known_forced;
            char *list = argv[++x];
            for (char *t = strtok(list, ","); t; t = strtok(NULL, ",")) {
                int k = 0;
                if (strcmp(t, "all") == 0) {
                    *set = (1u << KN_COUNT) - 1;
                    continue;
                }
                while (k < KN_COUNT && strcmp(known_name[k], t) != 0)
                    k++;
                if (k == KN_COUNT) {
                    fprintf(stderr, "gen: unknown construct '%s' (gen --list-known)\n", t);
                    return 2;
                }
                *set |= 1u << k;
            }
        } else if (strcmp(argv[x], "--max-dim") == 0 && x + 1 < argc) {
            maxdim = atoi(argv[++x]);
            if (maxdim < 1 || maxdim > 8) {
                fprintf(stderr, "gen: --max-dim must be 1..8\n");
                return 2;
            }
        } else if (argv[x][0] != '-' && !seed) {
            seed = argv[x];
        } else {
            fprintf(stderr, "usage: gen [--avoid-known | --avoid NAME,...] [--force-known NAME,...|all] [--max-dim N] SEED\n"
                            "       gen --list-known\n");
            return 2;
        }
    }
    if (!seed) {
        fprintf(stderr, "usage: gen [--avoid-known | --avoid NAME,...] [--force-known NAME,...|all] [--max-dim N] SEED\n");
        return 2;
    }
    char *end;
    unsigned long long sv = strtoull(seed, &end, 10);
    if (*end) {
        fprintf(stderr, "gen: the seed must be a decimal number\n");
        return 2;
    }
    if (avoid_known && known_forced) {
        fprintf(stderr, "gen: --avoid-known and --force-known contradict each other\n");
        return 2;
    }
    rng_state = sv * UINT64_C(1000003) + 17;
    setup();
    emit(stdout, seed);
    return fflush(stdout) == 0 ? 0 : 1;
}
