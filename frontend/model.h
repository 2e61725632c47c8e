/*
 * model.h — the program model every stage after the front end reads: the
 * annotated C program (hd_program: its distributed arrays, its doall loops,
 * their references as index expressions, and the host's uses of the
 * arrays) and a set of named communications (hd_spec).  The front end
 * (frontend.h) fills them; the analysis and the code generator read them.
 * No libclang here: a later stage links this library alone.
 */
#ifndef HYPERDO_MODEL_H
#define HYPERDO_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gf2.h"

/* ------------------------------------------------------ diagnostics */

/*
 * Where every stage reports: each diagnostic is rendered at once in the
 * compilers' format and kept; hd_diags_text gives them in source order
 * (those of other files, as they came; then the input's, by offset; then
 * those about the input as a whole).  errors counts the errors reported.
 */
typedef enum { HD_WARNING, HD_ERROR } hd_severity;
/* Where a diagnostic is, which orders them. */
typedef enum { HD_IN_OTHER_FILE, HD_IN_INPUT, HD_NOWHERE } hd_place;

typedef struct {
    hd_place place;
    size_t offset;
    int seq;                /* arrival */
    char *text;             /* owned */
} hd_diag_item;

typedef struct {
    const char *path;       /* the input's name, as the user gave it */
    const char *src;        /* its text, which offsets index (or NULL) */
    size_t len;
    int nitems, cap;
    hd_diag_item *items;
    int errors;
} hd_diags;

void hd_diags_init(hd_diags *d, const char *path);
void hd_diags_set_source(hd_diags *d, const char *src, size_t len);
/* path:line:col: error|warning: message, with the line of src at offset
 * and a caret (the column counted from offset). */
__attribute__((format(printf, 5, 6)))
void hd_report(hd_diags *d, hd_severity sev, size_t offset, int line, const char *fmt, ...);
/* "hyperdo: error: message", about the input as a whole. */
__attribute__((format(printf, 2, 3)))
void hd_report_input(hd_diags *d, const char *fmt, ...);
/* "path: error: message", about the file as a whole. */
__attribute__((format(printf, 2, 3)))
void hd_report_file(hd_diags *d, const char *fmt, ...);
/* Text another tool formatted (clang), then the line of src at `at` with a
 * caret under col (none without src); at `offset` when in the input. */
void hd_report_formatted(hd_diags *d, hd_place place, size_t offset, bool is_error,
                         const char *text, const char *src, size_t len, size_t at, int col);
/* Everything reported, in source order (malloc'ed; NULL: nothing). */
char *hd_diags_text(hd_diags *d);
void hd_diags_free(hd_diags *d);

/* Limits of the model; the front end refuses, with a message, what goes
 * beyond them. */

typedef struct {
    char *name;   /* owned by the hd_spec */
    int line;     /* of its lcc directive, 1-based; of the reference in C */
    hd_comm comm; /* an LCC (comm.lcc->A.n == the spec's n) or, from C
                   * only, a general communication with its reason */
    /* Filled by the C reader only (array == NULL for specs): */
    char *array;      /* the array read */
    int col;          /* of the reference */
    int loop_line;    /* of the doall's for keyword */
    long long conflict;   /* its conflict degree (docs/layouts.md); -1
                           * when not known when translating */
    long long bytes;      /* what one processor's iterations read by it:
                           * 2^(k - n) elements (one at least); 0 for specs */
    bool all_to_all;      /* general, but a complete exchange (analysis.h) */
    bool same_data;       /* every reader of a sender gets the same
                           * elements from it (analysis.h) */
    long long pair_bytes; /* what one sender sends one reader; 0: not known */
    int ref;              /* the reference's hd_ref.id; -1 for specs */
    /* One stage of an LCC family read per value of the variables of the
     * loops around its doall (hd_stage_loop): their names and values (all
     * owned; nstage_vars 0 otherwise), and the line of the innermost. */
    int nstage_vars;
    char **stage_vars;
    long long *stage_values;
    int stage_line;
    /* What the reading per value found, said once for the reference (on
     * its first entry): the values left out, or why a family is not read
     * per value (owned, or NULL). */
    char *stage_note;
    bool stage_inner;     /* the variables are those of inner loops of the
                           * doall's body (analysis/inner_refs.c): the node
                           * code reads the array from a whole copy */
} hd_named_lcc;

/* A node of a statement's expression tree (Wu 1984, Section 1.2, Figure
 * 1.3): a leaf reads a vector through a logical transfer, an internal node
 * is a binary operation on its two children's values. */
typedef struct {
    char op;          /* '+', '-', '*' or '/'; 0 for a leaf */
    int left, right;  /* internal: indices of the children in the statement */
    int vector;       /* leaf: index in hd_spec.vectors */
    int lcc;          /* leaf: its transfer, index in hd_spec.lccs; -1: none */
} hd_spec_node;

/* `stmt LHS = EXPR`: nodes in postorder (Wu's numbering, Section 4.2), so
 * the root is the last. */
typedef struct {
    int line;
    int lhs;          /* index in hd_spec.vectors */
    int nnodes;
    hd_spec_node *nodes;
} hd_spec_stmt;

/* The LCCs of one input, in input order.  A spec read from a file owns
 * everything it points to; one built from a C program (hd_program_spec)
 * points to the analysis's LCCs and reasons instead of copying them, and
 * must not outlive that analysis. */
