/* Suite "pebs"'s comparison of PEBS records with the single-step oracle's instruction stream (tests/pebs/suite_pebs.c).
 * Portable: host-tested (tests/pebs/host/test_pebs_judge.c; tests/host/test_pebs.c holds the register model's
 * records against it). docs/pebs.md says what it shows about silicon. */
#pragma once
#include "lib/types.h"
#include "pmu/pebs.h"

/* The workload as the oracle saw it: every instruction's address in order, and which of them count the event. */
struct pebs_stream {
    const u64 *rip;
    u32 n;
    const u16 *ev; /* indices into rip of the instructions that count the event, in order */
    u32 nev;
    /* RAX after instruction i, or false where the construction does not say (NULL: never checked) */
    bool (*rax_after)(u32 i, u64 *rax);
};

struct pebs_judgement {
    u32 records, expected;
    s64 d;         /* events from one record to the next: the period, or the period + 1 */
    s64 start;     /* events counted before the workload's first instruction */
    int bad;       /* the first record that fails, -1: none */
    const char *why;
    u32 rax_checked;
    s64 shadow_max; /* not exact: the most events a record came after the earliest place the period allows */
};

/* Every record names an instruction of the stream that counts the event (its EventingIP, or where a format has only
 * the RIP after it, the one before that), later than the previous record's; the instruction after it where the
 * record has one; RAX where the construction knows it (the state after the instruction: not for a fault-like assist).
 * exact (a counter with precise distribution, or the emulated PMU, which declares it): consecutive records are the
 * same number of events apart, the period (the record on the overflowing event) or the period + 1 (armed by the
 * overflow, written on the next event, SDM "Processor Event Based Sampling"); the first lies that far from the start
 * of counting, at most max_start events before the workload; and there are as many records as the events allow. Not
 * exact (the "PEBS shadow": the record some events after the one that armed it): every record at least the period
 * after the one before (the counter reloads at the record), the first no earlier than the period allows, at least one
 * record and no more than the events allow; how late is reported (shadow_max). trap: IA32_PERF_CAPABILITIES.PEBS_TRAP
 * (formats 0-1: a fault-like assist's RIP is the eventing instruction itself). */
bool pebs_judge(const struct pebs_stream *s, u64 period, const struct pebs_record *r, u32 nr, u32 max_start, bool trap,
                bool exact, struct pebs_judgement *out);
