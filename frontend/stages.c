/*
 * stages.c — the stage loops around the doalls (docs/annotations.md,
 * "Stage loops").  The FFT's butterflies are one doall inside a sequential
 * loop over the stages, `for (s = 0; s < LOGN; s++)`, whose index
 * x[i ^ (1 << s)] is an LCC family: A is known when translating, b only
 * when the loop runs (docs/layouts.md, "Parametric indices").  When the
 * variable's values are known when translating, each stage is one LCC of
 * its own, and Hou et al. 2001's mapping for a set of LCCs (Section 5) can
 * be chosen for all of them, as for the FFT written out stage by stage
 * (Section 6.2).  This file finds, for each doall whose indices read
 * outer variables, the `for` loops around it whose variables they are,
 * and works out each one's values or says why it cannot:
 *
 *   stage-loop = "for" "(" init ";" cond ";" step ")" body
 *   init  = integer-type s "=" C | s "=" C
 *   cond  = s rel C | C rel s            rel: < <= > >= !=
 *   step  = s "++" | "++" s | s "--" | "--" s
 *         | s op"=" C                     op: + - * << >>
 *         | s "=" s op C | s "=" C op s   op: + *   (also s - C, s << C, s >> C)
 *
 * C integer constant expressions; s a variable of the function (not static,
 * not volatile: a function the loop calls cannot change it, which a global
 * or a static local would allow), which nothing in the loop but its step
 * changes (no assignment, ++, -- or compound assignment of it in the
 * condition or the body) and whose address is never taken in the function
 * (no pointer can change it), with no label in the body (a goto cannot
 * enter the loop with another value).  The values are the loop's, run at
 * translation time in the variable's type: every one must be inside the
 * type, and there may be at most HD_STAGE_MAX_VALUES of them.  A `break`
 * or a `continue` may leave some values out at run time; the analysis
 * then weighs a stage that does not run, which changes no communication
 * the node code makes (it computes b each time the doall runs).
 */
#include "frontend_internal.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

unsigned declaration_mark(reader *r, CXCursor decl)
{
    bool in_main = true;
    unsigned at = offset_of(r, clang_getCursorLocation(decl), &in_main);
    return in_main ? at + 1 : 0;
}

/* ------------------------------------------------ what the doall reads */

typedef struct {
    unsigned *mark;
    int n, cap;
} marks;

static bool has_mark(const marks *m, unsigned x)
{
    for (int k = 0; k < m->n; k++)
        if (m->mark[k] == x)
            return true;
    return false;
}

static void collect_marks(const hd_expr *e, marks *m)
{
    if (!e)
        return;
    if (e->kind == HD_EX_OPAQUE && e->invariant && e->decl && !has_mark(m, e->decl)) {
        hd_xreserve(&m->mark, &m->cap, m->n + 1, sizeof *m->mark);
        m->mark[m->n++] = e->decl;
    }
    for (int k = 0; k < e->nkids; k++)
        collect_marks(e->kid[k], m);
}

/* The outer variables a doall's references name in their indices. */
static void read_marks(const hd_loop *l, marks *m)
{
    m->n = 0;
    for (int k = 0; k < l->nrefs; k++)
        collect_marks(l->refs[k].index, m);
}

/* ------------------------------------------------ one stage loop */

typedef enum { STEP_ADD, STEP_MUL, STEP_SHL, STEP_SHR } step_kind;

typedef struct {
    step_kind kind;
    long long by;
} step;

/* The range of an integer type of `bits` bits. */
typedef struct {
    __int128 lo, hi;
} range;

static range range_of(int bits, bool sg)
{
    __int128 one = 1;
    return sg ? (range){ -(one << (bits - 1)), (one << (bits - 1)) - 1 }
              : (range){ 0, (one << bits) - 1 };
}

/* The nodes of a `for` statement's parts; false when one is left out. */
typedef struct {
    int init, cond, inc, body;
} stage_header;

static bool parts_of(reader *r, int f, stage_header *p)
{
    return for_parts(r, f, &p->init, &p->cond, &p->inc, &p->body) && p->init >= 0 &&
           p->cond >= 0 && p->inc >= 0;
}

/* The variable an init part sets and the node of its value; false when
 * it is no `T s = C` or `s = C` of one variable. */
