/* The declarations the two files of twofile share. */
#ifndef TWOFILE_KERNELS_H
#define TWOFILE_KERNELS_H

#define N 256

/* Defined in main.c, distributed by a pragma of kernels.c. */
extern double a[N];
/* Defined in kernels.c; main.c's pragma distributes it, knowing its size
 * only from the definition there. */
extern double b[];

void smooth(void);
void scale(double f);
void bump(int k);
double weighted_b(void);

#endif
