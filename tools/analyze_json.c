/*
 * analyze_json.c — the answer of `hyperdo analyze --json`: the plan as one
 * JSON object for programs.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "analyze.h"
#include "hyperdo/coll.h"

static const char *kind_name(hd_direction dir)
{
    return dir == HD_GATHER ? "gather" : "scatter";
}

/* Character j is bit j: a matrix row a_i0 .. a_i,n-1, or b_0 .. b_{n-1}. */
static void bit_string(uint64_t v, int n, char *s)
{
    for (int j = 0; j < n; j++)
        s[j] = ((v >> j) & 1) ? '1' : '0';
    s[n] = '\0';
}

static json_t *json_counts(const uint64_t *v, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_integer((json_int_t)v[i]));
    return a;
}

static json_t *json_order(const hd_order *o)
{
    json_t *a = json_array();
    for (int k = 0; k < o->n; k++)
        json_array_append_new(a, json_integer(o->r[k]));
    return a;
}

/* count rows of a GF(2) matrix or map over `width` input bits, each a
 * bit string (character j is bit j), as A is written. */
static json_t *json_rows(const uint64_t *row, int count, int width)
{
    json_t *a = json_array();
    char bits[HD_MAX_DIM + 1];
    for (int r = 0; r < count; r++) {
        bit_string(row[r], width, bits);
        json_array_append_new(a, json_string(bits));
    }
    return a;
}

/* The fields an LCC's entry shares with every entry of an equal LCC, up
 * to contention_before (contention_after waits for the set's order). */
static json_t *json_lcc_before(const hd_plan_comm *l, int n)
{
    const hd_lcc *c = l->in->comm.lcc;
    char bits[HD_MAX_DIM + 1];
    json_t *o = json_object(), *rows = json_rows(c->A.row, n, n);
    json_object_set_new(o, "class", json_string(hd_lcc_class_name(l->price->class)));
    json_object_set_new(o, "kind", json_string(kind_name(c->dir)));
    json_object_set_new(o, "bpc", json_boolean(l->price->bpc));
    json_object_set_new(o, "rank", json_integer(l->price->rank));
    json_object_set_new(o, "A", rows);
    bit_string(c->b, n, bits);
    json_object_set_new(o, "b", json_string(bits));
    json_object_set_new(o, "contention_before", json_counts(l->price->before, n));
    return o;
}

static json_t *json_agl(const hd_agl *p, int n)
{
    char bits[HD_MAX_DIM + 1];
    json_t *o = json_object();
    json_object_set_new(o, "A", json_rows(p->A.row, n, n));
    bit_string(p->b, n, bits);
    json_object_set_new(o, "b", json_string(bits));
    return o;
}

static bool omega_class(hd_target_kind k)
{
    return k == HD_TARGET_OMEGA || k == HD_TARGET_BUTTERFLY;
}

/* An LCC's passes on an omega-class network (Wu 1984) as given, its two
 * factors when it needs two, and its passes under the plan's mapping:
 * into o. */
static void put_passes(json_t *o, const hd_omega_price *given, int after)
{
    json_object_set_new(o, "passes", json_integer((json_int_t)given->passes));
    if (!given->permutation)
        json_object_set_new(o, "passes_lower", json_integer((json_int_t)given->lower));
    else if (given->passes == 2) {
        int n = given->moves.A.n;
        json_t *f = json_array();
        json_array_append_new(f, json_agl(&given->first, n));
        json_array_append_new(f, json_agl(&given->second, n));
        json_object_set_new(o, "factors", f);
    }
    json_object_set_new(o, "passes_after", json_integer(after));
}

static const hd_omega_price *given_on(const hd_plan_price *pr, hd_target_kind k)
{
    return k == HD_TARGET_OMEGA ? &pr->omega : &pr->butterfly;
}

