// e2e: dims 1-4
/*
 * Names and text the translator must leave alone: only hd_ and HD_ names
 * are reserved (docs/codegen.md).  The program declares its own v_send,
 * v_receive, v_get_pid and to_physical; a comment sits inside an index
 * that is an LCC (its text goes into the generated comments); an outer
 * scalar is declared register (its address cannot be taken).
 */
#include <stdio.h>

#define N 64

static int v_send = 7;
static int to_physical[3] = { 1, 2, 3 };

static int v_receive(int x)
{
    return x + v_send;
}

static int v_get_pid(void)
{
    return to_physical[2];
}

double a[N], b[N];
#pragma hyperdo distribute(a, b : block)

int main(void)
{
    register int scale = v_receive(1);
    for (int e = 0; e < N; e++)
        b[e] = e % 9;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        a[i] = b[i ^ (N / 2) /* the partner across the top bit */] * scale +
               b[i /* mine */];
    double s = 0;
    for (int e = 0; e < N; e++)
        s += a[e] * (e + 1);
    printf("%.17g %d %d\n", s, v_send, v_get_pid());
    return 0;
}
