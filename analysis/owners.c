/*
 * owners.c — what owner computes makes of each doall (Hou et al. 2001,
 * Section 3): every reference's index as a GF(2)-affine map of the loop
 * variable where it is one, its bounds, that no two iterations write one
 * element and one iteration's writes live on one processor, and which
 * references make processors exchange elements, and how (local, an LCC,
 * or general with the reason).
 */
#include "analysis.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    hd_program *prog;
    hd_diags *d;
    hd_layout *layout;      /* of each array (distributed ones only) at the
                             * loop being checked: under the array's data
                             * mapping there (Wu 1984; hd_loop_layout) */
    hd_analysis *results;
} checker;

/* What has been found of ref so far. */
static hd_ref_analysis *result(const checker *r, const hd_ref *ref)
{
    return &r->results->refs[ref->id];
}

/* Its index map, or NULL when it is not GF(2)-affine. */
static const hd_affine *map_of(const checker *r, const hd_ref *ref)
{
    return result(r, ref)->map;
}

/* Its map, or its LCC family's (whose constant has only b's known bits). */
static const hd_affine *linear_map_of(const checker *r, const hd_ref *ref)
{
    return map_of(r, ref) ? map_of(r, ref) : result(r, ref)->family;
}

/* The owner of a reference's element as a map of i: its array's layout
 * after its index map (or its family's). */
static hd_affine owner_map(const checker *r, const hd_ref *ref)
{
    const hd_layout *l = &r->layout[ref->array];
    return hd_affine_compose(&l->owner, linear_map_of(r, ref), l->n);
}

static uint64_t owner_at(const checker *r, int arr, uint64_t element)
{
    return hd_layout_owner(&r->layout[arr], element);
}

/* Reports the first element out of range, if any, of a reference. */
static bool owner_of(checker *r, const hd_ref *ref, uint64_t i, uint64_t *owner);

/* Where an element falls outside its array: which subscript (0 for the
 * flattened index, d >= 2 for subscript d) and its value. */
typedef struct {
    int sub;
    uint64_t value;
} miss;

/* Whether ref's element at iteration i is inside its array: 1 yes, 0 no
 * (*m says how), -1 when it is not known when translating.  C bounds every
 * subscript by its own extent: a[0][17] of a[16][16] is out of bounds
 * though its flattened index is not. */
static int inside_at(checker *r, const hd_ref *ref, uint64_t i, miss *m)
{
    const hd_array *a = &r->prog->arrays[ref->array];
    char why[8];
    uint64_t v;
    for (int d = 0; d + 1 < ref->nsubs; d++) {
        int w = __builtin_ctzll((unsigned long long)a->extent[d + 1]);
        if (!ref->subs[d + 1].expr || !hd_expr_eval(ref->subs[d + 1].expr, i, &v, why, sizeof why))
            return -1;
        if (v >> w) {
            *m = (miss){ d + 2, v };
            return 0;
        }
    }
    if (map_of(r, ref))
        v = hd_affine_apply(map_of(r, ref), i);
    else if (!ref->index || !hd_expr_eval(ref->index, i, &v, why, sizeof why))
        return -1;
    if (v >> a->log2_size) {
        *m = (miss){ 0, v };
        return 0;
    }
    return 1;
}

static void report_outside(checker *r, const hd_loop *l, const hd_ref *ref, uint64_t i,
                           const miss *m, const char *context)
{
    const hd_array *a = &r->prog->arrays[ref->array];
    if (m->sub)
        hd_report(r->d, HD_ERROR, ref->begin, ref->line, "'%s' is out of bounds: at %s = %llu "
               "subscript %d is %lld, but that dimension of '%s' has %lld elements%s",
               ref->text, l->var, (unsigned long long)i, m->sub, (long long)m->value,
               a->name, (long long)a->extent[m->sub - 1], context);
    else
        hd_report(r->d, HD_ERROR, ref->begin, ref->line, "'%s' is out of bounds: at %s = %llu "
               "the element index is %lld, but '%s' has %llu elements%s", ref->text,
               l->var, (unsigned long long)i, (long long)m->value, a->name,
               1ULL << a->log2_size, context);
}

/*
 * A guarded read need only be inside its array where C evaluates it: an
 * iteration whose guard is known false is skipped, one where it is known
 * true must be inside (an error otherwise, as for an unguarded read), and
 * where the guard (or the element) cannot be known when translating, the
 * node code checks the element at run time.
 */
