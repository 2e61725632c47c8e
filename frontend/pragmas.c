/*
 * pragmas.c — the `#pragma hyperdo` lines of the input.  libclang has no
 * pragma cursors: the lines are found in the text, then read from their
 * tokens.  Pragmas clang ignored that are not such lines are reported when
 * they are ours.
 */
#include "frontend_internal.h"

#include <stdio.h>

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    CXToken *tok;
    unsigned n;
    unsigned at;
    int line;                  /* the pragma's line: tokens end there */
} token_cursor;

static char *token_text(reader *r, CXToken t)
{
    CXString s = clang_getTokenSpelling(r->tu, t);
    char *d = hd_xstrdup(clang_getCString(s));
    clang_disposeString(s);
    return d;
}

static position token_pos(reader *r, CXToken t)
{
    return location_pos(r, clang_getTokenLocation(r->tu, t));
}

static bool token_on_line(reader *r, token_cursor *tc)
{
    return tc->at < tc->n && token_pos(r, tc->tok[tc->at]).line == tc->line;
}

/* Accepts the token `want` on the pragma's line. */
static bool accept_token(reader *r, token_cursor *tc, const char *want)
{
    if (!token_on_line(r, tc))
        return false;
    char *s = token_text(r, tc->tok[tc->at]);
    bool ok = s && strcmp(s, want) == 0;
    free(s);
    if (ok)
        tc->at++;
    return ok;
}

static void pragma_error(reader *r, token_cursor *tc, const char *fmt,
                         const char *arg)
{
    unsigned k = tc->at < tc->n && token_on_line(r, tc) ? tc->at : tc->at - 1;
    position p = token_pos(r, tc->tok[k]);
    hd_report(&r->d, HD_ERROR, p.offset, p.line, fmt, arg);
}

/*
 *   integer = an integer literal, at most INT_MAX (suffixes u and l allowed)
 *
 * on the pragma's line; *at is its token.
 */
static bool pragma_number(reader *r, token_cursor *tc, long long *value,
                          unsigned *at)
{
    *at = tc->at;
    if (!token_on_line(r, tc) ||
        clang_getTokenKind(tc->tok[tc->at]) != CXToken_Literal)
        return false;
    char *s = token_text(r, tc->tok[tc->at]), *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    bool ok = errno == 0 && end != s && v <= INT_MAX &&
              strspn(end, "uUlL") == strlen(end);
    free(s);
    if (ok) {
        *value = (long long)v;
        tc->at++;
    }
    return ok;
}

/* The same for any value that fits in 64 bits (a map pragma's rows). */
static bool pragma_u64(reader *r, token_cursor *tc, uint64_t *value, unsigned *at)
{
    *at = 0;
    if (!token_on_line(r, tc) ||
        clang_getTokenKind(tc->tok[tc->at]) != CXToken_Literal)
        return false;
    *at = token_pos(r, tc->tok[tc->at]).offset;
    char *s = token_text(r, tc->tok[tc->at]), *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    bool ok = errno == 0 && end != s && s[0] != '-' &&
              strspn(end, "uUlL") == strlen(end);
    free(s);
    if (ok) {
        *value = (uint64_t)v;
        tc->at++;
    }
    return ok;
}

/* After `word` (cyclic or block): the 1-D distribution, or with ", word"
 * the 2-D one; false, said, after a comma with another word. */
static bool one_or_two(reader *r, token_cursor *tc, const char *word, hd_dist_kind one,
                       hd_dist_kind two, hd_dist_kind *dist)
{
    *dist = one;
    if (!accept_token(r, tc, ","))
        return true;
    if (!accept_token(r, tc, word)) {
        char what[64];
        snprintf(what, sizeof what, "expected '%s' after '%s,'", word, word);
        pragma_error(r, tc, "%s: the 2-D distributions are 'block, block' and 'cyclic, "
                     "cyclic' (HPF's (BLOCK, BLOCK) and (CYCLIC, CYCLIC), High Performance "
                     "Fortran Forum 1993)", what);
        return false;
    }
    *dist = two;
    return true;
}

