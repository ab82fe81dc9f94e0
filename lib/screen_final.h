/* What the final screen of a run lists besides its QR codes (docs/screen.md): every failure with its thread, check
 * and the line of evidence that says most, and the header lines that say which machine it was, read from the
 * stream the codes carry (lib/result_stream.h). Portable: the kernel draws what this finds. */
#pragma once
#include "lib/types.h"

struct screen_fail {
    u32 number;           /* the TAP test number (0 for a bail-out) */
    const char *name;     /* "cpu3/apic/id", "cpu[0-3]/apic/id", "smp/online", or the bail-out's reason */
    u32 name_len;
    const char *evidence; /* its first expectation ({expected: ...}), else its "failure" entry, else its first YAML
                           * line, without the indent ("" when it has no YAML block) */
    u32 evidence_len;
};

/* The next failure in s[*pos..len) ("not ok" without a TODO directive, or "Bail out!"), advancing *pos past it.
 * false at the end. */
bool screen_final_next_fail(const char *s, u32 len, u32 *pos, struct screen_fail *f);

/* The text after the first comment line "# PREFIX" in s[0..len), and its length; NULL if there is none. */
const char *screen_final_comment(const char *s, u32 len, const char *prefix, u32 *out_len);
