/*
 * hd_limits.h — every limit of Hyperdo, why it is there, and what the user
 * is told on hitting it.  No limit drops anything silently: each is
 * either an error with the diagnostic named here, or a documented
 * fallback.  docs/annotations.md ("Limits") lists them for users; CLI
 * help and the code use these names.
 */
#ifndef HYPERDO_LIMITS_H
#define HYPERDO_LIMITS_H

/* Address bits of a processor in the algebra: one uint64_t per GF(2)
 * matrix row.  Spec files beyond it: "n must be 1 .. 64". */
#define HD_MAX_DIM 64

/* Cube dimensions the set optimizer takes (Hou et al. 2001, Section 5):
 * its dynamic program keeps a table over all 2^n subsets of address
 * bits, (9 + 5m) 2^n bytes.  Beyond: "a N-cube is beyond the mapping
 * optimizer's limit of 26 dimensions" (C), "n = N is too large: the set
 * optimizer ... handles at most n = 26" (specs); --dim of analyze stops
 * there. */
#define HD_DP_MAX_DIM 26

/* Cube dimensions of a translated program: the runtime numbers
 * processors with 16 bits (hyperdo.h).  Beyond: "a N-cube: the
 * translator's tables handle 1 to 16 dimensions"; --dim of translate
 * stops there. */
#define HD_CODEGEN_MAX_DIM 16

/* The reference optimizer that tries all n! orderings (tests, benchmarks):
 * HD_ETOOBIG beyond. */
#define HD_EXHAUSTIVE_MAX_DIM 10

/* Cube dimensions up to which the omega-class mapping of a whole program
 * (hd_omega_choose_mapping, Wu 1984) tries every F in GL(n, 2): 20160
 * matrices at n = 4, 9999360 at n = 5 (seconds).  Beyond: a heuristic
 * (sampling, then a descent) that the report calls one; nothing is
 * refused. */
#define HD_OMEGA_EXACT_MAX_DIM 4
/* Beyond it, how many pseudo-random nonsingular F the heuristic tries
 * before its descent (omega_map.c says why sampling works). */
#define HD_OMEGA_SAMPLES 4096

/* The path counter that checks Theorem 1 by routing every message
 * (n 2^n channel counters): HD_ETOOBIG beyond. */
#define HD_BRUTE_MAX_DIM 20
/* The largest cube on which the cost model simulates a collective's
 * schedule packet by packet (one-port targets; docs/collectives.md): a
 * PERMUTED SEND there is two complete exchanges of 2^(2n) pieces (at n = 6
 * a 1000-doall file took 23 s to analyse, against 0.15 s without the
 * collectives; at n = 4 it takes well under a second).  Above
 * it the collective is listed unpriced, never guessed. */
#define HD_COLL_PRICE_MAX_DIM 4

/* Dimensions of an array the C reader takes.  Beyond: "an array of more
 * than 32 dimensions is not supported". */
#define HD_MAX_DIMS 32

/* Bits of the loop variable (and of an array's size) up to which the
 * analysis enumerates iterations where an index is not GF(2)-affine: to
 * check its bounds, that no two iterations write one element, where its
 * element lives, and flow dependences (2^22 iterations, 4 M table
 * entries).  Beyond: an error naming the check that cannot be made
 * ("cannot check that ... (the translator enumerates up to 2^22)"), or
 * the check moves to run time (guarded reads: hd_checked); a conflict
 * degree that would need counting (docs/layouts.md) is reported as not
 * known ("conflict": null), and the report says this limit is why. */
#define HD_ENUMERATE_MAX_BITS 22

/* Iterations of a doall over a table distribution and elements of an
 * array distributed by table(T) (Chung and Ranka 1990's meshes, any N):
 * 2^31 - 1, so that owner tables are C int arrays of at most INT_MAX
 * entries and `hyperdo map`'s meshes fit.  Beyond: "the bound ... is
 * beyond the limit of ... iterations (HD_TABLE_MAX_TRIP)". */