typedef struct {
    int n;           /* hypercube dimension */
    int n_line;      /* line of the `n` directive */
    int m;           /* number of LCCs, >= 1 after a successful read */
    hd_named_lcc *lccs;
    hd_arena store;  /* a file's LCCs, which comm.lcc points to */
    /* From C only: the distributed arrays and their layouts. */
    int narrays;
    struct hd_spec_array *arrays;
    /* From a spec only, a program in Wu 1984's terms: its vectors and
     * statements, in input order (docs/lcc-format.md, "Programs"). */
    int nvectors;
    char **vectors;
    int *vector_lines;
    int nstmts;
    hd_spec_stmt *stmts;
} hd_spec;

/* Status of the readers. */
enum {
    HD_SPEC_OK = 0,
    HD_SPEC_ESYNTAX = 1,   /* the input is malformed: err has the line */
    HD_SPEC_EIO = 2,       /* reading failed: err->line is 0 */
    HD_SPEC_ENOMEM = 3,    /* out of memory: err->line is 0 */
};

/* Frees what a successful read put in *spec and empties it. */
void hd_spec_free(hd_spec *spec);

/* ------------------------------------------------------------------ C */

/*
 * Index expressions.  The C reader turns every array subscript of a doall
 * body into this small tree, which the analysis reads as a GF(2)-affine map
 * of the loop variable's bits (hd_expr_affine) and, when it is not one,
 * still evaluates for a given iteration (hd_expr_eval).  Values are C
 * integers of `bits` bits, held in 64 bits sign- or zero-extended.
 */
typedef enum {
    HD_EX_CONST,    /* value */
    HD_EX_INDEX,    /* the doall loop variable */
    HD_EX_UNARY,    /* op kid[0] */
    HD_EX_BINARY,   /* kid[0] op kid[1] */
    HD_EX_COND,     /* kid[0] ? kid[1] : kid[2] */
    HD_EX_CALL,     /* a helper of hyperdo/bits.h applied to kid[0..nkids) */
    HD_EX_CAST,     /* kid[0] converted to this node's type */
    HD_EX_OPAQUE,   /* unknown at compile time; reason says why */
} hd_expr_kind;

typedef enum {
    HD_OP_ADD, HD_OP_SUB, HD_OP_MUL, HD_OP_DIV, HD_OP_MOD,
    HD_OP_SHL, HD_OP_SHR, HD_OP_AND, HD_OP_OR, HD_OP_XOR,
    HD_OP_LT, HD_OP_GT, HD_OP_LE, HD_OP_GE, HD_OP_EQ, HD_OP_NE,
    HD_OP_LAND, HD_OP_LOR,
    HD_OP_NEG, HD_OP_PLUS, HD_OP_NOT /* ~ */, HD_OP_LNOT /* ! */,
} hd_op;

/* The helpers of hyperdo/bits.h, each also a plain C function there. */
typedef enum {
    HD_HELPER_REVERSE,    /* reverse(i, n): bits 0..n-1 of i reversed */
    HD_HELPER_GRAY,       /* gray(i) = i ^ (i >> 1) */
    HD_HELPER_ROTL,       /* rotl(i, r, n): rotate the low n bits left by r */
    HD_HELPER_ROTR,       /* rotr(i, r, n) */
    HD_HELPER_SHUFFLE,    /* shuffle(i, n) = rotl(i, 1, n) */
    HD_HELPER_UNSHUFFLE,  /* unshuffle(i, n) = rotr(i, 1, n) */
    HD_HELPER_TRANSPOSE,  /* transpose(i, n): swap the halves of n bits */
    HD_HELPER_BIT,        /* bit(i, k) = (i >> k) & 1 */
} hd_helper;

typedef struct hd_expr {
    hd_expr_kind kind;
    int bits;              /* width of the C type, 1..64 */
    bool is_signed;
    hd_op op;              /* UNARY, BINARY */
    hd_helper helper;      /* CALL */
    uint64_t value;        /* CONST, already extended */
    int nkids;
    struct hd_expr *kid[3];
    char *reason;          /* OPAQUE; owned */
    bool invariant;        /* OPAQUE: the same at every iteration (an outer
                            * variable, which the body cannot change) */
    bool body_local;       /* OPAQUE: a variable of the loop body, which has
                            * a value only while the body runs */
    int var;               /* OPAQUE: 1 + the inner loop variable it is
                            * (hd_loop.inners), whose values are known
                            * (hd_expr_eval_vars); 0 for anything else */
    unsigned decl;         /* OPAQUE, invariant, an outer variable named
                            * directly: 1 + the offset of its declaration in
                            * the input, which tells it from another of the
                            * same name (hd_stage_loop.decl); 0 otherwise */
} hd_expr;

hd_expr *hd_expr_new(hd_expr_kind kind, int bits, bool is_signed);
void hd_expr_free(hd_expr *e);
/* The helper named `name`, or -1. */
int hd_helper_lookup(const char *name, int *nargs);
/* The map from the k bits of the loop variable to the value's bits; false,
 * with a reason for people in `why`, when it is not GF(2)-affine. */
bool hd_expr_affine(const hd_expr *e, int k, hd_affine *out, char *why,
                    size_t why_size);
