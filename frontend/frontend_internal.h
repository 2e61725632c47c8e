/*
 * frontend_internal.h — what the C reader's files share, and each file's
 * functions (frontend.h is the reader's interface: hd_c_read,
 * hd_c_read_files):
 *
 *   cfront.c         the driver: hd_c_read, the parse, the order of the
 *                    passes, the cube and the sequential code once every
 *                    loop is read;
 *   args.c           the compiler arguments, from -p's compilation
 *                    database and after --;
 *   clang_diags.c    clang's own diagnostics, passed on;
 *   source.c         positions, spellings, and the text between tokens;
 *   pragmas.c        the `#pragma hyperdo` lines and their language;
 *   loops.c          the AST walk to the doalls, their headers, reading one;
 *   nodes.c          the recorded syntax tree of the loop being read;
 *   bodies.c         the walk of a doall body: references, guards, outer
 *                    variables;
 *   purity.c         the functions a body may call: which are pure;
 *   reductions.c     the body's writes of outer variables: reductions, or
 *                    errors;
 *   index_exprs.c    index expressions (hd_expr) from recorded nodes;
 *   arrays.c         the arrays the doalls use (pointers named with their
 *                    extent among them), and their distributions, spreads
 *                    of any extent included;
 *   maps.c           the data mappings (Wu 1984) of the map pragmas: the
 *                    doall each one holds from, and their checks once n
 *                    is known;
 *   host.c           the code outside the doalls, for the code generator;
 *   files.c          a program of several files: hd_c_read_files runs
 *                    cfront.c's passes on all of them, in step, and hands
 *                    each what the others declare;
 *   stages.c         the stage loops around the doalls: sequential for
 *                    loops whose variables' values are known when
 *                    translating.
 */
#ifndef HYPERDO_FRONTEND_INTERNAL_H
#define HYPERDO_FRONTEND_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include <clang-c/Index.h>

#include "frontend.h"
#include "hd_alloc.h"
#include "hd_limits.h"

/* hd_loop.home of a loop read without errors that writes no array
 * element: it has no effect outside itself and stays sequential code. */
#define NO_WRITES (-2)

typedef enum { PRAGMA_DOALL, PRAGMA_CUBE, PRAGMA_DISTRIBUTE, PRAGMA_NETWORK,
               PRAGMA_MAP } pragma_kind;

/* The F of '#pragma hyperdo map(names : F)' as written: rows(r_0, ...)
 * or identity, then xor(c) or nothing; checked against n in maps.c. */
typedef struct {
    bool identity;
    int nrows;
    uint64_t rows[64];
    unsigned row_at[64];       /* the offset of each row's literal */
    unsigned f_at;             /* of 'rows' or 'identity' */
    uint64_t c;
    unsigned c_at;             /* of c's literal (0 without xor) */
    /* Where the mapping holds, found after the AST walk (maps.c): */
    bool file_scope;
    bool attached;             /* before a doall read as a loop */
    unsigned from, func_begin; /* that doall's pragma line and function */
} map_fn;

/* A variable named in a doall's reduction(op: list) clause. */
typedef struct {
    char *name;
    hd_red_op op;
    unsigned offset;           /* of its name */
    int line;
} red_clause;

/* A `#pragma hyperdo` line, as pragmas.c read it. */
typedef struct {
    pragma_kind kind;
    int line;
    unsigned offset;
    unsigned next_offset;      /* DOALL: the first token after the line */
    bool used;
    long long value;           /* CUBE: n; DISTRIBUTE: B for block_cyclic;
                                * NETWORK: index in hd_network_words */
    hd_dist_kind dist;
    unsigned dist_offset;      /* DISTRIBUTE: of the distribution's name */
    char *table;               /* DISTRIBUTE table(T): T, or the file name
                                * of table("FILE") without its quotes */
    bool table_file;
    unsigned table_at;         /* the offset of T */
    char *extent;              /* DISTRIBUTE ... extent(E): E's text (the
                                * elements of pointers); NULL without */
    unsigned extent_at;        /* the offset of E */
    int nnames;
    char **names;              /* DISTRIBUTE, MAP */
    int *name_cols;
    unsigned line_end;         /* the end of the pragma's line */
    map_fn *map;               /* MAP; owned */
    int nreds;
    red_clause *reds;          /* DOALL: its reduction clauses' variables */
} pragma;