static bool init_of(reader *r, int init, CXCursor *var, int *value)
{
    children ik = kids_of(r, init);
    if (kind_of(r, init) == CXCursor_DeclStmt && ik.n == 1 &&
        kind_of(r, ik.kid[0]) == CXCursor_VarDecl) {
        children vk = kids_of(r, ik.kid[0]);
        if (vk.n < 1 || vk.n > 8)
            return false;
        *var = cursor_of(r, ik.kid[0]);
        *value = vk.kid[vk.n - 1];
        return clang_isExpression(kind_of(r, *value));
    }
    if (kind_of(r, init) == CXCursor_BinaryOperator && ik.n == 2 &&
        kind_of(r, strip_wrappers(r, ik.kid[0])) == CXCursor_DeclRefExpr) {
        char op[16];
        operator_text(r, &ik, op, sizeof op);
        if (strcmp(op, "=") != 0)
            return false;
        *var = clang_getCursorReferenced(cursor_of(r, strip_wrappers(r, ik.kid[0])));
        *value = ik.kid[1];
        return true;
    }
    return false;
}

/* The refusal, formatted into the stage loop. */
__attribute__((format(printf, 2, 3)))
static bool refuse(hd_stage_loop *s, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    free(s->refused);
    s->refused = hd_xstrdup(buf);
    return false;
}

/* The comparison of the condition: rel with the variable on the left
 * (C rel s read as s rel' C), the bound, and the type both are compared
 * in (the usual arithmetic conversions). */
typedef struct {
    char rel[3];
    long long bound;
    int bits;
    bool sg;
} condition;

static bool condition_of(reader *r, int cond, condition *c, hd_stage_loop *s)
{
    children ck = kids_of(r, cond);
    char op[16] = "";
    if (kind_of(r, cond) == CXCursor_BinaryOperator && ck.n == 2)
        operator_text(r, &ck, op, sizeof op);
    static const char *const rels[] = { "<", "<=", ">", ">=", "!=" };
    static const char *const mirrored[] = { ">", ">=", "<", "<=", "!=" };
    int rel = -1;
    for (int k = 0; k < 5; k++)
        if (strcmp(op, rels[k]) == 0)
            rel = k;
    int var_side = rel < 0 ? -1 : is_loop_var(r, ck.kid[0]) ? 0 : is_loop_var(r, ck.kid[1]) ? 1 : -1;
    if (var_side < 0)
        return refuse(s, "its condition is not '%s < N' (nor <=, >, >=, != or the "
                      "operands swapped)", s->var);
    strcpy(c->rel, var_side == 0 ? rels[rel] : mirrored[rel]);
    if (!evaluate(cursor_of(r, ck.kid[1 - var_side]), &c->bound))
        return refuse(s, "its bound is not a constant expression");
    if (!integer_type(clang_getCursorType(cursor_of(r, ck.kid[var_side])), &c->bits, &c->sg))
        return refuse(s, "its condition does not compare integers");
    return true;
}

static bool holds(const condition *c, __int128 v)
{
    __int128 b = c->bound;
    if (!c->sg) {
        /* Compared as unsigned: both converted modulo 2^bits. */
        unsigned __int128 m = c->bits >= 128 ? ~(unsigned __int128)0
                                              : ((unsigned __int128)1 << c->bits) - 1;
        v = (__int128)((unsigned __int128)v & m);
        b = (__int128)((unsigned __int128)b & m);
    }
    switch (c->rel[0]) {
    case '<': return c->rel[1] ? v <= b : v < b;
    case '>': return c->rel[1] ? v >= b : v > b;
    default:  return v != b;
    }
}

static bool constant_step(reader *r, int x, long long *by)
{
    return evaluate(cursor_of(r, x), by);
}

