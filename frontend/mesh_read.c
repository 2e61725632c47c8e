/*
 * mesh_read.c — mesh and graph files (frontend.h, hd_read_mesh_file).
 */
#include "frontend.h"

#include <string.h>

int hd_read_mesh_file(const char *path, hd_mesh_input *out, hd_diag *err)
{
    memset(out, 0, sizeof *out);
    err->path = path;
    err->line = 0;
    strcpy(err->message, "not written yet");
    return HD_SPEC_EIO;
}

void hd_mesh_input_free(hd_mesh_input *in)
{
    hd_mesh_free(&in->mesh);
    hd_graph_free(&in->nb);
    hd_graph_free(&in->adj);
}
