/* Facts about the process that only C reaches: the processors its affinity mask allows (sched_getaffinity and
 * CPU_COUNT are GNU extensions that Swift's Glibc module does not import). No setjmp here: plain system calls. */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <sched.h>
#include <stdlib.h>

#include "CImageCodecs.h"

int tv_affinity_cpu_count(void) {
    /* A set for up to 4096 processors, allocated to size: cpu_set_t holds only 1024. */
    const int most = 4096;
    cpu_set_t *set = CPU_ALLOC(most);
    if (set == NULL) return -1;
    size_t size = CPU_ALLOC_SIZE(most);
    CPU_ZERO_S(size, set);
    int count = -1;
    if (sched_getaffinity(0, size, set) == 0) count = CPU_COUNT_S(size, set);
    CPU_FREE(set);
    return count;
}