static bool check_guarded_bounds(checker *r, const hd_loop *l, hd_ref *ref)
{
    if (l->k > HD_ENUMERATE_MAX_BITS) {
        ref->check_at_run_time = true;
        return true;
    }
    for (uint64_t i = 0; i < (UINT64_C(1) << l->k); i++) {
        hd_guard_truth t = hd_guard_at(l, ref->guard, i);
        if (t == HD_GUARD_NO)
            continue;
        /* After a break or continue C may not reach it, guards or not. */
        if (t == HD_GUARD_YES && ref->in_jump_loop)
            t = HD_GUARD_MAYBE;
        miss m;
        int in = inside_at(r, ref, i, &m);
        if (in == 1)
            continue;
        if (in == 0 && t == HD_GUARD_YES) {
            report_outside(r, l, ref, i, &m, ", where its guard holds");
            return false;
        }
        ref->check_at_run_time = true;
    }
    return true;
}

/*
 * Reports the first element out of range, if any, of a reference.  For a
 * non-affine reference the same pass over the iterations also tells, in
 * *same, whether its element always lives with home's (1), not always (0),
 * or cannot be known (-1); *same is left alone otherwise.  A guarded
 * reference is checked where its guard may hold only, and always has *same
 * worked out by same_owner_everywhere.
 */
static bool check_bounds(checker *r, const hd_loop *l, hd_ref *ref,
                         const hd_ref *home, int *same)
{
    const hd_array *a = &r->prog->arrays[ref->array];
    char why[256];
    uint64_t v;
    bool guarded = ref->guard >= 0 || ref->in_jump_loop;
    if (a->log2_size < 0)
        return true;
    for (int d = 0; d + 1 < ref->nsubs; d++) {
        const hd_expr *sub = ref->subs[d + 1].expr;
        int w = __builtin_ctzll((unsigned long long)a->extent[d + 1]);
        hd_affine m;
        uint64_t i, bad = 0;
        bool found = false;
        if (sub && hd_expr_affine(sub, l->k, &m, why, sizeof why)) {
            uint64_t outside = ~hd_affine_zero_bits(&m) & ~hd_mask(w);
            if (outside) {
                int t = __builtin_ctzll(outside);
                i = (m.c >> t) & 1 ? 0 : m.row[t] & -m.row[t];
                bad = hd_affine_apply(&m, i);
                found = true;
            }
        } else if (sub && l->k <= HD_ENUMERATE_MAX_BITS) {
            for (i = 0; i < (UINT64_C(1) << l->k); i++) {
                if (!hd_expr_eval(sub, i, &bad, why, sizeof why)) {
                    ref->check_at_run_time = true;   /* depends on data */
                    break;
                }
                if (bad >> w) {
                    found = true;
                    break;
                }
            }
        } else if (sub) {
            ref->check_at_run_time = true;
        }
        if (found && guarded)
            return check_guarded_bounds(r, l, ref);
        if (found) {
            miss mm = { d + 2, bad };
            report_outside(r, l, ref, i, &mm, "");
            return false;
        }
    }
    const hd_affine *map = map_of(r, ref);
    if (map) {
        uint64_t outside = ~hd_affine_zero_bits(map) & ~hd_mask(a->log2_size);
        if (!outside)
            return true;
        if (guarded)
            return check_guarded_bounds(r, l, ref);
        /* An iteration that sets that bit: 0, or one input bit of its row. */
        int t = __builtin_ctzll(outside);
        uint64_t i = (map->c >> t) & 1 ? 0 : map->row[t] & -map->row[t];
        miss mm = { 0, hd_affine_apply(map, i) };
        report_outside(r, l, ref, i, &mm, "");
        return false;
    }
    if (l->k > HD_ENUMERATE_MAX_BITS) {
        ref->check_at_run_time = true;
        return true;
    }
    if (guarded)
        return check_guarded_bounds(r, l, ref);
    *same = 1;
    uint64_t values[HD_EVAL_BLOCK];
    bool known[HD_EVAL_BLOCK];
    for (uint64_t i = 0; i < (UINT64_C(1) << l->k); i++) {
        uint64_t mine, j = i % HD_EVAL_BLOCK;
        if (j == 0) {
            uint64_t left = (UINT64_C(1) << l->k) - i;
            hd_expr_eval_block(ref->index, i, left < HD_EVAL_BLOCK ?
                               (int)left : HD_EVAL_BLOCK, values, known);
        }
        if (!known[j]) {
            *same = -1;
            ref->check_at_run_time = true;
            return true;   /* depends on data: checked at run time */
        }
        v = values[j];
        if (*same == 1 && (!owner_of(r, home, i, &mine) ||
                           owner_at(r, ref->array, v) != mine))
            *same = owner_of(r, home, i, &mine) ? 0 : -1;
        if (v >> a->log2_size) {
            miss mm = { 0, v };
            report_outside(r, l, ref, i, &mm, "");
            return false;
        }
    }
    return true;
}

