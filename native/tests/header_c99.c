/* header_c99.c - proves ethos.h compiles as strict C99 (built with -std=c99 -pedantic-errors -Werror). */
#include "ethos.h"

int ethos_header_c99_probe(void);
int ethos_header_c99_probe(void) { return ETHOS_OK + ETHOS_ABI_VERSION; }
