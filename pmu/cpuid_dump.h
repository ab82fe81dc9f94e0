/* CPUID dumps as a cpuid_source: parse the text of a dump of one or more logical CPUs and answer CPUID
 * queries for one of them. Used by tools/pmu-decode and the host tests, so decoders run on real CPUs' data.
 *
 * Formats accepted (one dump may mix them; lines of any other shape are ignored as commentary):
 *   - Debian `cpuid -r`:   "   0x0000000a 0x00: eax=0x07300404 ebx=0x00000000 ecx=0x00000000 edx=0x00000603"
 *   - AIDA64/InstLatx64:   "CPUID 0000000A: 07300404-00000000-00000000-00000603"  optionally followed by
 *                          "[SL 01]" (the subleaf, hex) and free-text comments in brackets
 *   - "CPUID 0000000a:00 = 07300404 00000000 00000000 00000603 | ascii"  (leaf:subleaf, then 4 registers)
 * Logical CPUs: every dump format starts each CPU with leaf 0, so a leaf-0 line after some data starts the
 * next CPU (headers like "CPU 1:" or "Logical CPU #1" are not needed and are ignored).
 * AIDA lines without an [SL nn] tag: a repeat of the previous line's leaf is the next subleaf (old AIDA
 * versions list leaves 4 and 0xB that way); otherwise subleaf 0. */
#pragma once
#include "lib/cpuid_source.h"
#include "lib/types.h"

#define CPUID_DUMP_MAX_ENTRIES 1024

struct cpuid_dump_entry {
    u32 leaf, subleaf;
    struct cpuid_regs r;
};

struct cpuid_dump {
    struct cpuid_dump_entry entries[CPUID_DUMP_MAX_ENTRIES]; /* the selected CPU's leaves, in file order */
    u32 count;
    u32 cpu;        /* the logical CPU kept (0-based, in file order) */
    u32 cpus_seen;  /* logical CPUs in the whole dump */
    u32 err_line;   /* on failure: 1-based line number, 0 when the error is not about one line */
    char err[160];  /* on failure: what was wrong, without the line number */
};

/* Parse `len` bytes of dump text (no NUL terminator needed) and keep the leaves of logical CPU `cpu`.
 * Every CPUID line of the whole text is checked, so a truncated or garbled line anywhere is an error.
 * Returns false with d->err (and d->err_line) set when: a CPUID line is malformed, the dump has no CPUID
 * line, `cpu` is beyond the CPUs present, one CPU repeats a (leaf, subleaf), or the kept CPU has more than
 * CPUID_DUMP_MAX_ENTRIES lines. */
bool cpuid_dump_parse(struct cpuid_dump *d, const char *text, size_t len, u32 cpu);

/* Start an empty dump (for building one by hand, e.g. synthetic test vectors). */
void cpuid_dump_init(struct cpuid_dump *d);
/* Add or replace one (leaf, subleaf); false when full. */
bool cpuid_dump_set(struct cpuid_dump *d, u32 leaf, u32 subleaf, u32 eax, u32 ebx, u32 ecx, u32 edx);
/* Look one up; false when the dump does not hold it (the leaf is "missing", not "zero"). */
bool cpuid_dump_lookup(const struct cpuid_dump *d, u32 leaf, u32 subleaf, struct cpuid_regs *r);

/* A cpuid_source answering from `d` (which must outlive the source). */
void cpuid_dump_source(const struct cpuid_dump *d, struct cpuid_source *src);
