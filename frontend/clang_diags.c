/*
 * clang_diags.c — clang's own diagnostics of the input, passed on among
 * the reader's.
 */
#include "frontend_internal.h"

#include <string.h>

/* clang's own diagnostics, in its format, with a caret where we can. */
void pass_clang_diagnostics(reader *r)
{
    unsigned n = clang_getNumDiagnostics(r->tu);
    for (unsigned k = 0; k < n; k++) {
        CXDiagnostic d = clang_getDiagnostic(r->tu, k);
        enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
        CXString option = clang_getDiagnosticOption(d, NULL);
        bool unknown_pragma = strcmp(clang_getCString(option), "-Wunknown-pragmas") == 0;
        clang_disposeString(option);
        if (unknown_pragma && sev < CXDiagnostic_Error) {
            /* Asked for to find every pragma, ours among them; not news. */
            r->ignored = hd_xrealloc(r->ignored, (size_t)(r->nignored + 1) * sizeof *r->ignored);
            r->ignored[r->nignored++] = clang_getDiagnosticLocation(d);
        } else if (sev >= CXDiagnostic_Warning) {
            CXString s = clang_formatDiagnostic(d,
                CXDiagnostic_DisplaySourceLocation | CXDiagnostic_DisplayColumn |
                CXDiagnostic_DisplayOption);
            /* Placed by where it is expanded in the input; the caret goes
             * where clang would put it: the spelling. */
            CXFile f;
            unsigned line, col, off;
            size_t len = 0;
            bool in_main = false;
            unsigned at = offset_of(r, clang_getDiagnosticLocation(d), &in_main);
            clang_getSpellingLocation(clang_getDiagnosticLocation(d), &f,
                                      &line, &col, &off);
            const char *src = f ? clang_getFileContents(r->tu, f, &len) : NULL;
            hd_place place = in_main ? HD_IN_INPUT : f ? HD_IN_OTHER_FILE : HD_NOWHERE;
            hd_report_formatted(&r->d, place, at, sev >= CXDiagnostic_Error,
                                clang_getCString(s), src, len, off, (int)col);
            clang_disposeString(s);
        }
        clang_disposeDiagnostic(d);
    }
}