#define HD_TABLE_MAX_TRIP 2147483647LL

/* Inner loops of one doall body whose variable's values are known
 * (for (int k = lo; k < hi; k++) with constant bounds; hd_inner), and the
 * (iteration, values) pairs the analysis enumerates to check a reference
 * that reads them: its bounds, where its element lives, that no two
 * iterations write one element (2^24).  Beyond the first: the variable
 * is an ordinary variable of the body ("... more than 16 inner loops
 * with known bounds": its references are read whole, never refused).
 * Beyond the second: a write is an error naming the check, a read is
 * checked at run time and gathered whole. */
#define HD_MAX_INNERS 16
#define HD_INNER_ENUMERATE_MAX (1LL << 24)

/* Values of the variables of the stage loops around a doall (docs/
 * annotations.md, "Stage loops") that one reference is read for: each
 * value (each combination, for nested stage loops) is one LCC of the
 * program, with its own section in the report, its own optimum and
 * collective prices, and one member of Section 5's set (the dynamic
 * program's time and memory grow with the distinct LCCs, (9 + 5m) 2^n
 * bytes).  256 covers an FFT of any size that fits in memory (one stage
 * per bit, 64 at most) and two nested loops of 16 values; three nested
 * loops of 64 values would make 262144 LCCs.  A stage loop of more values
 * is not read per value, nor a reference whose stage loops together give
 * more: the reference stays an LCC family, priced at the worst b, and the
 * report says which limit (a note on its LCC, "stage_note" in --json). */
#define HD_STAGE_MAX_VALUES 256

/* Statements of a spec's program once its loops are unrolled, and how
 * deep loops nest ("loop K" ... "end", docs/lcc-format.md).  Beyond:
 * "the loop of line L makes more than 4096 statements", "loops nested
 * deeper than 16". */
#define HD_SPEC_MAX_STMTS 4096
#define HD_SPEC_MAX_LOOP_DEPTH 16

/* Wu 1984's programs (wu_program.c): Algorithm II (VI on the butterfly)
 * runs each vector's sequence optimizer O(limit z^2) times for z
 * versions.  Up to this dimension the inner optimizer is Algorithm I (V),
 * exact: milliseconds at n = 3, seconds a call at n = 4 (bench_wu_mapping),
 * too slow for z^2 calls; beyond, the runs heuristic (hd_wu_runs), which
 * the report names. */
#define HD_WU_PROGRAM_EXACT_MAX_DIM 3
/* Wu's `limit` (optimal sequences of each vector tried) while a program
 * has at most HD_WU_PROGRAM_WIDE_VERSIONS versions, 1 beyond (O(z)
 * inner runs then, O(limit z^2) below).  Past HD_WU_PROGRAM_MAX_VERSIONS
 * the data-mapping section is not computed and the report says why
 * (HD_ETOOBIG): on the 8-cube the section costs 1.5 s of CPU for 82
 * versions and 4 s for 242 (bench/gen_doall's files), growing about
 * linearly, so this keeps it near half a minute. */
#define HD_WU_PROGRAM_LIMIT 4
#define HD_WU_PROGRAM_WIDE_VERSIONS 16
#define HD_WU_PROGRAM_MAX_VERSIONS 2048
/* Nodes each static search of the runs heuristic may visit. */
#define HD_WU_PROGRAM_BUDGET 20000L
/* Hyperdo's descent over a C program's mappings, one per array and doall
 * (wu_program.c): rounds over every doall, and the mappings it tries in
 * each place beside the local moves (the identity, the static F and the
 * first of Algorithm II's).  A round costs O(cells x candidates) local
 * prices; the descent stops earlier when a round changes nothing. */
#define HD_WU_DESCENT_ROUNDS 8
#define HD_WU_DESCENT_CANDIDATES 62

#endif