/* The shared fields after contention_after: entry r of the plan. */
static json_t *json_lcc_alone(const hd_analyze_result *res, int r)
{
    const hd_plan_comm *l = &res->p.comm[r];
    int n = res->p.n;
    json_t *o = json_object();
    json_object_set_new(o, "alone_order", json_order(&l->price->alone_order));
    json_object_set_new(o, "alone_contention", json_counts(l->price->alone, n));
    hd_target_kind k = res->p.target.kind;
    if (omega_class(k))
        put_passes(o, given_on(l->price, k), l->price->passes_after);
    for (int net = 0; res->networks && net < HD_NETWORKS; net++) {
        if (!omega_class((hd_target_kind)net))
            continue;
        const hd_plan_price *pr = res->networks[net].comm[r].price;
        json_t *x = json_object();
        put_passes(x, given_on(pr, (hd_target_kind)net), pr->passes_after);
        json_object_set_new(o, hd_target_word((hd_target_kind)net), x);
    }
    return o;
}

/* A plan's mapping: the ordering (e-cube) or the matrix F and its passes
 * (omega class), as members of o. */
static void put_mapping(json_t *o, const hd_plan *p)
{
    if (!omega_class(p->target.kind)) {
        json_object_set_new(o, "order", json_order(&p->order));
        json_object_set_new(o, "cost", json_integer((json_int_t)p->cost));
        return;
    }
    json_t *m = json_object();
    json_object_set_new(m, "F", json_rows(p->mapping.Q.row, p->n, p->n));
    json_object_set_new(o, "mapping", m);
    json_object_set_new(o, "passes_before", json_integer((json_int_t)p->passes_before));
    json_object_set_new(o, "passes_after", json_integer((json_int_t)p->passes_after));
}

/* The members of object o as jansson encodes them, without the braces
 * ("" for an empty object, NULL when out of memory); takes o. */
static char *members(json_t *o)
{
    char *text = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
    if (!text)
        return NULL;
    size_t len = strlen(text);
    memmove(text, text + 1, len - 2);
    text[len - 2] = '\0';
    return text;
}

static void put_members(FILE *out, json_t *o)
{
    char *text = members(o);
    if (text)
        fputs(text, out);
    free(text);
}

/* Length of the valid UTF-8 sequence at s (RFC 3629), or 0. */
static size_t utf8_length(const unsigned char *s)
{
    size_t n = s[0] < 0x80 ? 1 : s[0] >= 0xc2 && s[0] <= 0xdf ? 2
             : s[0] >= 0xe0 && s[0] <= 0xef ? 3 : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
    for (size_t k = 1; k < n; k++)
        if ((s[k] & 0xc0) != 0x80)
            return 0;
    if ((n == 3 && s[0] == 0xe0 && s[1] < 0xa0) ||     /* overlong */
        (n == 3 && s[0] == 0xed && s[1] >= 0xa0) ||    /* surrogates */
        (n == 4 && s[0] == 0xf0 && s[1] < 0x90) ||
        (n == 4 && s[0] == 0xf4 && s[1] >= 0x90))      /* beyond U+10FFFF */
        return 0;
    return n;
}

/* s with every byte that is not part of valid UTF-8 replaced by U+FFFD, as
 * text editors show it: a C file's bytes need not be UTF-8, but JSON's
 * must. */
static char *valid_utf8(const char *s)
{
    size_t len = strlen(s);
    char *d = hd_xmalloc(3 * len + 1), *o = d;
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        size_t n = utf8_length(p);
        if (n) {
            memcpy(o, p, n);
            o += n;
            p += n;
        } else {
            memcpy(o, "\xef\xbf\xbd", 3);
            o += 3;
            p++;
        }
    }
    *o = '\0';
    return d;
}

/* A string as jansson encodes it, quotes and all (NULL: out of memory). */
static char *encoded(const char *s)
{
    json_t *j = json_string(s);
    if (!j) {
        char *fixed = valid_utf8(s);
        j = json_string(fixed);
        free(fixed);
    }
    char *text = j ? json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
    json_decref(j);
    return text;
}

