/* Included as "prog.h": the translated program, which lives elsewhere,
 * finds it only if hyperdo check passes prog.c's directory (-iquote). */
#ifndef SCALE
#error "compile with -DSCALE=k: hyperdo check passes -D after -- to the C compiler"
#endif
#define N 8