/* The same where outer variables may enter: e is A i + b for every value
 * of its invariant unknowns, A in out's rows, b's known bits in out->c
 * and the bits of b that depend on the unknowns in *unknown (out->c is 0
 * there).  b is then e's value at i = 0, computed at run time: an LCC
 * family (A[I][j], x[i ^ mask]).  With *unknown 0 it is hd_expr_affine's
 * map. */
bool hd_expr_affine_family(const hd_expr *e, int k, hd_affine *out,
                           uint64_t *unknown, char *why, size_t why_size);
/* Is e one-to-one on the 2^k values of the loop variable whatever the
 * values of its invariant unknowns (i ^ s, (i + s) & 1023, ~(i - s) with s
 * an outer variable)? */
bool hd_expr_injective(const hd_expr *e, int k);
/* Is e a function of the loop variable alone, its unknowns all invariant
 * (outer variables), so that the same text means the same value
 * everywhere in one iteration's body? */
bool hd_expr_determined(const hd_expr *e);
/* The same tree: operations, types and constants, and unknowns with the
 * same reason (an outer variable's names it: one name in a loop body is
 * one variable, as a variable of the body is never invariant). */
bool hd_expr_equal(const hd_expr *a, const hd_expr *b);
/* The value at iteration i; false (why says which operation) when it cannot
 * be known at compile time or is undefined in C. */
bool hd_expr_eval(const hd_expr *e, uint64_t i, uint64_t *value, char *why,
                  size_t why_size);
/* The same with the inner loop variables at vars[0 .. ninners) (an inner
 * variable v is vars[v - 1]); vars NULL: as hd_expr_eval. */
bool hd_expr_eval_vars(const hd_expr *e, uint64_t i, const int64_t *vars, uint64_t *value,
                       char *why, size_t why_size);
/* Does e read an inner loop variable (an OPAQUE with var > 0)? */
bool hd_expr_uses_vars(const hd_expr *e);
/* A node like e (its kind, type, operator, helper, value, unknown's
 * marks and reason), without kids. */
hd_expr *hd_expr_copy_node(const hd_expr *e);
/* A copy of e with each inner loop variable v replaced by the constant
 * vals[v - 1]. */
hd_expr *hd_expr_bind_vars(const hd_expr *e, const int64_t *vals);
/* The same at iterations base .. base + n - 1, n <= HD_EVAL_BLOCK: ok[j] and
 * value[j] as hd_expr_eval gives them for base + j, without the reasons;
 * one pass over the tree for all of them. */
#define HD_EVAL_BLOCK 64   /* small: a level of the tree keeps 2 KiB of stack */
void hd_expr_eval_block(const hd_expr *e, uint64_t base, int n,
                        uint64_t *value, bool *ok);

/* How a distributed array's elements are spread over the 2^n processors:
 * for the bit fields, element e lives on the processor given by bits
 * shift .. shift+n-1 of e; the skews, the 2-D distributions and xor are
 * GF(2)-linear owners that are no bit field (hd_layout). */
typedef enum {
    HD_DIST_NONE,          /* replicated: every processor has all of it */
    HD_DIST_EXACT,         /* 2^n elements: element e on processor e */
    HD_DIST_CYCLIC,        /* the low n bits */
    HD_DIST_BLOCK,         /* the high n bits */
    HD_DIST_BLOCK_CYCLIC,  /* bits log2(B) .. log2(B)+n-1 */
    HD_DIST_SKEW,          /* 2^(2n) elements e = iN + j, n even: A(i, j) at
                            * offset i of processor xi(i) XOR j, xi swapping
                            * the halves of i's n bits (Lee and Aboelaze,
                            * Section 3) */
    HD_DIST_SKEW_ROT,      /* the same with xi(i) = rotl(i, floor(n/2), n),
                            * for any n: Hyperdo's extension, not the
                            * paper's (equal to SKEW for even n) */
    HD_DIST_BLOCK_2D,      /* T A[R][C], R and C powers of two, on a
                            * 2^ceil(n/2) x 2^floor(n/2) processor grid
                            * (hd_grid_rows_log2): A(i, j) on processor
                            * pi Pc + pj, pi = i / (R/Pr), pj = j / (C/Pc),
                            * at li (C/Pc) + lj, the remainders: HPF's
                            * (BLOCK, BLOCK) (High Performance Fortran
                            * Forum 1993) */
    HD_DIST_CYCLIC_2D,     /* the same grid, pi = i mod Pr, pj = j mod Pc,
                            * li = i / Pr, lj = j / Pc: HPF's
                            * (CYCLIC, CYCLIC) */
    HD_DIST_XOR,           /* 2^(2n) elements e = iN + j, any n: A(i, j) at
                            * offset i of processor i XOR j, Batcher's
                            * storage (Batcher 1977, as Lee and Aboelaze
                            * cite it: rows and columns conflict-free,
                            * blocks not) */
    HD_DIST_TABLE,         /* any number N of elements (1-D, or flattened):
                            * element e on virtual processor owner[e], a
                            * table the program gives (a mapping of a
                            * finite element graph, Chung and Ranka 1990;
                            * docs/meshes.md), at its rank among that
                            * processor's elements.  No GF(2) layout: its
                            * references are data-driven (hd_owner_table) */
} hd_dist_kind;

/* The owner table of '#pragma hyperdo distribute(x : table(T))': T is a
 * file-scope `const int T[N]` of the program, which every processor has
 * (its values are the program's, read at run time), or a mapping file in
 * METIS's partition format (one processor per line, as `hyperdo map -o`
 * writes it), read when translating and written into the program. */
