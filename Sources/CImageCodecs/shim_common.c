#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* fopencookie */
#endif
#include "shim_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void tv_copy_message(char *dst, const char *src) {
    size_t n = strlen(src);
    if (n > TV_MESSAGE_LEN - 1) n = TV_MESSAGE_LEN - 1;
    /* One line: a library's control characters (libheif ends its messages with a newline) become spaces, and
     * trailing spaces go. */
    for (size_t i = 0; i < n; i++) dst[i] = (unsigned char)src[i] < 0x20 || src[i] == 0x7f ? ' ' : src[i];
    while (n > 0 && dst[n - 1] == ' ') n--;
    dst[n] = '\0';
}

tv_status tv_fail(tv_error *err, tv_status status, const char *message) {
    if (err != NULL) {
        tv_copy_message(err->message, message);
        err->from_warning = 0;
    }
    return status;
}

tv_status tv_decoder_usable(int broken, int finished, tv_error *err) {
    if (broken) return tv_fail(err, TV_ERR_STATE, "the decoder stopped at an earlier error");
    if (finished) return tv_fail(err, TV_ERR_STATE, "the decoder has finished");
    return TV_OK;
}

void tv_warning_log_add(struct tv_warning_log *log, const char *text) {
    log->total++;
    for (int i = 0; i < log->distinct; i++) {
        if (strncmp(log->text[i], text, TV_MESSAGE_LEN - 1) == 0) {
            log->times[i]++;
            return;
        }
    }
    if (log->distinct < TV_MAX_WARNING_TEXTS) {
        tv_copy_message(log->text[log->distinct], text);
        log->times[log->distinct] = 1;
        log->distinct++;
    }
}

int tv_warning_log_total(const tv_warning_log *log) { return log ? log->total : 0; }

int tv_warning_log_distinct(const tv_warning_log *log) { return log ? log->distinct : 0; }

const char *tv_warning_log_text(const tv_warning_log *log, int index) {
    if (log == NULL || index < 0 || index >= log->distinct) return "";
    return log->text[index];
}

int tv_warning_log_times(const tv_warning_log *log, int index) {
    if (log == NULL || index < 0 || index >= log->distinct) return 0;
    return log->times[index];
}

