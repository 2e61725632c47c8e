/*
 * mesh.c — finite element meshes and their graphs (model.h): the NB and
 * ADJ graphs of Chung and Ranka 1990 (Definitions 4 and 5), and quad
 * meshes of the paper's kinds (grids, cylinders, tori).
 */
#include "model.h"

#include <stdlib.h>

void hd_mesh_free(hd_mesh *m)
{
    free(m->eptr);
    free(m->eind);
    free(m->kind);
    m->eptr = m->eind = NULL;
    m->kind = NULL;
    m->nnodes = m->nelems = 0;
}

void hd_graph_free(hd_graph *g)
{
    free(g->xadj);
    free(g->adj);
    g->xadj = g->adj = NULL;
    g->n = 0;
}

int hd_mesh_nb_graph(const hd_mesh *m, hd_graph *out)
{
    (void)m;
    (void)out;
    return HD_SPEC_ENOMEM;   /* TODO(helper): not written yet */
}

int hd_mesh_adj_graph(const hd_mesh *m, hd_graph *out)
{
    (void)m;
    (void)out;
    return HD_SPEC_ENOMEM;
}

int hd_mesh_quads(int nx, int ny, bool wrap_x, bool wrap_y, hd_mesh *out)
{
    (void)nx; (void)ny; (void)wrap_x; (void)wrap_y; (void)out;
    return HD_SPEC_ENOMEM;
}