/*
 * Strings already encoded, by their text: a C file's entries repeat names
 * (8,541 entries, 3,204 names in the benchmark), and each json_dumps call
 * sets up more than the string costs.  Open addressing; keys are the
 * caller's strings, which outlive the table.
 */
typedef struct {
    size_t slots;
    const char **key;
    char **text;
} string_cache;

static size_t string_hash(const char *s)
{
    uint64_t h = 1469598103934665603u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return (size_t)(h ^ (h >> 29));
}

/* s encoded, from the cache when it can be; NULL when out of memory. */
static const char *cached(string_cache *c, const char *s)
{
    size_t k = string_hash(s) & (c->slots - 1);
    while (c->key[k] && strcmp(c->key[k], s) != 0)
        k = (k + 1) & (c->slots - 1);
    if (!c->key[k]) {
        c->text[k] = encoded(s);
        if (!c->text[k])
            return NULL;
        c->key[k] = s;
    }
    return c->text[k];
}

/* [{"name", "layout": {"kind", "owner", "local"}}] (the "arrays" list): each
 * distributed array's owner and local offset rows over its element
 * index's bits (docs/layouts.md), written as A is. */
static json_t *json_arrays(const hd_spec *spec)
{
    json_t *list = json_array();
    for (int a = 0; a < spec->narrays; a++) {
        const hd_spec_array *x = &spec->arrays[a];
        const hd_layout *l = &x->layout;
        json_t *layout = json_object();
        json_object_set_new(layout, "kind", json_string(hd_dist_name(x->dist)));
        json_object_set_new(layout, "owner", json_rows(l->owner.row, l->n, l->bits));
        json_object_set_new(layout, "local", json_rows(l->offset.row, l->bits - l->n, l->bits));
        json_t *o = json_object();
        json_object_set_new(o, "name", json_string(x->name));
        json_object_set_new(o, "layout", layout);
        json_array_append_new(list, o);
    }
    return list;
}

static json_t *json_degree(long long v)
{
    return v < 0 ? json_null() : json_integer((json_int_t)v);
}

/* [{"array", "declared", "best", "reason", "candidates":
 * [{"layout", "accepted", "conflict", "conflict_sum", "general", "objective",
 * "contention_before", "contention_after"} or {"layout", "accepted":
 * false, "error"}]}] (the "layouts" list): analyze --layouts
 * (analysis/advisor.c). */
static json_t *json_advice(const hd_layout_advice *adv)
{
    json_t *list = json_array();
    for (int a = 0; a < adv->narrays; a++) {
        const hd_array_advice *x = &adv->arrays[a];
        json_t *cands = json_array();
        char name[48];
        for (int c = 0; c < x->ncand; c++) {
            const hd_layout_candidate *k = &x->cand[c];
            json_t *o = json_object();
            hd_layout_candidate_name(k, name, sizeof name);
            json_object_set_new(o, "layout", json_string(name));
            json_object_set_new(o, "accepted", json_boolean(k->accepted));
            if (!k->accepted) {
                json_object_set_new(o, "error", json_string(k->why_not));
            } else {
                json_object_set_new(o, "conflict", json_degree(k->conflict));
                json_object_set_new(o, "conflict_sum", json_degree(k->conflict_sum));
                json_object_set_new(o, "general", json_integer(k->general));
                json_object_set_new(o, "objective", json_integer((json_int_t)k->cost));
                json_object_set_new(o, "contention_before",
                                    json_integer((json_int_t)k->worst_before));
                json_object_set_new(o, "contention_after",
                                    json_integer((json_int_t)k->worst_after));
            }
            json_array_append_new(cands, o);
        }
        json_t *o = json_object();
        json_object_set_new(o, "array", json_string(x->array));
        hd_layout_candidate_name(&x->cand[x->declared], name, sizeof name);
        json_object_set_new(o, "declared", json_string(name));
        hd_layout_candidate_name(&x->cand[x->best], name, sizeof name);
        json_object_set_new(o, "best", json_string(name));
        json_object_set_new(o, "reason", json_string(x->reason));
        json_object_set_new(o, "candidates", cands);
        json_array_append_new(list, o);
    }
    return list;
}

