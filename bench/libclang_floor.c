/*
 * libclang_floor.c — the least any reader built on libclang's C API pays
 * for a file, so that bench_frontend can show how much of the 1.3x budget
 * (issue 12) is left for hyperdo's own work.
 *
 *   libclang_floor parse FILE [-- ARGS]   parse as hyperdo does (the same
 *                                         flags), nothing more;
 *   libclang_floor read FILE [-- ARGS]    and visit every cursor of the
 *                                         translation unit, asking its kind
 *                                         and the file offsets of its
 *                                         extent.
 *
 * "read" is a floor, not a model of hyperdo's reader: hyperdo also needs
 * names, referenced declarations, types and literal values, and reads
 * them only inside doall loops (which are most of the generated 1000-loop
 * file).  It prints the number of cursors visited so the work cannot be
 * optimised away; the exit status is 0 when the parse succeeded.
 */
#include <clang-c/Index.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    long cursors;
    unsigned long offsets;     /* summed, so the calls are not dead */
} tally;

static unsigned offset_at(CXSourceLocation loc)
{
    unsigned off = 0;
    clang_getExpansionLocation(loc, NULL, NULL, NULL, &off);
    return off;
}

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent,
                                     CXClientData data)
{
    (void)parent;
    tally *t = data;
    CXSourceRange range = clang_getCursorExtent(c);
    t->cursors++;
    t->offsets += (unsigned long)clang_getCursorKind(c) +
                  offset_at(clang_getRangeStart(range)) +
                  offset_at(clang_getRangeEnd(range));
    return CXChildVisit_Recurse;
}

int main(int argc, char **argv)
{
    if (argc < 3 || (strcmp(argv[1], "parse") != 0 &&
                     strcmp(argv[1], "read") != 0)) {
        fprintf(stderr, "usage: libclang_floor parse|read FILE [-- ARGS]\n");
        return 2;
    }
    bool read = strcmp(argv[1], "read") == 0;
    int a = 3;
    if (a < argc && strcmp(argv[a], "--") == 0)
        a++;
    CXIndex index = clang_createIndex(0, 0);
    CXTranslationUnit tu = NULL;
    /* The flags of frontend/cfront.c's parse. */
    enum CXErrorCode ec = clang_parseTranslationUnit2(
        index, argv[2], (const char *const *)(argv + a), argc - a, NULL, 0,
        CXTranslationUnit_DetailedPreprocessingRecord |
        CXTranslationUnit_KeepGoing, &tu);
    if (ec != CXError_Success || !tu) {
        fprintf(stderr, "libclang_floor: cannot parse %s (error %d)\n",
                argv[2], (int)ec);
        return 1;
    }
    tally t = { 0, 0 };
    if (read)
        clang_visitChildren(clang_getTranslationUnitCursor(tu), visit, &t);
    printf("%ld cursors (%lu)\n", t.cursors, t.offsets);
    clang_disposeTranslationUnit(tu);
    clang_disposeIndex(index);
    return 0;
}
