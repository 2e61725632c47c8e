/*
 * codegen_internal.h — what the code generator's files share, and each
 * file's functions:
 *
 *   text.c      a growing output buffer;
 *   codegen.c   the driver: checks (the layouts among them), the edits of
 *               the input file, the host's side of each doall, the tables,
 *               hd_codegen;
 *   plan.c      how each doall's references reach their elements, and
 *               which iterations each processor visits (the node plan);
 *   node.c      the node function of a doall, written from its plan;
 *   maps.c      the data mappings of the map pragmas (Wu 1984): each
 *               doall's layouts, the remapped arrays' tables, the host's
 *               remaps, the header's lines;
 *   reductions.c a doall's reductions: the private copies, the collective
 *               that combines them, the host's update;
 *   files.c     a program of several files: the host's record shared by
 *               its files, the program's tables in the file with main.
 */
#ifndef HYPERDO_CODEGEN_INTERNAL_H
#define HYPERDO_CODEGEN_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codegen.h"

/* ------------------------------------------------------------ text.c */

typedef struct {
    char *s;
    size_t len, cap;
    int lines;         /* newlines so far */
} text;

void put_n(text *t, const char *s, size_t n);
void put(text *t, const char *s);
__attribute__((format(printf, 2, 3))) void putf(text *t, const char *fmt, ...);
/* A file name inside a C string literal (#line, the program's table). */
void put_quoted(text *t, const char *name);
/* Any text inside a C string literal, quotes included. */
void put_c_string(text *t, const char *s);
/* Source text inside a comment: a star-slash, or a backslash at the end
 * of a line, would break it. */
void put_commented(text *t, const char *s);
char *take(text *t);

/* --------------------------------------------------------- plan.c */

/* How a reference of a doall body reaches its element. */
typedef enum {
    WAY_REPLICATED,   /* an array every processor has: the text stays */
    WAY_LOCAL,        /* always the iteration's processor's own element */
    WAY_SLOTS,        /* an LCC: the owner sends it before the loop, at its
                       * slot (hd_exchange_groups) */
    WAY_REQUEST,      /* the iteration's processor asks the owner for it
                       * (hd_requests), in round `level` */
    WAY_STREAM,       /* index i + c, c fixed during the loop: the owner
                       * sends it, in increasing order (hd_put / hd_take) */
    WAY_WHOLE,        /* an element known only while the body runs (its
                       * index or guard reads a variable of the body, an
                       * inner loop's): every processor gets the whole
                       * array before the loop (hd_whole, an all-gather) */
} ref_way;

typedef struct {
    ref_way way;
    int group;        /* SLOTS, REQUEST or STREAM: its group */
    char *index;      /* the flattened element index, as C (the subscripts
                       * as written; NULL for replicated arrays) */
    bool fast;        /* LOCAL: its local offset is hd_b<base> + hd_t in the
                       * loop over my iterations */
    int base;         /* the first reference with the same offset map */
} ref_plan;

/* References of one array through one index map whose elements move as an
 * LCC: from each processor p to each q, nothing or 2^log2_slots elements,
 * element e at slot pext(e, leads) (coset.c: the elements q needs from p
 * are a coset of one subspace W, and the leading bits of W's reduced
 * basis number its elements). */
typedef struct {
    int array;
    int ref;               /* one of its references */
    hd_affine map;         /* the element index as a function of i */
    bool family;           /* an LCC family: map's constant has only the
                            * known bits of b, and src_c is hd_family_c<s>,
                            * the owner of b, computed when the loop runs */
    uint64_t home_c, src_c;
    hd_system pair;        /* [home owner; source owner] i = (q ^ home_c, p ^ src_c) */
    hd_system src;         /* source owner i = p ^ src_c alone */
    hd_space w;            /* the elements q needs from p: e0 + w, e0 reduced */
    uint64_t leads;        /* w's leading bits: the slot of e is pext(e, leads) */
    int log2_slots;
} slot_group;

/* References that ask the owner: one array, one index text, one guard. */
typedef struct {
    int array;
    int ref;
    int guard;             /* innermost guard of its references, or -1 */
    int level;             /* its round: 1 + the rounds it depends on */
    uint32_t vars;         /* the inner loop variables with known values its
                            * index and guards read (hd_loop.inners): one
                            * element per iteration and combination of
                            * their values, hd_k<q>[t * per + combination] */
    long long per;         /* the combinations: the product of their ranges */
} request_group;

/* References i + c of one array under one guard (c fixed during the
 * loop, every guard computable by every processor): each owner walks its
 * elements e, and sends e to the processor of iteration e - c if that
 * iteration reads it; a processor takes them in the order of its
 * iterations, which is the order they were sent. */