/* The step part as one of the forms of the grammar above. */
static bool step_of(reader *r, int inc, step *st, hd_stage_loop *s)
{
    children kids = kids_of(r, inc);
    char op[16] = "";
    bool postfix;
    switch (kind_of(r, inc)) {
    case CXCursor_UnaryOperator:
        if (kids.n != 1 || !is_loop_var(r, kids.kid[0]))
            break;
        unary_text(r, inc, kids.kid[0], op, sizeof op, &postfix);
        if (strcmp(op, "++") == 0 || strcmp(op, "--") == 0) {
            *st = (step){ STEP_ADD, op[0] == '+' ? 1 : -1 };
            return true;
        }
        break;
    case CXCursor_CompoundAssignOperator:
        if (kids.n != 2 || !is_loop_var(r, kids.kid[0]) || !constant_step(r, kids.kid[1], &st->by))
            break;
        operator_text(r, &kids, op, sizeof op);
        if (strcmp(op, "+=") == 0 || strcmp(op, "-=") == 0) {
            st->kind = STEP_ADD;
            if (op[0] == '-')
                st->by = -st->by;
            return true;
        }
        st->kind = strcmp(op, "*=") == 0 ? STEP_MUL : strcmp(op, "<<=") == 0 ? STEP_SHL
                 : strcmp(op, ">>=") == 0 ? STEP_SHR : (step_kind)-1;
        return (int)st->kind >= 0;
    case CXCursor_BinaryOperator: {
        if (kids.n != 2 || !is_loop_var(r, kids.kid[0]))
            break;
        operator_text(r, &kids, op, sizeof op);
        int rhs = strip_wrappers(r, kids.kid[1]);
        children terms = kids_of(r, rhs);
        char how[16] = "";
        if (strcmp(op, "=") != 0 || kind_of(r, rhs) != CXCursor_BinaryOperator || terms.n != 2)
            break;
        operator_text(r, &terms, how, sizeof how);
        bool first = is_loop_var(r, terms.kid[0]), second = is_loop_var(r, terms.kid[1]);
        bool commutes = strcmp(how, "+") == 0 || strcmp(how, "*") == 0;
        if (first && constant_step(r, terms.kid[1], &st->by)) {
            /* s = s op C */
        } else if (second && commutes && constant_step(r, terms.kid[0], &st->by)) {
            /* s = C op s */
        } else {
            break;
        }
        if (strcmp(how, "+") == 0 || strcmp(how, "-") == 0) {
            st->kind = STEP_ADD;
            if (how[0] == '-')
                st->by = -st->by;
            return true;
        }
        st->kind = strcmp(how, "*") == 0 ? STEP_MUL : strcmp(how, "<<") == 0 ? STEP_SHL
                 : strcmp(how, ">>") == 0 ? STEP_SHR : (step_kind)-1;
        return (int)st->kind >= 0;
    }
    default:
        break;
    }
    return refuse(s, "its step is not '%s++', '%s += C' (nor --, -=, *=, <<=, >>=) with C a "
                  "constant expression", s->var, s->var);
}

static bool next_value(const step *st, __int128 v, int bits, __int128 *out)
{
    switch (st->kind) {
    case STEP_ADD:
        *out = v + st->by;
        return true;
    case STEP_MUL:
        *out = v * st->by;   /* |v|, |by| < 2^64: no overflow in 128 bits */
        return true;
    case STEP_SHL:
    case STEP_SHR:
        if (v < 0 || st->by < 0 || st->by >= bits)
            return false;   /* undefined or implementation-defined in C */
        *out = st->kind == STEP_SHL ? v << st->by : v >> st->by;
        return true;
    }
    return false;
}

/* Is the node at x the variable changed, or its address taken?  Where an
 * operator cannot be read (written by a macro) it may be either. */
static const char *change_at(reader *r, int x)
{
    children kids = kids_of(r, x);
    char op[16] = "";
    bool postfix;
    switch (kind_of(r, x)) {
    case CXCursor_UnaryOperator:
        if (kids.n != 1 || !is_loop_var(r, kids.kid[0]))
            return NULL;
        unary_text(r, x, kids.kid[0], op, sizeof op, &postfix);
        if (strcmp(op, "&") == 0)
            return "its address is taken";
        if (strcmp(op, "++") == 0 || strcmp(op, "--") == 0)
            return "it is changed";
        if (!op[0])
            return "an operator on it is written by a macro, which cannot be read";
        return NULL;
    case CXCursor_CompoundAssignOperator:
        return kids.n == 2 && is_loop_var(r, kids.kid[0]) ? "it is changed" : NULL;
    case CXCursor_BinaryOperator:
        if (kids.n != 2 || !is_loop_var(r, kids.kid[0]))
            return NULL;
        operator_text(r, &kids, op, sizeof op);
        if (strcmp(op, "=") == 0)
            return "it is changed";
        if (!op[0])
            return "an operator on it is written by a macro, which cannot be read";
        return NULL;
    case CXCursor_LabelStmt:
        return "a label inside the loop (a goto could enter it)";
    default:
        return NULL;
    }
}

