/*
 * omega.c — the pass-level simulator of sim.h's omega-class section: the
 * omega network and the indirect binary n-cube (butterfly), wire by wire,
 * switch by switch (Wu 1984, Section 2.1 and Chapter 5).
 *
 * This file is the test oracle of analysis/omega.c's algebra, so it knows
 * nothing of matrices: a message is a pair of line numbers, and a pass is
 * the n stages it crosses.  Each stage is its wiring (the perfect shuffle
 * for the omega network; for the butterfly the exchange of bit 0 with the
 * stage's bit, before and after the switches) and a column of 2^(n-1)
 * switches on the line pairs (2j, 2j+1); destination-tag routing takes
 * the switch output named by the destination bit the stage sets.
 */
#include "sim.h"

#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

const char *hd_omega_network_name(hd_omega_network k)
{
    return k == HD_OMEGA_NET_BUTTERFLY ? "butterfly" : "omega";
}

bool hd_omega_network_parse(const char *s, hd_omega_network *k)
{
    if (s && strcmp(s, "omega") == 0) {
        *k = HD_OMEGA_NET_OMEGA;
        return true;
    }
    if (s && strcmp(s, "butterfly") == 0) {
        *k = HD_OMEGA_NET_BUTTERFLY;
        return true;
    }
    return false;
}

int hd_omega_stage_bit(hd_omega_network net, int n, int stage)
{
    return net == HD_OMEGA_NET_OMEGA ? n - stage : stage - 1;
}

static bool valid_network(hd_omega_network net, int n)
{
    return (net == HD_OMEGA_NET_OMEGA || net == HD_OMEGA_NET_BUTTERFLY) &&
           n >= 1 && n <= HD_OMEGA_MAX_DIM;
}

/* --------------------------------------------------------- one stage */

/* Where the message on line `at` (before the stage's wiring) enters the
 * switch column: the line 2j + port.  Omega: Lawrie's perfect shuffle,
 * the line number rotated left by one bit.  Butterfly: Pease's stage of
 * bit b pairs lines differing in bit b; drawn with switches on adjacent
 * lines, its wiring exchanges bits 0 and b. */
static uint32_t swap_bits(uint32_t x, int a, int b)
{
    uint32_t d = ((x >> a) ^ (x >> b)) & 1;
    return x ^ (d << a) ^ (d << b);
}

static uint32_t wire_in(hd_omega_network net, int n, int stage, uint32_t at)
{
    if (net == HD_OMEGA_NET_OMEGA) {
        uint32_t mask = (uint32_t)((UINT64_C(1) << n) - 1);
        return ((at << 1) | (at >> (n - 1))) & mask;
    }
    return swap_bits(at, 0, stage - 1);
}

/* From the switch column back to line numbers: the omega network has none
 * (the next stage's shuffle is its wiring), the butterfly exchanges the
 * bits back, so that a line's number is its address between stages. */
static uint32_t wire_out(hd_omega_network net, int stage, uint32_t q)
{
    return net == HD_OMEGA_NET_OMEGA ? q : swap_bits(q, 0, stage - 1);
}

/* The stage's switch and settings for one message: it enters switch
 * q >> 1 at port q & 1 and leaves at the port named by its destination's
 * bit (destination-tag routing); direct keeps the port, crossed swaps. */
typedef struct {
    uint32_t sw;       /* switch */
    uint32_t out;      /* the line after the stage (wire_out applied) */
    uint8_t setting;   /* HD_SW_DIRECT or HD_SW_CROSSED */
} hop;

static hop stage_hop(hd_omega_network net, int n, int stage, uint32_t at, uint32_t dst)
{
    uint32_t q = wire_in(net, n, stage, at);
    uint32_t want = dst >> hd_omega_stage_bit(net, n, stage) & 1;
    hop h = { q >> 1, wire_out(net, stage, (q & ~UINT32_C(1)) | want),
              (q & 1) == want ? HD_SW_DIRECT : HD_SW_CROSSED };
    return h;
}

uint32_t hd_omega_line(hd_omega_network net, int n, uint32_t src, uint32_t dst, int stage)
{
    uint32_t at = src;
    for (int s = 1; s <= stage; s++)
        at = stage_hop(net, n, s, at, dst).out;
    return at;
}

/* ---------------------------------------------------------- one pass */