/* The array names of distribute and map, up to the ':' (not read). */
static bool pragma_names(reader *r, token_cursor *tc, pragma *p, const char *what)
{
    do {
        if (!token_on_line(r, tc) ||
            clang_getTokenKind(tc->tok[tc->at]) != CXToken_Identifier) {
            pragma_error(r, tc, "expected an array name in '%s'", what);
            return false;
        }
        p->names = hd_xrealloc(p->names, (size_t)(p->nnames + 1) * sizeof *p->names);
        p->name_cols = hd_xrealloc(p->name_cols, (size_t)(p->nnames + 1) * sizeof *p->name_cols);
        p->names[p->nnames] = token_text(r, tc->tok[tc->at]);
        p->name_cols[p->nnames++] = (int)token_pos(r, tc->tok[tc->at]).offset;
        tc->at++;
    } while (accept_token(r, tc, ","));
    return true;
}

/*
 *   extent = "extent" "(" expression ")"
 *
 * after distribute's ")": the number of elements of the pointers it names
 * (docs/annotations.md, "Pointers and the heap"), a C expression the
 * host evaluates before each doall that uses them, so without side
 * effects: names, literals, sizeof and operators other than assignments,
 * increments, commas and calls.  Its text is kept (p->extent).
 */
static bool parse_extent(reader *r, token_cursor *tc, pragma *p)
{
    if (!accept_token(r, tc, "(")) {
        pragma_error(r, tc, "expected '(' after 'extent'%s", "");
        return false;
    }
    static const char *const refused[] = { "=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=",
                                           "&=", "|=", "^=", "++", "--", ",", ";", "{", "}",
                                           "[", "]", ".", "->", "#", "##" };
    unsigned first = tc->at;
    int depth = 0;
    while (token_on_line(r, tc)) {
        char *s = token_text(r, tc->tok[tc->at]);
        CXTokenKind kind = clang_getTokenKind(tc->tok[tc->at]);
        bool bad = false;
        for (size_t k = 0; k < sizeof refused / sizeof *refused && !bad; k++)
            bad = kind == CXToken_Punctuation && strcmp(s, refused[k]) == 0;
        /* A name followed by '(' calls a function (sizeof (T) does not). */
        bool call = (kind == CXToken_Identifier) && tc->at + 1 < tc->n &&
                    token_pos(r, tc->tok[tc->at + 1]).line == tc->line &&
                    strcmp(s, "sizeof") != 0;
        if (call) {
            char *next = token_text(r, tc->tok[tc->at + 1]);
            call = strcmp(next, "(") == 0;
            free(next);
        }
        if (kind == CXToken_Literal && (s[0] == '"' || s[0] == '\''))
            bad = s[0] == '"';
        if (strcmp(s, "(") == 0)
            depth++;
        bool close = strcmp(s, ")") == 0;
        free(s);
        if (bad || call) {
            pragma_error(r, tc, "extent(...) is evaluated before every doall that uses the "
                         "arrays: it must be an expression without side effects (names, "
                         "numbers, sizeof and operators; no assignment, increment, comma or "
                         "call)%s", "");
            return false;
        }
        if (close && depth-- == 0)
            break;
        tc->at++;
    }
    if (!token_on_line(r, tc) || tc->at == first) {
        pragma_error(r, tc, tc->at == first ? "expected the number of elements in extent(...)%s"
                                            : "expected ')' to end 'extent'%s", "");
        return false;
    }
    CXSourceRange a = clang_getTokenExtent(r->tu, tc->tok[first]);
    CXSourceRange b = clang_getTokenExtent(r->tu, tc->tok[tc->at - 1]);
    bool in_main = true;
    unsigned from = offset_of(r, clang_getRangeStart(a), &in_main);
    unsigned to = offset_of(r, clang_getRangeEnd(b), &in_main);
    p->extent_at = from;
    p->extent = hd_xmalloc(to - from + 1);
    memcpy(p->extent, r->src + from, to - from);
    p->extent[to - from] = '\0';
    tc->at++;   /* the ')' */
    return true;
}

/*
 *   distribute = "distribute" "(" name {"," name} ":" dist ")" [extent]
 *   dist       = "cyclic" | "block" | "block_cyclic" "(" integer ")"
 *              | "skew" | "skew_rot" | "xor"
 *              | "block" "," "block" | "cyclic" "," "cyclic"
 *              | "table" "(" (name | string) ")"
 *
 * the names those of arrays, B of block_cyclic(B) a power of two; read
 * after "distribute".  The last two are HPF's (BLOCK, BLOCK) and
 * (CYCLIC, CYCLIC) of a 2-D array (High Performance Fortran Forum 1993):
 * the comma after the colon separates the dimensions' distributions, as
 * in HPF's DISTRIBUTE A(BLOCK, BLOCK).  table(T) names the owner of
 * every element: T a const int array of the file, or a mapping file
 * (arrays.c checks both; Chung and Ranka 1990's mappings, docs/meshes.md).
 */
