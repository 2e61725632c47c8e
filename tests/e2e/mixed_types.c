// e2e: dims 1-7
/*
 * Element types: int, float, double, unsigned char, short, long long,
 * unsigned and a structure; reads of one type converted into another,
 * float arithmetic kept in float, unsigned wrap-around, and structure
 * elements copied whole between distributed arrays (their members read
 * in the body).
 */
#include <stdio.h>

#include <hyperdo/bits.h>

#define N 128

struct particle {
    int id;
    float mass;
    double px, py;
    unsigned char tag;
};

int ia[N];
float fa[N];
double da[N];
unsigned char ua[N];
short sa[N];
long long la[N];
unsigned wa[N];
struct particle pa[N], pb[N];
#pragma hyperdo distribute(ia, fa, da, ua, sa, la, wa : cyclic)
#pragma hyperdo distribute(pa, pb : block)

int main(void)
{
    for (int e = 0; e < N; e++) {
        pa[e].id = e;
        pa[e].mass = 0.5f + (float)e / 3.0f;
        pa[e].px = e * 1.25;
        pa[e].py = -e * 0.75;
        pa[e].tag = (unsigned char)(e * 7);
        ua[e] = (unsigned char)(e * 13 + 200);
    }

#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        pb[i] = pa[reverse(i, 7)];

#pragma hyperdo doall
    for (int i = 0; i < N; i++) {
        ia[i] = pb[i ^ 1].id * 3 - ua[i ^ 2];
        fa[i] = pb[i].mass * 1.1f + (float)ua[N - 1 - i] / 7.0f;
        da[i] = pb[i].px * pb[i].py + pb[i].tag;
        ua[i] = (unsigned char)(ua[i] + 100);
        sa[i] = (short)(pb[i ^ 64].id * -250);
        la[i] = (long long)pb[i].id * 1000000007LL * (i + 1);
        wa[i] = (unsigned)pb[i].id * 4000000000u + 17u;
    }

#pragma hyperdo doall
    for (int i = 0; i < N; i++) {
        float f = fa[i ^ 3] * 0.5f;
        da[i] += f + ia[i ^ 5] / 2 + sa[i] % 7;
        fa[i] = (float)(da[i] / 3) + f;
        ua[i] ^= (unsigned char)wa[i];
    }

    unsigned long long sum = 0;
    for (int e = 0; e < N; e++) {
        printf("%3d %d %.9g %.17g %u %d %lld %u | %d %.9g %g %g %u\n", e, ia[e],
               (double)fa[e], da[e], ua[e], sa[e], la[e], wa[e], pb[e].id,
               (double)pb[e].mass, pb[e].px, pb[e].py, pb[e].tag);
        sum += (unsigned long long)(e + 1) * ((unsigned long long)ia[e] + ua[e] +
                                              (unsigned long long)sa[e] +
                                              (unsigned long long)la[e] + wa[e]);
    }
    printf("weighted sum %llu\n", sum);
    return 0;
}
