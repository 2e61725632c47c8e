/*
 * test_bits.c — the helpers of runtime/include/hyperdo/bits.h against
 * bit-by-bit definitions written from their specification
 * (docs/annotations.md), for every width n and many values.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <hyperdo/bits.h>

static unsigned long bit_of(unsigned long i, int t)
{
    return (i >> t) & 1UL;
}

/* Sample values: all of 0 .. 1023, then a spread of 64-bit patterns. */
static unsigned long sample(int s)
{
    if (s < 1024)
        return (unsigned long)s;
    uint64_t x = (uint64_t)s * UINT64_C(0x9E3779B97F4A7C15);
    x ^= x >> 29;
    return (unsigned long)x;
}

#define NSAMPLES 1400

static void test_reverse(void **state)
{
    (void)state;
    for (int n = 0; n <= HYPERDO_ULONG_BITS; n++)
        for (int s = 0; s < NSAMPLES; s++) {
            unsigned long i = sample(s), want = 0;
            for (int t = 0; t < n; t++)
                want |= bit_of(i, n - 1 - t) << t;
            assert_true(reverse(i, n) == want);
        }
    /* Seed 000, Section 3: reverse(i, n) = i_0 2^{n-1} + ... + i_{n-1}. */
    assert_true(reverse(1, 8) == 128);
    assert_true(reverse(6, 3) == 3);
    assert_true(reverse(0x1F0, 4) == 0);  /* higher bits dropped */
}

static void test_gray(void **state)
{
    (void)state;
    for (int s = 0; s < NSAMPLES; s++) {
        unsigned long i = sample(s);
        assert_true(gray(i) == (i ^ (i >> 1)));
    }
    /* Consecutive codes differ in one bit. */
    for (unsigned long i = 0; i < 1000; i++)
        assert_true(__builtin_popcountl(gray(i) ^ gray(i + 1)) == 1);
}

static unsigned long rot_model(unsigned long i, int r, int n)
{
    /* bit t of the result is bit (t - r) mod n of i */
    unsigned long want = 0;
    int rr = ((r % n) + n) % n;
    for (int t = 0; t < n; t++)
        want |= bit_of(i, ((t - rr) % n + n) % n) << t;
    return want;
}

static void test_rotations(void **state)
{
    (void)state;
    for (int n = 1; n <= HYPERDO_ULONG_BITS; n++)
        for (int r = -n - 1; r <= 2 * n + 1; r++)
            for (int s = 0; s < NSAMPLES; s += 7) {
                unsigned long i = sample(s);
                assert_true(rotl(i, r, n) == rot_model(i, r, n));
                assert_true(rotr(i, r, n) == rot_model(i, -r, n));
            }
    for (int s = 0; s < NSAMPLES; s++)
        assert_true(rotl(sample(s), 3, 0) == 0 && rotr(sample(s), 3, 0) == 0);
    assert_true(rotl(1, 1, 8) == 2 && rotl(128, 1, 8) == 1);
    assert_true(rotr(1, 1, 8) == 128 && rotr(0x300, 1, 8) == 0);
}

static void test_shuffles(void **state)
{
    (void)state;
    for (int n = 0; n <= HYPERDO_ULONG_BITS; n++)
        for (int s = 0; s < NSAMPLES; s++) {
            unsigned long i = sample(s);
            assert_true(shuffle(i, n) == rotl(i, 1, n));
            assert_true(unshuffle(i, n) == rotr(i, 1, n));
            assert_true(unshuffle(shuffle(i, n), n) ==
                        (n == HYPERDO_ULONG_BITS ? i
                         : i & ((1UL << n) - 1)));
        }
}

static void test_transpose(void **state)
{
    (void)state;
    for (int n = 0; n <= HYPERDO_ULONG_BITS; n++)
        for (int s = 0; s < NSAMPLES; s++) {
            unsigned long i = sample(s), want = 0;
            int h = n / 2;
            for (int t = 0; t < h; t++) {
                want |= bit_of(i, t + h) << t;
                want |= bit_of(i, t) << (t + h);
            }
            if (n % 2)
                want |= bit_of(i, n - 1) << (n - 1);
            assert_true(transpose(i, n) == want);
        }
    /* Seed 000, Example 3: element (row, col) of a 16 x 16 matrix. */
    assert_true(transpose(0x12, 8) == 0x21);
    assert_true(transpose(0x312, 8) == 0x21);
}

static void test_bit(void **state)
{
    (void)state;
    for (int s = 0; s < NSAMPLES; s++) {
        unsigned long i = sample(s);
        for (int k = 0; k < HYPERDO_ULONG_BITS; k++)
            assert_true(bit(i, k) == ((i >> k) & 1UL));
        assert_true(bit(i, -1) == 0 && bit(i, HYPERDO_ULONG_BITS) == 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reverse),
        cmocka_unit_test(test_gray),
        cmocka_unit_test(test_rotations),
        cmocka_unit_test(test_shuffles),
        cmocka_unit_test(test_transpose),
        cmocka_unit_test(test_bit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
