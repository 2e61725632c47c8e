/*
 * halves.c — finds a C file's function bodies from its text and splits
 * them into two halves that clang can parse at the same time (halves.h).
 *
 * The scan follows translation phases 1-3 of C11 5.1.1.2 as far as braces
 * need: line splices, comments, string and character literals, directive
 * lines.  It does not expand macros, so anything a macro could make
 * different between the two copies of the file is refused.
 */
#include "halves.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * The text as translation phases 1 and 2 leave it (C11 5.1.1.2): line
 * splices removed and every end of line (LF, CR LF, or a lone CR, which
 * clang also takes for one) made a single '\n'.  at[k] is the offset in the
 * file of logical byte k; at[n] is the file's length.
 */
typedef struct {
    char *s;
    size_t *at;
    size_t n, k;
    const char *why;
} scan;

/* The tokens before a `{` at file scope that the scan tells apart. */
typedef enum { T_NONE, T_IDENT, T_RPAREN, T_ASSIGN, T_OTHER } token;

static bool is_ident_char(char c)
{
    return c == '_' || c == '$' || (c >= '0' && c <= '9') ||
           ((c | 32) >= 'a' && (c | 32) <= 'z');
}

static bool logical_text(const char *src, size_t len, scan *sc)
{
    memset(sc, 0, sizeof *sc);
    sc->s = malloc(len + 1);
    sc->at = malloc((len + 1) * sizeof *sc->at);
    if (!sc->s || !sc->at) {
        sc->why = "out of memory";
        return false;
    }
    size_t n = 0;
    for (size_t k = 0; k < len; k++) {
        /* clang also splices a backslash that blanks separate from the end
         * of the line (with a warning that -w silences). */
        size_t e = k + 1;
        while (src[k] == '\\' && e < len && (src[e] == ' ' || src[e] == '\t' ||
                                              src[e] == '\f' || src[e] == '\v'))
            e++;
        if (src[k] == '\\' && e < len && (src[e] == '\n' || src[e] == '\r')) {
            k = src[e] == '\r' && e + 1 < len && src[e + 1] == '\n' ? e + 1 : e;
            continue;
        }
        sc->at[n] = k;
        sc->s[n++] = src[k] == '\r' ? '\n' : src[k];
        if (src[k] == '\r' && k + 1 < len && src[k + 1] == '\n')
            k++;
    }
    sc->at[n] = len;
    sc->s[n] = '\0';
    sc->n = n;
    return true;
}

/* From `/` `*`: past the comment's end. */
static bool skip_block_comment(scan *sc)
{
    for (sc->k += 2; sc->k + 1 < sc->n; sc->k++)
        if (sc->s[sc->k] == '*' && sc->s[sc->k + 1] == '/') {
            sc->k += 2;
            return true;
        }
    sc->why = "an unterminated comment";
    return false;
}

/* From `/` `/`: to the newline that ends it. */
static void skip_line_comment(scan *sc)
{
    while (sc->k < sc->n && sc->s[sc->k] != '\n')
        sc->k++;
}

/* From a quote: past the literal.  clang reports an unterminated one. */
static void skip_literal(scan *sc)
{
    char q = sc->s[sc->k++];
    while (sc->k < sc->n && sc->s[sc->k] != q && sc->s[sc->k] != '\n')
        sc->k += sc->s[sc->k] == '\\' && sc->k + 1 < sc->n ? 2 : 1;
    if (sc->k < sc->n && sc->s[sc->k] == q)
        sc->k++;
}

static bool word_is(const char *s, size_t b, size_t e, const char *w)
{
    return e - b == strlen(w) && memcmp(s + b, w, e - b) == 0;
}

/* Names of things beyond a body, through an attribute or an assembler
 * name: refused anywhere in the code, macros included. */
static bool names_beyond(const char *s, size_t b, size_t e)
{
    static const char *const names[] = {
        "section", "__section__", "asm", "__asm", "__asm__",
    };
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (e - b == strlen(names[k]) && memcmp(s + b, names[k], e - b) == 0)
            return true;
    return false;
}

/* From the `#` of a directive line: to its final newline.  *hyperdo tells
 * whether it is a `#pragma hyperdo` line; false if its braces do not pair
 * (a macro that opens or closes a block). */
