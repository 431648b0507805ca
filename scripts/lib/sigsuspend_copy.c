/* LD_PRELOAD shim for running tileview under Valgrind 3.19 (Debian 12).
 *
 * Valgrind before 3.20 removes its own signal from the mask that rt_sigsuspend is given by
 * writing into the caller's sigset_t. libdispatch's main thread (an async main parks it in
 * _dispatch_sigsuspend) passes a mask in read-only memory, so Valgrind itself dies with
 * SIGSEGV before the program does any work. This shim hands sigsuspend a writable copy.
 * Build: cc -shared -fPIC -O2 -o sigsuspend_copy.so sigsuspend_copy.c
 */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

int sigsuspend(const sigset_t *mask) {
    sigset_t copy = *mask;
    return (int)syscall(SYS_rt_sigsuspend, &copy, (size_t)(_NSIG / 8));
}