static bool parse_distribute(reader *r, token_cursor *tc, pragma *p)
{
    if (!accept_token(r, tc, "(")) {
        pragma_error(r, tc, "expected '(' after 'distribute'%s", "");
        return false;
    }
    if (!pragma_names(r, tc, p, "distribute"))
        return false;
    if (!accept_token(r, tc, ":")) {
        pragma_error(r, tc, "expected ':' and a distribution (cyclic, block, "
                     "block_cyclic(B), skew, skew_rot, xor, 'block, block', "
                     "'cyclic, cyclic' or table(T)) after the array names%s", "");
        return false;
    }
    if (token_on_line(r, tc))
        p->dist_offset = token_pos(r, tc->tok[tc->at]).offset;
    if (accept_token(r, tc, "skew")) {
        p->dist = HD_DIST_SKEW;
    } else if (accept_token(r, tc, "skew_rot")) {
        p->dist = HD_DIST_SKEW_ROT;
    } else if (accept_token(r, tc, "xor")) {
        p->dist = HD_DIST_XOR;
    } else if (accept_token(r, tc, "cyclic")) {
        if (!one_or_two(r, tc, "cyclic", HD_DIST_CYCLIC, HD_DIST_CYCLIC_2D, &p->dist))
            return false;
    } else if (accept_token(r, tc, "block")) {
        if (!one_or_two(r, tc, "block", HD_DIST_BLOCK, HD_DIST_BLOCK_2D, &p->dist))
            return false;
    } else if (accept_token(r, tc, "table")) {
        p->dist = HD_DIST_TABLE;
        CXTokenKind kind = CXToken_Punctuation;
        bool open = accept_token(r, tc, "(");
        if (open && token_on_line(r, tc))
            kind = clang_getTokenKind(tc->tok[tc->at]);
        if (!open || (kind != CXToken_Identifier && kind != CXToken_Literal)) {
            pragma_error(r, tc, "expected table(T), T a const int array of this file or "
                         "a mapping file's name in double quotes%s", "");
            return false;
        }
        char *word = token_text(r, tc->tok[tc->at]);
        size_t len = strlen(word);
        if (kind == CXToken_Literal && (len < 2 || word[0] != '"' || word[len - 1] != '"' ||
                                        memchr(word + 1, '\\', len - 2) || len == 2)) {
            free(word);
            pragma_error(r, tc, "expected table(\"FILE\"): a mapping file's name in double "
                         "quotes, without escapes%s", "");
            return false;
        }
        p->table_at = token_pos(r, tc->tok[tc->at]).offset;
        p->table_file = kind == CXToken_Literal;
        if (p->table_file) {
            memmove(word, word + 1, len - 2);
            word[len - 2] = '\0';
        }
        p->table = word;
        tc->at++;
        if (!accept_token(r, tc, ")")) {
            pragma_error(r, tc, "expected ')' after table(T%s", "");
            return false;
        }
    } else if (accept_token(r, tc, "block_cyclic")) {
        p->dist = HD_DIST_BLOCK_CYCLIC;
        unsigned at = 0;
        if (!accept_token(r, tc, "(") || !pragma_number(r, tc, &p->value, &at) ||
            !accept_token(r, tc, ")")) {
            pragma_error(r, tc, "expected block_cyclic(B) with B an integer "
                         "literal%s", "");
            return false;
        }
        if (p->value < 1 || (p->value & (p->value - 1))) {
            tc->at = at;
            pragma_error(r, tc, "the block size of block_cyclic must be a "
                         "power of two%s", "");
            return false;
        }
    } else {
        pragma_error(r, tc, "unknown distribution: expected cyclic, block, "
                     "block_cyclic(B), skew, skew_rot, xor, 'block, block', "
                     "'cyclic, cyclic' or table(T)%s", "");
        return false;
    }
    if (!accept_token(r, tc, ")")) {
        pragma_error(r, tc, "expected ')' to end 'distribute'%s", "");
        return false;
    }
    if (accept_token(r, tc, "extent"))
        return parse_extent(r, tc, p);
    return true;
}

static const char map_syntax[] =
    "rows(r_0, ..., r_{n-1}) or identity, optionally followed by xor(c), r_i and c "
    "integer literals (bit j of r_i is f_ij)";

