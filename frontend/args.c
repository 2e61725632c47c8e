/*
 * args.c — the arguments clang parses the input with: a compile command of
 * -p's compilation database, those after --, and what the reader adds.
 */
#define _XOPEN_SOURCE 700   /* realpath */

#include "frontend_internal.h"

#include <clang-c/CXCompilationDatabase.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *joined_arg(const char *flag, const char *value)
{
    size_t n = strlen(flag) + strlen(value) + 1;
    char *s = hd_xmalloc(n);
    snprintf(s, n, "%s%s", flag, value);
    return s;
}

/* The compiler arguments: -p's compile command (less the compiler, the
 * file, -c and -o), then those after --, then the helpers' include dir. */
int compiler_args(reader *r, const char *path, char ***out, int *nout)
{
    char **args = NULL;
    int n = 0;
    CXCompilationDatabase db = NULL;
    CXCompileCommands cmds = NULL;
    if (r->opt->build_dir) {
        CXCompilationDatabase_Error err = CXCompilationDatabase_CanNotLoadDatabase;
        char json[PATH_MAX + 32];
        snprintf(json, sizeof json, "%s/compile_commands.json", r->opt->build_dir);
        /* Checked first: libclang would print its own noise to stderr. */
        if (access(json, R_OK) == 0)
            db = clang_CompilationDatabase_fromDirectory(r->opt->build_dir, &err);
        if (err != CXCompilationDatabase_NoError) {
            hd_report_input(&r->d, "cannot load compile_commands.json from '%s'",
                            r->opt->build_dir);
            return -1;
        }
        char *abs = realpath(path, NULL);
        cmds = clang_CompilationDatabase_getCompileCommands(db, abs ? abs : path);
        free(abs);
        if (!cmds || clang_CompileCommands_getSize(cmds) == 0) {
            hd_report_input(&r->d, "'%s' has no entry in %s/compile_commands.json",
                            path, r->opt->build_dir);
            clang_CompileCommands_dispose(cmds);
            clang_CompilationDatabase_dispose(db);
            return -1;
        }
    }
    unsigned ncmd = cmds ? clang_CompileCommand_getNumArgs(
                               clang_CompileCommands_getCommand(cmds, 0)) : 0;
    args = hd_xcalloc((size_t)ncmd + (size_t)r->opt->nargs + 5, sizeof *args);
    if (cmds) {
        CXCompileCommand cmd = clang_CompileCommands_getCommand(cmds, 0);
        CXString dirs = clang_CompileCommand_getDirectory(cmd);
        const char *dir = clang_getCString(dirs);
        args[n++] = joined_arg("-working-directory=", dir);
        char *abs = realpath(path, NULL);
        for (unsigned k = 1; k < ncmd; k++) {
            CXString s = clang_CompileCommand_getArg(cmd, k);
            const char *a = clang_getCString(s);
            /* The command's own paths are relative to its directory. */
            char joined[PATH_MAX + 2];
            snprintf(joined, sizeof joined, "%s/%s", dir, a);
            char *aabs = realpath(a[0] == '/' ? a : joined, NULL);
            bool is_file = aabs && abs && strcmp(aabs, abs) == 0;
            free(aabs);
            if (strcmp(a, "-o") == 0 && k + 1 < ncmd) {
                k++;
            } else if (strcmp(a, "-c") != 0 && !is_file && strcmp(a, path) != 0) {
                args[n++] = hd_xstrdup(a);
            }
            clang_disposeString(s);
        }
        free(abs);
        clang_disposeString(dirs);
        clang_CompileCommands_dispose(cmds);
        clang_CompilationDatabase_dispose(db);
    }
    for (int k = 0; k < r->opt->nargs; k++)
        args[n++] = hd_xstrdup(r->opt->args[k]);
    if (r->opt->include_dir)
        args[n++] = joined_arg("-I", r->opt->include_dir);
    args[n++] = hd_xstrdup("-Wunknown-pragmas");
    /* Standard input, or a name without .c or .h, gives clang no language
     * to go by: C, unless the arguments say otherwise. */
    size_t plen = strlen(path);
    bool named_c = plen > 2 && (strcmp(path + plen - 2, ".c") == 0 || strcmp(path + plen - 2, ".h") == 0);
    bool has_x = false;
    for (int k = 0; k < n; k++)
        has_x = has_x || strncmp(args[k], "-x", 2) == 0;
    if ((r->stdin_text || !named_c) && !has_x)
        args[n++] = hd_xstrdup("-xc");
    *out = args;
    *nout = n;
    return 0;
}
