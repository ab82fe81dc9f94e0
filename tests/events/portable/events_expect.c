/* Expected counts of the event workloads: tests/events/portable/events_expect.h. Each case restates the derivation written
 * next to the workload in tests/events/events_workloads.asm. */
#include "tests/events/portable/events_expect.h"

#include "tests/events/portable/events_workloads.h"

static const char *const names[EW_COUNT] = {"straight", "loop", "branches", "mem", "clflush", "lfsr", "cycles",
                                            "rep_stos", "calls"};
static const char *const field_names[EWC_FIELDS] = {
    "instructions", "branches",  "conditional", "taken",         "loads",         "stores",
    "flushes",      "cond_taken", "cond_not_taken", "near_calls", "indirect_calls", "relative_calls",
    "near_returns", "relative_jumps", "indirect_jumps", "far"};

const char *ew_name(enum ew_id w)
{
    return (unsigned)w < EW_COUNT ? names[w] : "?";
}

const char *ew_field_name(enum ew_count_field f)
{
    return (unsigned)f < EWC_FIELDS ? field_names[f] : "?";
}

u64 ew_field(const struct ew_counts *c, enum ew_count_field f)
{
    switch (f) {
    case EWC_INSNS:
        return c->insns;
    case EWC_BRANCHES:
        return c->branches;
    case EWC_COND:
        return c->cond;
    case EWC_TAKEN:
        return c->taken;
    case EWC_LOADS:
        return c->loads;
    case EWC_STORES:
        return c->stores;
    case EWC_FLUSHES:
        return c->flushes;
    case EWC_COND_TAKEN:
        return c->cond_taken;
    case EWC_COND_NTAKEN:
        return c->cond_ntaken;
    case EWC_CALLS:
        return c->calls;
    case EWC_IND_CALLS:
        return c->ind_calls;
    case EWC_REL_CALLS:
        return c->rel_calls;
    case EWC_RETS:
        return c->rets;
    case EWC_REL_JMPS:
        return c->rel_jmps;
    case EWC_IND_JMPS:
        return c->ind_jmps;
    case EWC_FAR:
        return c->far;
    default:
        return 0;
    }
}

u64 ew_max_n(enum ew_id w)
{
    switch (w) {
    case EW_STRAIGHT:
        return EW_STRAIGHT_MAX;
    case EW_CLFLUSH:
        return EW_LINES_MAX;
    case EW_REP_STOS:
        return EW_MEM_QWORDS * 8;
    default:
        return (unsigned)w < EW_COUNT ? 1u << 20 : 0; /* loops: any n; bounded to keep the products small */
    }
}

u64 ew_lfsr_ones(u64 n)
{
    u32 s = EW_LFSR_SEED;
    u64 k = 0;
    for (u64 i = 0; i < n; i++) {
        u32 bit = s & 1;
        s >>= 1;
        if (bit)
            s ^= EW_LFSR_TAPS;
        k += bit;
    }
    return k;
}

/* The loop-shaped workloads with n = 0: the JZ over the loop is taken straight to the epilogue. */
static void empty_loop(struct ew_counts *c, u64 insns)
{
    *c = (struct ew_counts){.insns = insns, .branches = 2, .cond = 1, .taken = 2, .loads = 1, .ret_checked = true};
}