/*
 *   map = "map" "(" name {"," name} ":" fn ")"
 *   fn  = ("identity" | "rows" "(" integer {"," integer} ")") ["xor" "(" integer ")"]
 *
 * Wu 1984's data mapping function F (Section 1.2) of the named arrays:
 * element e on virtual processor A owner(e) + c, row i of A the literal
 * r_i (bit j is a_ij, bit 0 the least significant) and c that of xor;
 * read after "map".  n, the rank and the arrays are checked in maps.c.
 */
static bool parse_map(reader *r, token_cursor *tc, pragma *p)
{
    if (!accept_token(r, tc, "(")) {
        pragma_error(r, tc, "expected '(' after 'map'%s", "");
        return false;
    }
    if (!pragma_names(r, tc, p, "map"))
        return false;
    if (!accept_token(r, tc, ":")) {
        pragma_error(r, tc, "expected ':' and a mapping after the array names: %s",
                     map_syntax);
        return false;
    }
    map_fn *f = p->map = hd_xcalloc(1, sizeof *p->map);
    if (token_on_line(r, tc))
        f->f_at = token_pos(r, tc->tok[tc->at]).offset;
    if (accept_token(r, tc, "identity")) {
        f->identity = true;
    } else if (accept_token(r, tc, "rows")) {
        bool ok = accept_token(r, tc, "(");
        do {
            unsigned at = 0;
            if (ok && f->nrows == 64) {
                pragma_error(r, tc, "a mapping has at most 64 rows (one per bit of a "
                             "processor's number)%s", "");
                return false;
            }
            ok = ok && pragma_u64(r, tc, &f->rows[f->nrows], &at);
            if (ok)
                f->row_at[f->nrows++] = at;
        } while (ok && accept_token(r, tc, ","));
        if (!ok || !accept_token(r, tc, ")")) {
            pragma_error(r, tc, "expected rows(r_0, ..., r_{n-1}) with every r_i a "
                         "non-negative integer literal%s", "");
            return false;
        }
    } else {
        pragma_error(r, tc, "unknown mapping: expected %s", map_syntax);
        return false;
    }
    if (accept_token(r, tc, "xor") &&
        (!accept_token(r, tc, "(") || !pragma_u64(r, tc, &f->c, &f->c_at) ||
         !accept_token(r, tc, ")"))) {
        pragma_error(r, tc, "expected xor(c) with c a non-negative integer literal%s", "");
        return false;
    }
    if (!accept_token(r, tc, ")")) {
        pragma_error(r, tc, "expected ')' to end 'map' (%s)", map_syntax);
        return false;
    }
    return true;
}

/* Is offset inside a region the preprocessor skipped (#if 0 ...)? */
static bool in_skipped_range(CXSourceRangeList *ranges, reader *r, unsigned offset)
{
    for (unsigned k = 0; ranges && k < ranges->count; k++) {
        position b = location_pos(r, clang_getRangeStart(ranges->ranges[k]));
        position e = location_pos(r, clang_getRangeEnd(ranges->ranges[k]));
        if (offset >= b.offset && offset <= e.offset)
            return true;
    }
    return false;
}

static bool word_at(const char *src, size_t len, size_t k, const char *word)
{
    size_t n = strlen(word);
    return k + n <= len && memcmp(src + k, word, n) == 0 &&
           (k + n == len || !(src[k + n] == '_' || (src[k + n] >= '0' && src[k + n] <= '9') ||
                              ((src[k + n] | 32) >= 'a' && (src[k + n] | 32) <= 'z')));
}

/* The offsets of the `#` of every `#pragma hyperdo` line, found by a small
 * scan of the text that knows comments, strings and line starts (cheaper
 * than asking clang for every token of the file). */
static size_t pragma_lines(const char *src, size_t len, size_t **out)
{
    size_t n = 0, cap = 0, k = 0;
    bool line_start = true;
    *out = NULL;
    while (k < len) {
        char ch = src[k];
        if (ch == '\n') {
            line_start = true;
            k++;
        } else if (ch == '/' && k + 1 < len && src[k + 1] == '/') {
            /* To the end of the line; its newline starts the next one. */
            while (k < len && src[k] != '\n')
                k++;
        } else if (ch == '/' && k + 1 < len && src[k + 1] == '*') {
            /* A block comment is one space (C11 5.1.1.2): the line goes on,
             * even when the comment spans lines. */
            for (k += 2; k + 1 < len && !(src[k] == '*' && src[k + 1] == '/'); k++)
                ;
            k += 2;
        } else if (ch == '"' || ch == '\'') {
            k = literal_end(src, len, k) + 1;
            line_start = false;
        } else if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v') {
            k++;
        } else if (ch == '#' && line_start) {
            size_t j = skip_blank(src, len, k + 1);
            if (word_at(src, len, j, "pragma")) {
                j = skip_blank(src, len, j + 6);
                if (word_at(src, len, j, "hyperdo")) {
                    if (n == cap)
                        *out = hd_xrealloc(*out, (cap = cap ? 2 * cap : 16) * sizeof **out);
                    (*out)[n++] = k;
                }
            }
            while (k < len && src[k] != '\n')
                k++;
        } else {
            line_start = false;
            k++;
        }
    }
    return n;
}

