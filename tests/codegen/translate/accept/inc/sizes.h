/* Included by headers.c: the sizes, and a second header. */
#ifndef SIZES_H
#define SIZES_H
#include "layout.h"
#define N (1 << LOG_N)
#endif
