/* fem_cost.c — see analysis.h (Chung and Ranka 1990). */
#include "analysis.h"