typedef struct {
    char *name;             /* T as written, or the file's name as written;
                             * a spread's distribution ("block") */
    bool from_file;
    char *path;             /* from_file: the file as opened (relative to the
                             * input's directory) */
    int64_t size;           /* N (0 while extent says it at run time) */
    int *owner;             /* from_file: N owners, each < 2^n; else NULL */
    int line;               /* of the first pragma naming it */
    /* A spread: the owners are computed, not given.  HPF's BLOCK and
     * CYCLIC of arrays whose extent is no power of two (High Performance
     * Fortran Forum 1993), ScaLAPACK's block-cyclic: element e on
     * processor (e / b) mod 2^n, at its rank among that processor's
     * elements, which is no GF(2)-affine map of e, so such arrays take
     * the table's way (docs/annotations.md, "Arrays of any extent"). */
    hd_dist_kind spread;    /* HD_DIST_BLOCK, HD_DIST_CYCLIC or
                             * HD_DIST_BLOCK_CYCLIC; HD_DIST_NONE for a
                             * table of given owners */
    int64_t block;          /* b as the runtime's hd_table_desc takes it: 0
                             * for block (ceil(N / 2^n)), 1 for cyclic, B */
    char *extent;           /* N known only at run time (the elements of a
                             * pointer, distribute(...) extent(E)): E as C,
                             * evaluated before each doall that uses the
                             * arrays (hd_bind); NULL: N is size */
    unsigned scope;         /* extent: where the function whose variables E
                             * names starts (0: file scope) */
} hd_owner_table;

/* b of a spread on the n-cube when its size is known: B, 1, or
 * ceil(N / 2^n) (at least 1). */
int64_t hd_spread_block(const hd_owner_table *t, int n);

/* The processor grid of the 2-D distributions on the n-cube: 2^r rows
 * and 2^(n - r) columns, r = ceil(n/2), the rows taking the larger half
 * (for odd n a grid is no square; either choice is a convention). */
int hd_grid_rows_log2(int n);

typedef struct {
    char *name;
    int line, col;          /* of its declaration */
    int ndims;
    int64_t extent[HD_MAX_DIMS];
    int log2_size;          /* all extents are powers of two */
    hd_dist_kind dist;
    bool dist_refused;      /* its distribute pragma was an error (said):
                             * no follow-on error for it */
    int block_log2;         /* BLOCK_CYCLIC: log2(B) */
    int shift;              /* owner = bits shift .. shift+n-1 (bit fields);
                             * -1 under the others (skews, 2-D, xor) */
    /* For the code generator (hd_c_options.host_code only): */
    char *elem_type;        /* the innermost element type, as written,
                             * without qualifiers ("double", "real_t") */
    bool elem_local_type;   /* it names a type declared inside a function */
    long long elem_size;    /* its size in bytes */
    bool is_global;         /* declared at file scope (always set) */
    bool external;          /* at file scope without static: in a program of
                             * several files, the same array in every file
                             * that declares it (files.c) */
    unsigned decl_end;      /* local arrays: just after the declaration */
    unsigned static_end;    /* static local arrays: the same */
    bool is_const;          /* const elements: never written, so replicated */
    bool host_escapes;      /* sequential code uses it other than as x[...]
                             * or next to a call that may run a doall */
    bool has_init;          /* its declaration has an initializer */
    int64_t size;           /* its number of elements (any, not only 2^m;
                             * 0 for a pointer's, known at run time) */
    int table;              /* HD_DIST_TABLE: in hd_program.tables; else -1 */
    bool pointer;           /* a pointer to the elements (a parameter, or a
                             * variable set from malloc), distributed with
                             * its extent (distribute(...) extent(E)): its
                             * elements are the host's, sent before and
                             * brought back after every doall that uses it
                             * (docs/annotations.md, "Pointers and the heap") */
} hd_array;

/* Where a distributed array's elements live, as GF(2)-linear maps of the
 * element index's bits: element e is on processor owner(e) (n bits) at
 * local offset offset(e) (log2_size - n bits); together they are one-to-
 * one.  Cyclic, block and block_cyclic are the instances whose owner is
 * bits shift .. shift+n-1 of e and whose offset is the other bits in
 * order; Lee and Aboelaze's templates give owners such as xi(i) XOR j.
 * Analysis composes these maps with a reference's index map; codegen
 * writes them (hd_owner / hd_local_offset while shift >= 0). */
typedef struct {
    int bits;               /* log2_size */
    int n;
    int shift;              /* the owner is bits shift .. shift+n-1, or -1 */
    hd_affine owner;        /* bits -> n */
    hd_affine offset;       /* bits -> bits - n */
} hd_layout;

/* A distributed array of a C program and its layout (hd_spec.arrays). */
typedef struct hd_spec_array {
    char *name;
    hd_dist_kind dist;
    hd_layout layout;
} hd_spec_array;

/* Gives array a the distribution `dist` on the 2^n processors (block_log2:
 * log2 B of block_cyclic(B)): the fields hd_array_layout reads.  The
 * front end calls it once its checks pass; the layout advisor for each
 * layout it tries. */
void hd_array_set_dist(hd_array *a, int n, hd_dist_kind dist, int block_log2);

/* "exact", "cyclic", "block", "block_cyclic", "skew", "skew_rot",
 * "block, block", "cyclic, cyclic", "xor" (the pragma's words;
 * "replicated" for HD_DIST_NONE). */
