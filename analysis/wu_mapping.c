/*
 * wu_mapping.c — (to be written)
 */
#include "analysis.h"