/* `,"key":list` as jansson writes it; takes list. */
static void put_list(FILE *out, const char *key, json_t *list)
{
    json_t *top = json_object();
    json_object_set_new(top, key, list);
    fputc(',', out);
    put_members(out, top);
}

static void put_key(FILE *out, const char *key)
{
    fputc('"', out);
    fputs(key, out);
    fputs("\":", out);
}

/* Writes `"key":s` after sep, as a jansson object would have it: not at
 * all when s cannot be encoded (not UTF-8).  Returns the next separator. */
static const char *put_member(FILE *out, string_cache *c, const char *sep,
                              const char *key, const char *s)
{
    const char *text = cached(c, s);
    if (!text)
        return sep;
    fputs(sep, out);
    put_key(out, key);
    fputs(text, out);
    return ",";
}

/* `,"key":v` with v as jansson writes an integer ("%lld"), without the
 * cost of a printf per number. */
static void put_integer(FILE *out, const char *sep, const char *key, json_int_t v)
{
    char digits[32], *p = digits + sizeof digits;
    unsigned long long u = v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v;
    *--p = '\0';
    do
        *--p = (char)('0' + u % 10);
    while (u /= 10);
    if (v < 0)
        *--p = '-';
    fputs(sep, out);
    put_key(out, key);
    fputs(p, out);
}

/* ------------------------------------------- Wu 1984's programs */

static json_t *json_status(int rc)
{
    return json_string(rc == HD_OK ? "ok" : rc == HD_ETOOBIG ? "too large" : "failed");
}

static json_t *json_map(const hd_agl *F)
{
    char buf[HD_MAP_TEXT_MAX];
    hd_affine f = hd_agl_affine(F);
    hd_map_text(&f, F->A.n, buf, sizeof buf);
    json_t *o = json_agl(F, F->A.n);
    json_object_set_new(o, "map", json_string(buf));
    return o;
}

static json_t *json_versions(const hd_wu_prog *w, const hd_wu_prog_result *r)
{
    json_t *list = json_array();
    for (int x = 0; x < r->nversions; x++) {
        const hd_wu_prog_version *ver = &r->versions[x];
        json_t *o = json_object(), *uses = json_array();
        json_object_set_new(o, "vector", json_string(w->vectors[ver->vector]));
        json_object_set_new(o, "assigned_line", ver->defined_by < 0 ? json_null()
                            : json_integer(w->stmts[ver->defined_by].line));
        for (int h = 0; h < ver->nuses; h++) {
            const hd_wu_prog_use *u = &ver->uses[h];
            const hd_wu_stmt *st = &w->stmts[u->stmt];
            json_t *e = json_object();
            json_object_set_new(e, "line", json_integer(st->line));
            json_object_set_new(e, "read", u->node >= 0 ? json_string(st->leaf_text[u->node])
                                                       : json_null());
            json_object_set_new(e, "P", json_agl(&u->P, w->n));
            json_object_set_new(e, "into", u->into >= 0 ? json_integer(u->into) : json_null());
            json_object_set_new(e, "F", json_map(&u->F));
            json_object_set_new(e, "passes", json_integer(u->passes));
            json_object_set_new(e, "remap", json_integer(u->remap));
            json_array_append_new(uses, e);
        }
        json_object_set_new(o, "uses", uses);
        json_array_append_new(list, o);
    }
    return list;
}

/* A C program's: the map pragmas that give Algorithm II's mappings. */
static json_t *json_pragmas(const hd_wu_prog *w, const hd_wu_prog_result *r)
{
    json_t *list = json_array();
    hd_wu_map *m;
    int count = r->improves ? hd_wu_prog_maps(w, r, &m) : 0;
    for (int k = 0; k < count; k++) {
        json_t *o = json_map(&m[k].F);
        json_object_set_new(o, "line", json_integer(w->stmts[m[k].stmt].line));
        json_object_set_new(o, "array", json_string(w->vectors[m[k].vector]));
        json_array_append_new(list, o);
    }
    if (count)
        free(m);
    return list;
}

