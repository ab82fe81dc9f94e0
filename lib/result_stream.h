/* The part of the checklist a run's QR codes carry (docs/screen.md): every line of the stream, TAP lines,
 * comments, plan and summary, but of the YAML blocks only a failure's (its evidence) and pmu_enum/discover's
 * (the PMU that reports describe the machine with). tools/pmuboot-report reads it back as it reads a serial log.
 * Fed the console's characters as they are written; portable, the buffer is the caller's. */
#pragma once
#include "lib/types.h"

#define RESULT_LINE_MAX 1024 /* a longer line is cut there (the serial log has it whole) */

struct result_stream {
    char *buf;
    u32 size, len;
    bool started;     /* "TAP version 13" seen: what came before is not the stream */
    bool in_yaml;     /* between "  ---" and "  ..." */
    bool keep_yaml;   /* the block belongs to a line whose evidence is kept */
    bool full;        /* a line did not fit: the stream is cut, said by the last line */
    u32 line_len;
    char line[RESULT_LINE_MAX];
};

void result_stream_init(struct result_stream *r, char *buf, u32 size);
void result_stream_putc(struct result_stream *r, char c);
