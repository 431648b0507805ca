/* Opening a file beneath a root folder as one step (docs/design.md section 10): the descriptor that was checked is
 * the one read, so a path swapped for a symbolic link between a check and a use is never followed out of the
 * root. openat2 with RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS does it in the kernel; where the kernel has no
 * openat2 (ENOSYS), a walk opens one component at a time with O_NOFOLLOW and resolves symbolic links itself,
 * component by component, refusing any that leads above the root. No setjmp here: plain system calls. */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "shim_internal.h"

/* Links followed in one resolution at most (the kernel's own limit is 40). */
#define TV_WALK_MAX_LINKS 40
/* Folders deep beneath the root at most, in the walk. */
#define TV_WALK_MAX_DEPTH 256

int tv_descriptor_identity(int fd, tv_file_identity *identity) {
    struct stat info;
    if (fstat(fd, &info) != 0) return -1;
    identity->device = (uint64_t)info.st_dev;
    identity->inode = (uint64_t)info.st_ino;
    identity->size = (int64_t)info.st_size;
    identity->modified_ns = (int64_t)info.st_mtim.tv_sec * 1000000000 + info.st_mtim.tv_nsec;
    identity->changed_ns = (int64_t)info.st_ctim.tv_sec * 1000000000 + info.st_ctim.tv_nsec;
    identity->kind = S_ISREG(info.st_mode) ? TV_KIND_REGULAR : S_ISDIR(info.st_mode) ? TV_KIND_FOLDER : TV_KIND_OTHER;
    return 0;
}

long long tv_descriptor_read_at(int fd, uint64_t offset, void *buffer, size_t count) {
    size_t done = 0;
    while (done < count) {
        ssize_t n = pread(fd, (uint8_t *)buffer + done, count - done, (off_t)(offset + done));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return -1;
        if (n == 0) break;
        done += (size_t)n;
    }
    return (long long)done;
}

void tv_descriptor_close(int fd) { close(fd); }

int tv_open_root(const char *path, tv_error *err) {
    int fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) tv_fail(err, TV_ERR_IO, strerror(errno));
    return fd;
}

static int tv_fail_errno(tv_error *err, int code) {
    tv_fail(err, TV_ERR_IO, strerror(code));
    errno = code;
    return -1;
}

/* The flags of the last component's open. */
static int tv_final_flags(int want_folder) {
    return want_folder ? O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY
                       : O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY;
}

static int tv_openat2_beneath(int root, const char *relative, int flags) {
    struct open_how how;
    memset(&how, 0, sizeof how);
    how.flags = (uint64_t)flags;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
    /* EAGAIN: a rename or mount during a ".." step might have allowed an escape, and the kernel gave up: try a
     * few times, then refuse. */
    long fd;
    int tries = 0;
    do {
        fd = syscall(SYS_openat2, root, relative, &how, sizeof how);
    } while (fd < 0 && (errno == EINTR || errno == EAGAIN) && ++tries < 16);
    return (int)fd;
}

/* The walk: `pending` holds the path still to resolve; a symbolic link met on the way is read with readlinkat
 * and its target put in front of what remains, so it is resolved with the same rules (beneath the root, no
 * absolute target, ".." only down to the root, never above). Each component is opened with O_NOFOLLOW from the
 * descriptor of the folder before it, so nothing is looked up by a name that could have changed. */