static json_t *json_wu_program(const hd_analyze_result *res)
{
    const hd_wu_prog *w = res->wu;
    const hd_wu_prog_result *r = res->wu_result;
    bool omega = res->p.target.kind == HD_TARGET_OMEGA;
    json_t *o = json_object(), *m = json_object();
    json_object_set_new(o, "statements", json_integer(w->nstmts));
    json_object_set_new(m, "algorithm", json_string(omega ? "II" : "VI"));
    json_object_set_new(m, "inner", json_string(!r->map_exact ? "runs"
                                                : omega ? "I" : "V"));
    json_object_set_new(m, "limit", json_integer(r->map_limit));
    json_object_set_new(m, "status", json_status(r->map_status));
    json_object_set_new(m, "identity", json_integer(r->map_identity));
    json_object_set_new(m, "cost", json_integer(r->map_cost));
    json_object_set_new(m, "versions", json_versions(w, r));
    if (w->from_c) {
        int unpriced = 0;
        for (int s = 0; s < w->nstmts; s++)
            unpriced += w->stmts[s].unpriced;
        json_object_set_new(m, "projected", json_integer(r->projected));
        json_object_set_new(m, "static", json_integer(r->static_cost));
        json_object_set_new(m, "per_doall", json_integer(r->realized));
        json_object_set_new(m, "per_doall_transfers", json_integer(r->realized_transfers));
        json_object_set_new(m, "program_maps", json_integer(r->program_own));
        json_object_set_new(m, "improves", json_boolean(r->improves));
        json_object_set_new(m, "unpriced_reads", json_integer(unpriced));
        json_object_set_new(m, "pragmas", json_pragmas(w, r));
    }
    json_object_set_new(o, "data_mappings", m);
    if (!w->from_c) {
        json_t *a = json_object(), *list = json_array();
        json_object_set_new(a, "algorithm", json_string(omega ? "IV" : "VIII"));
        json_object_set_new(a, "status", json_status(r->align_status));
        if (r->align_status == HD_OK) {
            json_object_set_new(a, "identity", json_integer(r->align_identity));
            json_object_set_new(a, "free", json_integer(r->align_free));
            json_object_set_new(a, "fixed", json_integer(r->align_fixed));
            for (int s = 0; s < w->nstmts; s++) {
                json_t *e = json_object();
                json_object_set_new(e, "line", json_integer(w->stmts[s].line));
                json_object_set_new(e, "cost_free", json_integer(r->cost_free[s]));
                json_object_set_new(e, "cost_fixed", json_integer(r->cost_fixed[s]));
                json_object_set_new(e, "root_free", json_map(&r->root_free[s]));
                json_array_append_new(list, e);
            }
        }
        json_object_set_new(a, "statements", list);
        json_object_set_new(o, "alignment", a);
    }
    return o;
}

/*
 * The pieces of the JSON that do not depend on the set's order, encoded
 * once: every entry's strings, and for each distinct LCC its shared
 * fields before and after contention_after.
 */
typedef struct {
    string_cache strings;
    char **before, **alone;    /* at the LCC's first entry */
} json_parts;

static void free_parts(json_parts *p, int m)
{
    for (size_t k = 0; p->strings.text && k < p->strings.slots; k++)
        free(p->strings.text[k]);
    for (int r = 0; r < m; r++) {
        if (p->before)
            free(p->before[r]);
        if (p->alone)
            free(p->alone[r]);
    }
    free(p->strings.key);
    free(p->strings.text);
    free(p->before);
    free(p->alone);
}

