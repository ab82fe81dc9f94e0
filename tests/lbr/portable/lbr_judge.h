/* Suite "lbr"'s expectations and comparison (tests/lbr/suite_lbr.c): the records an LBR must hold after a workload
 * whose branches the single-step oracle saw, and how the records read compare. Portable: host-tested
 * (tests/lbr/host/test_lbr_judge.c). docs/lbr.md says what each check shows about silicon. */
#pragma once
#include "lib/types.h"
#include "pmu/lbr.h"

/* One branch instruction of the oracle's stream. */
struct lbr_ref {
    u64 from, to;
    int kind;   /* enum lbr_branch of a taken branch; -1 for a branch not taken */
    u8 to_cpl;
    s8 mispred; /* 1/0: whether it was mispredicted, where known (the emulated PMU's predictor); -1: not known */
    u64 before; /* the instruction retired just before it (a fused compare's, for AMD's FROM) */
};

/* The records the LBR must hold, youngest first: the last `depth` taken branches of stream[0..n) the filter keeps.
 * Returns how many (at most depth). */
u32 lbr_expect(const struct lbr_ref *stream, u32 n, const struct lbr_filter *f, u32 depth, struct lbr_ref *out);

struct lbr_match {
    u32 expected, matched;  /* records expected; leading records that equal them */
    int mismatch;           /* the first record that differs (-1: none) */
    u64 exp_from, exp_to, got_from, got_to; /* at the mismatch */
    bool exit_on_top;       /* the youngest record was the workload's exit to the kernel (allowed, noted) */
    u32 extra;              /* valid records beyond the expected ones */
    u32 type_checked, type_wrong; /* Arch LBR BR_TYPE compared, wrong */
    u32 mispred_checked, mispred_wrong; /* mispredict flags compared (format has them, expectation known), wrong */
    u32 fused;              /* conditional branches whose FROM was the instruction before them (AMD) */
    u32 not_retired;        /* entries left out: not a retired branch (AMD wrong path, erratum 1452) */
};
/* Compare the records read (youngest first, `valid` entries counted) with the expected ones. A youngest record from
 * `exit_from` (the instruction that returns a CPL-3 workload to the kernel: a CPU whose CPL filter judges a
 * ring-crossing branch by its source records it) is skipped and noted. True when every expected record is there in
 * order, nothing else is, and every branch type and mispredict flag that both sides have is right (has_mispred: the
 * format carries the flag). Entries marked not_retired are left out first. fused_from (AMD LbrExtV2): a conditional
 * branch's FROM may be the instruction before it, when the two were fused (Linux amd_pmu_lbr_filter moves FROM past
 * it: "instruction fusion where it points to an instruction preceding the actual branch"). */
bool lbr_match(const struct lbr_record *obs, u32 nobs, const struct lbr_ref *exp, u32 nexp, u64 exit_from,
               bool has_mispred, bool fused_from, struct lbr_match *out);

/* Freeze on PMI: the counter counted branch instructions (taken or not) from the stream's first one and overflowed
 * on the k-th (1-based). The index, among the stream's taken branches the filter keeps, of the youngest record the
 * frozen LBR must hold: the last one at or before the k-th branch; -1 when there is none. */
s32 lbr_freeze_top(const struct lbr_ref *stream, u32 n, const struct lbr_filter *f, u64 k);
/* The taken branches the filter keeps, youngest first, ending at the one with that index (as lbr_expect for a
 * stream cut after it). */
u32 lbr_expect_at(const struct lbr_ref *stream, u32 n, const struct lbr_filter *f, u32 top, u32 depth,
                  struct lbr_ref *out);
/* Two reads of a stack hold the same records (FROM, TO, validity), entry by entry: a frozen LBR does not move. */
bool lbr_stack_same(const struct lbr_record *a, const struct lbr_record *b, u32 depth);
