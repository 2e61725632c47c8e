/*
 * layout_conflicts.c — the table of docs/layouts.md, "Conflict degrees
 * measured": for an N x N matrix on N = 2^n processors, the conflict
 * degree (the most elements of one template on one processor) of rows,
 * columns, contiguous and distributed blocks, the two diagonals, and the
 * worst sqrt N x sqrt N block at any position, under cyclic, block,
 * block_cyclic(sqrt N), Lee and Aboelaze's skew, HPF's (BLOCK, BLOCK) and
 * (CYCLIC, CYCLIC) on the sqrt N x sqrt N processor grid (High
 * Performance Fortran Forum 1993) and Batcher's i XOR j (Batcher 1977, as
 * Lee and Aboelaze cite it): every one a layout a program can declare.
 *
 * Each template is a doall loop of a generated C program that gathers it
 * into a vector, read and analysed as `hyperdo analyze` does (hd_c_read,
 * hd_analyse_program); the degree is the analysis's conflict degree of
 * the template's reference.  So the table is what the tool says, not a
 * formula.  Any-position blocks: every position for N <= 64; for larger
 * N the positions (i0, j0) with i0, j0 < 2 sqrt N (the table says so).
 *
 *     layout_conflicts [N ...]        (default 16 64 256)
 *
 * Prints a Markdown table on standard output.
 */
#define _DEFAULT_SOURCE     /* mkstemps, open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis.h"
#include "frontend.h"

#ifndef HYPERDO_INCLUDE_DIR
#error "HYPERDO_INCLUDE_DIR (runtime/include) must be defined"
#endif

enum { ROW, COLUMN, SBLOCK, DBLOCK, DIAG, ANTI, ANY, NTEMPLATES };
static const char *const template_names[NTEMPLATES] = {
    "row 1", "column 2", "contiguous block 1,1", "distributed block 1,1",
    "diagonal", "anti-diagonal", "any-position block (worst)",
};
/* As distribute() spells them (block_cyclic takes B = sqrt N below). */
static const char *const layouts[] = { "cyclic", "block", "block_cyclic", "skew",
                                       "block, block", "cyclic, cyclic", "xor" };
enum { NLAYOUTS = 7 };

/* The program: one doall per template (and per any-position block). */
static char *program(int n, const char *layout, int *nany)
{
    int N = 1 << n, r = 1 << (n / 2);
    char *s = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&s, &len);
    if (!f) {
        perror("layout_conflicts");
        exit(1);
    }
    fprintf(f, "#pragma hyperdo cube(%d)\ndouble A[%d][%d], v[%d];\n", n, N, N, N);
    if (strcmp(layout, "block_cyclic") == 0)
        fprintf(f, "#pragma hyperdo distribute(A : block_cyclic(%d))\n", r);
    else
        fprintf(f, "#pragma hyperdo distribute(A : %s)\n", layout);
    fprintf(f, "int main(void)\n{\n");
    char buf[6][160];
    snprintf(buf[0], sizeof buf[0], "A[1][p]");
    snprintf(buf[1], sizeof buf[1], "A[p][2]");
    snprintf(buf[2], sizeof buf[2], "A[%d + p / %d][%d + p %% %d]", r, r, r, r);
    snprintf(buf[3], sizeof buf[3], "A[1 + p / %d * %d][1 + p %% %d * %d]", r, r, r, r);
    snprintf(buf[4], sizeof buf[4], "A[p][p]");
    snprintf(buf[5], sizeof buf[5], "A[p][%d - p]", N - 1);
    for (int t = 0; t < 6; t++) {
        fprintf(f, "#pragma hyperdo doall\n    for (int p = 0; p < %d; p++)\n"
            "        v[p] = %s;\n", N, buf[t]);
    }
    int span = N <= 64 ? N - r + 1 : 2 * r;
    *nany = 0;
    for (int i0 = 0; i0 < span; i0++)
        for (int j0 = 0; j0 < span; j0++) {
            fprintf(f, "#pragma hyperdo doall\n    for (int p = 0; p < %d; p++)\n"
                "        v[p] = A[%d + p / %d][%d + p %% %d];\n", N, i0, r, j0, r);
            (*nany)++;
        }
    fprintf(f, "    return 0;\n}\n");
    if (fclose(f) != 0) {
        perror("layout_conflicts");
        exit(1);
    }
    return s;
}

/* The conflict degree of each template under one layout. */
static void measure(int n, const char *layout, long long out[NTEMPLATES])
{
    int nany;
    char *text = program(n, layout, &nany);
    char path[] = "/tmp/layout_conflicts.XXXXXX.c";
    int fd = mkstemps(path, 2);
    if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text) || close(fd) != 0) {
        perror("layout_conflicts");
        exit(1);
    }
    free(text);
    hd_c_options opt;
    memset(&opt, 0, sizeof opt);
    opt.include_dir = HYPERDO_INCLUDE_DIR;
    hd_program prog;
    hd_diags d;
    hd_analysis results;
    hd_c_read(path, &opt, &prog, &d);
    int errors = hd_analyse_program(&prog, &d, &results);
    unlink(path);
    if (errors) {
        char *t = hd_diags_text(&d);
        fprintf(stderr, "layout_conflicts: %s on the %d-cube:\n%s", layout, n, t ? t : "");
        exit(1);
    }
    for (int t = 0; t < NTEMPLATES; t++)
        out[t] = t == ANY ? 0 : -1;
    for (int k = 0; k < prog.nloops; k++) {
        const hd_loop *l = &prog.loops[k];
        for (int j = 0; j < l->nrefs; j++) {
            if (l->refs[j].is_write)
                continue;
            long long c = hd_ref_result(&results, &l->refs[j])->conflict;
            if (k < ANY)
                out[k] = c;
            else if (c < 0 || out[ANY] < 0)
                out[ANY] = -1;
            else if (c > out[ANY])
                out[ANY] = c;
        }
    }
    hd_diags_free(&d);
    hd_analysis_free(&results);
    hd_program_free(&prog);
}

int main(int argc, char **argv)
{
    int sizes[16], nsizes = 0;
    for (int a = 1; a < argc && nsizes < 16; a++)
        sizes[nsizes++] = atoi(argv[a]);
    if (nsizes == 0) {
        sizes[0] = 16;
        sizes[1] = 64;
        sizes[2] = 256;
        nsizes = 3;
    }
    for (int z = 0; z < nsizes; z++) {
        int N = sizes[z], n = 0;
        while ((1 << n) < N)
            n++;
        if ((1 << n) != N || n % 2 != 0 || n < 2) {
            fprintf(stderr, "layout_conflicts: N must be 4, 16, 64, ... (an even power of two)\n");
            return 2;
        }
        long long c[NLAYOUTS][NTEMPLATES];
        for (int L = 0; L < NLAYOUTS; L++)
            measure(n, layouts[L], c[L]);
        printf("\nN = %d (the %d-cube)%s\n\n| template | cyclic | block | block_cyclic(%d) | skew "
               "| 2-D block | 2-D cyclic | xor |\n"
               "|---|---:|---:|---:|---:|---:|---:|---:|\n", N, n,
               N <= 64 ? "" : "; any-position blocks at i0, j0 < 2 sqrt N", 1 << (n / 2));
        for (int t = 0; t < NTEMPLATES; t++) {
            printf("| %s |", template_names[t]);
            for (int L = 0; L < NLAYOUTS; L++)
                printf(" %lld |", c[L][t]);
            printf("\n");
        }
        fflush(stdout);
    }
    return 0;
}
