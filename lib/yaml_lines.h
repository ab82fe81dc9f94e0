/* The lines of a check's YAML block (docs/checklist.md): one writer for the kernel's checks (harness/framework.c)
 * and the host's predictions of them (tests/host/support/checks_predict.c), so both print the same bytes.
 * Portable. */
#pragma once
#include <stdarg.h>

#include "lib/format.h"
#include "lib/types.h"

/* A double-quoted YAML string: '"' and '\' escaped, newlines as \n. */
void yaml_str(struct strbuf *sb, const char *s);
/* A quoted key and ": " (a label such as "#PF CR2" would otherwise start a YAML comment). */
void yaml_key(struct strbuf *sb, const char *key);
/* key: "value" */
void yaml_note(struct strbuf *sb, const char *key, const char *value);
/* key: {expected: E, observed: O, tolerance: 0}, in hex (0x...) or decimal. */
void yaml_equal(struct strbuf *sb, const char *key, bool hex, u64 expected, u64 observed);
/* key: {expected: "E", observed: "O", tolerance: exact} */
void yaml_exact(struct strbuf *sb, const char *key, const char *expected, const char *observed);

/* yaml_note and yaml_exact with the value formatted (fmt, ap) straight into sb and escaped there: no intermediate
 * buffer cuts a long value (a rejected option's list of valid values); only sb's own size bounds it, and running out
 * of it marks sb truncated, which the TAP rendering reports. */
void yaml_note_v(struct strbuf *sb, const char *key, const char *fmt, va_list ap);
void yaml_exact_v(struct strbuf *sb, const char *key, const char *expected, const char *fmt, va_list ap);