/* The first change of the variable among nodes [from, to), said into s. */
static bool unchanged(reader *r, int from, int to, hd_stage_loop *s)
{
    for (int x = from; x < to; x++) {
        const char *why = change_at(r, x);
        if (why) {
            position p = cursor_pos(r, cursor_of(r, x));
            return refuse(s, "%s on line %d", why, p.line);
        }
    }
    return true;
}

/* Is the variable one a called function or a pointer could change? */
static bool owned_by_function(CXCursor var, hd_stage_loop *s)
{
    enum CXCursorKind k = clang_getCursorKind(var);
    if (k != CXCursor_VarDecl && k != CXCursor_ParmDecl)
        return refuse(s, "it is not a variable");
    if (clang_getCursorKind(clang_getCursorSemanticParent(var)) != CXCursor_FunctionDecl)
        return refuse(s, "it is a variable at file scope, which a function called in the "
                      "loop could change");
    enum CX_StorageClass sc = clang_Cursor_getStorageClass(var);
    if (sc == CX_SC_Static || sc == CX_SC_Extern)
        return refuse(s, "it is %s, which a function called in the loop could change",
                      sc == CX_SC_Static ? "static" : "extern");
    if (clang_isVolatileQualifiedType(clang_getCursorType(var)))
        return refuse(s, "it is volatile");
    return true;
}

/*
 * The stage loop the for statement c makes: false when it has no variable
 * set in its header; otherwise *s is filled, its values or why not.
 */
static bool read_stage_loop(reader *r, CXCursor c, hd_stage_loop *s)
{
    memset(s, 0, sizeof *s);
    r->nnodes = 0;
    int f = record_tree(r, c);
    stage_header p;
    CXCursor var;
    int start;
    if (f < 0 || !parts_of(r, f, &p) || !init_of(r, p.init, &var, &start))
        return false;
    s->decl = declaration_mark(r, var);
    if (!s->decl)
        return false;
    position at = cursor_pos(r, c);
    s->line = at.line;
    s->col = at.col;
    s->var = spelling(var);
    r->loop_var = var;

    int bits;
    bool sg;
    long long first;
    condition cond;
    step st;
    if (!owned_by_function(var, s))
        return true;
    if (!integer_type(clang_getCursorType(var), &bits, &sg) || bits > 64) {
        refuse(s, "it is not an integer");
        return true;
    }
    if (!evaluate(cursor_of(r, start), &first)) {
        refuse(s, "its start is not a constant expression");
        return true;
    }
    if (!condition_of(r, p.cond, &cond, s) || !step_of(r, p.inc, &st, s))
        return true;
    /* The condition, then the body (the rest of the recorded nodes). */
    if (!unchanged(r, p.cond, p.inc, s) || !unchanged(r, p.body, r->nnodes, s))
        return true;
    if (kind_of(r, p.init) != CXCursor_DeclStmt) {
        /* Declared before the loop: no pointer to it anywhere in its
         * function, which could change it inside the loop. */
        CXCursor fn = clang_getCursorSemanticParent(var);
        r->nnodes = 0;
        int body = record_tree(r, fn);
        if (body < 0) {
            refuse(s, "its function's syntax tree cannot be read");
            return true;
        }
        for (int x = body; x < r->nnodes; x++) {
            const char *why = kind_of(r, x) == CXCursor_UnaryOperator ? change_at(r, x) : NULL;
            if (why && strcmp(why, "it is changed") != 0) {
                position p2 = cursor_pos(r, cursor_of(r, x));
                refuse(s, "%s on line %d", why, p2.line);
                return true;
            }
        }
    }

    /* The loop run at translation time, in the variable's type. */
    range rg = range_of(bits, sg);
    __int128 v = first;
    if (v < rg.lo || v > rg.hi) {
        refuse(s, "its start %lld is outside its type", first);
        return true;
    }
    int cap = 0;
    while (holds(&cond, v)) {
        if (s->nvalues == HD_STAGE_MAX_VALUES) {
            refuse(s, "it takes more than %d values (HD_STAGE_MAX_VALUES)", HD_STAGE_MAX_VALUES);
            free(s->values);
            s->values = NULL;
            s->nvalues = 0;
            return true;
        }
        if (v > (__int128)9223372036854775807LL) {
            refuse(s, "a value is beyond 2^63 - 1");
            return true;
        }
        hd_xreserve(&s->values, &cap, s->nvalues + 1, sizeof *s->values);
        s->values[s->nvalues++] = (long long)v;
        if (!next_value(&st, v, bits, &v) || v < rg.lo || v > rg.hi) {
            refuse(s, "its step takes it outside its type after %s = %lld", s->var,
                   s->values[s->nvalues - 1]);
            free(s->values);
            s->values = NULL;
            s->nvalues = 0;
            return true;
        }
    }
    return true;
}