const char *hd_dist_name(hd_dist_kind k);

/* The layout of distributed array a over 2^n processors (a->dist is not
 * HD_DIST_NONE and a->log2_size >= n; under the 2-D distributions a is
 * 2-D with extents at least the grid's, hd_grid_rows_log2). */
hd_layout hd_array_layout(const hd_array *a, int n);
uint64_t hd_layout_owner(const hd_layout *l, uint64_t e);
uint64_t hd_layout_offset(const hd_layout *l, uint64_t e);

/* A condition under which part of a doall body is evaluated: C evaluates
 * the middle operand of c ? a : b only when c is nonzero, the last only
 * when it is zero, the right operand of x && y only when x is nonzero and
 * that of x || y only when x is zero.  A read inside such a part is
 * guarded: it happens at an iteration only if every guard of its chain
 * holds there (docs/annotations.md, "Guarded reads"). */
typedef struct {
    unsigned begin, end;    /* the condition's text (c, or x) */
    int line, col;
    bool when;              /* the part runs when the condition is nonzero */
    int parent;             /* the guard of the part the condition is in, or -1 */
    hd_expr *cond;          /* the condition, as an integer expression
                             * (opaque where it is not known when
                             * translating) */
    bool uses_locals;       /* it reads a variable declared in the body */
    bool uses_plain;        /* ... one that is not an inner loop variable
                             * with known values (hd_inner) */
    bool unevaluated;       /* the operand of sizeof or _Alignof, which C
                             * never evaluates: cond is 0, the text empty */
    char *text;             /* a condition the file does not spell (a doall's
                             * range, lo <= i && i < hi): written as it is,
                             * in place of [begin, end); owned */
} hd_guard;

/* Whether C evaluates what guard g (of loop l) guards at iteration i. */
typedef enum { HD_GUARD_NO, HD_GUARD_YES, HD_GUARD_MAYBE } hd_guard_truth;

/* One subscript of a reference: a[s0][s1] has two. */
typedef struct {
    unsigned begin, end;    /* byte offsets of its text (code generator) */
    const hd_expr *expr;    /* inside hd_ref.index */
} hd_ref_sub;

typedef struct {
    int array;              /* index in hd_program.arrays */
    bool is_write;
    int line, col;
    unsigned begin, end;    /* byte offsets of the reference in the file */
    bool in_macro;          /* written by a macro: no text of its own */
    bool partial;           /* a write of one member: q[i].x = ... */
    char *text;             /* its spelling */
    hd_expr *index;         /* the flattened subscript */
    int nsubs;
    hd_ref_sub *subs;       /* nsubs of them, outermost first; owned */
    int id;                 /* its number among the program's references
                             * (0, 1, ... in source order), which indexes
                             * the analysis's results (hd_analysis) */
    int guard;              /* its innermost guard in hd_loop.guards, or -1 */
    bool check_at_run_time; /* its subscripts could not all be checked when
                             * translating: the node code checks them */
    bool uses_vars;         /* its index reads inner loop variables */
    bool index_local;       /* its subscripts read a variable of the body
                             * (known only while the body runs) */
    bool index_plain;       /* ... one that is not an inner loop variable
                             * with known values (hd_inner) */
    bool in_jump_loop;      /* it is inside a loop of the body that a break
                             * or continue may leave early: C may not reach
                             * it although its guards hold */
    hd_expr *home_index;    /* the home (hd_loop.home) when uses_vars: its
                             * index at the inner variables' first values,
                             * whose owner is the iteration's (the analysis
                             * checks every value gives the same); owned */
} hd_ref;

/* A sequential loop inside a doall body, `for (int k = lo; k < hi; k++)`
 * with constant bounds whose body does not change k: k takes the values
 * lo .. hi - 1 (or fewer, after a break), and an index that reads it is
 * analysed for each of them (docs/annotations.md, "Statements"). */
typedef struct {
    char *name;
    char *type;             /* its type, as written, without qualifiers */
    int64_t lo, hi;
    int line, col;          /* of its for keyword */
} hd_inner;

/* The header of any loop inside a doall body: what its bounds read (the
 * program arrays whose elements decide how often it runs, directly or
 * through variables of the body).  The analysis refuses those that are
 * distributed. */
typedef struct {
    int line, col;          /* of its condition */
    unsigned begin;
    int narrays;
    int *arrays;            /* in hd_program.arrays; owned */
    char *what;             /* the text of the first reference, or of the
                             * variable, that brings the first array in */
} hd_inner_header;

/* A variable declared outside a doall and read in its body (a scalar:
 * arrays read are references).  The code generator ships its value. */
typedef struct {
    char *name;
    char *type;             /* as written, without qualifiers */
    bool is_value;          /* not a pointer, array or function: copyable */
    bool local_type;        /* its type names a typedef, struct, union or
                             * enum declared inside a function, which the
                             * node code (at file scope) cannot name */
    int line, col;          /* of its first use in the body */
} hd_outer;

/* A reduction of a doall (docs/annotations.md, "Reductions"): an outer
 * scalar that the body only combines values into, `s op= e` (or named in
 * `reduction(op: s)`).  Each processor combines its iterations' values
 * into a private copy that starts at op's identity, the copies are
 * combined over all processors by a collective (Stout and Wagar 1990),
 * and the host sets s = s op (that value). */
