// expect-in: inc/broken.h:2:35: error: expected ';' after return statement
// rejected: a C error inside an included header is clang's diagnostic, in
// the header, with its source line and caret
#include "inc/broken.h"

double a[256], b[256];

int main(void)
{
#pragma hyperdo doall
    for (int i = 0; i < 256; i++)
        b[i] = a[i];
    return broken();
}
