/*
 * hyperdo/bits.h — bit-permutation helpers for the index expressions of
 * `#pragma hyperdo doall` loops (docs/annotations.md).
 *
 * Each helper is a plain C function, so an annotated program stays a valid
 * sequential C program that any C99 or C11 compiler builds and runs without
 * Hyperdo.  Hyperdo's analyzer recognises a call as one of these helpers
 * when the called function is declared in a file named hyperdo/bits.h, and
 * reads it as the GF(2)-affine (here: bit-permuting) map of the loop
 * variable's bits that the definition below computes.
 *
 * reverse(i, n) is the function of Hou et al. 2001 (Hou, Wang, Ku, Hsu, "Optimal
 * processor mapping for linear-complement communication on hypercubes",
 * IEEE TPDS 2001), Section 3 and Fig. 1a: for
 *     i = i_{n-1} 2^{n-1} + ... + i_1 2 + i_0
 * it returns
 *     i_0 2^{n-1} + i_1 2^{n-2} + ... + i_{n-2} 2 + i_{n-1},
 * the bit-reverse whose communication matrix is Example 1's.
 *
 * Conventions: bit 0 is the least significant; "the low n bits" of i are
 * bits 0 .. n-1.  Every helper that takes a width n drops the bits of i at
 * and above n; n <= 0 gives 0, and n larger than the width of unsigned long
 * is taken as that width.  Rotation amounts r are taken modulo n (negative
 * r rotates the other way).
 */
#ifndef HYPERDO_BITS_H
#define HYPERDO_BITS_H

#include <limits.h>

/* Number of bits of unsigned long (no padding bits on the platforms C
 * compilers target in practice; checked by the tests). */
#define HYPERDO_ULONG_BITS ((int)(sizeof(unsigned long) * CHAR_BIT))

/* The low n bits of i: n clamped to 0 .. HYPERDO_ULONG_BITS. */
static inline unsigned long hyperdo_low_bits(unsigned long i, int n)
{
    if (n <= 0)
        return 0;
    if (n >= HYPERDO_ULONG_BITS)
        return i;
    return i & ((1UL << n) - 1);
}

/* n clamped to 0 .. HYPERDO_ULONG_BITS. */
static inline int hyperdo_width(int n)
{
    return n < 0 ? 0 : n > HYPERDO_ULONG_BITS ? HYPERDO_ULONG_BITS : n;
}

/* Bits 0 .. n-1 of i in reverse order: bit t of the result is bit n-1-t of
 * i (Hou et al. 2001, Section 3, Fig. 1a).  Higher bits of i are dropped. */
static inline unsigned long reverse(unsigned long i, int n)
{
    unsigned long r = 0;
    n = hyperdo_width(n);
    for (int t = 0; t < n; t++)
        r |= ((i >> t) & 1UL) << (n - 1 - t);
    return r;
}

/* The binary reflected Gray code of i: i ^ (i >> 1). */
static inline unsigned long gray(unsigned long i)
{
    return i ^ (i >> 1);
}

/* The low n bits of i rotated left by r (r mod n): bit t of the result is
 * bit (t - r) mod n of i.  Higher bits of i are dropped. */
static inline unsigned long rotl(unsigned long i, int r, int n)
{
    n = hyperdo_width(n);
    if (n == 0)
        return 0;
    i = hyperdo_low_bits(i, n);
    r %= n;
    if (r < 0)
        r += n;
    if (r == 0)
        return i;
    return hyperdo_low_bits((i << r) | (i >> (n - r)), n);
}

/* The low n bits of i rotated right by r (r mod n): bit t of the result is
 * bit (t + r) mod n of i.  Higher bits of i are dropped. */
static inline unsigned long rotr(unsigned long i, int r, int n)
{
    n = hyperdo_width(n);
    if (n == 0)
        return 0;
    r %= n;
    return rotl(i, r == 0 ? 0 : n - r, n);
}

/* The perfect shuffle of n-bit addresses: rotl(i, 1, n). */
static inline unsigned long shuffle(unsigned long i, int n)
{
    return rotl(i, 1, n);
}

/* Its inverse, the unshuffle: rotr(i, 1, n). */
static inline unsigned long unshuffle(unsigned long i, int n)
{
    return rotr(i, 1, n);
}

/* For even n, the low n bits of i seen as a 2^(n/2) x 2^(n/2) matrix
 * address (row in the high half, column in the low half) transposed: bits
 * 0 .. n/2-1 and n/2 .. n-1 swap (Hou et al. 2001, Example 3).  Higher bits of i
 * are dropped.  (For odd n, with h = n/2 rounded down, bits 0 .. h-1 and
 * h .. 2h-1 swap and bit n-1 stays: still a permutation of the low n
 * bits.) */
static inline unsigned long transpose(unsigned long i, int n)
{
    int h;
    n = hyperdo_width(n);
    h = n / 2;
    return (hyperdo_low_bits(i, h) << h) | hyperdo_low_bits(i >> h, h)
           | (hyperdo_low_bits(i, n) & ~hyperdo_low_bits(~0UL, 2 * h));
}

/* Bit k of i, as 0 or 1: (i >> k) & 1 (0 for k outside 0 .. width-1). */
static inline unsigned long bit(unsigned long i, int k)
{
    if (k < 0 || k >= HYPERDO_ULONG_BITS)
        return 0;
    return (i >> k) & 1UL;
}

#endif
