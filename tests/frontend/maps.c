/*
 * Data mappings (Wu 1984, Section 1.2): element e of an array on processor
 * F(owner(e)) = A owner(e) + c, so a read of u in a doall that writes v
 * is the physical transfer F_v P F_u^-1 (P the transfer between owners)
 * and stays an LCC.  On the 3-cube, every array of exactly 8 elements
 * (element e owned by processor e before its mapping):
 *
 *   b[i] = a[i]      F_a = rows(3, 2, 4) xor(1), b unmapped: y = F_a^-1 x,
 *                    F_a x = (x0+x1+1, x1, x2), so x0 = y0+y1+1:
 *                    A rows 110, 010, 001, b = 100;
 *   d[i] = a[i]      d mapped as a: local, no entry;
 *   e[i] = a[i]      e mapped by rows(3, 2, 4) alone: only the complement
 *                    differs, y = x + 100: A the identity, b = 100;
 *   c[i] = b[i ^ 1]  b under rows(1, 3, 6) and c under rows(7, 2, 4) from
 *                    this doall on: y = F_c P F_b^-1 x with P x = x + 001;
 *                    F_b^-1 y = (y0, y0+y1, y0+y1+y2), so
 *                    y = F_c(F_b^-1 x + 001): with u = F_b^-1 x + 001 =
 *                    (x0+1, x0+x1, x0+x1+x2), F_c u = (u0+u1+u2, u1, u2)
 *                    = (x0+x2+1, x0+x1, x0+x1+x2): A rows 101, 110, 111,
 *                    b = 100.
 */
#include <stdio.h>

#pragma hyperdo cube(3)

double a[8], b[8], c[8], d[8], e[8];
#pragma hyperdo map(a, d : rows(3, 2, 4) xor(1))
#pragma hyperdo map(e : rows(3, 2, 4))

int main(void)
{
    for (int i = 0; i < 8; i++)
        a[i] = i;
#pragma hyperdo doall
    for (int i = 0; i < 8; i++)
        b[i] = a[i];
#pragma hyperdo doall
    for (int i = 0; i < 8; i++)
        d[i] = a[i];
#pragma hyperdo doall
    for (int i = 0; i < 8; i++)
        e[i] = a[i];
#pragma hyperdo map(b : rows(1, 3, 6))
#pragma hyperdo map(c : rows(7, 2, 4))
#pragma hyperdo doall
    for (int i = 0; i < 8; i++)
        c[i] = b[i ^ 1];
    printf("%g %g %g\n", c[3], d[2], e[5]);
    return 0;
}
