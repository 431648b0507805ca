#ifndef CIMAGECODECS_SHIM_INTERNAL_H
#define CIMAGECODECS_SHIM_INTERNAL_H

/* Functions shared by the shim's C files; not part of the public header. */

#include "CImageCodecs.h"

struct tv_warning_log {
    int total;
    int distinct;
    char text[TV_MAX_WARNING_TEXTS][TV_MESSAGE_LEN];
    int times[TV_MAX_WARNING_TEXTS];
};

/* Counts a warning; keeps its text when it is new and there is room. */
void tv_warning_log_add(struct tv_warning_log *log, const char *text);

/* Fills `err` (which may be NULL) and returns `status`. */
tv_status tv_fail(tv_error *err, tv_status status, const char *message);

/* Copies at most TV_MESSAGE_LEN - 1 bytes and terminates. */
void tv_copy_message(char *dst, const char *src);

#endif