typedef struct {
    int array;
    int ref;
    int guard;
} stream_group;

typedef struct {
    const hd_loop *loop;
    ref_plan *refs;        /* per reference of the loop */
    bool affine_home;      /* the home's owner is GF(2)-affine in i */
    bool on_table;         /* the loop runs over an owner table (hd_loop.
                            * on_table): my iterations are my elements of
                            * the home's array below its trip count, and
                            * every remote read is a request */
    bool *kept;            /* on_table, per round (1 .. levels): its
                            * requests are kept across executions while the
                            * environment fields its indices and guards
                            * read are unchanged (hd_requests_keep) */
    bool env;              /* the doall has an environment (put_node) */
    hd_system own;         /* home owner i = me ^ own_c: my iterations */
    uint64_t own_c;
    int nslots, slots_cap;
    slot_group *slots;
    int nreqs, reqs_cap;
    request_group *reqs;
    int levels;            /* rounds of requests */
    bool permutation;      /* one slot group, nothing else remote, and its
                            * processors' LCC an LCP: each processor sends
                            * to one (hd_to) and receives from one
                            * (hd_from), found in O(1) from its number */
    int nstreams, streams_cap;
    stream_group *streams;
} node_plan;

typedef struct gen gen;

/* Plans doall l, reporting what cannot be translated; false when its
 * owner system cannot be solved (hd_system_solve).  Each doall is planned
 * just before its node function is written and its plan freed after, so
 * the next one reuses the memory. */
bool plan_doall(gen *g, const hd_loop *l, node_plan *np);
void plan_free(node_plan *p);
/* The owner of ref's element as a GF(2)-affine map of i (n bits). */
hd_affine owner_map_of(const gen *g, const hd_ref *ref);
/* Its local offset (hd_local_offset of the element) as one. */
hd_affine offset_map_of(const gen *g, const hd_ref *ref);
/* Writes the input's text from b to e (a subscript) as ctx wants it. */
typedef void (*subscript_writer)(text *t, const gen *g, const void *ctx, size_t b, size_t e);
/* A reference's flattened element index, row-major, as C. */
void put_flat_index(text *t, const gen *g, const hd_ref *ref, subscript_writer sub,
                    const void *ctx);

/* --------------------------------------------------------- node.c */

void put_node(text *t, gen *g, int d);
/* The arrays a doall's body uses, each once, in order of first use: the
 * distributed ones and the replicated ones; whether it has an
 * environment to ship (outer scalars or replicated arrays). */
typedef struct {
    int *dist, *repl;
    int ndist, nrepl;
    bool env;
} doall_arrays;
void doall_arrays_of(const gen *g, const hd_loop *l, doall_arrays *u);
/* The global index of the element at local offset `offset` of virtual
 * processor `v` of array arr, as C, from its layout at this doall. */
void put_element_index(text *t, const gen *g, const char *offset, const char *v, int arr);
void doall_arrays_free(doall_arrays *u);

/* ------------------------------------------------ the generator state */

/* The distinct data mappings an array takes (maps.c): F[0] the one it
 * starts with, the others in the order doalls first take them; NULL is
 * the identity.  Borrowed from the program's hd_data_map entries. */
typedef struct {
    int count;
    const hd_affine **F;
} array_maps;

struct gen {
    const hd_program *prog;
    const hd_analysis *results; /* what the analysis found of prog */
    const char *src;
    size_t len;
    const hd_codegen_options *opt;
    hd_diags d;            /* what it reports (d.errors: how many errors) */
    int *array_id;         /* program array -> runtime array, or -1 */
    hd_layout *layout;     /* of each distributed array (model.h), under its
                            * mapping at the doall being written, or at the
                            * start (maps_set_layouts) */
    hd_layout *base;       /* the same under no mapping */
    array_maps *maps;      /* per program array */
    int ndist;
    const hd_plan *plan;   /* the mapping and contention (analysis.h) */
    hd_order order;        /* plan->order */
    size_t *line_start;    /* offset where each line of src starts */
    int nlines;
    bool *keeps;           /* per doall: its node code keeps requests and
                            * reads hd_env->hd_same, which the host sets
                            * (put_node decides before the host's part is
                            * written: the node functions come first) */
    const char *v;         /* "hd_v_" when the program names v_send & co.
                            * itself, else "v_" (Fig. 1d's names) */
    const hd_codegen_files *files; /* a program of several files, or NULL */
    int loop_base;         /* the number of the file's first doall among
                            * the program's (hd_node_<number>) */
};


/* --------------------------------------------------------- maps.c */

/* The mappings each distributed array takes (g->array_id is set); the
 * layouts then those at the start. */
