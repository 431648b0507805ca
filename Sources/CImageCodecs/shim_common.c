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
    memcpy(dst, src, n);
    dst[n] = '\0';
}

tv_status tv_fail(tv_error *err, tv_status status, const char *message) {
    if (err != NULL) {
        tv_copy_message(err->message, message);
        err->from_warning = 0;
    }
    return status;
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

FILE *tv_fopen_regular(const char *path, tv_error *err) {
    struct stat info;
    if (stat(path, &info) != 0) {
        tv_fail(err, TV_ERR_IO, strerror(errno));
        return NULL;
    }
    /* A FIFO would block the open (and every read) until a writer comes; a device may do anything. */
    if (!S_ISREG(info.st_mode)) {
        tv_fail(err, TV_ERR_IO, S_ISDIR(info.st_mode) ? "is a folder, not an image file" : "not a regular file");
        return NULL;
    }
    /* Non-blocking, and checked again on the descriptor: the path may have been replaced since the stat. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        tv_fail(err, TV_ERR_IO, strerror(errno));
        return NULL;
    }
    if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        close(fd);
        tv_fail(err, TV_ERR_IO, "not a regular file");
        return NULL;
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0) fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    FILE *file = fdopen(fd, "rb");
    if (file == NULL) {
        int saved = errno;
        close(fd);
        tv_fail(err, TV_ERR_IO, strerror(saved));
    }
    return file;
}

tv_status tv_file_read_prefix(const char *path, uint8_t *buffer, size_t capacity, size_t *count, tv_error *err) {
    *count = 0;
    FILE *file = tv_fopen_regular(path, err);
    if (file == NULL) return TV_ERR_IO;
    size_t got = fread(buffer, 1, capacity, file);
    int failed = ferror(file);
    int saved = errno;
    fclose(file);
    if (failed) return tv_fail(err, TV_ERR_IO, strerror(saved));
    *count = got;
    return TV_OK;
}

void tv_free(void *pointer) { free(pointer); }