/* ------------------------------------------------ the walk */

/* The for statements open on the way from the translation unit to a
 * doall (a visit in source order: one that ended before a node starts is
 * closed). */
typedef struct {
    CXCursor c;
    unsigned end;
} open_for;

typedef struct {
    reader *r;
    const unsigned *targets;   /* sorted: the doalls' offsets */
    int ntargets;
    open_for *open;
    int nopen, cap;
    CXCursor function;         /* the function definition being walked */
    marks read;
} stage_walk;

static bool contains_target(const stage_walk *w, unsigned begin, unsigned end)
{
    int lo = 0, hi = w->ntargets;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (w->targets[mid] < begin)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < w->ntargets && w->targets[lo] < end;
}

static hd_loop *doall_at(hd_program *p, unsigned begin)
{
    for (int k = 0; k < p->nloops; k++)
        if (p->loops[k].begin == begin)
            return &p->loops[k];
    return NULL;
}

/* ------------------------------------------------ values derived */

/* The index after x's subtree among the recorded nodes (depth first). */
static int subtree_end(reader *r, int x)
{
    while (r->nodes[x].last >= 0)
        x = r->nodes[x].last;
    return x + 1;
}

static bool is_label(enum CXCursorKind k)
{
    return k == CXCursor_LabelStmt || k == CXCursor_CaseStmt || k == CXCursor_DefaultStmt;
}

static bool known_mark(const hd_loop *l, unsigned mark)
{
    for (int k = 0; k < l->nstages; k++)
        if (l->stages[k].decl == mark && !l->stages[k].refused)
            return true;
    for (int k = 0; k < l->nderived; k++)
        if (l->derived[k].decl == mark && l->derived[k].value)
            return true;
    return false;
}

/* The first unknown of e that is neither a constant nor known at each
 * stage (l's stage variables and derived values); NULL when none. */
static const hd_expr *unknown_in(const hd_expr *e, const hd_loop *l)
{
    if (!e)
        return NULL;
    if (e->kind == HD_EX_OPAQUE && (!e->invariant || !e->decl || !known_mark(l, e->decl)))
        return e;
    for (int k = 0; k < e->nkids; k++) {
        const hd_expr *u = unknown_in(e->kid[k], l);
        if (u)
            return u;
    }
    return NULL;
}

/*
 * The derived value the VarDecl at node x of the recorded function (whose
 * nodes' parents are parent[]) has for doall l:
 *
 *   derived = integer-type v "=" E     E of constants, stage variables and
 *                                      derived values before it
 *
 * v local (not static, not volatile), its address never taken and nothing
 * assigning it in the function, and no label in its scope (a jump past
 * its declaration would leave it without its value).  false, with no
 * value, when E reads what is not known yet (tried again once more are).
 */
