#include "shim_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

tv_status tv_file_read_prefix(const char *path, uint8_t *buffer, size_t capacity, size_t *count, tv_error *err) {
    *count = 0;
    FILE *file = fopen(path, "rb");
    if (file == NULL) return tv_fail(err, TV_ERR_IO, strerror(errno));
    size_t got = fread(buffer, 1, capacity, file);
    int failed = ferror(file);
    int saved = errno;
    fclose(file);
    if (failed) return tv_fail(err, TV_ERR_IO, strerror(saved));
    *count = got;
    return TV_OK;
}

void tv_free(void *pointer) { free(pointer); }
