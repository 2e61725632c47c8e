/* Included twice by included_twice.c: two declarations of t. */
double t[16];