/* Two iterations must not write the same element: the front end made
 * every statement that may do so and combines into a one-dimensional
 * array, h[e] op= x, a reduction (docs/annotations.md, "Reductions"),
 * which is no write here. */
static void check_writes(checker *r, const hd_loop *l, const hd_ref *ref)
{
    const hd_array *a = &r->prog->arrays[ref->array];
    char why[256];
    const hd_affine *map = map_of(r, ref);
    if (map) {
        uint64_t v = hd_affine_collision(map, a->log2_size);
        if (v)
            hd_report(r->d, HD_ERROR, ref->begin, ref->line, "iterations %s = 0 and "
                   "%s = %llu both write element %llu of '%s' (a doall loop "
                   "may not write an element twice; only a reduction into a one-dimensional "
                   "array, 'h[e] op= x', may: docs/annotations.md, \"Reductions\")",
                   l->var, l->var, (unsigned long long)v,
                   (unsigned long long)hd_affine_apply(map, 0), a->name);
        return;
    }
    uint64_t first;
    if (!hd_expr_eval(ref->index, 0, &first, why, sizeof why) && hd_expr_injective(ref->index, l->k))
        return;   /* one element per iteration whatever the outer values */
    if (!hd_expr_eval(ref->index, 0, &first, why, sizeof why)) {
        hd_report(r->d, HD_ERROR, ref->begin, ref->line, "the element written by '%s' "
               "is not known at compile time (%s), so its owner cannot run the "
               "iteration (only a reduction into a one-dimensional array, 'h[e] op= x', "
               "may write an element that depends on data: docs/annotations.md, "
               "\"Reductions\")", ref->text, why);
        return;
    }
    if (l->k > HD_ENUMERATE_MAX_BITS || a->log2_size > HD_ENUMERATE_MAX_BITS) {
        /* What cannot be checked is not translated. */
        hd_report(r->d, HD_ERROR, ref->begin, ref->line, "cannot check that no two iterations "
               "write one element of '%s': the index of '%s' is not a GF(2)-affine map of "
               "%s, and the loop has 2^%d iterations (they are enumerated up to 2^%d)",
               a->name, ref->text, l->var, l->k, HD_ENUMERATE_MAX_BITS);
        return;
    }
    uint8_t *seen = hd_xcalloc((size_t)1 << a->log2_size, 1);
    uint64_t *who = hd_xmalloc(((size_t)1 << a->log2_size) * sizeof *who);
    for (uint64_t i = 0; i < (UINT64_C(1) << l->k); i++) {
        uint64_t v;
        /* Where C does not run the write (outside the loop's range, in the
         * branch not taken) it writes nothing. */
        if (ref->guard >= 0 && hd_guard_at(l, ref->guard, i) == HD_GUARD_NO)
            continue;
        if (!hd_expr_eval(ref->index, i, &v, why, sizeof why)) {
            hd_report(r->d, HD_ERROR, ref->begin, ref->line, "the element written by '%s' at %s = "
                   "%llu is not known when translating (%s)", ref->text, l->var,
                   (unsigned long long)i, why);
            break;
        }
        if (v >> a->log2_size)
            continue;   /* out of bounds where its guard may hold: check_bounds said so */
        if (seen[v]) {
            hd_report(r->d, HD_ERROR, ref->begin, ref->line, "iterations %s = %llu "
                   "and %s = %llu both write element %llu of '%s' (a doall loop "
                   "may not write an element twice; only a reduction into a one-dimensional "
                   "array, 'h[e] op= x', may: docs/annotations.md, \"Reductions\")", l->var,
                   (unsigned long long)who[v], l->var, (unsigned long long)i,
                   (unsigned long long)v, a->name);
            break;
        }
        seen[v] = 1;
        who[v] = i;
    }
    free(seen);
    free(who);
}

