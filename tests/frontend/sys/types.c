/*
 * Fixed-width and boolean element types, bounds from <limits.h> and
 * <stdint.h> macros, and <inttypes.h> printing.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <hyperdo/bits.h>

#define COUNT (1 << CHAR_BIT)

static uint32_t key[COUNT], perm[COUNT];
static bool odd[COUNT];
static int64_t acc[COUNT];
static uint8_t small[UINT8_MAX + 1];

int main(void)
{
    for (size_t i = 0; i < COUNT; i++)
        key[i] = (uint32_t)(i * 2654435761u);
#pragma hyperdo doall
    for (int i = 0; i < COUNT; i++) {
        uint32_t k = key[gray(i)];
        perm[i] = k ^ UINT32_C(0x9e3779b9);
        odd[i] = (k & 1u) != 0;
        acc[i] = (int64_t)k - INT32_MAX;
        small[i] = (uint8_t)(k >> 24);
    }
#pragma hyperdo doall
    for (int i = 0; i < UINT8_MAX + 1; i++)
        key[i] = perm[(uint8_t)(i ^ 0x80)];
    int64_t total = 0;
    for (size_t i = 0; i < COUNT; i++)
        total += odd[i] ? acc[i] : small[i];
    printf("total %" PRId64 ", key[1] %" PRIu32 "\n", total, key[1]);
    return 0;
}
