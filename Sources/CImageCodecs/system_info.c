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

/* ---- folder watching (inotify) ---- */

#include <errno.h>
#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

/* The kernel's values (linux/inotify.h), which some C libraries' headers leave out. */
#ifndef IN_ONLYDIR
#define IN_ONLYDIR 0x01000000
#endif
#ifndef IN_DONTFOLLOW
#define IN_DONTFOLLOW 0x02000000
#endif

int tv_watch_open(void) { return inotify_init1(IN_CLOEXEC | IN_NONBLOCK); }

int tv_watch_add(int fd, const char *path) {
    /* A file written and closed, moved in, made (a folder too), removed, or its times changed; never through a
     * link. */
    return inotify_add_watch(fd, path,
                             IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB |
                                 IN_DONTFOLLOW | IN_ONLYDIR);
}

int tv_watch_wait(int fd, int timeout_ms) {
    struct pollfd p = {fd, POLLIN, 0};
    int ready = poll(&p, 1, timeout_ms);
    if (ready <= 0) return ready < 0 && errno != EINTR ? -1 : 0;
    /* Drain what is queued: the caller rescans, whatever the events were. */
    char buffer[16384] __attribute__((aligned(__alignof__(struct inotify_event))));
    int events = 0;
    for (;;) {
        ssize_t n = read(fd, buffer, sizeof buffer);
        if (n <= 0) break;
        for (char *at = buffer; at < buffer + n;) {
            const struct inotify_event *e = (const struct inotify_event *)at;
            events++;
            at += sizeof *e + e->len;
        }
    }
    return events;
}