/*
 * A node of the doall loop being read: the loop's whole subtree is recorded
 * by one clang_visitChildren, with each node's cursor, kind and children,
 * and its extent once asked for.  Asking libclang again per use (a visit per
 * node to list its children, an extent per operand) cost more than clang's
 * own parse of the file.
 */
typedef struct {
    CXCursor c;
    enum CXCursorKind kind;
    int first, last, next;     /* children and the next sibling; -1: none */
    int nkids;
    bool has_begin, has_extent;
    bool begin_main, end_main; /* where the extent's ends are */
    unsigned begin, end;       /* their offsets (expansion locations) */
} node;

/* What purity.c knows of a function of the program (its verdict). */
struct purity_entry;

/* An array declaration seen in a doall body. */
typedef struct {
    CXCursor decl;
    int index;                 /* in the program's arrays */
} array_decl;

/* The files of a program of several files, as files.c reads them. */
typedef struct program_files program_files;

/* The C reader's state: the input, its pragmas, the program it fills, the
 * loop being read. */
typedef struct {
    const char *path;
    const hd_c_options *opt;
    CXTranslationUnit tu;
    CXFile file;
    const char *src;
    size_t len;

    hd_diags d;                /* what it reports */
    char *stdin_text;          /* the input, when it is standard input */
    size_t stdin_len;

    pragma *pragmas;
    int npragmas, pragmas_cap;
    int cube_pragma;           /* index, or -1 */
    int network_pragma;        /* index, or -1 */
    CXSourceLocation *ignored; /* pragmas clang ignored (-Wunknown-pragmas) */
    int nignored;

    hd_program *prog;
    array_decl *decls;
    int ndecls;
    int arrays_cap, decls_cap, loops_cap; /* of prog->arrays, decls, prog->loops */
    unsigned *sequential;      /* pragma lines of doalls kept sequential */
    int nsequential;

    /* The loop being analysed. */
    node *nodes;
    int nnodes, nodes_cap;
    int *open;                 /* while recording: the open nodes */
    int depth, open_cap;
    bool lost;                 /* a node whose parent was not open */
    struct {                   /* integer types seen, canonical */
        CXType type;
        bool ok, is_signed;
        int bits;
    } types[8];
    int ntypes;
    hd_loop *loop;
    int refs_cap, guards_cap;  /* of loop->refs, loop->guards */
    hd_ref *ref_buffer;        /* loop->refs while its body is walked */
    int ref_buffer_cap;
    CXCursor loop_var;
    CXCursor *locals;          /* scalars declared in its body */
    int nlocals, locals_cap;
    CXCursor *outer_decls;     /* outer variables it reads (loop->outers) */
    int nouter_decls, outers_cap;
    int guard;                 /* the guard of the part being walked, or -1 */
    const pragma *doall;       /* the pragma of the loop being read (its
                                * reduction clauses) */
    CXCursor *red_decls;       /* the variables of loop->reds */
    int red_decls_cap;
    int *red_self;             /* the nodes where reduction statements name
                                * their own variable */
    int nred_self, red_self_cap;
    int rejected;              /* doall loops read with errors */

    CXCursor function;         /* the function definition being walked */
    unsigned *functions;       /* begin, end of each function definition of
                                * the input (maps.c: is a pragma inside one?) */
    int nfunctions, functions_cap;
    /* The doall's header (loops.c) and the statements of control of its
     * body (control.c). */
    int bound_node;            /* the node of its bound */
    CXCursor *bound_decls;     /* outer variables its header reads */
    int nbound_decls, bound_cap;
    CXCursor inner_decls[HD_MAX_INNERS]; /* the variables of loop->inners */
    bool inner_active[HD_MAX_INNERS];    /* the walk is inside its loop */
    int ninner_decls;
    int inner_depth;           /* loops of the body around the walk */
    int *ctrl;                 /* the conditions around the walk (nodes) */
    int nctrl, ctrl_cap;
    struct flow {              /* local `local` takes a value from `node` */
        int local, node;
    } *flows;
    int nflows, flows_cap;
    struct header_node {       /* node `node` is part of loop->headers[h] */
        int header, node;
    } *header_nodes;
    int nheader_nodes, header_nodes_cap;
    struct body_loop {         /* a loop of the body: its text, and whether a
                                * break or continue leaves it early */
        unsigned begin, end;
        bool jumps;
        int header;            /* its entry in loop->headers */
        int ctrl_base;         /* r->nctrl inside it, before its body's */
        int flows_base;        /* r->nflows when it opened */
    } *body_loops;
    struct jump {              /* a condition under which a break (or a
                                * continue) of body loop `loop` is taken */
        int loop, node;
        bool is_break;
    } *jumps;
    int njumps, jumps_cap;
    int nbody_loops, body_loops_cap;
    int *open_loops;           /* the loops around the walk (body_loops) */
    int nopen_loops, open_loops_cap;
    unsigned *skipped;         /* begin, end of each region of the input the
                                * preprocessor skipped (#if 0 ...) */
    int nskipped, skipped_cap;
    struct purity_entry *purity; /* the functions checked for purity */
    int npurity, purity_cap;

    /* What clang was given, kept while the file is open (cfront.c). */
    CXIndex index;
    char **args;
    int nargs;
    char *parse_path;
    bool args_ok;
    /* A file of a program of several files (files.c); NULL for one. */
    program_files *files;
    int unit;                  /* its place among them */
} reader;

