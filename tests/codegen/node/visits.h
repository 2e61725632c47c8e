/*
 * visits.h — included before a translated program (-include) to count the
 * iterations each processor's node loops visit (hyperdo.h's HD_VISIT hook)
 * and write "PROCESSOR COUNT" lines to the file $HYPERDO_VISITS at exit.
 * Each processor writes only its own counter (no race); the threads back
 * end has joined every processor before exit handlers run.
 */
#include <stdio.h>
#include <stdlib.h>

int hd_get_pid(void);
static long hd_test_visits[1 << 10];
#define HD_VISIT(i) ((void)(i), hd_test_visits[hd_get_pid()]++)

__attribute__((destructor)) static void hd_test_write_visits(void)
{
    const char *path = getenv("HYPERDO_VISITS");
    FILE *f = path ? fopen(path, "w") : NULL;
    if (!f)
        return;
    for (int p = 0; p < (1 << 10); p++)
        if (hd_test_visits[p])
            fprintf(f, "%d %ld\n", p, hd_test_visits[p]);
    fclose(f);
}