static bool read_derived(reader *r, hd_loop *l, int x, const int *parent, hd_stage_value *d,
                         bool last_round)
{
    CXCursor var = cursor_of(r, x);
    hd_stage_loop check = { 0 };
    if (!owned_by_function(var, &check)) {
        d->refused = check.refused;
        return true;
    }
    int bits;
    bool sg;
    children vk = kids_of(r, x);
    int init = vk.n >= 1 && vk.n <= 8 ? vk.kid[vk.n - 1] : -1;
    if (!integer_type(clang_getCursorType(var), &bits, &sg) || bits > 64) {
        d->refused = hd_xstrdup("it is not an integer");
        return true;
    }
    if (init < 0 || !clang_isExpression(kind_of(r, init))) {
        d->refused = hd_xstrdup("it has no initial value");
        return true;
    }
    r->loop_var = var;
    for (int y = 0; y < r->nnodes; y++) {
        const char *why = change_at(r, y);
        if (why && !is_label(kind_of(r, y))) {
            position p = cursor_pos(r, cursor_of(r, y));
            char buf[256];
            snprintf(buf, sizeof buf, "%s on line %d", why, p.line);
            d->refused = hd_xstrdup(buf);
            return true;
        }
    }
    int scope = parent[x] >= 0 ? parent[parent[x]] : -1;   /* VarDecl < DeclStmt < block */
    for (int y = scope; y >= 0 && y < subtree_end(r, scope); y++)
        if (is_label(kind_of(r, y))) {
            position p = cursor_pos(r, cursor_of(r, y));
            char buf[256];
            snprintf(buf, sizeof buf, "a label in its scope on line %d (a jump could skip "
                     "its initial value)", p.line);
            d->refused = hd_xstrdup(buf);
            return true;
        }
    r->loop_var = clang_getNullCursor();
    hd_expr *e = expr_of(r, init);
    const hd_expr *u = unknown_in(e, l);
    if (u) {
        if (last_round) {
            /* The reasons of unknowns quote what they read: 'argc', 'tab'. */
            const char *a = u->reason ? strchr(u->reason, '\'') : NULL;
            const char *b = a ? strchr(a + 1, '\'') : NULL;
            const hd_stage_loop *loop = NULL;
            for (int k = 0; k < l->nstages && u->invariant && u->decl; k++)
                if (l->stages[k].decl == u->decl)
                    loop = &l->stages[k];
            char buf[768];
            if (loop && loop->refused)
                snprintf(buf, sizeof buf, "its initial value reads '%s', whose loop on line %d "
                         "is no stage loop: %s", loop->var, loop->line, loop->refused);
            else if (a && b)
                snprintf(buf, sizeof buf, "its initial value reads %.*s, which is not known "
                         "at each stage", (int)(b - a + 1), a);
            else
                snprintf(buf, sizeof buf, "its initial value is not known at each stage (%s)",
                         u->reason ? u->reason : "an unknown value");
            d->refused = hd_xstrdup(buf);
        }
        hd_expr_free(e);
        return last_round;
    }
    /* Converted to its type, as the declaration does. */
    hd_expr *cast = hd_expr_new(HD_EX_CAST, bits, sg);
    cast->nkids = 1;
    cast->kid[0] = e;
    d->value = cast;
    return true;
}

/* The variables doall l's indices read that are neither stage variables
 * nor refused ones: those of the function derived from the stage
 * variables (hd_loop.derived), in rounds, a value that reads another
 * being read after it. */
static void derived_values(stage_walk *w, hd_loop *l)
{
    reader *r = w->r;
    if (clang_Cursor_isNull(w->function))
        return;
    marks pending = { 0 };
    for (int k = 0; k < w->read.n; k++) {
        bool staged = false;
        for (int j = 0; j < l->nstages; j++)
            staged = staged || l->stages[j].decl == w->read.mark[k];
        if (!staged) {
            hd_xreserve(&pending.mark, &pending.cap, pending.n + 1, sizeof *pending.mark);
            pending.mark[pending.n++] = w->read.mark[k];
        }
    }
    if (pending.n == 0) {
        free(pending.mark);
        return;
    }
    r->nnodes = 0;
    int root = record_tree(r, w->function);
    int *parent = root >= 0 ? hd_xmalloc((size_t)r->nnodes * sizeof *parent) : NULL;
    int *decl = root >= 0 ? hd_xcalloc((size_t)pending.n, sizeof *decl) : NULL;
    for (int x = 0; root >= 0 && x < r->nnodes; x++)
        parent[x] = -1;
    for (int x = 0; root >= 0 && x < r->nnodes; x++) {
        for (int y = r->nodes[x].first; y >= 0; y = r->nodes[y].next)
            parent[y] = x;
        if (kind_of(r, x) != CXCursor_VarDecl)
            continue;
        unsigned m = declaration_mark(r, cursor_of(r, x));
        for (int k = 0; k < pending.n; k++)
            if (pending.mark[k] == m)
                decl[k] = x + 1;
    }
    int cap = 0;
    /* Each round reads the values whose initializers read known ones. */
    for (bool progress = true, last = false; root >= 0;) {
        progress = false;
        for (int k = 0; k < pending.n; k++) {
            if (!decl[k])
                continue;
            hd_stage_value d = { 0 };
            if (!read_derived(r, l, decl[k] - 1, parent, &d, last))
                continue;
            d.var = spelling(cursor_of(r, decl[k] - 1));
            d.decl = pending.mark[k];
            d.line = cursor_pos(r, cursor_of(r, decl[k] - 1)).line;
            hd_xreserve(&l->derived, &cap, l->nderived + 1, sizeof *l->derived);
            l->derived[l->nderived++] = d;
            decl[k] = 0;
            progress = true;
        }
        if (last)
            break;
        last = !progress;
    }
    free(parent);
    free(decl);
    free(pending.mark);
    r->loop_var = clang_getNullCursor();
    r->nnodes = 0;
}

