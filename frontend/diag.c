/*
 * diag.c — the diagnostics sink every stage reports into, and its one
 * printer: the compilers' format (path:line:col: error: message, the
 * source line, a caret under the column), in source order.
 */
#include "model.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hd_diags_init(hd_diags *d, const char *path)
{
    memset(d, 0, sizeof *d);
    d->path = path;
}

void hd_diags_set_source(hd_diags *d, const char *src, size_t len)
{
    d->src = src;
    d->len = len;
}

/* A growing string. */
typedef struct {
    char *s;
    size_t len, cap;
} buf;

static void add(buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        b->cap = 2 * (b->len + n + 1);
        b->s = hd_xrealloc(b->s, b->cap);
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

/* Text of the input, its control bytes (a binary file's) escaped as \xNN
 * so that they neither reach the terminal nor break the line; tabs stay. */
static bool is_control(unsigned char c)
{
    return (c < 0x20 && c != '\t') || c == 0x7f;
}

static void add_escaped(buf *b, const char *s, size_t n)
{
    size_t run = 0;
    for (size_t k = 0; k < n; k++) {
        if (!is_control((unsigned char)s[k]))
            continue;
        add(b, s + run, k - run);
        char hex[5];
        snprintf(hex, sizeof hex, "\\x%02x", (unsigned char)s[k]);
        add(b, hex, 4);
        run = k + 1;
    }
    add(b, s + run, n - run);
}

static void keep(hd_diags *d, hd_place place, size_t offset, bool is_error, buf *b)
{
    if (is_error)
        d->errors++;
    hd_xreserve(&d->items, &d->cap, d->nitems + 1, sizeof *d->items);
    d->items[d->nitems] = (hd_diag_item){ place, offset, d->nitems, b->s };
    d->nitems++;
}

/* The line of src holding `offset` and a caret under column `col`. */
static void add_caret(buf *b, const char *src, size_t len, size_t offset, int col)
{
    if (!src || offset > len)
        return;
    size_t s = offset, e = offset;
    while (s > 0 && src[s - 1] != '\n')
        s--;
    while (e < len && src[e] != '\n' && src[e] != '\r')
        e++;
    add_escaped(b, src + s, e - s);
    add(b, "\n", 1);
    for (size_t k = s; k < s + (size_t)col - 1 && k < e; k++)
        add(b, src[k] == '\t' ? "\t" : is_control((unsigned char)src[k]) ? "    " : " ",
            src[k] == '\t' ? 1 : is_control((unsigned char)src[k]) ? 4 : 1);
    add(b, "^\n", 2);
}

void hd_report(hd_diags *d, hd_severity sev, size_t offset, int line, const char *fmt, ...)
{
    char msg[1024], place[64];
    int col = 1;
    for (size_t k = offset; k > 0 && d->src && k <= d->len && d->src[k - 1] != '\n'; k--)
        col++;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(place, sizeof place, ":%d:%d: %s: ", line, col,
             sev == HD_ERROR ? "error" : "warning");
    buf b = { 0 };
    add_escaped(&b, d->path, strlen(d->path));
    add(&b, place, strlen(place));
    add_escaped(&b, msg, strlen(msg));
    add(&b, "\n", 1);
    add_caret(&b, d->src, d->len, offset, col);
    keep(d, HD_IN_INPUT, offset, sev == HD_ERROR, &b);
}

/* "WHO: error: message" about the input as a whole. */
static void report_whole(hd_diags *d, const char *who, const char *fmt, va_list ap)
{
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    buf b = { 0 };
    add_escaped(&b, who, strlen(who));
    add(&b, ": error: ", 9);
    add_escaped(&b, msg, strlen(msg));
    add(&b, "\n", 1);
    keep(d, HD_NOWHERE, 0, true, &b);
}

void hd_report_input(hd_diags *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report_whole(d, "hyperdo", fmt, ap);
    va_end(ap);
}

void hd_report_file(hd_diags *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report_whole(d, d->path, fmt, ap);
    va_end(ap);
}

void hd_report_formatted(hd_diags *d, hd_place place, size_t offset, bool is_error,
                         const char *text, const char *src, size_t len, size_t at, int col)
{
    buf b = { 0 };
    add_escaped(&b, text, strlen(text));
    add(&b, "\n", 1);
    add_caret(&b, src, len, at, col);
    keep(d, place, offset, is_error, &b);
}

static int by_place(const void *x, const void *y)
{
    const hd_diag_item *a = x, *b = y;
    if (a->place != b->place)
        return a->place < b->place ? -1 : 1;
    if (a->place == HD_IN_INPUT && a->offset != b->offset)
        return a->offset < b->offset ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

char *hd_diags_text(hd_diags *d)
{
    if (d->nitems == 0)
        return NULL;
    qsort(d->items, (size_t)d->nitems, sizeof *d->items, by_place);
    for (int k = 0; k < d->nitems; k++)
        d->items[k].seq = k;
    buf b = { 0 };
    for (int k = 0; k < d->nitems; k++)
        add(&b, d->items[k].text, strlen(d->items[k].text));
    return b.s;
}

void hd_diags_free(hd_diags *d)
{
    for (int k = 0; k < d->nitems; k++)
        free(d->items[k].text);
    free(d->items);
    d->items = NULL;
    d->nitems = d->cap = 0;
}
