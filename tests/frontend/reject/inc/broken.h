/* A header with a C error, included by ../c_error_in_header.c. */
static int broken(void) { return 1 }