/* Where a location is expanded in its file. */
typedef struct {
    unsigned offset;
    int line, col;
    bool in_main;
} position;

/* An error at cursor c (a libclang cursor, not a node). */
#define error_at(r, c, ...) \
    do { position p_ = cursor_pos((r), (c)); \
         hd_report(&(r)->d, HD_ERROR, p_.offset, p_.line, __VA_ARGS__); } while (0)

/* A node's first children (all of them counted in n). */
typedef struct {
    int kid[8];
    int n;
} children;

/* ---------------------------------------------------------- cfront.c */

/* hd_c_read (frontend.h) runs these in order on one file; hd_c_read_files
 * (files.c) runs each pass on every file of a program before the next.
 * open_file: the file parsed, clang's diagnostics passed on, its pragmas
 * read (false: nothing to walk); walk_file: the doall loops read;
 * complete_loops: the loops that stay sequential code left out, the
 * references numbered; complete_arrays: with r->prog->n set, the arrays'
 * distributions and the sequential code; close_file: the reader's
 * diagnostics handed to *d, its memory freed; returns the errors. */
bool open_file(reader *r, const char *path, const hd_c_options *opt, hd_program *out);
void walk_file(reader *r);
void complete_loops(reader *r);
void complete_arrays(reader *r);
int close_file(reader *r, hd_diags *d);
/* The first doall loop of the file, or NULL. */
const hd_loop *first_doall(const reader *r);
/* The cube's dimension: --dim, else `cube` (a cube pragma's n; -1:
 * none), else the 2^k iterations of `first` (a doall of r's file, or
 * NULL); what is wrong with them is said in r's file. */
int cube_dimension(reader *r, int cube, const hd_loop *first);

/* ------------------------------------------------------------ args.c */

/* The compiler arguments: -p's compile command (less the compiler, the
 * file, -c and -o), then those after --, then the helpers' include dir;
 * -1 after reporting that the database cannot give them. */
int compiler_args(reader *r, const char *path, char ***out, int *nout);

/* ----------------------------------------------------- clang_diags.c */

/* clang's diagnostics, in its format; the unknown pragmas it ignored are
 * kept in r->ignored for pragmas.c. */
void pass_clang_diagnostics(reader *r);

/* ---------------------------------------------------------- source.c */

/* Where loc is expanded: offset, line, column, whether in the input. */
position location_pos(reader *r, CXSourceLocation loc);
/* Where cursor c is. */
position cursor_pos(reader *r, CXCursor c);
/* The offset of loc's expansion alone, and whether it is in the input. */
unsigned offset_of(reader *r, CXSourceLocation loc, bool *in_main);
/* A cursor's spelling, allocated. */
char *spelling(CXCursor c);
/* A type as the program spells it, without leading qualifiers. */
char *type_text(CXType t);
/* Does t's spelling name a typedef, struct, union or enum declared inside
 * a function (so that code at file scope cannot name it)? */
