/* version.c - the library's version (strait_version, see strait.h). */
#include "strait.h"

/* "MAJOR.MINOR.PATCH" of the library. Any thread. */
const char *strait_version(void) { return STRAIT_VERSION; }