/* Does the text of c's extent (in whatever file) mention a hyperdo pragma? */
static bool defines_hyperdo_pragma(reader *r, CXCursor def)
{
    CXSourceRange ext = clang_getCursorExtent(def);
    CXFile f;
    unsigned b, e;
    size_t len = 0;
    clang_getSpellingLocation(clang_getRangeStart(ext), &f, NULL, NULL, &b);
    clang_getSpellingLocation(clang_getRangeEnd(ext), NULL, NULL, NULL, &e);
    const char *src = f ? clang_getFileContents(r->tu, f, &len) : NULL;
    if (!src || e > len || b >= e)
        return false;
    bool has_pragma = false, ours = false;
    for (unsigned k = b; k + 7 <= e; k++) {
        has_pragma = has_pragma || memcmp(src + k, "_Pragma", 7) == 0;
        ours = ours || memcmp(src + k, "hyperdo", 7) == 0;
    }
    return has_pragma && ours;
}

/* The last definition of the macro whose name is the len bytes at name
 * (a null cursor when there is none): the one in force at the end. */
typedef struct {
    const char *name;
    size_t len;
    CXCursor def;
} macro_search;

static enum CXChildVisitResult find_macro(CXCursor c, CXCursor parent,
                                          CXClientData data)
{
    (void)parent;
    if (clang_getCursorKind(c) != CXCursor_MacroDefinition)
        return CXChildVisit_Continue;
    macro_search *m = data;
    CXString s = clang_getCursorSpelling(c);
    const char *spelled = clang_getCString(s);
    if (strlen(spelled) == m->len && memcmp(spelled, m->name, m->len) == 0)
        m->def = c;
    clang_disposeString(s);
    return CXChildVisit_Continue;
}

/*
 * Every pragma clang ignored was reported (-Wunknown-pragmas, added to the
 * compile flags).  Those on `#pragma hyperdo` lines are read above; a
 * hyperdo pragma written as _Pragma("...") or coming from a macro is not
 * supported, and must not be skipped silently either.
 */
/* A '#pragma hyperdo' line in a file the input includes: clang ignores
 * it and so would the reader, which reads the input's lines only; the
 * loop would then run sequentially on data the processors may hold, so it
 * is an error, never skipped. */
static void check_other_file(reader *r, CXSourceLocation loc)
{
    CXFile f;
    unsigned line, col, off;
    size_t len = 0;
    clang_getSpellingLocation(loc, &f, &line, &col, &off);
    const char *src = f ? clang_getFileContents(r->tu, f, &len) : NULL;
    if (!src || off > len)
        return;
    size_t start = off;
    while (start > 0 && src[start - 1] != '\n')
        start--;
    size_t j = skip_blank(src, len, start);
    if (j >= len || src[j] != '#')
        return;
    j = skip_blank(src, len, j + 1);
    if (!word_at(src, len, j, "pragma"))
        return;
    j = skip_blank(src, len, j + 6);
    if (!word_at(src, len, j, "hyperdo"))
        return;
    CXString name = clang_getFileName(f);
    char text[4096];
    snprintf(text, sizeof text, "%s:%u:%u: error: a '#pragma hyperdo' in a file the input "
             "includes is not read: Hyperdo reads the pragmas of the file it translates; "
             "move the loop or declaration there", clang_getCString(name), line,
             (unsigned)(j - start + 1));
    clang_disposeString(name);
    hd_report_formatted(&r->d, HD_IN_OTHER_FILE, 0, true, text, src, len, j,
                        (int)(j - start + 1));
}