typedef enum {
    HD_RED_SUM, HD_RED_PROD, HD_RED_MIN, HD_RED_MAX,
    HD_RED_BAND, HD_RED_BOR, HD_RED_BXOR,
} hd_red_op;

/* Its element type, in the order of the runtime's hd_coll_type
 * (runtime/include/hyperdo/coll.h): integers by width and signedness,
 * the three floating types and their _Complex types. */
typedef enum {
    HD_RED_INT8, HD_RED_INT16, HD_RED_INT32, HD_RED_INT64,
    HD_RED_UINT8, HD_RED_UINT16, HD_RED_UINT32, HD_RED_UINT64,
    HD_RED_FLOAT, HD_RED_DOUBLE, HD_RED_LDOUBLE,
    HD_RED_CFLOAT, HD_RED_CDOUBLE, HD_RED_CLDOUBLE,
} hd_red_type;

typedef struct {
    char *name;
    char *type;             /* as written, without qualifiers (an array's:
                             * its elements') */
    bool local_type;        /* declared inside a function (as hd_outer's) */
    int array;              /* -1 for a scalar; for a reduction into the
                             * elements of a distributed array (h[e] += x,
                             * Stout and Wagar 1990's HISTOGRAM), the array
                             * in hd_program.arrays */
    hd_red_type kind;
    hd_red_op op;
    bool clause;            /* named in a reduction(op: ...) clause */
    int nstmts;             /* the body's statements that combine into it */
    int line, col;          /* of the first of them */
} hd_reduction;

/* Where a doall body names an element of an array it reduces into: the
 * target of `h[e] op= x`, and h[e] again in `h[e] = h[e] op x`.  The
 * code generator writes each as the element of the processor's private
 * copy of the whole array, its subscript checked at run time. */
typedef struct {
    int red;                /* in hd_loop.reds */
    unsigned begin, end;    /* h[e] */
    unsigned sub_begin, sub_end;   /* e */
    bool in_macro;          /* written by a macro: no text of its own */
    int line, col;
} hd_red_site;

/* The operator's spelling in the clause ("+", "min", ...) and its name in
 * the runtime (HD_OP_SUM, ...); the type's (HD_T_INT32, ...). */
const char *hd_red_op_text(hd_red_op op);
const char *hd_red_op_coll(hd_red_op op);
const char *hd_red_type_coll(hd_red_type t);
bool hd_red_type_integer(hd_red_type t);
bool hd_red_type_complex(hd_red_type t);

/*
 * A sequential `for` loop around a doall whose variable the doall's
 * indices read (docs/annotations.md, "Stage loops"): `for (s = 0; s <
 * LOGN; s++)` around a doall reading x[i ^ (1 << s)].  When its bounds
 * and step are constant and nothing but its step changes the variable,
 * the variable's values are known when translating, and a reference
 * whose index depends on it (an LCC family, docs/layouts.md) is analysed
 * once per value: each stage its own LCC (frontend/stages.c finds them,
 * analysis/stages.c reads the references).
 */
typedef struct {
    char *var;              /* its variable */
    unsigned decl;          /* 1 + the offset of the variable's declaration
                             * (as hd_expr.decl) */
    int line, col;          /* of its for keyword */
    int nvalues;            /* the values the variable takes, in order */
    long long *values;      /* (owned); none when refused */
    char *refused;          /* why its values are not read one by one
                             * (owned), or NULL */
} hd_stage_loop;

/* A variable whose value at a doall is a function of the variables of its
 * stage loops, so that it is known at each stage too: a local declared
 * with an initializer that reads only constants, stage variables and
 * other such variables, and never changed (`int half = 1 << s;` in the
 * stage loop's body; docs/annotations.md, "Stage loops"). */
typedef struct {
    char *var;
    unsigned decl;          /* as hd_expr.decl */
    int line;               /* of its declaration */
    hd_expr *value;         /* its initializer, converted to its type
                             * (owned); NULL when refused */
    char *refused;          /* why it is not one (owned), or NULL */
} hd_stage_value;

typedef struct {
    int line, col;          /* of the for keyword */
    int pragma_line;
    char *var;              /* the loop variable */
    char *var_type;         /* its type, as written, without qualifiers */
    bool var_outside;       /* declared before the loop, not in it */
    unsigned pragma_begin;  /* offset of the '#' of its pragma line */
    unsigned body_begin, body_end; /* the body statement's text */
    bool body_is_block;     /* a { } compound */
    unsigned stmt_end;      /* just after the whole for statement (its ';') */
    unsigned func_begin;    /* where the enclosing function definition starts */
    int func_line;          /* and its line */
    int nouters;
    hd_outer *outers;
    int nstages;            /* the loops around it whose variables its */
    hd_stage_loop *stages;  /* indices read, outermost first */
    int nderived;           /* the other variables its indices read that */
    hd_stage_value *derived; /* are functions of those, or why not */
    int k;                  /* 2^k iterations, or for a loop over a table
                             * distribution (on_table) the least k with
                             * 2^k >= trip */
    int64_t trip;           /* its number of iterations: 2^k, or any on_table */
    bool on_table;          /* it writes arrays distributed by a table: its
                             * iterations run on the table's owners and its
                             * reads are gathered by an inspector/executor
                             * (docs/meshes.md, "Programs over meshes") */
    unsigned begin, end;    /* byte offsets of the for statement */
    int nrefs;
    hd_ref *refs;           /* in source order */
    int home;               /* the write whose owner runs an iteration */
    int nguards;
    hd_guard *guards;       /* a guard's parent comes before it */
    int nreds;
    hd_reduction *reds;     /* its reductions, in the order first met */
    int nsites;
    hd_red_site *sites;     /* the elements its array reductions name */
    int ninners;
    hd_inner *inners;       /* its inner loops with known variables */
    int nheaders;
    hd_inner_header *headers; /* every loop inside its body */
    int range_guard;        /* a loop not over exactly 0 .. 2^k - 1 (for (i =
                             * lo; i < hi; i++)): the guard lo <= i && i < hi,
                             * the parent of every other, in guards; or -1 */
    bool range_checked;     /* its bounds are known only at run time: the node
                             * code checks lo .. hi - 1 lies in 0 .. 2^k - 1 */
    char *lo_text, *hi_text; /* lo and hi as C (range_guard >= 0) */
    int nprotos;            /* declarations of the pure functions its body */
    char **protos;          /* calls that the node code, written before its
                             * function, would not see: "static inline
                             * double sq(double x);" (hd_c_options.host_code) */
} hd_loop;