static bool skip_directive(scan *sc, bool *hyperdo)
{
    size_t words[2][2] = { { 0, 0 }, { 0, 0 } };
    int nwords = 0, braces = 0;
    char last = '#';
    sc->k++;
    while (sc->k < sc->n && sc->s[sc->k] != '\n') {
        char c = sc->s[sc->k];
        if (c == '{' && last == '(') {
            sc->why = "a statement expression, which can declare anything";
            return false;
        }
        if (c != ' ' && c != '\t' && c != '\f' && c != '\v' &&
            !(c == '/' && sc->k + 1 < sc->n && (sc->s[sc->k + 1] == '*' || sc->s[sc->k + 1] == '/')))
            last = c;
        if (c == '/' && sc->k + 1 < sc->n && sc->s[sc->k + 1] == '*') {
            if (!skip_block_comment(sc))
                return false;
        } else if (c == '/' && sc->k + 1 < sc->n && sc->s[sc->k + 1] == '/') {
            skip_line_comment(sc);
        } else if (c == '"' || c == '\'') {
            skip_literal(sc);
            nwords = 2;
        } else if (is_ident_char(c)) {
            size_t b = sc->k;
            while (sc->k < sc->n && is_ident_char(sc->s[sc->k]))
                sc->k++;
            if (names_beyond(sc->s, b, sc->k)) {
                sc->why = "'extern' inside a body, or a section or asm name";
                return false;
            }
            if (nwords < 2) {
                words[nwords][0] = b;
                words[nwords][1] = sc->k;
            }
            nwords++;
        } else {
            braces += c == '{' ? 1 : c == '}' ? -1 : 0;
            if (c != ' ' && c != '\t' && c != '\f' && c != '\v')
                nwords = 2;
            sc->k++;
        }
    }
    *hyperdo = nwords >= 2 && word_is(sc->s, words[0][0], words[0][1], "pragma") &&
               word_is(sc->s, words[1][0], words[1][1], "hyperdo");
    if (braces != 0)
        sc->why = "a directive whose braces do not pair";
    return braces == 0;
}

static bool is_tag_keyword(const char *s, size_t b, size_t e)
{
    return word_is(s, b, e, "struct") || word_is(s, b, e, "union") ||
           word_is(s, b, e, "enum");
}

static bool contains(const char *s, size_t n, const char *w)
{
    size_t m = strlen(w);
    for (size_t k = 0; k + m <= n; k++)
        if (s[k] == w[0] && memcmp(s + k, w, m) == 0)
            return true;
    return false;
}

static bool push_body(hd_halves *out, hd_body b)
{
    hd_body *grown = realloc(out->bodies, (size_t)(out->nbodies + 1) * sizeof *grown);
    if (!grown)
        return false;
    out->bodies = grown;
    out->bodies[out->nbodies++] = b;
    return true;
}

/* The bodies of the file, or false with sc->why. */
static bool find_bodies(scan *sc, hd_halves *out)
{
    const char *s = sc->s;
    bool line_start = true, in_body = false;
    int depth = 0;
    token prev = T_NONE, prev2 = T_NONE;
    char last = 0;             /* the last character of code */
    size_t id[2][2] = { { 0, 0 }, { 0, 0 } };   /* prev's and prev2's spans */
    hd_body body = { 0, 0, false, -1 };
    while (sc->k < sc->n) {
        char c = s[sc->k];
        token t = T_OTHER;
        if (c == '\n') {
            line_start = true;
            sc->k++;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\f' || c == '\v') {
            sc->k++;
            continue;
        }
        if (c == '/' && sc->k + 1 < sc->n && s[sc->k + 1] == '*') {
            if (!skip_block_comment(sc))
                return false;
            continue;
        }
        if (c == '/' && sc->k + 1 < sc->n && s[sc->k + 1] == '/') {
            skip_line_comment(sc);
            continue;
        }
        if (c == '#' && line_start) {
            bool hyperdo = false;
            if (!skip_directive(sc, &hyperdo))
                return false;
            if (in_body && !hyperdo) {
                sc->why = "a preprocessor directive inside a function body";
                return false;
            }
            body.doall = body.doall || (in_body && hyperdo);
            continue;
        }
        /* Bytes clang may take for white space (NUL, Unicode spaces) would
         * hide a directive from this scan. */
        if (c == '\0' || (unsigned char)c >= 0x80) {
            sc->why = "a byte outside ASCII in the code";
            return false;
        }
        if (c == '{' && last == '(') {
            sc->why = "a statement expression, which can declare anything";
            return false;
        }
        last = c;
        line_start = false;
        int depth_before = depth;
        if (c == '"' || c == '\'') {
            skip_literal(sc);
        } else if (is_ident_char(c)) {
            size_t b = sc->k;
            while (sc->k < sc->n && (is_ident_char(s[sc->k]) ||
                   ((s[sc->k] == '+' || s[sc->k] == '-') && c >= '0' && c <= '9' &&
                    strchr("eEpP", s[sc->k - 1]))))
                sc->k++;
            if ((in_body && word_is(s, b, sc->k, "extern")) ||
                names_beyond(s, b, sc->k)) {
                sc->why = "'extern' inside a body, or a section or asm name";
                return false;
            }
            if ((c < '0' || c > '9') && depth == 0) {
                t = T_IDENT;
                id[1][0] = id[0][0];
                id[1][1] = id[0][1];
                id[0][0] = b;
                id[0][1] = sc->k;
            }
        } else if ((c == '<' && sc->k + 1 < sc->n && (s[sc->k + 1] == '%' || s[sc->k + 1] == ':')) ||
                   (c == '%' && sc->k + 1 < sc->n && (s[sc->k + 1] == '>' || s[sc->k + 1] == ':'))) {
            sc->why = "a digraph";
            return false;
        } else if (c == '{') {
            if (depth == 0) {
                bool tag = (prev == T_IDENT && is_tag_keyword(s, id[0][0], id[0][1])) ||
                           (prev == T_IDENT && prev2 == T_IDENT &&
                            is_tag_keyword(s, id[1][0], id[1][1]));
                if (prev == T_RPAREN) {
                    in_body = true;
                    body.begin = sc->at[sc->k];
                    body.doall = false;
                } else if (prev != T_ASSIGN && !tag) {
                    sc->why = "a '{' at file scope that opens neither a function "
                              "body nor a struct, union, enum or initializer";
                    return false;
                }
            }
            depth++;
            sc->k++;
        } else if (c == '}') {
            if (--depth < 0) {
                sc->why = "a '}' without its '{'";
                return false;
            }
            sc->k++;
            if (depth == 0 && in_body) {
                in_body = false;
                body.end = sc->at[sc->k - 1] + 1;
                if (!push_body(out, body)) {
                    sc->why = "out of memory";
                    return false;
                }
                t = T_NONE;
            }
        } else {
            if (c == ')')
                t = T_RPAREN;
            else if (c == '=' && !(sc->k + 1 < sc->n && s[sc->k + 1] == '='))
                t = T_ASSIGN;
            sc->k++;
        }
        /* Only file-scope tokens tell what a `{` at file scope opens. */
        if (depth_before == 0 || depth == 0) {
            prev2 = prev;
            prev = t;
        }
    }
    if (depth != 0) {
        sc->why = "a '{' without its '}'";
        return false;
    }
    return true;
}

