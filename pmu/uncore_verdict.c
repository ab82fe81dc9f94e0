/* The uncore checks' verdicts (pmu/uncore_verdict.h). */
#include "pmu/uncore_verdict.h"

#include "lib/apic_timer_calc.h"
#include "lib/format.h"

const char *uncore_outcome_name(enum uncore_outcome o)
{
    return o == UNCORE_PASS ? "PASS" : o == UNCORE_FAIL ? "FAIL" : "SKIP";
}

bool uncore_kind_can(const struct uncore_kind_desc *k, enum uncore_need need, const char **why)
{
    if (!k) {
        *why = "no uncore PMU recognised";
        return false;
    }
    switch (need) {
    case UNCORE_NEED_ROUTING:
        *why = "the kind routes no uncore PMI (no routing field documented, or no overflow interrupt)";
        return k->global.ctrl_route_mask != 0;
    case UNCORE_NEED_FREEZE:
        *why = "the kind has no freeze-on-PMI bit";
        return k->global.freeze != UNCORE_FREEZE_NONE;
    case UNCORE_NEED_STATUS:
        *why = "the kind has no overflow status register";
        return k->global.status != 0;
    case UNCORE_NEED_FIXED:
        *why = "the kind has no fixed clock counter";
        return k->fixed.ctl != 0;
    }
    *why = "unknown need";
    return false;
}

enum uncore_outcome uncore_route_judge(u32 selected, const u32 *pmis, u32 cores, struct uncore_route_judgement *j)
{
    *j = (struct uncore_route_judgement){.selected = selected};
    if (cores > 32)
        cores = 32;
    for (u32 c = 0; c < cores; c++) {
        u32 bit = 1u << c;
        j->total += pmis[c];
        if (pmis[c])
            j->received |= bit;
        if ((selected & bit) && !pmis[c])
            j->missing |= bit;
        if ((selected & bit) && pmis[c] > 1)
            j->repeated |= bit;
        if (!(selected & bit) && pmis[c])
            j->stray |= bit;
    }
    /* A selected core beyond the cores counted never took its PMI. */
    if (cores < 32)
        j->missing |= selected & ~((1u << cores) - 1);
    return j->missing || j->repeated || j->stray ? UNCORE_FAIL : UNCORE_PASS;
}

void uncore_route_describe(const struct uncore_route_judgement *j, const u32 *pmis, u32 cores, struct strbuf *sb)
{
    sb_printf(sb, "selected_cores: 0x%x\nreceived_cores: 0x%x\nexpected: exactly one PMI on each selected core, none "
              "elsewhere\npmis_per_core: [", j->selected, j->received);
    for (u32 c = 0; c < cores && c < 32; c++)
        sb_printf(sb, "%s%u", c ? ", " : "", pmis[c]);
    sb_printf(sb, "]\ntotal: %u\n", j->total);
    if (j->missing)
        sb_printf(sb, "missing: 0x%x\n", j->missing);
    if (j->repeated)
        sb_printf(sb, "repeated: 0x%x\n", j->repeated);
    if (j->stray)
        sb_printf(sb, "stray: 0x%x\n", j->stray);
}

void uncore_route_latency_describe(const u64 *latency, const u32 *pmis, u32 cores, u64 tsc_hz, struct strbuf *sb)
{
    sb_printf(sb, "latency_ns: [");
    for (u32 c = 0; c < cores && c < 32; c++) {
        bool ok = false;
        u64 ns = pmis[c] && tsc_hz ? mul_div_u64(latency[c], 1000000000, tsc_hz, &ok) : 0;
        if (ok)
            sb_printf(sb, "%s%llu", c ? ", " : "", (unsigned long long)ns);
        else
            sb_printf(sb, "%s-", c ? ", " : "");
    }
    sb_printf(sb, "]\n");
}

enum uncore_outcome uncore_at_least_judge(u64 count, u64 lines, struct uncore_at_least_judgement *j)
{
    *j = (struct uncore_at_least_judgement){.count = count, .lines = lines};
    return lines && count >= lines ? UNCORE_PASS : UNCORE_FAIL;
}

