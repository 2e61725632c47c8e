/* What the two files of the stencil sample share (main.c, stencil.c). */
#ifndef STENCIL_H
#define STENCIL_H

#define N 256

/* The temperatures, defined in main.c, diffused by stencil.c's doalls. */
extern double u[N];

void diffuse(void);
double total_heat(void);

#endif