/* Text that makes the two halves' preprocessing differ, or a trigraph
 * (the scan reads no trigraphs, and -trigraphs or -std=c11 turns them on). */
static const char *const refused[][2] = {
    { "__COUNTER__", "__COUNTER__ would count differently in each half" },
    { "_Pragma", "a _Pragma would act in one half only" },
    { "__pragma", "a __pragma would act in one half only" },
    { "##", "token pasting could make __COUNTER__ or _Pragma" },
    { "??", "a trigraph" },
};

bool hd_halves_plan(const char *src, size_t len, hd_halves *out)
{
    memset(out, 0, sizeof *out);
    scan sc;
    bool ok = logical_text(src, len, &sc);
    if (ok && memchr(src, '\0', len)) {
        sc.why = "a NUL byte, which clang takes for white space";
        ok = false;
    }
    for (size_t k = 0; ok && k < sizeof refused / sizeof refused[0]; k++)
        if (contains(sc.s, sc.n, refused[k][0])) {
            sc.why = refused[k][1];
            ok = false;
        }
    ok = ok && find_bodies(&sc, out);
    free(sc.s);
    free(sc.at);
    if (!ok) {
        hd_halves_free(out);
        out->why = sc.why;
        return false;
    }
    /* The doall bodies, split where the bytes before and after are closest
     * to equal: parse time follows the text. */
    uint64_t total = 0, before = 0;
    int ndoall = 0;
    for (int k = 0; k < out->nbodies; k++)
        if (out->bodies[k].doall) {
            total += out->bodies[k].end - out->bodies[k].begin;
            ndoall++;
        }
    if (ndoall < 2) {
        hd_halves_free(out);
        out->why = "fewer than two function bodies with doall loops";
        return false;
    }
    int seen = 0;
    for (int k = 0; k < out->nbodies; k++) {
        hd_body *b = &out->bodies[k];
        if (!b->doall)
            continue;
        uint64_t size = b->end - b->begin;
        /* The first doall body is always in half 0, the last in half 1. */
        bool first = seen == 0 ||
                     (seen < ndoall - 1 && 2 * before + size <= total);
        b->half = first ? 0 : 1;
        if (first)
            before += size;
        else
            before = total;   /* every later body goes to half 1 */
        seen++;
    }
    return true;
}

char *hd_halves_text(const char *src, size_t len, const hd_halves *plan,
                     int half)
{
    char *t = malloc(len + 1);
    if (!t)
        return NULL;
    memcpy(t, src, len);
    t[len] = '\0';
    for (int k = 0; k < plan->nbodies; k++) {
        const hd_body *b = &plan->bodies[k];
        if (b->half < 0 || b->half == half)
            continue;
        /* `int f(void) ;`: a prototype, on the same lines as before. */
        for (size_t j = b->begin; j < b->end; j++)
            if (t[j] != '\n' && t[j] != '\r')
                t[j] = ' ';
        t[b->begin] = ';';
    }
    return t;
}

const hd_body *hd_halves_body_at(const hd_halves *plan, size_t offset)
{
    int lo = 0, hi = plan->nbodies;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (plan->bodies[mid].end <= offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < plan->nbodies && plan->bodies[lo].begin <= offset
           ? &plan->bodies[lo] : NULL;
}

void hd_halves_free(hd_halves *plan)
{
    free(plan->bodies);
    plan->bodies = NULL;
    plan->nbodies = 0;
}