static void check_ignored_pragmas(reader *r, const size_t *hashes, size_t count)
{
    for (int k = 0; k < r->nignored; k++) {
        position at = location_pos(r, r->ignored[k]);
        if (!at.in_main) {
            check_other_file(r, r->ignored[k]);
            continue;
        }
        bool read = false;
        for (size_t h = 0; h < count && !read; h++)
            read = hashes[h] <= at.offset && at.offset - hashes[h] < 4096 &&
                   !memchr(r->src + hashes[h], '\n', at.offset - hashes[h]);
        if (read)
            continue;
        const char *text = r->src + at.offset;
        size_t left = r->len - at.offset;
        bool ours = false;
        if (left > 7 && memcmp(text, "_Pragma", 7) == 0) {
            size_t j = skip_blank(r->src, r->len, at.offset + 7);
            if (j < r->len && r->src[j] == '(')
                j = skip_blank(r->src, r->len, j + 1);
            if (j < r->len && r->src[j] == '"') {
                while (j + 1 < r->len && r->src[j + 1] == ' ')
                    j++;
                ours = word_at(r->src, r->len, j + 1, "hyperdo");
            }
        } else {
            /* A macro: find its definition by name. */
            size_t n = 0;
            while (n < left && n < 255 && (text[n] == '_' ||
                   (text[n] >= '0' && text[n] <= '9') ||
                   ((text[n] | 32) >= 'a' && (text[n] | 32) <= 'z')))
                n++;
            macro_search search = { text, n, clang_getNullCursor() };
            if (n > 0)
                clang_visitChildren(clang_getTranslationUnitCursor(r->tu),
                                    find_macro, &search);
            ours = !clang_Cursor_isNull(search.def) &&
                   defines_hyperdo_pragma(r, search.def);
        }
        if (ours)
            hd_report(&r->d, HD_ERROR, at.offset, at.line, "a hyperdo pragma must be "
                   "written as a '#pragma hyperdo ...' line: _Pragma and "
                   "pragmas from macros are not supported");
    }
}

/*
 *   network = "network" "(" ("ecube" | "omega" | "butterfly") ")"
 *
 * the network the program is mapped for (Wu 1984 for omega and the
 * butterfly), once a file; --network wins over it.
 */
static bool parse_network(reader *r, token_cursor *tc, pragma *p)
{
    if (accept_token(r, tc, "(") && token_on_line(r, tc)) {
        unsigned at = tc->at;
        char *word = token_text(r, tc->tok[tc->at]);
        for (int k = 0; k < 3; k++)
            if (strcmp(word, hd_network_words[k]) == 0) {
                p->value = k;
                tc->at++;
                free(word);
                if (accept_token(r, tc, ")"))
                    return true;
                pragma_error(r, tc, "expected ')' after the network's name%s", "");
                return false;
            }
        tc->at = at;
        pragma_error(r, tc, "unknown network '%s': expected ecube, omega or butterfly", word);
        free(word);
        return false;
    }
    pragma_error(r, tc, "expected network(ecube), network(omega) or network(butterfly)%s",
                 "");
    return false;
}

static void free_clauses(pragma *p)
{
    for (int k = 0; k < p->nreds; k++)
        free(p->reds[k].name);
    free(p->reds);
    p->reds = NULL;
    p->nreds = 0;
}

/*
 *   clauses   = {"reduction" "(" op ":" name {"," name} ")"}
 *   op        = "+" | "-" | "*" | "&" | "|" | "^" | "min" | "max"
 *
 * after "doall": OpenMP's spelling of a reduction (OpenMP treats "-" as
 * "+": the values subtracted are summed, and so are the processors'
 * partial values).  A name may appear once.
 */
