/* The verdicts of the uncore checks, portable so that the host tests hold them against the register model
 * (emul/model/uncore_model.c) and a kernel suite decides with the same code. Each judgement keeps what it compared,
 * and a describe function prints it as YAML evidence lines (expected, observed, tolerance). docs/uncore.md. */
#pragma once
#include "pmu/uncore_kind.h"

struct strbuf;

enum uncore_outcome { UNCORE_PASS, UNCORE_FAIL, UNCORE_SKIP };
const char *uncore_outcome_name(enum uncore_outcome o);

/* What a check needs of the kind; false with *why (static text) when the kind lacks it. */
enum uncore_need { UNCORE_NEED_ROUTING, UNCORE_NEED_FREEZE, UNCORE_NEED_STATUS, UNCORE_NEED_FIXED };
bool uncore_kind_can(const struct uncore_kind_desc *k, enum uncore_need need, const char **why);

/* The PMI routing protocol: the cores the routing field selected (bit n: core n of the scope) and how many uncore
 * PMIs each core's threads took (pmis[n], n < cores). PASS: every selected core exactly one, every other none. */
struct uncore_route_judgement {
    u32 selected;
    u32 received;  /* cores that took at least one */
    u32 missing;   /* selected, took none */
    u32 repeated;  /* selected, took more than one */
    u32 stray;     /* not selected, took one or more */
    u32 total;
};
enum uncore_outcome uncore_route_judge(u32 selected, const u32 *pmis, u32 cores, struct uncore_route_judgement *j);
void uncore_route_describe(const struct uncore_route_judgement *j, const u32 *pmis, u32 cores, struct strbuf *sb);
/* Which cores received it and how late: latency[n] the TSC ticks from the overflow (the arming thread's read of the
 * status) to core n's handler, for the cores that took a PMI; in ns at tsc_hz. Evidence, not a verdict. */
void uncore_route_latency_describe(const u64 *latency, const u32 *pmis, u32 cores, u64 tsc_hz, struct strbuf *sb);

/* Freeze on PMI, by its effect: for n armed counters of `width` bits, each counting by construction while the waits
 * last (the clock, or an event the workload drives), at_pmi[i] read in the handler, later[i] after a wait while still
 * frozen, released[i] after the documented release and another wait. PASS: nothing moved while frozen, everything
 * moved after the release. ctrl_at_pmi (the global control read in the handler) is evidence. */
struct uncore_freeze_judgement {
    u32 moved_while_frozen; /* counters (bit i) that advanced between at_pmi and later */
    u32 stuck_after_release; /* counters that did not advance between later and released */
    u64 ctrl_before, ctrl_at_pmi;
    bool en_cleared;        /* UNCORE_FREEZE_CLEARS_EN: the handler found EN clear, as documented */
};
enum uncore_outcome uncore_freeze_judge(const struct uncore_kind_desc *k, u8 width, const u64 *at_pmi,
                                        const u64 *later, const u64 *released, u32 n, u64 ctrl_before,
                                        u64 ctrl_at_pmi, struct uncore_freeze_judgement *j);
void uncore_freeze_describe(const struct uncore_freeze_judgement *j, struct strbuf *sb);

/* Overflow status set and cleared: `expected` the overflow bits of the counters that overflowed by construction,
 * `pmi_raised` whether one of them had its PMI bit set; after_overflow read before the clear, after_clear read after
 * it (uncore_status_clear_write). PASS: exactly the expected overflow bits, OVF_PMI when a PMI was raised and the kind
 * has it, CHG when the kind has it; after the clear none of them. */
struct uncore_status_judgement {
    u64 expected, after_overflow, after_clear;
    u64 missing;     /* expected, not set */
    u64 extra;       /* overflow bits set that no counter caused */
    u64 not_cleared; /* set after the clear */
    bool ovf_pmi_missing, chg_missing;
};
enum uncore_outcome uncore_status_judge(const struct uncore_kind_desc *k, u64 expected, bool pmi_raised,
                                        u64 after_overflow, u64 after_clear, struct uncore_status_judgement *j);
void uncore_status_describe(const struct uncore_status_judgement *j, struct strbuf *sb);
/* The write that clears `bits` (with OVF_PMI and CHG where the kind has them): *msr and *value; false: no status. */
bool uncore_status_clear_write(const struct uncore_kind_desc *k, u64 bits, u64 status_now, u32 *msr, u64 *value);

/* An event bounded below by construction (UNCORE_BOUND_AT_LEAST_LINES): at least `lines` for a workload reading that
 * many distinct lines that miss the core's caches. No upper bound: every agent of the package shares the uncore. */
struct uncore_at_least_judgement {
    u64 count, lines;
};
enum uncore_outcome uncore_at_least_judge(u64 count, u64 lines, struct uncore_at_least_judgement *j);
void uncore_at_least_describe(const struct uncore_at_least_judgement *j, struct strbuf *sb);

/* The fixed clock against the TSC: fixed_delta uncore clocks over tsc_delta TSC ticks at tsc_hz; expect_hz the
 * documented (or, emulated, the presented) rate, 0 when not known for the part (SKIP). Tolerance: the error of reading
 * the two counters read_gap TSC ticks apart at each end, plus UNCORE_CLOCK_BASE_PPM. */
#define UNCORE_CLOCK_BASE_PPM 500
struct uncore_clock_judgement {
    u64 rate_hz, expect_hz, lo_hz, hi_hz;
    u32 tol_ppm;
    bool sanity; /* judged against the sanity bound, the rate not being known */
};
u32 uncore_clock_tolerance_ppm(u64 tsc_delta, u64 read_gap);
enum uncore_outcome uncore_clock_judge(u64 fixed_delta, u64 tsc_delta, u64 tsc_hz, u64 expect_hz, u32 tol_ppm,
                                       struct uncore_clock_judgement *j);
/* On hardware the uncore clock's rate is not known per part (it follows the ring or the uncore's own frequency): a
 * sanity bound only, between a tenth of the TSC's rate and four times it. It catches a counter that does not count,
 * counts something else (a bus clock far slower) or is read wrong, not a clock a few percent off. */
#define UNCORE_CLOCK_SANITY_LO_DIV 10
#define UNCORE_CLOCK_SANITY_HI_MUL 4
enum uncore_outcome uncore_clock_sanity_judge(u64 fixed_delta, u64 tsc_delta, u64 tsc_hz,
                                              struct uncore_clock_judgement *j);
void uncore_clock_describe(const struct uncore_clock_judgement *j, struct strbuf *sb);
