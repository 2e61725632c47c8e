/*
 * wu_align.c — (to be written)
 */
#include "analysis.h"
