/*
 * text.c — the code generator's output buffer: appends, formats, and the
 * quoting that source text needs inside a string literal or a comment.
 */
#include "codegen_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Room for n more bytes and the terminating NUL. */
static void reserve(text *t, size_t n)
{
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 64;   /* scratch texts are many and short */
        while (cap < t->len + n + 1)
            cap *= 2;
        t->s = hd_xrealloc(t->s, cap);
        t->cap = cap;
    }
}

/* The newlines of the n bytes just appended: #line directives need the
 * output's line number. */
static void count_lines(text *t, size_t n)
{
    const char *s = t->s + t->len, *end = s + n;
    while ((s = memchr(s, '\n', (size_t)(end - s))) != NULL) {
        t->lines++;
        s++;
    }
}

void put_n(text *t, const char *s, size_t n)
{
    reserve(t, n);
    memcpy(t->s + t->len, s, n);
    count_lines(t, n);
    t->len += n;
    t->s[t->len] = '\0';
}

void put(text *t, const char *s)
{
    put_n(t, s, strlen(s));
}

/* Formats straight into the buffer: the generated program is mostly
 * made of these, and a copy through a scratch buffer cost a tenth of
 * translate's time on a large file (docs/frontend-performance.md). */
void putf(text *t, const char *fmt, ...)
{
    va_list ap;
    size_t room = t->cap > t->len ? t->cap - t->len : 0;
    va_start(ap, fmt);
    int n = vsnprintf(room ? t->s + t->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n >= room) {
        reserve(t, (size_t)n);
        va_start(ap, fmt);
        vsnprintf(t->s + t->len, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    count_lines(t, (size_t)n);
    t->len += (size_t)n;
}

void put_c_string(text *t, const char *s)
{
    put(t, "\"");
    for (const char *c = s; *c; c++) {
        char buf[8];
        if (*c == '"' || *c == '\\')
            snprintf(buf, sizeof buf, "\\%c", *c);
        else if ((unsigned char)*c < 0x20 || *c == 0x7f)
            snprintf(buf, sizeof buf, "\\%03o", (unsigned char)*c);
        else if (c[0] == '?' && c[1] == '?')
            snprintf(buf, sizeof buf, "?\\");   /* no trigraph */
        else
            snprintf(buf, sizeof buf, "%c", *c);
        put(t, buf);
    }
    put(t, "\"");
}

void put_quoted(text *t, const char *name)
{
    put_c_string(t, name);
}

void put_commented(text *t, const char *s)
{
    for (const char *c = s; *c; c++) {
        if (*c == '\n' || *c == '\r') {
            put(t, " ");
            continue;
        }
        char buf[2] = { *c, 0 };
        put(t, buf);
        if ((c[0] == '*' && c[1] == '/') || (c[0] == '/' && c[1] == '*'))
            put(t, " ");
    }
}

char *take(text *t)
{
    char *s = t->s;
    t->s = NULL;
    t->len = t->cap = 0;
    return s;
}
