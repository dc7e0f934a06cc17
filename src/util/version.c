/* The library's version, as CMake's project(VERSION) set it at build time,
 * so that a program linked against an installed libmeshgossip can tell
 * which one it got (the SONAME carries MAJOR.MINOR). */
#include "meshgossip.h"

#ifndef MG_VERSION_STRING
#error "MG_VERSION_STRING is set by CMakeLists.txt from project(VERSION)"
#endif

const char *mg_version(void) { return MG_VERSION_STRING; }