static bool check_messages(int n, const hd_omega_msg *msg, size_t count)
{
    if (count > HD_OMEGA_MAX_MESSAGES || (count && !msg))
        return false;
    uint32_t lines = UINT32_C(1) << n;
    for (size_t i = 0; i < count; i++)
        if (msg[i].src >= lines || msg[i].dst >= lines)
            return false;
    return true;
}

/* The conflicts are kept in a growing array: one record per place (a
 * network input, a switch output, a switch), however many messages
 * meet there. */
static int add_conflict(hd_omega_pass *p, size_t *cap, hd_omega_conflict c)
{
    if (p->nconflicts == *cap) {
        size_t nc = *cap ? 2 * *cap : 16;
        hd_omega_conflict *v = realloc(p->conflict, nc * sizeof *v);
        if (!v)
            return HD_SIM_ENOMEM;
        p->conflict = v;
        *cap = nc;
    }
    p->conflict[p->nconflicts++] = c;
    if (c.kind == HD_OMEGA_BOTH_SETTINGS)
        p->settings[c.stage]++;
    else
        p->outputs[c.stage]++;
    return HD_SIM_OK;
}

/* Scratch for one stage: the message first on each line (NONE), whether
 * a line's clash is recorded, and the message that set each switch. */
typedef struct {
    uint32_t *line_first;
    uint8_t *line_reported;
    uint32_t *switch_first;
} scratch;

/* The network inputs: a line that starts two messages is a conflict of
 * stage 0 (a processor sends one message per pass: Wu's switches do not
 * broadcast). */
static int route_inputs(hd_omega_pass *p, const hd_omega_msg *msg, size_t count,
                        scratch *w, size_t *cap, uint32_t *at)
{
    for (size_t i = 0; i < count; i++) {
        uint32_t l = msg[i].src;
        at[i] = l;
        if (w->line_first[l] == NONE) {
            w->line_first[l] = (uint32_t)i;
        } else if (!w->line_reported[l]) {
            w->line_reported[l] = 1;
            hd_omega_conflict c = { 0, HD_OMEGA_SHARED_INPUT, l, w->line_first[l], i };
            if (add_conflict(p, cap, c) != HD_SIM_OK)
                return HD_SIM_ENOMEM;
        }
    }
    return HD_SIM_OK;
}

static int route_stage(hd_omega_pass *p, int stage, const hd_omega_msg *msg, size_t count,
                       scratch *w, size_t *cap, uint32_t *at)
{
    int n = p->n;
    size_t lines = (size_t)1 << n, half = lines / 2;
    uint8_t *set = p->setting + (size_t)(stage - 1) * half;
    memset(w->line_first, 0xff, lines * sizeof *w->line_first);
    memset(w->line_reported, 0, lines);
    for (size_t i = 0; i < count; i++) {
        hop h = stage_hop(p->net, n, stage, at[i], msg[i].dst);
        at[i] = h.out;
        if (set[h.sw] == HD_SW_IDLE) {
            set[h.sw] = h.setting;
            w->switch_first[h.sw] = (uint32_t)i;
        } else if (set[h.sw] != h.setting && set[h.sw] != HD_SW_BOTH) {
            set[h.sw] = HD_SW_BOTH;
            hd_omega_conflict c = { stage, HD_OMEGA_BOTH_SETTINGS, h.sw,
                                    w->switch_first[h.sw], i };
            if (add_conflict(p, cap, c) != HD_SIM_OK)
                return HD_SIM_ENOMEM;
        }
        if (w->line_first[h.out] == NONE) {
            w->line_first[h.out] = (uint32_t)i;
        } else if (!w->line_reported[h.out]) {
            w->line_reported[h.out] = 1;
            hd_omega_conflict c = { stage, HD_OMEGA_SHARED_OUTPUT, h.out,
                                    w->line_first[h.out], i };
            if (add_conflict(p, cap, c) != HD_SIM_OK)
                return HD_SIM_ENOMEM;
        }
    }
    return HD_SIM_OK;
}

void hd_omega_pass_free(hd_omega_pass *p)
{
    if (!p)
        return;
    free(p->setting);
    free(p->conflict);
    p->setting = NULL;
    p->conflict = NULL;
    p->nconflicts = 0;
}

