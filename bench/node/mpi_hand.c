/*
 * mpi_hand.c — the computations of lcc_bitrev.c, lcc_transpose.c and
 * lcc_fft.c written by hand with MPI, as an expert would: rank 0 holds the
 * input and scatters it (block layout, 2^20 doubles per array), each round
 * packs exactly the elements each other rank needs, in the order that
 * rank unpacks them (no searching, no indices sent), exchanges with one
 * MPI_Alltoallv (or one MPI_Sendrecv for the butterfly), computes, and
 * rank 0 gathers and prints the checksum the annotated program prints.
 * bench/bench_node.sh times both.
 *
 *     mpiexec -n P mpi_hand bitrev|transpose|fft      (P = 2^n, n <= 5)
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hyperdo/bits.h>

#define LOGN 20
#define N (1 << LOGN)
#define LOG 10           /* transpose: a 2^10 x 2^10 matrix */
#define R (1 << LOG)

static int rank, P, n;
static long B;           /* elements per rank */

static double *alloc(long count)
{
    double *p = malloc((size_t)(count ? count : 1) * sizeof *p);
    if (!p) {
        fprintf(stderr, "mpi_hand: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

/* ------------------------------------------------------ bit reversal */

/* Rank p's elements that rank q's iterations read: g = p B + (j << n) +
 * reverse(q, n), j < 2^(20 - 2n), read by iteration reverse(g, 20). */
static void bitrev_round(const double *src, double *dst, double *sendbuf, double *recvbuf,
                         int *counts, int *displs)
{
    long per = B >> n;
    for (int q = 0; q < P; q++) {
        unsigned long low = reverse((unsigned long)q, n);
        for (long j = 0; j < per; j++)
            sendbuf[q * per + j] = src[(j << n) | (long)low];
    }
    MPI_Alltoallv(sendbuf, counts, displs, MPI_DOUBLE, recvbuf, counts, displs, MPI_DOUBLE,
                  MPI_COMM_WORLD);
    for (int p = 0; p < P; p++) {
        unsigned long low = reverse((unsigned long)rank, n);
        for (long j = 0; j < per; j++) {
            unsigned long g = ((unsigned long)p << (LOGN - n)) | ((unsigned long)j << n) | low;
            dst[(long)reverse(g, LOGN) - rank * B] = recvbuf[p * per + j] * 0.5 + 1.0;
        }
    }
}

/* ---------------------------------------------------------- transpose */

/* Rank p's rows (R / P of them) hold, in columns of q's block, the tile
 * q's rows need: sent row by row, received and transposed. */
static void transpose_round(const double *src, double *dst, double *sendbuf, double *recvbuf,
                            int *counts, int *displs)
{
    long rows = R / P, tile = rows * rows;
    for (int q = 0; q < P; q++)
        for (long r = 0; r < rows; r++)
            memcpy(&sendbuf[q * tile + r * rows], &src[r * R + q * rows],
                   (size_t)rows * sizeof *src);
    MPI_Alltoallv(sendbuf, counts, displs, MPI_DOUBLE, recvbuf, counts, displs, MPI_DOUBLE,
                  MPI_COMM_WORLD);
    for (int p = 0; p < P; p++)
        for (long r = 0; r < rows; r++)          /* my row r, i.e. column of p's tile */
            for (long c = 0; c < rows; c++)      /* p's row c */
                dst[r * R + p * rows + c] = recvbuf[p * tile + c * rows + r] * 0.5 + 1.0;
}

/* ----------------------------------------------------------- butterfly */

/* The partner of every element i is i ^ 2^19, on rank rank ^ (P / 2). */
static void fft_round(const double *xr, const double *xi, double *yr, double *yi,
                      double *sendbuf, double *recvbuf, double scale)
{
    const double c = 0.6, w = -0.8;
    int partner = rank ^ (P / 2);
    memcpy(sendbuf, xr, (size_t)B * sizeof *xr);
    memcpy(sendbuf + B, xi, (size_t)B * sizeof *xi);
    MPI_Sendrecv(sendbuf, (int)(2 * B), MPI_DOUBLE, partner, 0, recvbuf, (int)(2 * B),
                 MPI_DOUBLE, partner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int top = !(rank & (P / 2));
    for (long j = 0; j < B; j++) {
        double ur = xr[j], ui = xi[j], vr = recvbuf[j], vi = recvbuf[B + j];
        double pr = top ? ur : vr, pi = top ? ui : vi;
        double qr = top ? vr : ur, qi = top ? vi : ui;
        double tr = qr * c - qi * w, ti = qr * w + qi * c;
        yr[j] = (top ? pr + tr : pr - tr) * scale;
        yi[j] = (top ? pi + ti : pi - ti) * scale;
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    for (n = 0; (1 << n) < P; n++)
        ;
    const char *mode = argc > 1 ? argv[1] : "";
    int which = strcmp(mode, "bitrev") == 0 ? 0 : strcmp(mode, "transpose") == 0 ? 1
              : strcmp(mode, "fft") == 0 ? 2 : -1;
    if (which < 0 || (1 << n) != P || n > 5) {
        if (rank == 0)
            fprintf(stderr, "usage: mpiexec -n 2^n (n <= 5) mpi_hand bitrev|transpose|fft\n");
        MPI_Finalize();
        return 2;
    }
    B = N / P;
    int arrays = which == 2 ? 2 : 1;
    double *full[2] = { NULL, NULL };
    if (rank == 0)
        for (int k = 0; k < arrays; k++) {
            full[k] = alloc(N);
            for (long i = 0; i < N; i++)
                full[k][i] = which == 2 ? (k ? (i % 777) * 0.001 : (i % 1000) * 0.001)
                                        : (i % 1000) * 0.5;
        }
    double *x[2], *y[2];
    for (int k = 0; k < 2; k++) {
        x[k] = alloc(B);
        y[k] = alloc(B);
    }
    for (int k = 0; k < arrays; k++)
        MPI_Scatter(full[k], (int)B, MPI_DOUBLE, x[k], (int)B, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    double *sendbuf = alloc(2 * B), *recvbuf = alloc(2 * B);
    int *counts = malloc((size_t)P * sizeof *counts), *displs = malloc((size_t)P * sizeof *displs);
    for (int q = 0; q < P; q++) {
        counts[q] = (int)(B / P);
        displs[q] = (int)(q * (B / P));
    }
    for (int k = 0; k < 5; k++) {
        if (which == 0) {
            bitrev_round(x[0], y[0], sendbuf, recvbuf, counts, displs);
            bitrev_round(y[0], x[0], sendbuf, recvbuf, counts, displs);
        } else if (which == 1) {
            transpose_round(x[0], y[0], sendbuf, recvbuf, counts, displs);
            transpose_round(y[0], x[0], sendbuf, recvbuf, counts, displs);
        } else {
            fft_round(x[0], x[1], y[0], y[1], sendbuf, recvbuf, 1.0);
            fft_round(y[0], y[1], x[0], x[1], sendbuf, recvbuf, 0.5);
        }
    }
    for (int k = 0; k < arrays; k++)
        MPI_Gather(x[k], (int)B, MPI_DOUBLE, full[k], (int)B, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        double s = 0;
        for (long i = 0; i < N; i++)
            s += (which == 2 ? full[0][i] + 2 * full[1][i] : full[0][i]) * (double)(i % 7 + 1);
        printf("%.17g\n", s);
    }
    for (int k = 0; k < 2; k++) {
        free(full[k]);
        free(x[k]);
        free(y[k]);
    }
    free(sendbuf);
    free(recvbuf);
    free(counts);
    free(displs);
    MPI_Finalize();
    return 0;
}