static bool parse_clauses(reader *r, token_cursor *tc, pragma *p)
{
    static const struct { const char *text; hd_red_op op; } ops[] = {
        { "+", HD_RED_SUM }, { "-", HD_RED_SUM }, { "*", HD_RED_PROD },
        { "&", HD_RED_BAND }, { "|", HD_RED_BOR }, { "^", HD_RED_BXOR },
        { "min", HD_RED_MIN }, { "max", HD_RED_MAX },
    };
    while (accept_token(r, tc, "reduction")) {
        if (!accept_token(r, tc, "(")) {
            pragma_error(r, tc, "expected '(' after 'reduction'%s", "");
            return false;
        }
        int op = -1;
        for (size_t k = 0; k < sizeof ops / sizeof ops[0] && op < 0; k++)
            if (accept_token(r, tc, ops[k].text))
                op = (int)ops[k].op;
        if (op < 0) {
            pragma_error(r, tc, "expected a reduction operator: +, -, *, &, |, ^, min or "
                         "max (OpenMP's reduction(op: list))%s", "");
            return false;
        }
        if (!accept_token(r, tc, ":")) {
            pragma_error(r, tc, "expected ':' after the reduction operator%s", "");
            return false;
        }
        do {
            if (!token_on_line(r, tc) ||
                clang_getTokenKind(tc->tok[tc->at]) != CXToken_Identifier) {
                pragma_error(r, tc, "expected a variable name in '%s'", "reduction");
                return false;
            }
            char *name = token_text(r, tc->tok[tc->at]);
            for (int k = 0; k < p->nreds; k++)
                if (strcmp(p->reds[k].name, name) == 0) {
                    pragma_error(r, tc, "'%s' is named in a reduction clause of this "
                                 "doall already: a variable has one reduction", name);
                    free(name);
                    return false;
                }
            p->reds = hd_xrealloc(p->reds, (size_t)(p->nreds + 1) * sizeof *p->reds);
            position at = token_pos(r, tc->tok[tc->at]);
            p->reds[p->nreds++] = (red_clause){ name, (hd_red_op)op, at.offset, at.line };
            tc->at++;
        } while (accept_token(r, tc, ","));
        if (!accept_token(r, tc, ")")) {
            pragma_error(r, tc, "expected ')' to end 'reduction'%s", "");
            return false;
        }
    }
    return true;
}

/*
 * Reads every `#pragma hyperdo ...` line of the main file, one pragma a
 * line (comments on it are left out):
 *
 *   pragma = "#" "pragma" "hyperdo" (doall | cube | network | distribute | map)
 *   doall  = "doall" clauses          a for loop must come next
 *   cube   = "cube" "(" integer ")"   1 <= n <= HD_DP_MAX_DIM, once a file
 *
 * and distribute and map as parse_distribute and parse_map read them.
 */
