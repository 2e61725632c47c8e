#define LOG_N 6
