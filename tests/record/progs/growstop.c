/* limits (stop): manyshared with its tables held to 8 KiB by the test knob
 * (limits-env: RDB_TEST_GROW_MAX=8192): the list of MAP_SHARED mappings
 * cannot grow past ~140 entries, as when the kernel refuses memory.  The
 * recording must stop after the last syscall it could record, with a
 * message, and the program run on to the same output. */
#include "manyshared.c"
