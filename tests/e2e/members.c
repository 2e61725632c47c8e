// e2e: dims 1-3
/* Structure elements: a doall writes members of its element (q[i].x, q[i].v[1]) and reads members and member arrays of others' (p[i ^ 1].v[2]). */
#include <stdio.h>
typedef struct { double x, y; int v[3]; } pt;
pt q[8], p[8];
#pragma hyperdo distribute(q, p : cyclic)
int main(void)
{
    for (int e = 0; e < 8; e++) { q[e].x = e; q[e].y = -e; q[e].v[0] = e; q[e].v[1] = 2 * e; q[e].v[2] = 3 * e; p[e] = q[e]; }
#pragma hyperdo doall
    for (int i = 0; i < 8; i++) {
        q[i].x = p[i ^ 3].y + p[i ^ 1].v[2];
        q[i].v[1] = p[7 - i].v[0] * 10;
    }
    for (int e = 0; e < 8; e++) printf("%g %g %d %d %d\n", q[e].x, q[e].y, q[e].v[0], q[e].v[1], q[e].v[2]);
    return 0;
}