static void encode_parts(const hd_analyze_result *res, json_parts *p)
{
    /* At most four strings per entry (name, reason or array, choice's,
     * stage_note), so at most half the slots used. */
    p->strings.slots = 16;
    while (p->strings.slots < 8 * (size_t)res->p.m)
        p->strings.slots *= 2;
    p->strings.key = hd_xcalloc(p->strings.slots, sizeof *p->strings.key);
    p->strings.text = hd_xcalloc(p->strings.slots, sizeof *p->strings.text);
    p->before = hd_xcalloc((size_t)res->p.m + 1, sizeof *p->before);
    p->alone = hd_xcalloc((size_t)res->p.m + 1, sizeof *p->alone);
    for (int r = 0; r < res->p.m; r++) {
        const hd_plan_comm *l = &res->p.comm[r];
        cached(&p->strings, l->in->name);
        if (l->in->comm.kind != HD_COMM_LCC)
            cached(&p->strings, l->in->comm.reason);
        if (l->in->array)
            cached(&p->strings, l->in->array);
        if (l->in->comm.kind == HD_COMM_LCC && l->first == r) {
            p->before[r] = members(json_lcc_before(l, res->p.n));
            p->alone[r] = members(json_lcc_alone(res, r));
        }
    }
}

/* "collective": the choice between direct messages and the collectives
 * that move the same data (docs/collectives.md). */
static void put_choice(FILE *out, const hd_comm_choice *c)
{
    fprintf(out, ",\"collective\":{\"pattern\":\"%s\"", hd_comm_pattern_name(c->pattern));
    if (c->pattern == HD_PATTERN_NONE) {
        fprintf(out, ",\"reason\":");
        json_t *w = json_string(c->why ? c->why : "");
        char *t = json_dumps(w, JSON_ENCODE_ANY);
        fputs(t ? t : "\"\"", out);
        free(t);
        json_decref(w);
        fputc('}', out);
        return;
    }
    fprintf(out, ",\"bytes\":%lld,\"direct_us\":%.17g,\"options\":[", c->bytes, c->direct_us);
    for (int k = 0; k < c->nopts; k++) {
        fprintf(out, "%s{\"alg\":\"%s\",\"us\":", k ? "," : "",
                hd_coll_alg_name((hd_coll_alg)c->opt[k].alg));
        if (c->opt[k].us < 0)
            fputs("null}", out);
        else
            fprintf(out, "%.17g}", c->opt[k].us);
    }
    fprintf(out, "],\"best\":\"%s\",\"chosen\":\"%s\"",
            c->best < 0 ? "direct" : hd_coll_alg_name((hd_coll_alg)c->opt[c->best].alg),
            c->chosen < 0 ? "direct" : hd_coll_alg_name((hd_coll_alg)c->opt[c->chosen].alg));
    if (c->root >= 0)
        fprintf(out, ",\"root\":%d", c->root);
    if (c->dims)   /* in every coset of this subcube (physical dimensions) */
        fprintf(out, ",\"subcube_dims\":%llu", (unsigned long long)c->dims);
    fprintf(out, ",\"emitted\":%s}", hd_coll_emitted(c->pattern) ? "true" : "false");
}

/*
 * The whole answer written to out as it is made (a 1000-loop file's is
 * 3 MB: held in memory first, it cost more page faults than it is worth),
 * newline-terminated, in compact form.  A C file gives thousands of entries, most of them sharing
 * an LCC; a single jansson tree of it all cost more than parsing the file,
 * so every entry is joined from pieces: the fields of each distinct LCC
 * encoded once by jansson, each entry's strings encoded by jansson, and
 * the fixed keys and integers written as jansson writes them ("%lld", no
 * spaces), which costs a tenth of a jansson object per entry.
 */
