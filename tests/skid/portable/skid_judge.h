/* The arithmetic and the verdict of suite "skid" (tests/skid/suite_skid.c): where a PMI lands relative to the
 * instruction whose event overflowed the counter. Portable: the host tests hold it against hand-made trials
 * (tests/skid/host/test_skid.c). docs/skid.md says what the measurement shows about silicon and what it cannot.
 *
 * Distance: the index, in the single-step oracle's instruction stream, of the instruction the PMI interrupted
 * (its return RIP) minus the index of the instruction whose event overflowed the counter. 1 is the least a PMI
 * can show: it arrived right after the overflowing instruction retired. 0 or less: it arrived before. */
#pragma once
#include "lib/types.h"

#define SKID_MAX_TRIALS 128

/* One trial as the check saw it. */
struct skid_trial {
    bool pmi;          /* a PMI arrived */
    bool in_stream;    /* its return RIP is an instruction of the oracle's stream */
    s64 interrupted;   /* that instruction's index in the stream */
    u64 period;        /* the counter was preloaded to overflow on its period-th counted event */
    bool counter_read; /* the counter was read in the handler (freeze off: it kept counting until the handler) */
    s64 after_wrap;    /* that value as a signed distance from the wrap: events counted after the overflowing
                        * one (negative: the counter had not wrapped yet) */
};

/* Where counting started: the stream index of the first counted instruction is -start (start events were counted
 * before the workload's first instruction, e.g. a return to ring 3 that retires at CPL 3). Each valid trial with the
 * counter read gives it: its overflowing instruction is interrupted - 1 - after_wrap, so start = period - 1 - that.
 * The value most trials give is taken (an interrupt that returned to ring 3 inside a trial adds one counted
 * instruction to that trial only); found: more than half of those trials agree on it. */
struct skid_start {
    bool found;
    s64 start;
    u32 agree, trials; /* trials giving that value; trials with the counter read */
};
void skid_counting_start(const struct skid_trial *t, u32 n, struct skid_start *out);

/* One trial's distance, given where counting started; false when the trial has no PMI, no place in the stream, or
 * its own counter says counting started elsewhere (it was disturbed). */
bool skid_distance(const struct skid_trial *t, s64 start, s64 *out);

struct skid_summary {
    u32 trials, valid;       /* trials run; trials with a distance */
    s64 min, median, p99, max;
    u32 early;               /* distances <= 0: the PMI came before the overflowing instruction retired */
    u32 beyond;              /* distances above the bound (when there is one) */
};
/* Distances of the valid trials (sorted in place); bound 0: none. */
void skid_summarize(s64 *d, u32 valid, u32 trials, u64 bound, struct skid_summary *out);

enum skid_verdict {
    SKID_PASS,         /* every valid trial at distance >= 1 (and within the bound, if one is given) */
    SKID_FAIL_EARLY,   /* two or more trials: the PMI before the overflowing instruction retired */
    SKID_FAIL_BOUND,   /* two or more trials beyond the bound */
    SKID_INCONCLUSIVE, /* one trial alone deviated, or fewer than half the trials were valid */
};
/* The verdict from all trials: a deviation counts when it repeats (two trials), a single one is inconclusive. *why
 * is a static explanation. */
enum skid_verdict skid_judge(const struct skid_summary *s, const char **why);