void scan_pragmas(reader *r)
{
    CXSourceRangeList *skip = clang_getSkippedRanges(r->tu, r->file);
    size_t *hashes;
    size_t count = pragma_lines(r->src, r->len, &hashes);
    for (size_t h = 0; h < count; h++) {
        size_t eol = hashes[h];
        while (eol < r->len && r->src[eol] != '\n')
            eol++;
        if (in_skipped_range(skip, r, (unsigned)hashes[h]))
            continue;
        token_cursor tc = { NULL, 0, 0, 0 };
        clang_tokenize(r->tu, clang_getRange(
            clang_getLocationForOffset(r->tu, r->file, (unsigned)hashes[h]),
            clang_getLocationForOffset(r->tu, r->file, (unsigned)eol)),
            &tc.tok, &tc.n);
        /* Comments on the line are not part of the pragma. */
        unsigned kept = 0, all = tc.n;
        for (unsigned t = 0; t < tc.n; t++)
            if (clang_getTokenKind(tc.tok[t]) != CXToken_Comment)
                tc.tok[kept++] = tc.tok[t];
        tc.n = kept;
        position hash = location_pos(r, clang_getLocationForOffset(r->tu, r->file,
                                                            (unsigned)hashes[h]));
        pragma p;
        memset(&p, 0, sizeof p);
        p.line = hash.line;
        p.offset = hash.offset;
        tc.at = 3;            /* after `#`, `pragma`, `hyperdo` */
        tc.line = hash.line;
        bool ok = tc.n >= 3;
        if (!ok) {
            /* nothing: a line clang does not lex as three tokens */
        } else if (accept_token(r, &tc, "doall")) {
            p.kind = PRAGMA_DOALL;
            ok = parse_clauses(r, &tc, &p);
        } else if (accept_token(r, &tc, "cube")) {
            p.kind = PRAGMA_CUBE;
            unsigned at = 0;
            if (!accept_token(r, &tc, "(") || !pragma_number(r, &tc, &p.value, &at) ||
                !accept_token(r, &tc, ")")) {
                pragma_error(r, &tc, "expected cube(n) with n an integer "
                             "literal%s", "");
                ok = false;
            } else if (p.value < 1 || p.value > HD_DP_MAX_DIM) {
                tc.at = at;
                pragma_error(r, &tc, "cube(n) needs 1 <= n <= 26 (the mapping "
                             "optimizer's limit)%s", "");
                ok = false;
            }
        } else if (accept_token(r, &tc, "network")) {
            p.kind = PRAGMA_NETWORK;
            ok = parse_network(r, &tc, &p);
        } else if (accept_token(r, &tc, "distribute")) {
            p.kind = PRAGMA_DISTRIBUTE;
            ok = parse_distribute(r, &tc, &p);
        } else if (accept_token(r, &tc, "map")) {
            p.kind = PRAGMA_MAP;
            ok = parse_map(r, &tc, &p);
        } else {
            char *word = token_on_line(r, &tc) ? token_text(r, tc.tok[tc.at])
                                               : hd_xstrdup("");
            pragma_error(r, &tc, "unknown '#pragma hyperdo %s': expected doall, "
                         "cube(n), network(name), distribute(arrays : distribution) or "
                         "map(arrays : mapping)", word);
            free(word);
            ok = false;
        }
        if (ok && token_on_line(r, &tc)) {
            pragma_error(r, &tc, "unexpected text after the pragma%s", "");
            ok = false;
        }
        clang_disposeTokens(r->tu, tc.tok, all);
        if (!ok) {
            for (int k = 0; k < p.nnames; k++)
                free(p.names[k]);
            free(p.names);
            free(p.name_cols);
            free(p.map);
            free(p.table);
            free(p.extent);
            free_clauses(&p);
            continue;
        }
        p.line_end = (unsigned)eol;
        if (p.kind == PRAGMA_DOALL) {
            /* The loop must come next: only comments may stand between. */
            size_t next = skip_blank(r->src, r->len, eol);
            if (!word_at(r->src, r->len, next, "for")) {
                /* Another directive in the way (#pragma omp parallel for):
                 * name it. */
                size_t e = next;
                while (e < r->len && r->src[e] != '\n' && r->src[e] != '\r' && e - next < 80)
                    e++;
                while (e > next && (r->src[e - 1] == ' ' || r->src[e - 1] == '\t'))
                    e--;
                r->rejected++;   /* its arrays are not known */
                free_clauses(&p);
                if (next < r->len && r->src[next] == '#')
                    hd_report(&r->d, HD_ERROR, p.offset, p.line, "'#pragma hyperdo doall' "
                              "must be followed by a for loop, but '%.*s' comes first: "
                              "put the doall pragma right before the loop",
                              (int)(e - next), r->src + next);
                else
                    hd_report(&r->d, HD_ERROR, p.offset, p.line, "'#pragma hyperdo doall' "
                       "must be followed by a for loop");
                continue;
            }
            p.next_offset = (unsigned)next;
        }
        hd_xreserve(&r->pragmas, &r->pragmas_cap, r->npragmas + 1, sizeof *r->pragmas);
        r->pragmas[r->npragmas++] = p;
        if (p.kind == PRAGMA_NETWORK) {
            if (r->network_pragma >= 0)
                hd_report(&r->d, HD_ERROR, p.offset, p.line, "a second '#pragma hyperdo "
                       "network' (the first is on line %d)",
                       r->pragmas[r->network_pragma].line);
            else
                r->network_pragma = r->npragmas - 1;
        }
        if (p.kind == PRAGMA_CUBE) {
            if (r->cube_pragma >= 0)
                hd_report(&r->d, HD_ERROR, p.offset, p.line, "a second '#pragma hyperdo "
                       "cube' (the first is on line %d)",
                       r->pragmas[r->cube_pragma].line);
            else
                r->cube_pragma = r->npragmas - 1;
        }
    }
    check_ignored_pragmas(r, hashes, count);
    free(hashes);
    /* Kept for the map pragmas (maps.c): a map may stand in a branch of
     * #if, the doall after the #endif. */
    for (unsigned k = 0; skip && k < skip->count; k++) {
        position b = location_pos(r, clang_getRangeStart(skip->ranges[k]));
        position e = location_pos(r, clang_getRangeEnd(skip->ranges[k]));
        if (!b.in_main || !e.in_main)
            continue;
        hd_xreserve(&r->skipped, &r->skipped_cap, 2 * r->nskipped + 2, sizeof *r->skipped);
        r->skipped[2 * r->nskipped] = b.offset;
        r->skipped[2 * r->nskipped++ + 1] = e.offset;
    }
    clang_disposeSourceRangeList(skip);
}

void free_pragmas(reader *r)
{
    for (int k = 0; k < r->npragmas; k++) {
        for (int j = 0; j < r->pragmas[k].nnames; j++)
            free(r->pragmas[k].names[j]);
        free(r->pragmas[k].names);
        free(r->pragmas[k].name_cols);
        free(r->pragmas[k].map);
        free(r->pragmas[k].table);
        free(r->pragmas[k].extent);
        free_clauses(&r->pragmas[k]);
    }
    free(r->pragmas);
}