void maps_collect(gen *g);
void maps_free(gen *g);
/* g->layout: every array under its mapping at doall l (NULL: at the
 * start, what hd_run_layouts is given). */
void maps_set_layouts(gen *g, const hd_loop *l);
/* Does array a take more than one mapping (and need hd_remap)? */
bool maps_remapped(const gen *g, int a);
/* A remapped array's layout at the start, as hd_layouts names it: NULL
 * or &hd_map_layout_<id>_0. */
void put_map_layout_ref(text *t, const gen *g, int a);
/* The remapped arrays' layout tables and hd_remap, in the prologue. */
void put_map_prologue(text *t, const gen *g);
/* Before doall l, on the host: array a under l's mapping (keep: the
 * doall needs its elements). */
void put_map_remaps(text *t, const gen *g, const hd_loop *l, int a, bool keep);
/* The header's lines on the mappings and the remaps (none without map
 * pragmas). */
void put_map_header(text *t, const gen *g);

/* --------------------------------------------------- reductions.c */

/* Does some doall of p have reductions (the prologue includes
 * hyperdo/coll.h)? */
bool reductions_used(const hd_program *p);

/* collectives.c: the plan's entry of doall np's permutation when the
 * plan chose a collective for it (else NULL); whether any doall uses one;
 * the call that replaces its v_send and v_receive. */
const hd_plan_comm *collective_of(const gen *g, const node_plan *np);
bool alltoall_of(const gen *g, const node_plan *np);
bool collectives_used(const gen *g);
void put_collective_exchange(text *t, const gen *g, const hd_plan_comm *pc);
/* The plan's collective of one processor to all or all to one for a doall
 * whose batch is its one slot group (NULL: none), and its call. */
const hd_plan_comm *group_collective_of(const gen *g, const node_plan *np);
void put_group_collective(text *t, const gen *g, const hd_plan_comm *pc);
/* A warning for each read whose chosen collective the node code does not
 * write (it keeps direct messages). */
void warn_unwritten_collectives(gen *g, const node_plan *np);
/* What the node code cannot do with doall l's reductions, reported. */
void check_loop_reductions(gen *g, const hd_loop *l);
/* Before doall d's node function: the statics its results come home in. */
void put_reduction_results(text *t, const hd_loop *l, int d);
/* In the node function, before the loop: each reduction's private copy,
 * named as the variable, at the identity (an array's: hd_p_NAME, the
 * whole array). */
void put_reduction_copies(text *t, const gen *g, const hd_loop *l);
/* After the loop: the copies combined over all processors, the host's
 * result stored (an array's combined into my slice of it). */
void put_reduction_combine(text *t, const gen *g, const hd_loop *l, int d);
/* On the host after hd_doall: s = s op (the result). */
void put_reduction_host(text *t, const hd_loop *l, int d);

/* -------------------------------------------------------- codegen.c */

/* Does program p's sequential code name its array arr (use it, let its
 * address escape, or initialise it)? */
bool program_host_names(const hd_program *p, int arr);
/* The mapping's two tables, hd_to_physical and hd_to_virtual. */
void put_mapping_tables(text *t, const gen *g);
/* An array's row of hd_arrays (shift: its layout's, or -1). */
void put_array_row(text *t, const hd_array *x, int shift, bool host_static);
/* The rows of an n-row GF(2) map, as a C initializer. */
void put_rows(text *t, const hd_affine *m, int rows);

/* ---------------------------------------------------------- files.c */

/* A program of several files (g->files; codegen.h): does any file's
 * sequential code name the runtime's array id?  Does file `unit` bring
 * any array home when main returns?  hd_where, defined with the
 * program's tables in the file with main and declared in the others;
 * what ends each file: the program's tables and the real main in the
 * file with main, a function that brings the file's arrays home in the
 * others. */
bool files_host_names(const gen *g, int id);
bool files_brings_home_any(const gen *g, int unit);
void files_put_where(text *t, const gen *g);
void files_put_end(text *t, const gen *g);

/* --------------------------------------------------------- source.c */

/* Where each line of the input starts (g->line_start). */
void index_lines(gen *g);
int line_of(const gen *g, size_t offset);
__attribute__((format(printf, 3, 4))) void error_at(gen *g, size_t offset, const char *fmt, ...);
void put_source(text *t, const gen *g, size_t b, size_t e);
/* `#line` back to the input: the text that follows comes from offset. */
void line_directive(text *t, const gen *g, size_t offset);
/* Is reference `in` part of the index of `out`? */
bool inside(const hd_ref *in, const hd_ref *out);
/* Does the doall write (or read) program array arr? */

#endif