/* The owner of ref's element at iteration i, if it can be known. */
static bool owner_of(checker *r, const hd_ref *ref, uint64_t i, uint64_t *owner)
{
    char why[8];
    uint64_t v;
    if (map_of(r, ref))
        v = hd_affine_apply(map_of(r, ref), i);
    else if (!hd_expr_eval(ref->index, i, &v, why, sizeof why))
        return false;
    *owner = owner_at(r, ref->array, v);
    return true;
}

/* Do arrays a and b put equal indices on one processor?  (A data
 * mapping's complement makes owners differ by a constant.) */
static bool same_owners(const checker *r, int a, int b)
{
    const hd_layout *x = &r->layout[a], *y = &r->layout[b];
    for (int t = 0; t < x->n; t++)
        if (x->owner.row[t] != y->owner.row[t])
            return false;
    return ((x->owner.c ^ y->owner.c) & hd_mask(x->n)) == 0;
}

/* The rank of the 2n owner bits (src's and dst's) as maps of the loop
 * variable: 2n when every (source, destination) pair of processors shares
 * the iterations equally (Stout and Wagar 1990's complete exchange). */
static int joint_rank(const hd_affine *src, const hd_affine *dst, int n)
{
    uint64_t rows[2 * HD_MAX_DIM];
    for (int t = 0; t < n; t++) {
        rows[t] = src->row[t];
        rows[n + t] = dst->row[t];
    }
    return hd_rank_rows(rows, 2 * n);
}

/* Whether every sender sends the same elements to every processor that
 * reads from it: the elements x sends q are M(i0 + ker S ∩ ker D), those
 * x sends anyone M(i0 + ker S), so the same exactly when both images have
 * one dimension, by rank: dim M(ker S) = rank [S; M] - rank S.
 * *pair_log2: log2 of what one sender sends one reader.  (Stout and Wagar
 * 1990's BROADCAST when S is constant or each coset of readers has one
 * sender; COMPLETE BROADCAST when, besides, every reader reads from every
 * sender: rank [S; D] = 2n, the all-to-all's test.) */
static bool same_data_of(const hd_affine *map, const hd_affine *src, const hd_affine *dst, int n,
                         int *pair_log2)
{
    uint64_t rows[2 * HD_MAX_DIM + 64];
    int ns = 0;
    for (int t = 0; t < n; t++)
        rows[ns++] = src->row[t];
    int rs = hd_rank_rows(rows, ns);
    memcpy(rows + ns, map->row, sizeof map->row);
    int rsm = hd_rank_rows(rows, ns + 64);
    for (int t = 0; t < n; t++)
        rows[ns + t] = dst->row[t];
    int rsd = hd_rank_rows(rows, 2 * n);
    memcpy(rows + 2 * n, map->row, sizeof map->row);
    int rsdm = hd_rank_rows(rows, 2 * n + 64);
    *pair_log2 = rsdm - rsd;
    return rsm - rs == rsdm - rsd;
}

/* Does ref live on the same processor as home at every iteration? */
static int same_owner_everywhere(checker *r, const hd_loop *l, const hd_ref *ref,
                                 const hd_ref *home)
{
    /* Arrays laid out alike, read at one index: one owner. */
    if (same_owners(r, ref->array, home->array) && hd_ref_same_index(r->prog, ref, home))
        return 1;
    if (map_of(r, ref) && map_of(r, home)) {
        hd_affine x = owner_map(r, ref);
        hd_affine y = owner_map(r, home);
        hd_lcc unused;
        return hd_comm_from_owners(r->prog->n, &x, &y, &unused).kind == HD_COMM_LOCAL;
    }
    if (l->k > HD_ENUMERATE_MAX_BITS)
        return -1;
    for (uint64_t i = 0; i < (UINT64_C(1) << l->k); i++) {
        uint64_t x, y;
        /* Only where C reads it: a guarded read elsewhere reads nothing. */
        if (ref->guard >= 0 && hd_guard_at(l, ref->guard, i) == HD_GUARD_NO)
            continue;
        if (!owner_of(r, ref, i, &x) || !owner_of(r, home, i, &y))
            return -1;
        if (x != y)
            return 0;
    }
    return 1;
}