int hd_omega_route(hd_omega_network net, int n, const hd_omega_msg *msg, size_t count,
                   hd_omega_pass *out)
{
    if (!out)
        return HD_SIM_EINVAL;
    memset(out, 0, sizeof *out);
    if (!valid_network(net, n) || !check_messages(n, msg, count))
        return HD_SIM_EINVAL;
    size_t lines = (size_t)1 << n;
    out->net = net;
    out->n = n;
    out->messages = count;
    out->setting = calloc((size_t)n * (lines / 2), 1);   /* HD_SW_IDLE */
    scratch w = { malloc(lines * sizeof *w.line_first), calloc(lines, 1),
                  malloc(lines / 2 * sizeof *w.switch_first) };
    uint32_t *at = malloc((count ? count : 1) * sizeof *at);
    size_t cap = 0;
    int rc = HD_SIM_ENOMEM;
    if (out->setting && w.line_first && w.line_reported && w.switch_first && at) {
        memset(w.line_first, 0xff, lines * sizeof *w.line_first);
        rc = route_inputs(out, msg, count, &w, &cap, at);
        for (int s = 1; s <= n && rc == HD_SIM_OK; s++)
            rc = route_stage(out, s, msg, count, &w, &cap, at);
    }
    free(w.line_first);
    free(w.line_reported);
    free(w.switch_first);
    free(at);
    if (rc != HD_SIM_OK)
        hd_omega_pass_free(out);
    return rc;
}

/* ------------------------------------------------- greedy partition */

/* First fit needs, for every line of every stage, the passes already
 * using it, and the lowest pass at or above a candidate that does not.
 * A line keeps them as sorted, disjoint, non-adjacent intervals
 * [lo, hi): the passes of a line are mostly runs (a destination that
 * receives 2^k messages is busy in passes 0 .. 2^k - 1 when they come
 * first), so that finding the next free pass is a binary search where a
 * plain list would be walked. */
typedef struct {
    uint32_t *iv;      /* lo0, hi0, lo1, hi1, ... */
    uint32_t len, cap; /* intervals */
} busy;

/* The lowest pass >= p that the line leaves free. */
static uint32_t next_free(const busy *b, uint32_t p)
{
    uint32_t lo = 0, hi = b->len;          /* the first interval with hi > p */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (b->iv[2 * mid + 1] > p)
            hi = mid;
        else
            lo = mid + 1;
    }
    if (lo < b->len && b->iv[2 * lo] <= p)
        return b->iv[2 * lo + 1];
    return p;
}

/* Marks pass p (free on the line) busy, merging with its neighbours. */
static int mark_busy(busy *b, uint32_t p)
{
    uint32_t k = 0, lo = 0, hi = b->len;   /* k: the first interval with lo > p */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (b->iv[2 * mid] > p)
            hi = mid;
        else
            lo = mid + 1;
    }
    k = lo;
    bool join_left = k > 0 && b->iv[2 * (k - 1) + 1] == p;
    bool join_right = k < b->len && b->iv[2 * k] == p + 1;
    if (join_left && join_right) {
        b->iv[2 * (k - 1) + 1] = b->iv[2 * k + 1];
        memmove(b->iv + 2 * k, b->iv + 2 * (k + 1), (size_t)(b->len - k - 1) * 2 * sizeof *b->iv);
        b->len--;
    } else if (join_left) {
        b->iv[2 * (k - 1) + 1] = p + 1;
    } else if (join_right) {
        b->iv[2 * k] = p;
    } else {
        if (b->len == b->cap) {
            uint32_t nc = b->cap ? 2 * b->cap : 2;
            uint32_t *v = realloc(b->iv, (size_t)nc * 2 * sizeof *v);
            if (!v)
                return HD_SIM_ENOMEM;
            b->iv = v;
            b->cap = nc;
        }
        memmove(b->iv + 2 * (k + 1), b->iv + 2 * k, (size_t)(b->len - k) * 2 * sizeof *b->iv);
        b->iv[2 * k] = p;
        b->iv[2 * k + 1] = p + 1;
        b->len++;
    }
    return HD_SIM_OK;
}

/* The lowest pass in which every line of the path is free: raise the
 * candidate until no line of the path moves it. */
