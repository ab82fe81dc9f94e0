/* Suite "events": workloads with counts known by construction (tests/events/events_workloads.asm), the single-step
 * oracle (kernel/singlestep.c), and, with a PMU, every exact event on every counter (tests/events/events_pmu.c).
 * The oracle checks need no PMU and run everywhere, QEMU TCG included: construction = oracle, at CPL 3 and
 * CPL 0, for two lengths of each workload. */
#include "tests/events/events_checks.h"
#include "tests/events/events_pmu.h"

#include "lib/format.h"
#include "kernel/timing.h"
#include "kernel/x86.h"

/* The two lengths of each workload: the difference of their counts cancels fixed overheads in the counting
 * pass (nanoBench); small, because single-stepping costs one #DB per instruction (about 5k traps per CPU). */
const struct ew_lengths ew_lengths[EW_COUNT] = {
    [EW_STRAIGHT] = {16, 64}, [EW_LOOP] = {8, 40},   [EW_BRANCHES] = {8, 40}, [EW_MEM] = {8, 40},
    [EW_CLFLUSH] = {4, 16},   [EW_LFSR] = {16, 80},  [EW_CYCLES] = {8, 40},   [EW_REP_STOS] = {16, 256},
    [EW_CALLS] = {4, 16},
};

/* Every field, short-named, then the return value. */
static void format_counts(char *buf, size_t size, const struct ew_counts *c)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int f = 0; f < EWC_FIELDS && at < size; f++)
        at += k_snprintf(buf + at, size - at, "%s %llu ", ew_field_name((enum ew_count_field)f),
                         (unsigned long long)ew_field(c, (enum ew_count_field)f));
    if (at < size)
        k_snprintf(buf + at, size - at, "ret %llu", (unsigned long long)c->ret);
}

static bool counts_equal(const struct ew_counts *want, const struct ew_counts *got)
{
    for (int f = 0; f < EWC_FIELDS; f++)
        if (ew_field(want, (enum ew_count_field)f) != ew_field(got, (enum ew_count_field)f))
            return false;
    return !want->ret_checked || want->ret == got->ret;
}

/* One workload, one CPL, one length: the oracle's counts must equal the construction's, with every stepped
 * instruction classified and fn's final RET seen. */
static u64 oracle_one(struct check *c, enum ew_id w, u8 cpl, u64 n)
{
    struct ew_counts want;
    if (!ew_expect(w, n, &want)) {
        check_fail(c, "no construction for %s with n %llu", ew_name(w), (unsigned long long)n);
        return 0;
    }
    struct ew_oracle o;
    ew_oracle_run(cpl, ew_function(w), n, &o);
    if (!want.ret_checked)
        o.counts.ret = want.ret; /* the return value depends on memory others write: not compared */
    char what[48], exp[360], obs[360];
    format_counts(exp, sizeof(exp), &want);
    format_counts(obs, sizeof(obs), &o.counts);
    k_snprintf(what, sizeof(what), "CPL %u n %llu", cpl, (unsigned long long)n);
    expect_true(c, what, counts_equal(&want, &o.counts), exp, "%s", obs);
    if (o.stats.unknown || o.first_unknown)
        expect_true(c, "unclassified instructions", false, "0", "%llu, first at rip 0x%llx",
                    (unsigned long long)o.stats.unknown, (unsigned long long)o.first_unknown);
    if (!o.stats.ended || o.stats.truncated || o.wrong_cpl)
        expect_true(c, "stepping complete", false, "final RET seen, all at the CPL asked",
                    "ended %d truncated %d wrong-CPL steps %llu", o.stats.ended, o.stats.truncated,
                    (unsigned long long)o.wrong_cpl);
    if (o.stats.rep_iterations)
        check_note(c, "rep_iterations", "CPL %u n %llu: %llu same-RIP traps of REP STOSB merged into one instruction",
                   cpl, (unsigned long long)n, (unsigned long long)o.stats.rep_iterations);
    return o.stats.traps;
}

static void oracle_check(struct check *c, enum ew_id w)
{
    check_note(c, "workload", "%s, n %llu and %llu, counts derived in tests/events/events_workloads.asm", ew_name(w),
               (unsigned long long)ew_lengths[w].n1, (unsigned long long)ew_lengths[w].n2);
    u64 traps = 0, t0 = rdtsc();
    for (u8 cpl = 0; cpl <= 3; cpl += 3) {
        traps += oracle_one(c, w, (u8)(3 - cpl), ew_lengths[w].n1);
        traps += oracle_one(c, w, (u8)(3 - cpl), ew_lengths[w].n2);
    }
    u64 us = tsc_to_us(rdtsc() - t0);
    check_note(c, "stepping_time", "%llu #DB traps in %llu us (%llu ns each)", (unsigned long long)traps,
               (unsigned long long)us, (unsigned long long)(traps ? us * 1000 / traps : 0));
}

#define ORACLE_CHECK(id, nm)                                                                                 \
    static void oracle_##nm(struct check *c) { oracle_check(c, id); }
ORACLE_CHECK(EW_STRAIGHT, straight)
ORACLE_CHECK(EW_LOOP, loop)
ORACLE_CHECK(EW_BRANCHES, branches)
ORACLE_CHECK(EW_MEM, mem)
ORACLE_CHECK(EW_CLFLUSH, clflush)
ORACLE_CHECK(EW_LFSR, lfsr)
ORACLE_CHECK(EW_CYCLES, cycles)
ORACLE_CHECK(EW_REP_STOS, rep_stos)
ORACLE_CHECK(EW_CALLS, calls)

static const struct check_def events_checks[] = {
    {"oracle_straight", oracle_straight, SCOPE_PER_CPU, NO_FAULT},
    {"oracle_loop", oracle_loop, SCOPE_PER_CPU, NO_FAULT},
    {"oracle_branches", oracle_branches, SCOPE_PER_CPU, NO_FAULT},
    {"oracle_mem", oracle_mem, SCOPE_PER_CPU, NO_FAULT},
    {"oracle_clflush", oracle_clflush, SCOPE_PER_CPU, NO_FAULT},
    {"oracle_lfsr", oracle_lfsr, SCOPE_PER_CPU, NO_FAULT},
    {"oracle_cycles", oracle_cycles, SCOPE_PER_CPU, NO_FAULT},
    {"oracle_rep_stos", oracle_rep_stos, SCOPE_PER_CPU, NO_FAULT},
    {"oracle_calls", oracle_calls, SCOPE_PER_CPU, NO_FAULT},
    {"exact_gp", events_exact_gp_check, SCOPE_PER_CPU, NO_FAULT},
    {"exact_fixed", events_exact_fixed_check, SCOPE_PER_CPU, NO_FAULT},
    {"cycles", events_cycles_check, SCOPE_PER_CPU, NO_FAULT},
    {"ref_cycles", events_ref_cycles_check, SCOPE_PER_CPU, NO_FAULT},
    {"llc_misses", events_llc_check, SCOPE_PER_CPU, NO_FAULT},
    {"mispredicts", events_mispredict_check, SCOPE_PER_CPU, NO_FAULT},
    {"cmask_inv_edge", events_cmask_check, SCOPE_PER_CPU, NO_FAULT},
    {"stability", events_stability_check, SCOPE_PER_CPU, NO_FAULT},
    {"metrics", events_metrics_check, SCOPE_PER_CPU, NO_FAULT},
};

const struct suite suite_events = {"events", "event workloads: construction = single-step oracle (= counters)",
                                   true, SUITE_CHECKS(events_checks)};
