// e2e: dims 1-8
/*
 * Calls of pure functions in doall bodies (docs/annotations.md, "Calls"):
 * functions of the file that the translator checks to be pure (a static
 * inline one, recursive ones, one calling math.h with a local array and
 * a const table of the file, one taking and returning a structure by
 * value), called in values, in the condition of a ?: and of an if, in
 * an inner loop, and inside indices
 * (which makes those references general: run-time requests); functions
 * the program declares only inside the function that holds the doall and
 * defines after it (the node code gets their prototypes); and complex
 * arithmetic with creal, cimag, conj, cexp and cabs on double _Complex
 * arrays.  Every array's checksum is printed, weighted by position, so a
 * wrong element shows.
 */
#include <complex.h>
#include <math.h>
#include <stdio.h>

#define N 256

double x[N], y[N], u[N], v[N], q[N];
double _Complex z[N], w[N];
#pragma hyperdo distribute(x, y, u, v, q, z, w : block)

/* A constant of the file: every processor's copy is the host's. */
static const double weights[4] = { 0.5, 0.25, 0.125, 0.125 };

typedef struct {
    double c, s;
} rot;

static inline double sq(double t)
{
    return t * t;
}

/* Euclid's algorithm, recursively. */
static int gcd(int p, int q)
{
    return q == 0 ? p : gcd(q, p % q);
}

/* Mutual recursion. */
static int is_even(unsigned k);
static int is_odd(unsigned k)
{
    return k == 0 ? 0 : is_even(k - 1);
}
static int is_even(unsigned k)
{
    return k == 0 ? 1 : is_odd(k - 1);
}

/* math.h, a local array, loops, a const table. */
static double smooth(double t, int k)
{
    double parts[4];
    for (int j = 0; j < 4; j++)
        parts[j] = weights[j] * sin(t + j);
    double s = 0;
    for (int j = 0; j < 4; j++)
        s += parts[j];
    if (k & 1)
        s += sqrt(fabs(t));
    return s;
}

/* Structures by value, in and out. */
static rot turn(rot r, double angle)
{
    rot out;
    out.c = r.c * cos(angle) - r.s * sin(angle);
    out.s = r.s * cos(angle) + r.c * sin(angle);
    return out;
}

/* A bijection of 0..N-1 (37 is odd). */
static int scramble(int i)
{
    return (i * 37 + 11) & (N - 1);
}

static double _Complex twiddle(int k)
{
    const double pi = acos(-1.0);
    return cexp(-2.0 * I * pi * k / N);
}

static void stage(void)
{
    int late(int);   /* defined after this function: the node code needs its prototype */
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        v[i] = u[late(i)] * 0.5 + late(i ^ 7);
}

int main(void)
{
    double bias(double);   /* as late */
    for (int e = 0; e < N; e++) {
        x[e] = (e * 29 % 41) * 0.125 - 2.5;
        z[e] = (e % 13) * 0.25 + ((e * 7) % 11 - 5) * 0.5 * I;
    }
#pragma hyperdo doall
    for (int i = 0; i < N; i++) {
        rot r = { 1.0, 0.0 };
        double t = smooth(x[i ^ 1], i) + gcd(i, 24) + is_even((unsigned)i);
        y[i] = sq(x[i]) + t + turn(r, x[i] * 0.1).s + bias(x[N - 1 - i]);
    }
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        u[i] = x[scramble(i)] + (is_odd((unsigned)i) ? y[scramble(i ^ 3)]
                                                     : y[gcd(i, 48) & (N - 1)]);
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        w[i] = conj(z[i]) * cexp(I * creal(z[i ^ 2])) + cabs(z[i]) +
               cimag(z[N - 1 - i]) * twiddle(i);
#pragma hyperdo doall
    for (int i = 0; i < N; i++) {
        double s = 0;
        if (is_even((unsigned)(i >> 2)))
            s = sq(x[i ^ 8]);
        else
            s = -sqrt(fabs(x[i]));
        for (int k = 0; k < 4; k++)
            s += smooth(y[(i + k * 3) & (N - 1)], k);
        q[i] = s;
    }
    stage();

    double sx = 0, sy = 0, su = 0, sv = 0, sqq = 0, wr = 0, wi = 0;
    for (int e = 0; e < N; e++) {
        sx += x[e] * (e + 1);
        sy += y[e] * (e + 1);
        su += u[e] * (e + 1);
        sv += v[e] * (e + 1);
        sqq += q[e] * (e + 1);
        wr += creal(w[e]) * (e + 1);
        wi += cimag(w[e]) * (e + 1);
    }
    printf("x %.17g\ny %.17g\nu %.17g\nv %.17g\nq %.17g\nw %.17g %+.17gi\n", sx, sy, su, sv,
           sqq, wr, wi);
    printf("y[5] %.17g u[200] %.17g w[17] %.17g %+.17gi\n", y[5], u[200], creal(w[17]),
           cimag(w[17]));
    return 0;
}

double bias(double t)
{
    return t > 0 ? t / 3 : -t / 5;
}

int late(int k)
{
    return (k * 5 + 1) & (N - 1);
}