/* The iterations doall l runs, lo .. hi - 1: each a constant where
 * *lo_known (*hi_known), or else known at run time (l->lo_text,
 * l->hi_text say it in C).  A loop without a range guard runs 0 .. trip
 * - 1 (trip 0: unknown).  A loop over a table or a spread runs its
 * owners' elements in that range (docs/annotations.md, "Arrays of any
 * extent"). */
void hd_loop_range(const hd_loop *l, int64_t *lo, bool *lo_known, int64_t *hi, bool *hi_known);

/* HD_GUARD_NO when some guard of the chain from g is known false at
 * iteration i, HD_GUARD_YES when all are known true (and for g = -1),
 * HD_GUARD_MAYBE otherwise. */
hd_guard_truth hd_guard_at(const hd_loop *l, int g, uint64_t i);

/* A statement outside the doall loops that uses distributed arrays: the
 * host needs their current elements there (hd_c_options.host_code). */
typedef struct {
    unsigned begin, end;    /* its text, end just after a final ';' */
    int line;
    bool wrap;              /* not directly in a { } block: wrap it */
    int narrays;
    int *arrays;            /* indices in hd_program.arrays */
} hd_host_use;

/*
 * A data mapping (Wu 1984, Section 1.2: the data mapping function F_v of a
 * vector v, a bijection from logical to physical memories), as
 * '#pragma hyperdo map(a : F)' gives it: element e of the array lives on
 * virtual processor F(owner(e)) = A owner(e) + c, owner(e) its layout's
 * owner, at the same local offset.  F is an element of AGL(n, 2): row t
 * of F.row is row t of A (bit j is a_tj, Hyperdo's row convention), F.c
 * is c.  At file scope it holds from the start; before a doall, from that
 * doall on in its function (hd_map_at).
 */
typedef struct {
    int array;              /* in hd_program.arrays */
    hd_affine F;            /* n bits -> n bits, A nonsingular */
    int line;               /* of the pragma */
    bool file_scope;
    unsigned from;          /* not file_scope: the line of the doall pragma
                             * (hd_loop.pragma_begin) it holds from, */
    unsigned func_begin;    /* in the function that starts here */
    unsigned offset;        /* of the array's name in the pragma */
    bool chosen;            /* chosen by the translator (translate --maps
                             * wu), not written in the program */
} hd_data_map;

/* The words of '#pragma hyperdo network(...)' and of --network, in the
 * order of the analysis's target kinds (hd_target_parse reads them). */
extern const char *const hd_network_words[3];   /* ecube, omega, butterfly */

typedef struct {
    char *path;
    int n;                  /* the cube's dimension */
    const char *network;    /* '#pragma hyperdo network(w)': w, one of
                             * hd_network_words; NULL without one */
    int network_line;
    int narrays;
    hd_array *arrays;
    int nloops;
    hd_loop *loops;
    /* With hd_c_options.host_code: */
    int nuses;
    hd_host_use *uses;
    bool has_main;          /* a definition of main */
    unsigned main_name;     /* offset of its name */
    int nmain_refs;         /* other places that name main: calls, its */
    unsigned *main_refs;    /* address, declarations (offsets of "main") */
    int main_params;        /* 0 (void) or 2 (argc, argv) */
    unsigned first_function; /* offset where the first function definition
                              * of the file starts, and its line */
    int first_function_line;
    int nmaps;              /* '#pragma hyperdo map', one entry per array */
    hd_data_map *maps;      /* named, in source order (checked: n rows,
                             * nonsingular, a distributed array) */
    int npragmas;           /* the '#' of each cube, distribute and map pragma */
    unsigned *pragmas;
    char *source;           /* the bytes clang parsed, NUL-terminated, */
    size_t source_len;      /* which every offset above indexes */
    int ntables;            /* the owner tables of distribute(... : table(T)) */
    hd_owner_table *tables;
    int nincludes;          /* every file the program includes, for -MD */
    char **includes;
} hd_program;

void hd_program_free(hd_program *p);

/* Is program array arr spread over the processors (distributed, with at
 * least one element per processor), so that it has a layout? */
bool hd_array_distributed(const hd_program *p, int arr);