static int tv_walk_beneath(int root, const char *root_path, const char *relative, int flags) {
    char *pending = malloc(PATH_MAX + 1);
    char *scratch = malloc(PATH_MAX + 1);
    int *stack = malloc(sizeof(int) * TV_WALK_MAX_DEPTH);
    int depth = 0; /* stack[depth - 1] is the folder we are in; the root when depth is 0 */
    int links = 0, result = -1, code = 0;
    if (pending == NULL || scratch == NULL || stack == NULL) {
        code = ENOMEM;
        goto done;
    }
    size_t length = strlen(relative);
    if (length > PATH_MAX) {
        code = ENAMETOOLONG;
        goto done;
    }
    memcpy(pending, relative, length + 1);
    if (pending[0] == '/') { /* absolute: never beneath */
        code = EXDEV;
        goto done;
    }
    char *cursor = pending;
    for (;;) {
        while (*cursor == '/') cursor++;
        char *slash = strchr(cursor, '/');
        char *rest = slash != NULL ? slash + 1 : cursor + strlen(cursor);
        if (slash != NULL) *slash = '\0';
        while (*rest == '/') rest++;
        int last = *rest == '\0';
        int here = depth > 0 ? stack[depth - 1] : root;
        const char *name = *cursor != '\0' ? cursor : ".";
        if (strcmp(name, "..") == 0) {
            if (depth == 0) { /* above the root */
                code = EXDEV;
                goto done;
            }
            close(stack[--depth]);
            if (last) {
                result = openat(depth > 0 ? stack[depth - 1] : root, ".", flags);
                if (result < 0) code = errno;
                goto done;
            }
            cursor = rest;
            continue;
        }
        int fd = last ? openat(here, name, flags | O_NOFOLLOW)
                      : openat(here, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0 && (errno == ELOOP || errno == ENOTDIR)) {
            int saved = errno;
            ssize_t n = readlinkat(here, name, scratch, PATH_MAX);
            if (n < 0) { /* not a link: the error stands */
                code = saved;
                goto done;
            }
            if (++links > TV_WALK_MAX_LINKS) {
                code = ELOOP;
                goto done;
            }
            scratch[n] = '\0';
            if (n == 0) {
                code = ENOENT;
                goto done;
            }
            if (scratch[0] == '/') {
                /* An absolute target is taken only when it names the root or a path beneath it (by the root's
                 * resolved path): what follows is then resolved from the root's descriptor, by the same rules. */
                size_t prefix = root_path != NULL ? strlen(root_path) : 0;
                while (prefix > 0 && root_path[prefix - 1] == '/') prefix--;
                if (root_path == NULL || strncmp(scratch, root_path, prefix) != 0 ||
                    (scratch[prefix] != '\0' && scratch[prefix] != '/')) {
                    code = EXDEV;
                    goto done;
                }
                memmove(scratch, scratch + prefix, (size_t)n - prefix + 1);
                n -= (ssize_t)prefix;
                while (depth > 0) close(stack[--depth]);
            }
            size_t rest_length = strlen(rest);
            if ((size_t)n + 1 + rest_length > PATH_MAX) {
                code = ENAMETOOLONG;
                goto done;
            }
            /* The target, then what remained after the link. */
            if (rest_length > 0) {
                scratch[n] = '/';
                memcpy(scratch + n + 1, rest, rest_length + 1);
            }
            memcpy(pending, scratch, strlen(scratch) + 1);
            cursor = pending;
            continue;
        }
        if (fd < 0) {
            code = errno;
            goto done;
        }
        if (last) {
            result = fd;
            goto done;
        }
        if (strcmp(name, ".") == 0) {
            close(fd);
        } else if (depth == TV_WALK_MAX_DEPTH) {
            close(fd);
            code = ENAMETOOLONG;
            goto done;
        } else {
            stack[depth++] = fd;
        }
        cursor = rest;
    }
done:
    while (stack != NULL && depth > 0) close(stack[--depth]);
    free(pending);
    free(scratch);
    free(stack);
    if (result < 0) errno = code != 0 ? code : EIO;
    return result;
}

int tv_open_beneath(int root, const char *root_path, const char *relative, int want_folder, int mode,
                    tv_file_identity *identity, tv_error *err) {
    memset(identity, 0, sizeof *identity);
    if (relative == NULL || relative[0] == '/') return tv_fail_errno(err, EXDEV);
    const char *path = relative[0] != '\0' ? relative : ".";
    int flags = tv_final_flags(want_folder);
    int fd = -1;
    if (mode != TV_RESOLVE_WALK) {
        fd = tv_openat2_beneath(root, path, flags);
        /* ENOSYS: no openat2 (EPERM: a seccomp filter that predates it, as older container runtimes had). EXDEV:
         * a way out, or an absolute link, which RESOLVE_BENEATH refuses even when it names a file beneath the root
         * (FileManager and `ln -s "$PWD/a"` make those): the walk takes those and refuses the rest. Any other
         * error stands. */
        if (fd < 0 && (mode == TV_RESOLVE_KERNEL || (errno != ENOSYS && errno != EPERM && errno != EXDEV))) {
            return tv_fail_errno(err, errno);
        }
    }
    if (fd < 0) {
        fd = tv_walk_beneath(root, root_path, path, flags);
        if (fd < 0) return tv_fail_errno(err, errno);
    }
    if (tv_descriptor_identity(fd, identity) != 0) {
        int saved = errno;
        close(fd);
        return tv_fail_errno(err, saved);
    }
    int wanted = want_folder ? TV_KIND_FOLDER : TV_KIND_REGULAR;
    if (identity->kind != wanted) {
        int code = identity->kind == TV_KIND_FOLDER ? EISDIR : want_folder ? ENOTDIR : EINVAL;
        close(fd);
        memset(identity, 0, sizeof *identity);
        return tv_fail_errno(err, code);
    }
    if (!want_folder) {
        /* Opened without blocking (a FIFO would have waited for a writer); reads may block from here on. */
        int flags_now = fcntl(fd, F_GETFL);
        if (flags_now >= 0) fcntl(fd, F_SETFL, flags_now & ~O_NONBLOCK);
    }
    return fd;
}
