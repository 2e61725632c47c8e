// e2e: dims 1-3
/*
 * One statement of sequential code that names 66 distributed arrays, each
 * written by a doall before it: the host must bring every one of them home
 * (a fixed table of 64 once dropped the others).
 */
#include <stdio.h>

#define N 8

int x0[N], x1[N], x2[N], x3[N], x4[N], x5[N], x6[N], x7[N], x8[N], x9[N], x10[N];
int x11[N], x12[N], x13[N], x14[N], x15[N], x16[N], x17[N], x18[N], x19[N], x20[N], x21[N];
int x22[N], x23[N], x24[N], x25[N], x26[N], x27[N], x28[N], x29[N], x30[N], x31[N], x32[N];
int x33[N], x34[N], x35[N], x36[N], x37[N], x38[N], x39[N], x40[N], x41[N], x42[N], x43[N];
int x44[N], x45[N], x46[N], x47[N], x48[N], x49[N], x50[N], x51[N], x52[N], x53[N], x54[N];
int x55[N], x56[N], x57[N], x58[N], x59[N], x60[N], x61[N], x62[N], x63[N], x64[N], x65[N];
#pragma hyperdo distribute(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10 : block)
#pragma hyperdo distribute(x11, x12, x13, x14, x15, x16, x17, x18, x19, x20, x21 : block)
#pragma hyperdo distribute(x22, x23, x24, x25, x26, x27, x28, x29, x30, x31, x32 : block)
#pragma hyperdo distribute(x33, x34, x35, x36, x37, x38, x39, x40, x41, x42, x43 : block)
#pragma hyperdo distribute(x44, x45, x46, x47, x48, x49, x50, x51, x52, x53, x54 : block)
#pragma hyperdo distribute(x55, x56, x57, x58, x59, x60, x61, x62, x63, x64, x65 : block)

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x0[i] = i * 1;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x1[i] = i * 2;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x2[i] = i * 3;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x3[i] = i * 4;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x4[i] = i * 5;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x5[i] = i * 6;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x6[i] = i * 7;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x7[i] = i * 8;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x8[i] = i * 9;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x9[i] = i * 10;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x10[i] = i * 11;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x11[i] = i * 12;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x12[i] = i * 13;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x13[i] = i * 14;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x14[i] = i * 15;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x15[i] = i * 16;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x16[i] = i * 17;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x17[i] = i * 18;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x18[i] = i * 19;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x19[i] = i * 20;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x20[i] = i * 21;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x21[i] = i * 22;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x22[i] = i * 23;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x23[i] = i * 24;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x24[i] = i * 25;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x25[i] = i * 26;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x26[i] = i * 27;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x27[i] = i * 28;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x28[i] = i * 29;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x29[i] = i * 30;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x30[i] = i * 31;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x31[i] = i * 32;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x32[i] = i * 33;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x33[i] = i * 34;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x34[i] = i * 35;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x35[i] = i * 36;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x36[i] = i * 37;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x37[i] = i * 38;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x38[i] = i * 39;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x39[i] = i * 40;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x40[i] = i * 41;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x41[i] = i * 42;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x42[i] = i * 43;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x43[i] = i * 44;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x44[i] = i * 45;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x45[i] = i * 46;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x46[i] = i * 47;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x47[i] = i * 48;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x48[i] = i * 49;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x49[i] = i * 50;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x50[i] = i * 51;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x51[i] = i * 52;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x52[i] = i * 53;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x53[i] = i * 54;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x54[i] = i * 55;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x55[i] = i * 56;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x56[i] = i * 57;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x57[i] = i * 58;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x58[i] = i * 59;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x59[i] = i * 60;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x60[i] = i * 61;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x61[i] = i * 62;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x62[i] = i * 63;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x63[i] = i * 64;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x64[i] = i * 65;
#pragma hyperdo doall
    for (int i = 0; i < N; i++)
        x65[i] = i * 66;
    long s = x0[5] + x1[5] + x2[5] + x3[5] + x4[5] + x5[5] + x6[5] + x7[5] +
               x8[5] + x9[5] + x10[5] + x11[5] + x12[5] + x13[5] + x14[5] + x15[5] +
               x16[5] + x17[5] + x18[5] + x19[5] + x20[5] + x21[5] + x22[5] + x23[5] +
               x24[5] + x25[5] + x26[5] + x27[5] + x28[5] + x29[5] + x30[5] + x31[5] +
               x32[5] + x33[5] + x34[5] + x35[5] + x36[5] + x37[5] + x38[5] + x39[5] +
               x40[5] + x41[5] + x42[5] + x43[5] + x44[5] + x45[5] + x46[5] + x47[5] +
               x48[5] + x49[5] + x50[5] + x51[5] + x52[5] + x53[5] + x54[5] + x55[5] +
               x56[5] + x57[5] + x58[5] + x59[5] + x60[5] + x61[5] + x62[5] + x63[5] +
               x64[5] + x65[5];
    printf("%ld\n", s);
    return 0;
}