/* The mapping doall l runs array arr under: the last map pragma of arr
 * at or before l in l's function, else arr's file-scope one; NULL when
 * there is none (the identity).  Which pragma is found depends on the
 * text alone, not on the path control takes: the host makes sure of the
 * array's mapping before each doall (docs/annotations.md). */
const hd_data_map *hd_map_at(const hd_program *p, const hd_loop *l, int arr);
/* Array arr under F from doall l on, as a map pragma right before l
 * would put it, marked chosen (the translator's, not the program's). */
void hd_program_add_map(hd_program *p, int arr, const hd_loop *l, const hd_affine *F);
/* arr's file-scope mapping, or NULL (the identity). */
const hd_data_map *hd_map_initial(const hd_program *p, int arr);
/* Is F (on n bits) the identity, with no complement? */
bool hd_map_is_identity(const hd_affine *F, int n);
/* F as the map pragma writes it (NULL: the identity): "identity" or
 * "rows(r_0, ..., r_{n-1})", then " xor(c)" for a complement; into buf,
 * which HD_MAP_TEXT_MAX bytes always hold. */
#define HD_MAP_TEXT_MAX 1536
void hd_map_text(const hd_affine *F, int n, char *buf, size_t size);
/* Layout l under F: owner F(owner(e)), the same offsets.  l itself when F
 * is NULL or the identity (a bit field stays one); otherwise a layout
 * whose owner is no bit field (shift -1). */
hd_layout hd_layout_mapped(const hd_layout *l, const hd_affine *F);
/* Array arr's layout at doall l: its distribution's under hd_map_at. */
hd_layout hd_loop_layout(const hd_program *p, const hd_loop *l, int arr);
/* Does doall l read (or, is_write, write) program array arr?  A reduction
 * into arr's elements does both. */
bool hd_loop_uses(const hd_loop *l, int arr, bool is_write);
/* What one loop owns (hd_program_free calls it for each). */
void hd_loop_free(hd_loop *l);

/* x and y (of one loop) name the same element index at every iteration:
 * equal subscripts (hd_expr_equal) of arrays whose rows are alike, each
 * a function of the loop variable and outer variables only (an outer
 * variable leaves the value unknown when translating, but the same in
 * both). */
bool hd_ref_same_index(const hd_program *p, const hd_ref *x, const hd_ref *y);

/* ------------------------------------------- meshes and their graphs */

/* A finite element mesh (Chung and Ranka 1990, Section 2.2): elements,
 * each a list of node numbers.  mesh.c. */
typedef enum {
    HD_ELEM_TRIANGLE,   /* 3 nodes */
    HD_ELEM_QUAD,       /* 4, in order around the element */
    HD_ELEM_TETRA,      /* 4 */
    HD_ELEM_HEXA,       /* 8: Gmsh's order, a face 0-1-2-3 then 4-5-6-7 */
} hd_elem_kind;

typedef struct {
    int nnodes, nelems;
    int *eptr;              /* nelems + 1: element e's nodes are
                             * eind[eptr[e] .. eptr[e + 1]) */
    int *eind;              /* node numbers 0 .. nnodes - 1 */
    unsigned char *kind;    /* nelems hd_elem_kind */
} hd_mesh;

/* An undirected graph in compressed rows (METIS's xadj/adjncy): vertex
 * v's neighbours are adj[xadj[v] .. xadj[v + 1]), increasing, without v
 * itself, and u is v's exactly when v is u's. */
typedef struct {
    int n;
    int *xadj;              /* n + 1 */
    int *adj;               /* xadj[n] */
} hd_graph;

void hd_mesh_free(hd_mesh *m);
void hd_graph_free(hd_graph *g);
/* The NB graph (Chung and Ranka 1990, Definition 5): nodes that share an
 * element (any number of nodes; kind is not read).  HD_SPEC_OK;
 * HD_SPEC_ENOMEM when it would have more than INT_MAX entries (running
 * out of memory is fatal, as everywhere: hd_alloc.h); HD_SPEC_ESYNTAX
 * when a node number is outside 0 .. nnodes - 1.  *out is empty unless
 * HD_SPEC_OK.  Time O(sum of k^2 over the elements of k nodes, plus the
 * sorting of each node's short row). */
int hd_mesh_nb_graph(const hd_mesh *m, hd_graph *out);
/* The ADJ graph (Definition 4): the elements' edges (a quad's sides, not
 * its diagonals; a tetrahedron's six edges; a hexahedron's twelve).  The
 * same returns, and HD_SPEC_ESYNTAX too when an element's node count is
 * not its kind's. */
int hd_mesh_adj_graph(const hd_mesh *m, hd_graph *out);
/* A quad mesh of nx x ny nodes (node x + nx y), its x direction wrapped
 * into a cylinder when wrap_x, both into a torus when wrap_y too (wrap_y
 * alone wraps y only): the paper's kinds of sample (Section 5).  Quad
 * (x, y) is nodes (x, y), (x+1, y), (x+1, y+1), (x, y+1), wrapped, in
 * row-major order.  HD_SPEC_ESYNTAX (and *out empty) unless nx, ny >= 2
 * and >= 3 in a wrapped direction (two columns wrapped would repeat
 * every quad); HD_SPEC_ENOMEM when nx ny or 4 x the quads pass INT_MAX. */
int hd_mesh_quads(int nx, int ny, bool wrap_x, bool wrap_y, hd_mesh *out);

#endif
