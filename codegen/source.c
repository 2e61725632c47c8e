/*
 * source.c — where things are in the input: line numbers, `#line`
 * directives, error messages with the line and a caret (the compilers'
 * format), copies of the input's text, and which references sit inside
 * which.  Every other file of the generator reads the input through these.
 */
#include "codegen_internal.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* Where each line starts, once: every edit asks for a line number. */
void index_lines(gen *g)
{
    int n = 1;
    for (size_t k = 0; k < g->len; k++)
        n += g->src[k] == '\n';
    g->line_start = hd_xmalloc((size_t)n * sizeof *g->line_start);
    g->line_start[0] = 0;
    g->nlines = 1;
    for (size_t k = 0; k < g->len; k++)
        if (g->src[k] == '\n')
            g->line_start[g->nlines++] = k + 1;
}

int line_of(const gen *g, size_t offset)
{
    int lo = 0, hi = g->nlines - 1;      /* the last line starting <= offset */
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (g->line_start[mid] <= offset)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo + 1;
}

void error_at(gen *g, size_t offset, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    hd_report(&g->d, HD_ERROR, offset, line_of(g, offset), "%s", msg);
}

void put_source(text *t, const gen *g, size_t b, size_t e)
{
    if (b < e && e <= g->len)
        put_n(t, g->src + b, e - b);
}

/* `#line` back to the input: the text that follows comes from offset. */
void line_directive(text *t, const gen *g, size_t offset)
{
    if (t->len && t->s[t->len - 1] != '\n')
        put(t, "\n");
    putf(t, "#line %d ", line_of(g, offset));
    put_quoted(t, g->prog->path);
    put(t, "\n");
}

/* Is reference `in` part of the index of `out`? */
bool inside(const hd_ref *in, const hd_ref *out)
{
    return in != out && in->begin >= out->begin && in->end <= out->end &&
           !(in->begin == out->begin && in->end == out->end);
}

