/*
 * partition.c — mapping files: METIS's partition format, one processor
 * number per line, line v + 1 for node (element) v.  `hyperdo map -o`
 * writes them, `hyperdo cost` and `distribute(x : table("FILE"))` read
 * them (docs/meshes.md).
 */
#include "frontend.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(hd_diag *err, int line, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    err->line = line;
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return code;
}

int hd_read_partition(const char *path, int64_t expect, int max_proc, int **out, int64_t *count,
                      hd_diag *err)
{
    *out = NULL;
    *count = 0;
    err->path = path;
    err->line = 0;
    err->message[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return fail(err, 0, HD_SPEC_EIO, "%s: %s", path, strerror(errno));
    int *proc = NULL;
    int64_t n = 0, cap = 0;
    int lineno = 0, rc = HD_SPEC_OK;
    char line[256];
    while (rc == HD_SPEC_OK && fgets(line, sizeof line, f)) {
        lineno++;
        if (!strchr(line, '\n') && !feof(f)) {
            rc = fail(err, lineno, HD_SPEC_ESYNTAX, "a line of more than %zu characters, "
                      "not a processor number", sizeof line - 2);
            break;
        }
        char *end;
        errno = 0;
        long p = strtol(line, &end, 10);
        while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
            end++;
        if (end == line || *end || errno || p < 0 || p > max_proc) {
            char shown[48];
            snprintf(shown, sizeof shown, "%.40s", line);
            shown[strcspn(shown, "\r\n")] = '\0';
            rc = fail(err, lineno, HD_SPEC_ESYNTAX, "expected a processor number from 0 to "
                      "%d (element %lld's), found '%s'", max_proc, (long long)n, shown);
        } else if (expect >= 0 && n >= expect) {
            rc = fail(err, lineno, HD_SPEC_ESYNTAX, "%lld elements expected, and this line "
                      "names one more", (long long)expect);
        } else {
            if (n == cap) {
                cap = cap ? 2 * cap : 1024;
                int *more = realloc(proc, (size_t)cap * sizeof *proc);
                if (!more) {
                    rc = fail(err, 0, HD_SPEC_ENOMEM, "%s: out of memory", path);
                    break;
                }
                proc = more;
            }
            proc[n++] = (int)p;
        }
    }
    if (rc == HD_SPEC_OK && ferror(f))
        rc = fail(err, 0, HD_SPEC_EIO, "%s: reading failed", path);
    if (rc == HD_SPEC_OK && expect >= 0 && n < expect)
        rc = fail(err, lineno, HD_SPEC_ESYNTAX, "%lld processor numbers for %lld elements",
                  (long long)n, (long long)expect);
    fclose(f);
    if (rc != HD_SPEC_OK) {
        free(proc);
        return rc;
    }
    *out = proc;
    *count = n;
    return HD_SPEC_OK;
}