/* The counts of each workload but the branch kinds that follow from them (branch_kinds). */
static bool expect_main(enum ew_id w, u64 n, struct ew_counts *c)
{
    *c = (struct ew_counts){0};
    if ((unsigned)w >= EW_COUNT || n > ew_max_n(w))
        return false;
    switch (w) {
    case EW_STRAIGHT: /* 8 before the block, n ADDs, RET; JMP (indirect) and RET */
        *c = (struct ew_counts){.insns = n + 9, .branches = 2, .taken = 2, .loads = 1, .ind_jmps = 1, .ret = n,
                                .ret_checked = true};
        return true;
    case EW_LOOP: /* 4 + 4n + 1 */
        if (n == 0)
            return empty_loop(c, 5), true;
        *c = (struct ew_counts){.insns = 4 * n + 5, .branches = n + 2, .cond = n + 1, .taken = n, .loads = 1,
                                .ret = 3 * n, .ret_checked = true};
        return true;
    case EW_BRANCHES: /* 4 + 7n + 1; per iteration JE (not taken), JNE (taken), JMP, JNZ */
        if (n == 0)
            return empty_loop(c, 5), true;
        *c = (struct ew_counts){.insns = 7 * n + 5, .branches = 4 * n + 2, .cond = 3 * n + 1, .taken = 3 * n,
                                .loads = 1, .rel_jmps = n, .ret = n, .ret_checked = true};
        return true;
    case EW_MEM: /* 6 + 9n + 1; two loads and one store per iteration */
        if (n == 0)
            return empty_loop(c, 7), true;
        *c = (struct ew_counts){.insns = 9 * n + 7, .branches = n + 2, .cond = n + 1, .taken = n,
                                .loads = 2 * n + 1, .stores = n};
        return true;
    case EW_CLFLUSH: /* 9 + 5n + 2 + 5n + 1 */
        if (n == 0)
            return empty_loop(c, 10), true;
        *c = (struct ew_counts){.insns = 10 * n + 12, .branches = 2 * n + 2, .cond = 2 * n + 1,
                                .taken = 2 * n - 1, .loads = n + 1, .flushes = n};
        return true;
    case EW_LFSR: { /* 5 + 4n + 2k + 2 */
        u64 k = ew_lfsr_ones(n);
        if (n == 0)
            return empty_loop(c, 7), true;
        *c = (struct ew_counts){.insns = 4 * n + 2 * k + 7, .branches = 2 * n + 2, .cond = 2 * n + 1,
                                .taken = 2 * n - k, .loads = 1, .ret = k, .ret_checked = true};
        return true;
    }
    case EW_CYCLES: { /* 5 + 10n + 1; returns 3^(8n) mod 2^64 */
        u64 product = 1;
        for (u64 i = 0; i < 8 * n; i++)
            product *= 3;
        if (n == 0)
            return empty_loop(c, 6), c->ret = 1, true;
        *c = (struct ew_counts){.insns = 10 * n + 6, .branches = n + 2, .cond = n + 1, .taken = n, .loads = 1,
                                .ret = product, .ret_checked = true};
        return true;
    }
    case EW_REP_STOS: /* 8 + RET; the REP STOSB is one instruction and one store */
        *c = (struct ew_counts){.insns = 9, .branches = 1, .taken = 1, .loads = 1, .stores = 1, .ret = n,
                                .ret_checked = true};
        return true;
    case EW_CALLS: /* 6 + 15n + 1; per iteration a relative and an indirect CALL (each to a 2-instruction leaf
                    * that returns), an indirect and a relative JMP, a far RET and the loop's JNZ */
        if (n == 0)
            return empty_loop(c, 7), true;
        *c = (struct ew_counts){.insns = 15 * n + 7, .branches = 8 * n + 2, .cond = n + 1, .taken = 7 * n,
                                .loads = 3 * n + 1, .stores = 4 * n, .calls = 2 * n, .ind_calls = n, .rel_jmps = n,
                                .ind_jmps = n, .far = n, .ret = 2 * n, .ret_checked = true};
        return true;
    default:
        return false;
    }
}

/* What follows from the counts above: every workload returns from each of its calls and once to its caller; the
 * taken near branches that are not calls, returns or jumps are conditional ones. */
static void branch_kinds(struct ew_counts *c)
{
    c->rets = c->calls + 1;
    c->rel_calls = c->calls - c->ind_calls;
    c->cond_taken = c->taken - c->calls - c->rets - c->rel_jmps - c->ind_jmps;
    c->cond_ntaken = c->cond - c->cond_taken;
}

bool ew_expect(enum ew_id w, u64 n, struct ew_counts *c)
{
    if (!expect_main(w, n, c))
        return false;
    branch_kinds(c);
    return true;
}

bool ew_mem_exact(enum ew_id w)
{
    return w != EW_REP_STOS && w != EW_CALLS && (unsigned)w < EW_COUNT;
}

u64 ew_min_cycles(enum ew_id w, u64 n)
{
    return w == EW_CYCLES ? 8 * n : 0;
}

u64 ew_silent_counters(u64 should_count, u64 counted, u64 missed_on)
{
    u64 silent = should_count & ~counted;
    return missed_on && !(missed_on & ~silent) ? silent : 0;
}