void uncore_at_least_describe(const struct uncore_at_least_judgement *j, struct strbuf *sb)
{
    sb_printf(sb, "expected: at least %llu (one per line read that missed the core's caches)\nobserved: %llu\n",
              (unsigned long long)j->lines, (unsigned long long)j->count);
}

static u64 width_mask(u8 width)
{
    return width >= 64 ? ~0ull : (1ull << width) - 1;
}

enum uncore_outcome uncore_freeze_judge(const struct uncore_kind_desc *k, u8 width, const u64 *at_pmi,
                                        const u64 *later, const u64 *released, u32 n, u64 ctrl_before,
                                        u64 ctrl_at_pmi, struct uncore_freeze_judgement *j)
{
    *j = (struct uncore_freeze_judgement){.ctrl_before = ctrl_before, .ctrl_at_pmi = ctrl_at_pmi};
    u64 m = width_mask(width);
    for (u32 i = 0; i < n && i < 32; i++) {
        if ((later[i] & m) != (at_pmi[i] & m))
            j->moved_while_frozen |= 1u << i;
        if ((released[i] & m) == (later[i] & m))
            j->stuck_after_release |= 1u << i;
    }
    /* The client's FREEZE clears the global EN bit (SDM Vol.3B, uncore of the 2nd generation Core processors). */
    bool en_rule = k->global.freeze == UNCORE_FREEZE_CLEARS_EN;
    j->en_cleared = en_rule && (ctrl_before & k->global.ctrl_enable) && !(ctrl_at_pmi & k->global.ctrl_enable);
    if (j->moved_while_frozen || j->stuck_after_release || (en_rule && !j->en_cleared))
        return UNCORE_FAIL;
    return UNCORE_PASS;
}

void uncore_freeze_describe(const struct uncore_freeze_judgement *j, struct strbuf *sb)
{
    sb_printf(sb, "expected: no counter moves while frozen, every counter moves after the release\n"
              "global_ctrl_before: 0x%llx\nglobal_ctrl_at_pmi: 0x%llx\nmoved_while_frozen: 0x%x\n"
              "stuck_after_release: 0x%x\n",
              (unsigned long long)j->ctrl_before, (unsigned long long)j->ctrl_at_pmi, j->moved_while_frozen,
              j->stuck_after_release);
}

enum uncore_outcome uncore_status_judge(const struct uncore_kind_desc *k, u64 expected, bool pmi_raised,
                                        u64 after_overflow, u64 after_clear, struct uncore_status_judgement *j)
{
    *j = (struct uncore_status_judgement){.expected = expected, .after_overflow = after_overflow,
                                          .after_clear = after_clear};
    u64 ovf = uncore_status_overflow_bits(k);
    j->missing = expected & ~after_overflow;
    j->extra = after_overflow & ovf & ~expected;
    u64 judged_clear = expected | (pmi_raised ? k->global.status_ovf_pmi : 0);
    j->not_cleared = after_clear & (judged_clear | ovf);
    /* SDM Vol.3B (Nehalem uncore): OVF_PMI when an overflow generated an interrupt request; CHG when a status bit
     * changed state. After the clear CHG is not judged: the clear itself is a change. */
    j->ovf_pmi_missing = pmi_raised && k->global.status_ovf_pmi && !(after_overflow & k->global.status_ovf_pmi);
    j->chg_missing = k->global.status_chg && expected && !(after_overflow & k->global.status_chg);
    if (j->missing || j->extra || j->not_cleared || j->ovf_pmi_missing || j->chg_missing)
        return UNCORE_FAIL;
    return UNCORE_PASS;
}

void uncore_status_describe(const struct uncore_status_judgement *j, struct strbuf *sb)
{
    sb_printf(sb, "expected_overflow: 0x%llx\nstatus_after_overflow: 0x%llx\nstatus_after_clear: 0x%llx\n",
              (unsigned long long)j->expected, (unsigned long long)j->after_overflow,
              (unsigned long long)j->after_clear);
    if (j->missing)
        sb_printf(sb, "missing: 0x%llx\n", (unsigned long long)j->missing);
    if (j->extra)
        sb_printf(sb, "extra: 0x%llx\n", (unsigned long long)j->extra);
    if (j->not_cleared)
        sb_printf(sb, "not_cleared: 0x%llx\n", (unsigned long long)j->not_cleared);
    if (j->ovf_pmi_missing)
        sb_printf(sb, "ovf_pmi: missing\n");
    if (j->chg_missing)
        sb_printf(sb, "chg: missing\n");
}