/*
 * A read's index as an LCC family (docs/layouts.md, "Parametric indices"),
 * subscript by subscript: each is A_d i + b_d for every value of the outer
 * variables it reads.  C requires every subscript inside its extent, and
 * the node code checks b_d's once per execution of the loop; when i moves
 * no bit of a subscript beyond its extent, every iteration's subscript is
 * then inside too, and the flattened index is the subscripts' bits side
 * by side (an unknown subscript's bits beyond its extent are 0 there).
 * false when some subscript is no family, or i moves a bit out.
 */
static bool family_of(const hd_array *a, const hd_loop *l, const hd_ref *ref,
                      hd_affine *map, uint64_t *unknown)
{
    char why[256];
    int at = a->log2_size;
    *map = hd_affine_constant(l->k, 0);
    *unknown = 0;
    for (int d = 0; d < ref->nsubs; d++) {
        const hd_expr *sub = ref->subs[d].expr;
        int w = __builtin_ctzll((unsigned long long)a->extent[d]);
        hd_affine m;
        uint64_t u;
        if (!sub || !hd_expr_affine_family(sub, l->k, &m, &u, why, sizeof why))
            return false;
        for (int t = w; t < 64; t++)
            if (m.row[t] & hd_mask(l->k))
                return false;
        if (m.c & ~u & ~hd_mask(w))
            return false;   /* outside for every value: the check says so */
        at -= w;
        for (int t = 0; t < w; t++)
            map->row[at + t] = m.row[t] & hd_mask(l->k);
        map->c |= (m.c & hd_mask(w)) << at;
        *unknown |= (u & hd_mask(w)) << at;
    }
    return true;
}

/* Whether ref's index is GF(2)-affine in the loop variable, and its map;
 * if not, whether it is for every value of the outer variables it reads
 * (an LCC family, read from a distributed array). */
