/* Included by pragma_in_include.c: a doall written in a header, which
 * the reader of that file does not read. */
static void helper(void)
{
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        b[i] = a[i] + 100;
}
