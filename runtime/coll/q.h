/*
 * q.h — exact rationals for the collectives' schedules and the link-bound
 * simulator.  Stout and Wagar 1990 split messages into m/d, m/(dg),
 * m/(C(d-1,k) d) ... items, and their times are sums of such terms: the
 * simulator reproduces the paper's closed forms exactly only if it never
 * rounds.  A result that leaves int64 sets *overflow (the caller reports
 * it); nothing here rounds silently.
 */
#ifndef HD_COLL_Q_H
#define HD_COLL_Q_H

#include <stdint.h>

typedef struct {
    int64_t n;  /* numerator */
    int64_t d;  /* denominator, > 0, gcd(n, d) = 1 */
} hd_q;

static inline int64_t hd_q_gcd(int64_t a, int64_t b)
{
    if (a < 0)
        a = -a;
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a < 0 ? -a : a;
}

/* n / d from 128-bit parts, reduced; *overflow set if it does not fit. */
static inline hd_q hd_q_make128(__int128 n, __int128 d, int *overflow)
{
    if (d < 0) {
        n = -n;
        d = -d;
    }
    __int128 a = n < 0 ? -n : n, b = d;
    while (b) {
        __int128 t = a % b;
        a = b;
        b = t;
    }
    if (a > 1) {
        n /= a;
        d /= a;
    }
    if (d == 0 || n > INT64_MAX || n < -INT64_MAX || d > INT64_MAX) {
        *overflow = 1;
        return (hd_q){ 0, 1 };
    }
    return (hd_q){ (int64_t)n, (int64_t)d };
}

static inline hd_q hd_q_int(int64_t n)
{
    return (hd_q){ n, 1 };
}

static inline hd_q hd_q_frac(int64_t n, int64_t d)
{
    int ov = 0;
    return hd_q_make128(n, d, &ov);
}

static inline hd_q hd_q_add(hd_q a, hd_q b, int *ov)
{
    return hd_q_make128((__int128)a.n * b.d + (__int128)b.n * a.d, (__int128)a.d * b.d, ov);
}

static inline hd_q hd_q_sub(hd_q a, hd_q b, int *ov)
{
    return hd_q_make128((__int128)a.n * b.d - (__int128)b.n * a.d, (__int128)a.d * b.d, ov);
}

static inline hd_q hd_q_mul(hd_q a, hd_q b, int *ov)
{
    return hd_q_make128((__int128)a.n * b.n, (__int128)a.d * b.d, ov);
}

static inline hd_q hd_q_div(hd_q a, hd_q b, int *ov)
{
    if (b.n == 0) {
        *ov = 1;
        return (hd_q){ 0, 1 };
    }
    return hd_q_make128((__int128)a.n * b.d, (__int128)a.d * b.n, ov);
}

static inline int hd_q_cmp(hd_q a, hd_q b)
{
    __int128 l = (__int128)a.n * b.d, r = (__int128)b.n * a.d;
    return l < r ? -1 : l > r;
}

static inline hd_q hd_q_max(hd_q a, hd_q b)
{
    return hd_q_cmp(a, b) >= 0 ? a : b;
}

static inline int hd_q_eq(hd_q a, hd_q b)
{
    return a.n == b.n && a.d == b.d;
}

static inline double hd_q_double(hd_q a)
{
    return (double)a.n / (double)a.d;
}

/* floor(a * k) for k >= 0: the element at which a fraction a of a
 * message of k elements starts (the same for every node, so consecutive
 * fractions partition the elements). */
static inline uint64_t hd_q_floor_times(hd_q a, uint64_t k)
{
    return (uint64_t)(((__int128)a.n * (__int128)k) / a.d);
}

#endif