static void index_map(checker *r, const hd_loop *l, const hd_ref *ref)
{
    char why[256];
    hd_affine map;
    uint64_t unknown;
    const hd_array *a = &r->prog->arrays[ref->array];
    /* A home whose index reads inner variables: its owner is that at
     * their first values (inner_refs.c checks every value agrees). */
    const hd_expr *index = ref->home_index ? ref->home_index : ref->index;
    if (hd_expr_affine(index, l->k, &map, why, sizeof why)) {
        result(r, ref)->map = hd_analysis_keep_map(r->results, &map);
        return;
    }
    result(r, ref)->not_affine = hd_analysis_keep_reason(r->results, why);
    if (!ref->is_write && a->dist != HD_DIST_NONE && a->log2_size >= r->prog->n &&
        ref->nsubs == a->ndims && family_of(a, l, ref, &map, &unknown) && unknown) {
        result(r, ref)->family = hd_analysis_keep_map(r->results, &map);
        result(r, ref)->family_unknown = unknown;
    }
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/*
 * The conflict degree of a reference (Lee and Aboelaze's memory conflicts,
 * docs/layouts.md): the most iterations of one execution of the loop whose
 * element of it lies on one processor, which that processor must supply
 * (or, for the written element, run) one after another.  For index map F
 * and owner rows M the iterations with owner p are a coset of null(M F),
 * so it is 2^(k - rank(M F)).  A guarded or non-affine reference is
 * counted iteration by iteration, where C reads it; -1 when some
 * iteration's element or guard is not known when translating.
 */
static long long conflict_degree(checker *r, const hd_loop *l, const hd_ref *ref)
{
    int n = r->prog->n;
    if (linear_map_of(r, ref) && ref->guard < 0) {
        /* A family's b moves the coset, not its size. */
        hd_affine o = owner_map(r, ref);
        hd_matrix m = hd_matrix_zero(HD_MAX_DIM);
        for (int t = 0; t < n; t++)
            m.row[t] = o.row[t] & hd_mask(l->k);
        return 1LL << (l->k - hd_rank_sub(&m, hd_mask(n), hd_mask(l->k)));
    }
    if (l->k > HD_ENUMERATE_MAX_BITS)
        return -1;
    /* The owners of the iterations C reads it at, sorted: a table over
     * all 2^n processors could be far larger than the loop.  The index is
     * evaluated HD_EVAL_BLOCK iterations per pass over its tree. */
    uint64_t *owner = hd_xmalloc(((size_t)1 << l->k) * sizeof *owner);
    size_t m = 0;
    uint64_t value[HD_EVAL_BLOCK];
    bool ok[HD_EVAL_BLOCK];
    for (uint64_t base = 0; base < (UINT64_C(1) << l->k); base += HD_EVAL_BLOCK) {
        uint64_t left = (UINT64_C(1) << l->k) - base;
        int count = left < HD_EVAL_BLOCK ? (int)left : HD_EVAL_BLOCK;
        if (!map_of(r, ref))
            hd_expr_eval_block(ref->index, base, count, value, ok);
        for (int j = 0; j < count; j++) {
            uint64_t i = base + (uint64_t)j;
            hd_guard_truth g = ref->guard >= 0 ? hd_guard_at(l, ref->guard, i) : HD_GUARD_YES;
            if (g == HD_GUARD_NO)
                continue;
            if (map_of(r, ref)) {
                value[j] = hd_affine_apply(map_of(r, ref), i);
                ok[j] = true;
            }
            if (g == HD_GUARD_MAYBE || !ok[j]) {
                free(owner);
                return -1;
            }
            owner[m++] = owner_at(r, ref->array, value[j]);
        }
    }
    long long most = 0;
    if (n <= l->k + 2) {
        /* A table over the processors is no larger than the loop's. */
        uint32_t *count = hd_xcalloc((size_t)1 << n, sizeof *count);
        for (size_t j = 0; j < m; j++)
            if (++count[owner[j]] > most)
                most = count[owner[j]];
        free(count);
    } else {
        qsort(owner, m, sizeof *owner, compare_u64);
        long long run = 0;
        for (size_t j = 0; j < m; j++) {
            run = j > 0 && owner[j] == owner[j - 1] ? run + 1 : 1;
            if (run > most)
                most = run;
        }
    }
    free(owner);
    return most;
}

static void communications(checker *r, hd_loop *l)
{
    hd_program *p = r->prog;
    hd_ref *home = &l->refs[l->home];
    hd_check_inner_headers(p, r->d, l);
    for (int k = 0; k < l->nrefs; k++)
        index_map(r, l, &l->refs[k]);
    for (int k = 0; k < l->nrefs; k++) {
        hd_ref *ref = &l->refs[k];
        hd_comm *comm = &result(r, ref)->comm;
        hd_array *a = &p->arrays[ref->array];
        if (ref->is_write && a->dist == HD_DIST_NONE && a->dist_refused)
            continue;      /* its distribute pragma's error says it */
        if (ref->is_write && a->dist == HD_DIST_NONE) {
            long long elements = 1;
        for (int d = 0; d < a->ndims; d++)
            elements *= a->extent[d];
        hd_report(r->d, HD_ERROR, ref->begin, ref->line, "'%s' is written in a "
                   "doall loop but not distributed: give it exactly 2^%d "
                   "elements or name it in '#pragma hyperdo distribute' (it "
                   "has %lld)", a->name, p->n, elements);
            continue;
        }
        if (a->dist == HD_DIST_NONE) {
            comm->kind = HD_COMM_LOCAL;    /* a replicated copy */
            continue;
        }
        if (a->dist == HD_DIST_TABLE) {
            /* A read of a table's or a spread's array (hd_table_refused
             * refused its writes): its owners are no GF(2) map, so no LCC
             * reaches it; the iteration's processor asks its owner for
             * it, its index checked against its size at run time. */
            char why[400];
            snprintf(why, sizeof why, "'%s' is distributed by %s%s: its owners are no "
                     "GF(2)-affine map of its elements, so no LCC reaches it; each processor "
                     "asks the owners of the elements it reads at run time (table-driven)",
                     a->name, p->tables[a->table].spread == HD_DIST_NONE ? "a table"
                     : p->tables[a->table].name,
                     p->tables[a->table].spread == HD_DIST_NONE ? "" : " of any extent");
            ref->check_at_run_time = true;
            result(r, ref)->conflict = -1;
            *comm = (hd_comm){ .kind = HD_COMM_GENERAL,
                               .reason = hd_analysis_keep_reason(r->results, why) };
            continue;
        }
        if (ref->uses_vars) {
            hd_analyse_inner_ref(p, r->d, l, ref, r->layout, result(r, home), result(r, ref),
                                 r->results);
            continue;
        }
        int same = -2;   /* not known yet */
        if (!check_bounds(r, l, ref, home, &same))
            continue;
        result(r, ref)->conflict = conflict_degree(r, l, ref);
        if (ref->is_write) {
            check_writes(r, l, ref);
            if (k != l->home && same_owner_everywhere(r, l, ref, home) != 1)
                hd_report(r->d, HD_ERROR, ref->begin, ref->line, "'%s' and '%s' are "
                       "written by the same iteration but live on different "
                       "processors; split the loop", ref->text, home->text);
            comm->kind = HD_COMM_LOCAL;
            continue;
        }
        if (linear_map_of(r, ref) && map_of(r, home)) {
            const hd_layout *lay = &r->layout[ref->array];
            hd_affine src = owner_map(r, ref);
            hd_affine dst = owner_map(r, home);
            hd_lcc lcc = { .A = hd_matrix_zero(p->n) };
            /* The owner bits a family's unknown element bits reach. */
            uint64_t unknown = 0;
            for (int t = 0; t < p->n; t++)
                if (lay->owner.row[t] & result(r, ref)->family_unknown & hd_mask(a->log2_size))
                    unknown |= UINT64_C(1) << t;
            *comm = hd_comm_family(p->n, &src, unknown, &dst, &lcc);
            if (comm->kind == HD_COMM_GENERAL && !unknown)
                result(r, ref)->all_to_all = joint_rank(&src, &dst, p->n) == 2 * p->n;
            result(r, ref)->pair_log2 = -1;
            if (!unknown && map_of(r, ref))
                result(r, ref)->same_data = same_data_of(map_of(r, ref), &src, &dst, p->n,
                                                         &result(r, ref)->pair_log2);
            if (comm->kind == HD_COMM_LCC)
                comm->lcc = hd_analysis_keep_lcc(r->results, &lcc);
            else if (comm->kind == HD_COMM_GENERAL)
                comm->reason = hd_analysis_keep_reason(r->results, comm->reason);
            /* A family of the stage loops' variables: one LCC per stage. */
            if (comm->kind == HD_COMM_LCC && comm->b_runtime && !map_of(r, ref))
                hd_read_stages(p, r->results, l, ref, lay, &dst);
            continue;
        }
        if (same == -2 || !map_of(r, home))
            same = same_owner_everywhere(r, l, ref, home);
        if (same == 1) {
            comm->kind = HD_COMM_LOCAL;
        } else if (map_of(r, ref)) {
            char buf[512];
            snprintf(buf, sizeof buf, "the owner of the iteration's element "
                     "'%s' is not an affine function of %s", home->text, l->var);
            *comm = (hd_comm){ .kind = HD_COMM_GENERAL,
                               .reason = hd_analysis_keep_reason(r->results, buf) };
        } else {
            *comm = (hd_comm){ .kind = HD_COMM_GENERAL, .reason = result(r, ref)->not_affine };
        }
    }
}

void hd_analyse_loops(hd_program *p, hd_diags *d, hd_analysis *out)
{
    checker c = { p, d, hd_xcalloc((size_t)p->narrays, sizeof *c.layout), out };
    for (int a = 0; a < p->narrays; a++)
        if (hd_array_distributed(p, a))
            c.layout[a] = hd_array_layout(&p->arrays[a], p->n);
    for (int k = 0; k < p->nloops; k++) {
        if (p->loops[k].home < 0)
            continue;
        if (p->loops[k].on_table) {
            hd_analyse_table_loop(p, d, out, &p->loops[k]);
            continue;
        }
        if (hd_table_refused(p, d, &p->loops[k]))
            continue;
        /* Each doall sees every array under the mapping it has there, so
         * that a read of u written at v becomes F_v P F_u^-1 (Wu 1984,
         * Section 1.2) and stays an LCC where P was one. */
        for (int a = 0; a < p->narrays && p->nmaps; a++)
            if (hd_array_distributed(p, a))
                c.layout[a] = hd_loop_layout(p, &p->loops[k], a);
        communications(&c, &p->loops[k]);
    }
    free(c.layout);
}

int hd_analyse_program(hd_program *p, hd_diags *d, hd_analysis *out)
{
    hd_analysis_init(out, p);
    /* Loops read without errors are checked even when others had errors,
     * so that one run reports all it can; a cube the reader refused has no
     * layouts to check against. */
    if (p->n >= 1 && p->n <= HD_DP_MAX_DIM)
        hd_analyse_loops(p, d, out);
    return d->errors;
}
