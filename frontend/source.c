/*
 * source.c — where a cursor or location is, what it spells, and the plain
 * text of the input between tokens (blanks, the end of a statement or a
 * declaration).
 */
#include "frontend_internal.h"

#include <string.h>

position location_pos(reader *r, CXSourceLocation loc)
{
    CXFile f;
    unsigned line, col, off;
    position p;
    clang_getExpansionLocation(loc, &f, &line, &col, &off);
    p.offset = off;
    p.line = (int)line;
    p.col = (int)col;
    p.in_main = f && clang_File_isEqual(f, r->file);
    return p;
}

position cursor_pos(reader *r, CXCursor c)
{
    return location_pos(r, clang_getCursorLocation(c));
}

/* The offset of loc's expansion in its file, and whether that is the main
 * file; line and column are left alone (they cost more than the offset). */
unsigned offset_of(reader *r, CXSourceLocation loc, bool *in_main)
{
    CXFile f;
    unsigned off;
    clang_getExpansionLocation(loc, &f, NULL, NULL, &off);
    *in_main = f && clang_File_isEqual(f, r->file);
    return off;
}

char *spelling(CXCursor c)
{
    CXString s = clang_getCursorSpelling(c);
    char *d = hd_xstrdup(clang_getCString(s));
    clang_disposeString(s);
    return d;
}

/* A type as the program spells it, without leading qualifiers: the code
 * generator declares copies of values of this type. */
char *type_text(CXType t)
{
    CXString s = clang_getTypeSpelling(t);
    const char *c = clang_getCString(s);
    for (;;) {
        if (strncmp(c, "const ", 6) == 0)
            c += 6;
        else if (strncmp(c, "volatile ", 9) == 0)
            c += 9;
        else
            break;
    }
    char *d = hd_xstrdup(c);
    clang_disposeString(s);
    return d;
}

/* The declaration d is inside a function (a block scope), not at file
 * scope; a struct declared inside another struct is at file scope in C. */
static bool declared_in_function(CXCursor d)
{
    for (CXCursor c = clang_getCursorSemanticParent(d); !clang_Cursor_isNull(c);
         c = clang_getCursorSemanticParent(c)) {
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k == CXCursor_TranslationUnit)
            return false;
        if (k == CXCursor_FunctionDecl)
            return true;
    }
    return false;
}

bool type_is_local(CXType t)
{
    /* Only the outermost name is spelled: a file-scope typedef of any type
     * is usable as it stands. */
    for (int depth = 0; depth < 64; depth++) {
        switch (t.kind) {
        case CXType_Pointer:
            t = clang_getPointeeType(t);
            break;
        case CXType_ConstantArray:
        case CXType_IncompleteArray:
        case CXType_VariableArray:
            t = clang_getArrayElementType(t);
            break;
        case CXType_Elaborated:
            t = clang_Type_getNamedType(t);
            break;
        case CXType_Typedef:
        case CXType_Record:
        case CXType_Enum: {
            CXCursor d = clang_getTypeDeclaration(t);
            return !clang_Cursor_isNull(d) && declared_in_function(d);
        }
        default:
            return false;
        }
    }
    return false;
}

/* Skips white space and comments from offset k; returns the next offset. */
size_t skip_blank(const char *src, size_t len, size_t k)
{
    while (k < len) {
        if (src[k] == '/' && k + 1 < len && src[k + 1] == '*') {
            for (k += 2; k + 1 < len && !(src[k] == '*' && src[k + 1] == '/'); k++)
                ;
            k += 2;
        } else if (src[k] == '/' && k + 1 < len && src[k + 1] == '/') {
            while (k < len && src[k] != '\n')
                k++;
        } else if (strchr(" \t\r\n\f\v", src[k]) ||
                   (src[k] == '\\' && k + 1 < len && src[k + 1] == '\n')) {
            k++;
        } else {
            break;
        }
    }
    return k < len ? k : len;
}

/* The offset of the quote closing the character constant or string
 * literal that opens at k, or of the end of its line if none does: a
 * backslash escapes the next character, a backslash-newline included
 * (C11 5.1.1.2, 6.4.4.4, 6.4.5).  The one scanner of literals of the
 * front end's text scans. */
size_t literal_end(const char *src, size_t len, size_t k)
{
    char quote = src[k];
    for (k++; k < len && src[k] != quote && src[k] != '\n'; k++)
        if (src[k] == '\\')
            k++;
    return k;
}

unsigned cursor_start(reader *r, CXCursor c, bool *in_main)
{
    bool here;
    unsigned off = offset_of(r, clang_getRangeStart(clang_getCursorExtent(c)), &here);
    *in_main = *in_main && here;
    return off;
}

unsigned cursor_end(reader *r, CXCursor c, bool *in_main)
{
    bool here;
    unsigned off = offset_of(r, clang_getRangeEnd(clang_getCursorExtent(c)), &here);
    *in_main = *in_main && here;
    return off;
}

/* Just after a statement that ends at offset k: past its ';' if the
 * statement's extent stopped before it (expressions, do-while). */
size_t statement_end(reader *r, size_t k)
{
    size_t next = skip_blank(r->src, r->len, k);
    return next < r->len && r->src[next] == ';' ? next + 1 : k;
}

/* Just after the ';' ending the declaration that goes on at offset k
 * (`double x[4], y[4] = { ... };`): brackets and literals skipped. */
size_t declaration_end(reader *r, size_t k)
{
    int depth = 0;
    for (k = skip_blank(r->src, r->len, k); k < r->len;
         k = skip_blank(r->src, r->len, k + 1)) {
        char ch = r->src[k];
        if (ch == '"' || ch == '\'') {
            k = literal_end(r->src, r->len, k);
        } else if (strchr("([{", ch)) {
            depth++;
        } else if (strchr(")]}", ch)) {
            depth--;
        } else if (ch == ';' && depth <= 0) {
            return k + 1;
        }
    }
    return r->len;
}