static void render_json(const hd_analyze_result *res, json_parts *parts, FILE *out)
{
    char **after = hd_xcalloc((size_t)res->p.m + 1, sizeof *after);
    json_t *head = json_object();
    json_object_set_new(head, "n", json_integer(res->p.n));
    json_object_set_new(head, "objective",
                        json_string(hd_objective_name(res->p.objective)));
    json_object_set_new(head, "order", json_order(&res->p.order));
    json_object_set_new(head, "cost", json_integer((json_int_t)res->p.cost));
    json_object_set_new(head, "network", json_string(res->networks ? "all"
                                           : hd_target_word(res->p.target.kind)));
    if (res->p.n > 0 && omega_class(res->p.target.kind))
        put_mapping(head, &res->p);
    if (res->networks) {
        json_t *nets = json_object();
        for (int k = 0; k < HD_NETWORKS; k++) {
            json_t *x = json_object();
            if (res->p.n > 0)
                put_mapping(x, &res->networks[k]);
            json_object_set_new(nets, hd_target_word((hd_target_kind)k), x);
        }
        json_object_set_new(head, "networks", nets);
    }
    fputc('{', out);
    put_members(out, head);
    fputs(",\"lccs\":[", out);
    string_cache *strings = &parts->strings;
    for (int r = 0; r < res->p.m; r++) {
        const hd_plan_comm *l = &res->p.comm[r];
        fputs(r ? ",{" : "{", out);
        const char *sep = put_member(out, strings, "", "name", l->in->name);
        if (l->in->comm.kind != HD_COMM_LCC) {
            fputs(sep, out);
            fputs("\"class\":\"general\"", out);
            put_member(out, strings, ",", "reason", l->in->comm.reason);
        } else {
            /* The shared fields, as one jansson object would have them. */
            int f = l->first;
            if (!after[f]) {
                json_t *o = json_object();
                json_object_set_new(o, "contention_after",
                                    json_counts(l->price->after, res->p.n));
                after[f] = members(o);
            }
            const char *pieces[3] = { parts->before[f], after[f], parts->alone[f] };
            fputc(',', out);
            sep = "";
            for (int k = 0; k < 3; k++)
                if (pieces[k] && pieces[k][0]) {
                    fputs(sep, out);
                    fputs(pieces[k], out);
                    sep = ",";
                }
        }
        /* Where a reference of a C file is; nothing for spec entries. */
        if (l->in->array) {
            sep = put_member(out, strings, ",", "array", l->in->array);
            put_integer(out, sep, "line", l->in->line);
            put_integer(out, ",", "col", l->in->col);
            put_integer(out, ",", "loop_line", l->in->loop_line);
            if (l->in->conflict >= 0)
                put_integer(out, ",", "conflict", l->in->conflict);
            else
                fputs(",\"conflict\":null", out);
            if (l->in->comm.kind == HD_COMM_LCC) {
                /* The bits of b known only at run time (an LCC family). */
                char bits[HD_MAX_DIM + 1];
                bit_string(l->in->comm.b_runtime, res->p.n, bits);
                fprintf(out, ",\"b_runtime\":\"%s\"", bits);
            }
            if (l->in->nstage_vars > 0) {
                /* One stage of a family read per stage: the variables'
                 * values and the innermost stage loop's line. */
                fputs(",\"stage\":{", out);
                for (int v = 0; v < l->in->nstage_vars; v++)
                    put_integer(out, v ? "," : "", l->in->stage_vars[v], l->in->stage_values[v]);
                fputc('}', out);
                put_integer(out, ",", "stage_line", l->in->stage_line);
                if (l->in->stage_inner)
                    fputs(",\"stage_inner\":true", out);
            }
            if (l->in->stage_note)
                put_member(out, strings, ",", "stage_note", l->in->stage_note);
            put_choice(out, &l->choice);
        }
        fputc('}', out);
    }
    fputc(']', out);
    if (res->advice)
        put_list(out, "layouts", json_advice(res->advice));
    if (res->spec && res->spec->arrays)
        put_list(out, "arrays", json_arrays(res->spec));
    if (res->wu)
        put_list(out, "program", json_wu_program(res));
    fputs("}\n", out);
    for (int r = 0; r < res->p.m; r++)
        free(after[r]);
    free(after);
}

void hd_analyze_json(const hd_analyze_result *res, FILE *out)
{
    json_parts parts;
    memset(&parts, 0, sizeof parts);
    encode_parts(res, &parts);
    render_json(res, &parts, out);
    free_parts(&parts, res->p.m);
}

