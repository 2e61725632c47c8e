/*
 * A macro defined inside a body reaches the bodies after it: the plan is
 * refused and the file is read whole.
 */
double a[16], b[16];

void f(void)
{
#define STEP 1
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++)
        a[i] = b[i ^ STEP];
}

void g(void)
{
    #pragma hyperdo doall
    for (int i = 0; i < 16; i++)
        b[i] = a[i ^ STEP];
}