bool type_is_local(CXType t);
/* The offset after white space and comments from offset k. */
size_t skip_blank(const char *src, size_t len, size_t k);
/* The closing quote of the literal opening at k (or its line's end). */
size_t literal_end(const char *src, size_t len, size_t k);
/* The offsets of a cursor's extent (libclang asked; not for loop nodes). */
unsigned cursor_start(reader *r, CXCursor c, bool *in_main);
unsigned cursor_end(reader *r, CXCursor c, bool *in_main);
/* Just after the statement, or the declaration, that ends at or goes on
 * at offset k: past its ';'. */
size_t statement_end(reader *r, size_t k);
size_t declaration_end(reader *r, size_t k);

/* --------------------------------------------------------- pragmas.c */

/* Reads every `#pragma hyperdo ...` line of the input into r->pragmas. */
void scan_pragmas(reader *r);
void free_pragmas(reader *r);

/* ----------------------------------------------------------- loops.c */

/* The AST walk (a clang_visitChildren visitor): reads each for statement
 * that a doall pragma annotates. */
enum CXChildVisitResult find_doall(CXCursor c, CXCursor parent,
                                   CXClientData data);
/* The parts of the for statement at node x (recorded): init, cond and inc
 * (-1 where the header leaves one out) and body; false when the header
 * cannot be read. */
bool for_parts(reader *r, int x, int *init, int *cond, int *inc, int *body);
/* The start of a for loop whose init is node init, `T v = lo` or `v =
 * lo`: lo's node, and v in *var (left alone otherwise); -1 for any other
 * init. */
int for_start(reader *r, int init, CXCursor *var);
/* Is node inc `v++`, `++v`, `v += 1` or `v = v + 1` (`1 + v`) of var? */
bool steps_by_one(reader *r, int inc, CXCursor var);

/* ----------------------------------------------------------- nodes.c */

/* Records c's subtree after the nodes already recorded; c's node, or -1. */
int record_tree(reader *r, CXCursor c);
/* A node's cursor and kind. */
CXCursor cursor_of(reader *r, int x);
enum CXCursorKind kind_of(reader *r, int x);
/* A node, its extent's offsets filled in. */
node *extent_of(reader *r, int x);
/* Where a node starts and ends; *in_main is cleared when not in the input. */
unsigned start_of(reader *r, int x, bool *in_main);
unsigned end_of(reader *r, int x, bool *in_main);
/* The text of a node's extent in the input, allocated. */
char *source_text(reader *r, int x);
/* A node's children. */
children kids_of(reader *r, int x);
/* A node without its parentheses and implicit conversions. */
int strip_wrappers(reader *r, int x);
/* Does the node name the loop variable? */
bool is_loop_var(reader *r, int x);
/* The operator between a binary node's two operands ("" when unreadable). */
void operator_text(reader *r, const children *kids, char *op,
                   size_t size);
/* A unary operator's text, and whether it is postfix. */
void unary_text(reader *r, int x, int sub, char *op, size_t size,
                bool *postfix);

/* ---------------------------------------------------------- bodies.c */

/* Is decl a variable declared in the body being walked? */
bool is_local(reader *r, CXCursor decl);
/* Walks a doall body's statement at node x. */
void walk_statement(reader *r, int x);
/* Walks an expression the body evaluates (its references, guards and
 * outer variables). */
void walk_operand(reader *r, int x);
/* Walks an expression of a doall's header (its start, its bound:
 * constants and outer variables only, sent to the processors); false
 * after reporting what else it reads.  what: "start" or "bound". */
bool walk_bound(reader *r, int x, const char *what);
/* A new guard: what follows is evaluated only when the condition at node
 * cond is nonzero (when) or zero; its index in loop->guards. */
int add_guard(reader *r, int cond, bool when);
/* ----------------------------------------------------------- control.c */
/* The statements that direct control inside a doall body: if/else, for,
 * while and do loops, break and continue.  false when x is none of them. */
bool walk_control(reader *r, int x);
/* The variable of an active inner loop whose values are known that decl
 * declares: 1 + its index in loop->inners, or 0. */
int inner_variable(reader *r, CXCursor decl);
/* Once the body is walked: what each inner loop's header reads
 * (loop->headers), through the variables of the body; which references
 * are inside a loop a break or continue may leave early. */