bool uncore_status_clear_write(const struct uncore_kind_desc *k, u64 bits, u64 status_now, u32 *msr, u64 *value)
{
    switch (k->global.clear) {
    case UNCORE_CLEAR_OVF_CTRL_W1:
        *msr = k->global.ovf_ctrl;
        *value = bits | k->global.status_ovf_pmi | k->global.status_chg;
        return true;
    case UNCORE_CLEAR_STATUS_W0:
        *msr = k->global.status;
        *value = status_now & ~bits;
        return true;
    case UNCORE_CLEAR_NONE:
        break;
    }
    return false;
}

u32 uncore_clock_tolerance_ppm(u64 tsc_delta, u64 read_gap)
{
    if (!tsc_delta)
        return 1000000;
    bool ok = true;
    u64 ppm = mul_div_u64(2 * read_gap, 1000000, tsc_delta, &ok);
    if (!ok || ppm > 1000000)
        return 1000000;
    return (u32)ppm + UNCORE_CLOCK_BASE_PPM;
}

enum uncore_outcome uncore_clock_judge(u64 fixed_delta, u64 tsc_delta, u64 tsc_hz, u64 expect_hz, u32 tol_ppm,
                                       struct uncore_clock_judgement *j)
{
    *j = (struct uncore_clock_judgement){.expect_hz = expect_hz, .tol_ppm = tol_ppm};
    bool rate_ok = false, slack_ok = false;
    j->rate_hz = mul_div_u64(fixed_delta, tsc_hz, tsc_delta, &rate_ok); /* tsc_delta 0: not ok */
    if (!expect_hz)
        return UNCORE_SKIP;
    u64 slack = mul_div_u64(expect_hz, tol_ppm, 1000000, &slack_ok);
    j->lo_hz = expect_hz > slack ? expect_hz - slack : 0;
    j->hi_hz = expect_hz + slack;
    if (!rate_ok || !slack_ok || j->rate_hz < j->lo_hz || j->rate_hz > j->hi_hz)
        return UNCORE_FAIL;
    return UNCORE_PASS;
}

enum uncore_outcome uncore_clock_sanity_judge(u64 fixed_delta, u64 tsc_delta, u64 tsc_hz,
                                              struct uncore_clock_judgement *j)
{
    *j = (struct uncore_clock_judgement){.sanity = true};
    bool rate_ok = false;
    j->rate_hz = mul_div_u64(fixed_delta, tsc_hz, tsc_delta, &rate_ok); /* tsc_delta 0: not ok */
    j->lo_hz = tsc_hz / UNCORE_CLOCK_SANITY_LO_DIV;
    j->hi_hz = tsc_hz * UNCORE_CLOCK_SANITY_HI_MUL;
    if (!tsc_hz)
        return UNCORE_SKIP;
    if (!rate_ok || j->rate_hz < j->lo_hz || j->rate_hz > j->hi_hz)
        return UNCORE_FAIL;
    return UNCORE_PASS;
}

void uncore_clock_describe(const struct uncore_clock_judgement *j, struct strbuf *sb)
{
    if (j->sanity) {
        sb_printf(sb, "expected_hz: not known for this part (a sanity bound, not the documented rate: 1/%u to %u times "
                  "the TSC's)\nobserved_hz: %llu\nbound_hz: [%llu, %llu]\n", UNCORE_CLOCK_SANITY_LO_DIV,
                  UNCORE_CLOCK_SANITY_HI_MUL, (unsigned long long)j->rate_hz, (unsigned long long)j->lo_hz,
                  (unsigned long long)j->hi_hz);
        return;
    }
    sb_printf(sb, "expected_hz: %llu\nobserved_hz: %llu\ntolerance_ppm: %u\nbound_hz: [%llu, %llu]\n",
              (unsigned long long)j->expect_hz, (unsigned long long)j->rate_hz, j->tol_ppm,
              (unsigned long long)j->lo_hz, (unsigned long long)j->hi_hz);
}