static uint32_t first_fit(busy *const *line, const uint32_t *path, int n)
{
    uint32_t p = 0;
    for (bool moved = true; moved;) {
        moved = false;
        /* The destination's line first, then the source's: where messages
         * pile up most, so that a busy pass is skipped at once. */
        for (int k = 0; k <= n; k++) {
            int s = k == 0 ? n : k - 1;
            uint32_t q = next_free(&line[s][path[s]], p);
            if (q != p) {
                p = q;
                moved = true;
            }
        }
    }
    return p;
}

static void free_lines(busy **line, int n)
{
    size_t lines = (size_t)1 << n;
    for (int s = 0; s <= n; s++) {
        for (size_t l = 0; line[s] && l < lines; l++)
            free(line[s][l].iv);
        free(line[s]);
    }
}

int hd_omega_partition(hd_omega_network net, int n, const hd_omega_msg *msg, size_t count,
                       uint32_t *pass, uint32_t *passes)
{
    if (!valid_network(net, n) || !check_messages(n, msg, count) || !passes ||
        (count && !pass))
        return HD_SIM_EINVAL;
    size_t lines = (size_t)1 << n;
    busy *line[HD_OMEGA_MAX_DIM + 1] = { NULL };
    int rc = HD_SIM_OK;
    for (int s = 0; s <= n && rc == HD_SIM_OK; s++)
        if (!(line[s] = calloc(lines, sizeof *line[s])))
            rc = HD_SIM_ENOMEM;
    uint32_t used = 0;
    for (size_t i = 0; i < count && rc == HD_SIM_OK; i++) {
        if (msg[i].src == msg[i].dst) {
            pass[i] = HD_OMEGA_LOCAL;
            continue;
        }
        uint32_t path[HD_OMEGA_MAX_DIM + 1];
        path[0] = msg[i].src;
        for (int s = 1; s <= n; s++)
            path[s] = stage_hop(net, n, s, path[s - 1], msg[i].dst).out;
        uint32_t p = first_fit(line, path, n);
        for (int s = 0; s <= n && rc == HD_SIM_OK; s++)
            rc = mark_busy(&line[s][path[s]], p);
        pass[i] = p;
        if (p + 1 > used)
            used = p + 1;
    }
    free_lines(line, n);
    if (rc == HD_SIM_OK)
        *passes = used;
    return rc;
}

/* ------------------------------------------------ two factors of P */

int hd_omega_run_factors(hd_omega_network net, int n, const uint32_t *first,
                         const uint32_t *second, const uint32_t *target,
                         hd_omega_factors *out)
{
    if (!out)
        return HD_SIM_EINVAL;
    memset(out, 0, sizeof *out);
    if (!valid_network(net, n) || !first || !second || !target)
        return HD_SIM_EINVAL;
    size_t lines = (size_t)1 << n;
    for (size_t x = 0; x < lines; x++)
        if (first[x] >= lines || second[x] >= lines || target[x] >= lines)
            return HD_SIM_EINVAL;
    hd_omega_msg *m = malloc(lines * sizeof *m);
    if (!m)
        return HD_SIM_ENOMEM;
    /* Pass 1 routes every line x to first[x]; pass 2 every line z to
     * second[z]: each factor is a permutation of the whole network, as
     * Wu's D counts them (Section 2.3). */
    for (size_t x = 0; x < lines; x++)
        m[x] = (hd_omega_msg){ (uint32_t)x, first[x] };
    int rc = hd_omega_route(net, n, m, lines, &out->pass[0]);
    for (size_t z = 0; z < lines && rc == HD_SIM_OK; z++)
        m[z] = (hd_omega_msg){ (uint32_t)z, second[z] };
    if (rc == HD_SIM_OK)
        rc = hd_omega_route(net, n, m, lines, &out->pass[1]);
    free(m);
    if (rc != HD_SIM_OK) {
        hd_omega_factors_free(out);
        return rc;
    }
    for (size_t x = 0; x < lines; x++)
        if (second[first[x]] == target[x])
            out->delivered++;
    out->ok = out->pass[0].nconflicts == 0 && out->pass[1].nconflicts == 0 &&
              out->delivered == lines;
    return HD_SIM_OK;
}

void hd_omega_factors_free(hd_omega_factors *f)
{
    if (!f)
        return;
    hd_omega_pass_free(&f->pass[0]);
    hd_omega_pass_free(&f->pass[1]);
}