/* The stage loops of doall l among the for statements open around it. */
static void stages_of(stage_walk *w, hd_loop *l)
{
    reader *r = w->r;
    read_marks(l, &w->read);
    int cap = 0;
    for (int k = 0; k < w->nopen; k++) {
        hd_stage_loop s;
        /* Every loop with a variable: values derived from its variable
         * may be read, and the notes say why one is no stage loop. */
        if (!read_stage_loop(r, w->open[k].c, &s)) {
            free(s.var);
            continue;
        }
        hd_xreserve(&l->stages, &cap, l->nstages + 1, sizeof *l->stages);
        l->stages[l->nstages++] = s;
    }
    r->loop_var = clang_getNullCursor();
    r->nnodes = 0;
    derived_values(w, l);
}

static enum CXChildVisitResult walk(CXCursor c, CXCursor parent, CXClientData data)
{
    stage_walk *w = data;
    reader *r = w->r;
    enum CXCursorKind kind = clang_getCursorKind(c);
    if (clang_getCursorKind(parent) == CXCursor_TranslationUnit &&
        !clang_Location_isFromMainFile(clang_getCursorLocation(c)))
        return CXChildVisit_Continue;
    if (clang_isExpression(kind) && kind != CXCursor_StmtExpr)
        return CXChildVisit_Continue;
    bool b_main = true, e_main = true;
    unsigned begin = cursor_start(r, c, &b_main), end = cursor_end(r, c, &e_main);
    if (!b_main || !e_main || !contains_target(w, begin, end))
        return CXChildVisit_Continue;
    while (w->nopen > 0 && w->open[w->nopen - 1].end <= begin)
        w->nopen--;
    if (kind == CXCursor_FunctionDecl)
        w->function = c;
    if (kind == CXCursor_ForStmt) {
        hd_loop *l = doall_at(r->prog, begin);
        if (l) {
            stages_of(w, l);
            return CXChildVisit_Continue;
        }
        hd_xreserve(&w->open, &w->cap, w->nopen + 1, sizeof *w->open);
        w->open[w->nopen++] = (open_for){ c, end };
    }
    return CXChildVisit_Recurse;
}

static int compare_unsigned(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return (x > y) - (x < y);
}

void find_stage_loops(reader *r)
{
    hd_program *p = r->prog;
    stage_walk w = { .r = r, .function = clang_getNullCursor() };
    /* Expressions read here name no variable of a doall body. */
    r->nlocals = 0;
    r->ninner_decls = 0;
    unsigned *targets = NULL;
    int cap = 0;
    for (int k = 0; k < p->nloops; k++) {
        read_marks(&p->loops[k], &w.read);
        if (w.read.n == 0 || p->loops[k].home < 0)
            continue;
        hd_xreserve(&targets, &cap, w.ntargets + 1, sizeof *targets);
        targets[w.ntargets++] = p->loops[k].begin;
    }
    if (w.ntargets) {
        qsort(targets, (size_t)w.ntargets, sizeof *targets, compare_unsigned);
        w.targets = targets;
        clang_visitChildren(clang_getTranslationUnitCursor(r->tu), walk, &w);
    }
    free(targets);
    free(w.open);
    free(w.read.mark);
}