int tv_open_regular(const char *path, tv_error *err) {
    struct stat info;
    if (stat(path, &info) != 0) {
        tv_fail(err, TV_ERR_IO, strerror(errno));
        return -1;
    }
    /* A FIFO would block the open (and every read) until a writer comes; a device may do anything. */
    if (!S_ISREG(info.st_mode)) {
        tv_fail(err, TV_ERR_IO, S_ISDIR(info.st_mode) ? "is a folder, not an image file" : "not a regular file");
        return -1;
    }
    /* Non-blocking, and checked again on the descriptor: the path may have been replaced since the stat. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        tv_fail(err, TV_ERR_IO, strerror(errno));
        return -1;
    }
    if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        close(fd);
        tv_fail(err, TV_ERR_IO, "not a regular file");
        return -1;
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0) fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    return fd;
}

int tv_open_file(const char *path, tv_error *err) { return tv_open_regular(path, err); }

FILE *tv_fopen_regular(const char *path, tv_error *err) {
    int fd = tv_open_regular(path, err);
    if (fd < 0) return NULL;
    FILE *file = fdopen(fd, "rb");
    if (file == NULL) {
        int saved = errno;
        close(fd);
        tv_fail(err, TV_ERR_IO, strerror(saved));
    }
    return file;
}

int tv_dup_regular(int fd, tv_error *err) {
    struct stat info;
    if (fd < 0 || fstat(fd, &info) != 0) {
        tv_fail(err, TV_ERR_IO, fd < 0 ? "no open file" : strerror(errno));
        return -1;
    }
    if (!S_ISREG(info.st_mode)) {
        tv_fail(err, TV_ERR_IO, S_ISDIR(info.st_mode) ? "is a folder, not an image file" : "not a regular file");
        return -1;
    }
    int copy = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (copy < 0) tv_fail(err, TV_ERR_IO, strerror(errno));
    return copy;
}

/* A stream over a descriptor that reads with pread at its own offset (fopencookie). */
struct tv_descriptor_cookie {
    int fd;
    off64_t offset;
};

static ssize_t tv_descriptor_cookie_read(void *cookie, char *buffer, size_t size) {
    struct tv_descriptor_cookie *c = cookie;
    ssize_t got;
    do {
        got = pread(c->fd, buffer, size, c->offset);
    } while (got < 0 && errno == EINTR);
    if (got > 0) c->offset += got;
    return got;
}

static int tv_descriptor_cookie_seek(void *cookie, off64_t *position, int whence) {
    struct tv_descriptor_cookie *c = cookie;
    off64_t base;
    switch (whence) {
    case SEEK_SET: base = 0; break;
    case SEEK_CUR: base = c->offset; break;
    case SEEK_END: {
        struct stat info;
        if (fstat(c->fd, &info) != 0) return -1;
        base = info.st_size;
        break;
    }
    default: errno = EINVAL; return -1;
    }
    if (*position < 0 && base + *position < 0) {
        errno = EINVAL;
        return -1;
    }
    c->offset = base + *position;
    *position = c->offset;
    return 0;
}

static int tv_descriptor_cookie_close(void *cookie) {
    struct tv_descriptor_cookie *c = cookie;
    int status = close(c->fd);
    free(c);
    return status;
}

FILE *tv_fopen_descriptor(int fd, tv_error *err) {
    int copy = tv_dup_regular(fd, err);
    if (copy < 0) return NULL;
    struct tv_descriptor_cookie *cookie = calloc(1, sizeof *cookie);
    if (cookie == NULL) {
        close(copy);
        tv_fail(err, TV_ERR_NOMEM, "out of memory");
        return NULL;
    }
    cookie->fd = copy;
    cookie_io_functions_t functions = {
        .read = tv_descriptor_cookie_read, .write = NULL, .seek = tv_descriptor_cookie_seek,
        .close = tv_descriptor_cookie_close};
    FILE *file = fopencookie(cookie, "rb", functions);
    if (file == NULL) {
        int saved = errno;
        close(copy);
        free(cookie);
        tv_fail(err, TV_ERR_IO, strerror(saved));
    }
    return file;
}

long long tv_stream_length(FILE *file) {
    struct stat info;
    int fd = fileno(file);
    if (fd >= 0) return fstat(fd, &info) == 0 && S_ISREG(info.st_mode) ? (long long)info.st_size : -1;
    /* A descriptor stream (no fileno): its seek function knows the length. */
    off64_t here = ftello64(file);
    if (here < 0 || fseeko64(file, 0, SEEK_END) != 0) return -1;
    off64_t end = ftello64(file);
    if (fseeko64(file, here, SEEK_SET) != 0) return -1;
    return end;
}

static tv_status tv_read_prefix(FILE *file, uint8_t *buffer, size_t capacity, size_t *count, tv_error *err) {
    size_t got = fread(buffer, 1, capacity, file);
    int failed = ferror(file);
    int saved = errno;
    fclose(file);
    if (failed) return tv_fail(err, TV_ERR_IO, strerror(saved));
    *count = got;
    return TV_OK;
}

tv_status tv_file_read_prefix(const char *path, uint8_t *buffer, size_t capacity, size_t *count, tv_error *err) {
    *count = 0;
    FILE *file = tv_fopen_regular(path, err);
    if (file == NULL) return TV_ERR_IO;
    return tv_read_prefix(file, buffer, capacity, count, err);
}

tv_status tv_descriptor_read_prefix(int fd, uint8_t *buffer, size_t capacity, size_t *count, tv_error *err) {
    *count = 0;
    FILE *file = tv_fopen_descriptor(fd, err);
    if (file == NULL) return TV_ERR_IO;
    return tv_read_prefix(file, buffer, capacity, count, err);
}

void tv_free(void *pointer) { free(pointer); }