void resolve_headers(reader *r);
/* An assignment of the body to a variable of it, target node `target`
 * (a local scalar, or an element of a local array) from node `from`
 * (-1: none), recorded for resolve_headers. */
void note_flow(reader *r, int target, int from);

/* ---------------------------------------------------------- purity.c */

/* A call in a doall body (its index expressions and guards too): an error
 * at it unless it calls a helper of hyperdo/bits.h, a pure function of
 * math.h or complex.h, or a function of the translation unit that is
 * pure, checked through its body and those of the functions it calls
 * (hd_loop.protos gets its declaration where the node code needs it). */
void check_body_call(reader *r, CXCursor call);
/* What the checks remembered. */
void free_purity(reader *r);

/* ------------------------------------------------------ reductions.c */

/* The statement at x if it writes a variable declared outside the loop:
 * recorded as a reduction (loop->reds) or refused, true either way; or
 * if it combines a value into an element of an array that two iterations
 * may write (h[key[i]] += 1) or that a reduction clause names: recorded
 * as a reduction into the array (loop->reds, loop->sites) or refused;
 * false for any other statement. */
bool reduction_statement(reader *r, int x);
/* Once the body is walked: a reduction variable named anywhere but as
 * its statements' target is an error, and the doall pragma's reduction
 * clauses (pr) must name reductions of the body with their operators. */
void check_reductions(reader *r, int body, const pragma *pr);

/* ----------------------------------------------------- index_exprs.c */

/* The index expression tree of node x. */
hd_expr *expr_of(reader *r, int x);
/* An integer type's width and signedness; false for other types. */
bool integer_type(CXType t, int *bits, bool *is_signed);
/* The value of a constant expression, if clang can fold it. */
bool evaluate(CXCursor c, long long *value);

/* ---------------------------------------------------------- arrays.c */

/* The program's array that decl declares, added when first seen; -1 when
 * it is not an array of constant size. */
int array_of(reader *r, CXCursor decl);
/* Each array's distribution over the 2^n processors (n is known). */
void distribute_arrays(reader *r);
/* The distributed array a cursor declares, or -1 (a pointer's too: the
 * host code need not follow it, which is sent and brought back around
 * every doall). */
int distributed_array(reader *r, CXCursor decl);
/* Where the function definition holding offset starts; 0 at file scope. */
unsigned function_at(reader *r, unsigned offset);
/* Does decl declare a pointer (a parameter written as an array is one)? */
bool pointer_declaration(CXCursor decl);

/* ------------------------------------------------------------ maps.c */

/* After the AST walk: the doall each map pragma inside a function stands
 * before (the mapping holds from it on), or that it is at file scope; an
 * error for one inside a function not right before a doall. */
void attach_maps(reader *r);
/* With n known and the arrays distributed: each map pragma checked (n
 * rows of n bits, nonsingular, distributed arrays) into prog->maps. */
void map_arrays(reader *r);

/* ----------------------------------------------------------- files.c */

/* What a file of a program of several files learns of the others (all
 * false, said nothing, for a file alone). */
/* The outermost extent of an array declared here without it (extern
 * double x[];), from another file's declaration of the same array. */
bool extent_elsewhere(reader *r, CXCursor decl, long long *outer);
/* The distribute pragma of another file that names the array `name`
 * (declared there too, without static), and its place there. */
const pragma *distribution_elsewhere(reader *r, const char *name, int *which);
/* Does a doall of another file use the array `name` (without static)? */
bool used_elsewhere(reader *r, const char *name);
/* Is fn, a function this file calls, defined in another file (so that
 * it may run doalls, as far as this file can tell)? */
bool defined_elsewhere(reader *r, CXCursor fn);

/* ---------------------------------------------------------- stages.c */

/* 1 + the offset of a declaration in the input, 0 when it is elsewhere:
 * what tells one variable from another of the same name (hd_expr.decl). */
unsigned declaration_mark(reader *r, CXCursor decl);
/* Once every doall is read: the for loops around each whose variables its
 * indices read, with their values or why not (hd_loop.stages). */
void find_stage_loops(reader *r);

/* ------------------------------------------------------------ host.c */

/* What the code generator needs of the code outside the doall loops. */
void read_host_code(reader *r);

#endif
