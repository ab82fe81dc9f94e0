/* Suite "reset" (not in the default set; suite=reset reset=cf9|kbc|triple|all): a round trip through the
 * firmware. Phase 1 programs every CPU's PMU in a distinctive state (as suite init does), records the plan in
 * CMOS (lib/reset_record.h, tests/reset/portable/reset_plan.h) and resets the machine: 0xCF9 warm reset, the
 * keyboard controller's 0xFE pulse, or a triple fault, one per round. The firmware and the boot loader run again
 * with the same command line; phase 2 finds the record, reports which reset came back through which path, and
 * verifies every PMU register at its documented reset value (pmu/reset_values.h) -- labelled "after firmware":
 * the firmware may have touched the PMU before this read. Only the last boot's TAP stream is the run's
 * (run-qemu.sh); the rounds before report through the CMOS record. */
#include <string.h>

#include "kernel/exit.h"
#include "kernel/boot_state.h"
#include "kernel/record_store.h"
#include "pmu/kernel/pmu_cpu.h"
#include "harness/report.h"
#include "kernel/safe.h"
#include "pmu/pmu_msr.h"
#include "tests/reset/portable/reset_plan.h"
#include "kernel/timing.h"
#include "kernel/x86.h"
#include "pmu/reset_values.h"
#include "harness/framework.h"
#include "harness/hang_guard.h"
#include "tests/reset/portable/reset_options.h"

#define RESET_WAIT_US 2000000 /* a reset that has not happened after 2 s will not happen */

static struct {
    bool active; /* suite reset ran its first check in this boot */
    enum reset_boot boot;
    struct reset_record rec;
    int next; /* the reset to issue after the checks, or -1 */
} rs = {.next = -1};

static void record_save(void)
{
    u8 b[RESET_RECORD_BYTES];
    reset_record_encode(&rs.rec, b);
    record_store_write(RECORD_RESET, b);
}

/* Unused again, as before the run (the record store takes only unused bytes). */
static void record_clear(void)
{
    record_store_clear(RECORD_RESET);
}

/* What this boot is (first, phase 2, or the end of a run that went wrong), from the CMOS record. */
static void round_check(struct check *c)
{
    u8 req = (u8)(reset_options()->reset_types ? reset_options()->reset_types : RESET_ALL);
    u8 b[RESET_RECORD_BYTES];
    bool found;
    char why[240];
    if (!record_store_open(RECORD_RESET, b, &found, why, sizeof(why)))
        return check_skip(c, "nowhere to keep the plan across a reset: %s", why);
    bool valid = found && reset_record_decode(b, &rs.rec);
    char hung[96];
    if (valid && rs.rec.state == RESET_STATE_RUNNING && hang_guard_previous_stop(hung, sizeof(hung))) {
        /* Not this suite's crash: the boot CPU stopped in another check, reported there; the round starts over. */
        check_note(c, "previous boot", "stopped in %s (reported there): this round of resets starts again", hung);
        valid = false;
    }
    u8 was = rs.rec.current;
    rs.boot = reset_plan_boot(&rs.rec, valid, req);
    rs.active = true;
    check_note(c, "record", "%s in %s (%s)", valid ? "found" : "none", record_store_where(RECORD_RESET),
               valid ? "this run's" : "unused, and unused again at the end");
    check_note(c, "boot", "%u of at most %u", rs.rec.boots, reset_plan_max_boots(req));
    switch (rs.boot) {
    case RESET_BOOT_FIRST:
        rs.next = reset_plan_next(&rs.rec);
        expect_true(c, "a reset to issue", rs.next >= 0, "yes", "%s", reset_type_name(rs.next));
        break;
    case RESET_BOOT_PHASE2:
        rs.next = reset_plan_next(&rs.rec);
        expect_true(c, "came back", true, "phase 2 after the reset in flight", "after %s reset, through the "
                    "firmware and the boot loader (%s%s%s)", reset_type_name(rs.rec.current), boot_protocol_name(boot_state()->info.protocol),
                    boot_state()->info.has_loader ? ", loader " : "", boot_state()->info.has_loader ? boot_state()->info.loader : "");
        break;
    case RESET_BOOT_CRASHED:
        expect_true(c, "previous boot finished", false, "it finished or reset on purpose", "boot %u found the "
                    "previous boot still running: it crashed or hung after the %s reset and the machine reset",
                    rs.rec.boots, reset_type_name(was));
        break;
    case RESET_BOOT_RUNAWAY:
        expect_true(c, "boot count within the plan", false, "at most one boot per requested reset + 1", "%u",
                    rs.rec.boots);
        break;
    }
    record_save(); /* state RUNNING: if this boot dies, the next one says so and stops */
}

static int type_of(const struct check *c)
{
    for (int t = 0; t < RESET_TYPES; t++)
        if (!strcmp(c->def->name, reset_type_name(t)))
            return t;
    return -1;
}

/* One line per reset type: did the reset happen and come back, and what its PMU verification found (in the boot
 * after it, recorded in CMOS; the last round's is reported by pmu_after_reset in this boot). */
static void type_check(struct check *c)
{
    int t = type_of(c);
    if (!rs.active || t < 0)
        return check_skip(c, "suite reset did not start");
    u8 res = rs.rec.result[t];
    if (!((rs.rec.requested >> t) & 1))
        return check_skip(c, "not requested (reset=)");
    if (rs.next >= 0 && !(res & RESET_R_CAME_BACK))
        return check_skip(c, "not yet: boot %u resets again after its checks", rs.rec.boots);
    expect_true(c, "came back through the firmware and boot loader", res & RESET_R_CAME_BACK, "yes", "%s",
                (res & RESET_R_CAME_BACK) ? "yes" : (res & RESET_R_ISSUED) ? "issued, never came back" : "never issued");
    if (!(res & RESET_R_CAME_BACK))
        return;
    if (rs.boot == RESET_BOOT_PHASE2 && t == rs.rec.current)
        check_note(c, "PMU after reset", "verified below, by cpuN/reset/pmu_after_reset of this boot");
    else if (res & RESET_R_PMU_CHECKED)
        expect_eq_dec(c, "PMU registers off their reset value (all CPUs, after firmware)", 0, rs.rec.mismatches[t]);
    else
        check_note(c, "PMU after reset", "not verified: %s",
                   (res & RESET_R_PMU_SKIPPED) ? "no PMU on any CPU" : "no record");
    if (res & RESET_R_OLD_EDITION)
        check_note(c, "GLOBAL_CTRL", "matched its other documented reset value (0: the SDM before 325462-079US on "
                   "Intel, QEMU's reset state on AMD PerfMonV2), not the one enable bit per counter");
}

/* Phase 2, every CPU: each PMU register at its documented reset value (pmu/reset_values.h), after firmware. */
static void pmu_after_reset_check(struct check *c)
{
    if (!rs.active || rs.boot != RESET_BOOT_PHASE2)
        return check_skip(c, "no reset before this boot in this run (phase 1)");
    int t = rs.rec.current;
    struct pmu_cpu *pc = this_pmu_cpu();
    const char *why;
    if (!pmu_cpu_usable(pc, &why)) {
        if (!(rs.rec.result[t] & RESET_R_PMU_CHECKED))
            rs.rec.result[t] |= RESET_R_PMU_SKIPPED;
        return check_skip(c, "no PMU: %s", why);
    }
    check_note(c, "observation", "after firmware: %s reset, then firmware and boot loader, then this read",
               reset_type_name(t));
    struct pmu_state s;
    pmu_state_read(&pc->pmu, &s);
    u32 off = 0;
    for (u32 i = 0; i < s.count; i++) {
        const struct pmu_state_entry *e = &s.e[i];
        struct pmu_reset_expect x;
        pmu_reset_expect(&pc->caps, e, &x);
        char name[32];
        pmu_state_name(e, name, sizeof(name));
        enum pmu_reset_match m = e->rc ? PMU_RESET_MISMATCH : pmu_reset_judge(&x, e->value);
        off += m == PMU_RESET_MISMATCH;
        expect_eq(c, name, m == PMU_RESET_MATCHES_ALT ? x.alt : x.value, e->rc ? (u64)e->rc << 48 : e->value);
        if (e->reg == PMU_SREG_GLOBAL_CTRL || m == PMU_RESET_MISMATCH)
            check_note(c, name, "%s", m == PMU_RESET_MATCHES_ALT ? x.alt_source : x.source);
        if (!e->rc && (e->value & x.tolerated))
            check_note(c, name, "bits 0x%llx set, tolerated (erratum)", (unsigned long long)(e->value & x.tolerated));
        if (m == PMU_RESET_MATCHES_ALT)
            rs.rec.result[t] |= RESET_R_OLD_EDITION;
    }
    rs.rec.result[t] = (u8)((rs.rec.result[t] | RESET_R_PMU_CHECKED | (off ? RESET_R_PMU_FAILED : 0)) &
                            ~RESET_R_PMU_SKIPPED);
    u32 sum = rs.rec.mismatches[t] + off;
    rs.rec.mismatches[t] = (u8)(sum > 255 ? 255 : sum);
}

/* Phase 2, every CPU: the Last Branch Records' controls at their reset values, after firmware (docs/lbr.md):
 * IA32_DEBUGCTL powers up 0 (SDM Vol.3A Table 9-1), so LBR (bit 0) and FREEZE_LBRS_ON_PMI (bit 11) are clear; a
 * model-specific LBR's MSR_LBR_SELECT "is cleared to zero at RESET" (SDM Vol.3B 18.7.2); Architectural LBR keeps its
 * MSRs over a warm reset but clears IA32_LBR_CTL.LBREn (SDM Vol.3B, Architectural LBR, as KVM's patches quote it).
 * The entries themselves are not promised (Linux clears them "for CPUs that don't clear their LBRs on power-up"):
 * reported. AMD documents no reset value for LbrExtV2's registers: reported. */
static void lbr_after_reset_check(struct check *c)
{
    if (!rs.active || rs.boot != RESET_BOOT_PHASE2)
        return check_skip(c, "no reset before this boot in this run (phase 1)");
    struct pmu_cpu *pc = this_pmu_cpu();
    SKIP_WITHOUT_PMU(c, pc);
    const struct lbr_caps *l = &pc->lbr;
    if (l->kind == LBR_NONE)
        return check_skip(c, "no LBR: %s", l->why_none);
    check_note(c, "observation", "after firmware: %s reset, then firmware and boot loader, then this read",
               reset_type_name(rs.rec.current));
    u64 v = 0, from0 = 0;
    int rc = rdmsr_safe(l->from, &from0);
    check_note(c, "first FROM", rc ? "faults" : "0x%llx (entries are not promised cleared)", (unsigned long long)from0);
    if (l->kind == LBR_AMD_V2) {
        if (!rdmsr_safe(l->enable_msr, &v))
            check_note(c, "DBG_EXTN_CFG", "0x%llx (no documented reset value)", (unsigned long long)v);
        if (l->select && !rdmsr_safe(l->select, &v))
            check_note(c, "LBR_SELECT", "0x%llx (no documented reset value)", (unsigned long long)v);
        return check_skip(c, "AMD documents no reset value for LbrExtV2's registers: reported, not judged");
    }
    rc = rdmsr_safe(MSR_IA32_DEBUGCTL, &v);
    expect_eq(c, "IA32_DEBUGCTL LBR and FREEZE_LBRS_ON_PMI", 0, rc ? (u64)rc << 48 : v & (BIT(0) | BIT(11)));
    if (l->kind == LBR_ARCH) {
        rc = rdmsr_safe(l->select, &v);
        expect_eq(c, "IA32_LBR_CTL.LBREn", 0, rc ? (u64)rc << 48 : v & 1);
    } else if (l->select) {
        rc = rdmsr_safe(l->select, &v);
        expect_eq(c, "MSR_LBR_SELECT", 0, rc ? (u64)rc << 48 : v);
    }
}

/* Phase 1, every CPU: the distinctive PMU state the coming reset must clear. */
static void pmu_arm_check(struct check *c)
{
    if (!rs.active || rs.next < 0)
        return check_skip(c, "no further reset in this run");
    struct pmu_cpu *pc = this_pmu_cpu();
    SKIP_WITHOUT_PMU(c, pc);
    u64 set_bits = 0;
    const char *why = NULL;
    int rc = pmu_state_program_distinct(&pc->pmu, &set_bits, &why);
    if (!expect_eq(c, "distinctive state programmed", 0, (u64)rc))
        return check_note(c, "failed step", "%s: %s", why ? why : "?", pmu_strerror(rc));
    struct pmu_state s;
    pmu_state_read(&pc->pmu, &s);
    check_note(c, "before the reset", "%s: %u registers set, pending overflow 0x%llx", reset_type_name(rs.next),
               s.count, (unsigned long long)set_bits);
    /* The LBR: its first entries and filter (pmu/lbr.h lbr_distinct_state), then recording on with freeze. */
    const struct lbr_caps *l = &pc->lbr;
    u32 msr[16];
    u64 val[16], v = 0;
    u32 n = lbr_distinct_state(l, msr, val, 16);
    rc = 0;
    for (u32 i = 0; i < n && !rc; i++)
        rc = wrmsr_safe(msr[i], val[i]);
    if (n && !rc && l->kind == LBR_ARCH)
        rc = wrmsr_safe(l->select, val[n - 1] | 1); /* LBREn */
    else if (n && !rc && !(rc = rdmsr_safe(l->enable_msr, &v)))
        rc = wrmsr_safe(l->enable_msr, v | l->enable_bit);
    if (n && !rc && l->kind != LBR_AMD_V2 && !(rc = rdmsr_safe(MSR_IA32_DEBUGCTL, &v)))
        rc = wrmsr_safe(MSR_IA32_DEBUGCTL, v | BIT(11));
    if (n)
        check_note(c, "lbr", rc ? "%s: its MSRs fault, not armed" : "%s: %u registers set, recording, freeze on PMI",
                   lbr_kind_name(l->kind), n);
}

static const struct check_def reset_checks[] = {
    {"round", round_check, SCOPE_GLOBAL, NO_FAULT},
    {"cf9", type_check, SCOPE_GLOBAL, NO_FAULT},
    {"kbc", type_check, SCOPE_GLOBAL, NO_FAULT},
    {"triple", type_check, SCOPE_GLOBAL, NO_FAULT},
    /* CPUS_OTHERS: it adds to the run's reset record (rs.rec), which every CPU's check updates. */
    {"pmu_after_reset", pmu_after_reset_check, SCOPE_PER_CPU, NO_FAULT, CPUS_OTHERS, .uses_pmu = true},
    {"lbr_after_reset", lbr_after_reset_check, SCOPE_PER_CPU, NO_FAULT, CPUS_OTHERS},
    {"pmu_arm", pmu_arm_check, SCOPE_PER_CPU, NO_FAULT, .uses_pmu = true},
};
static void reset_after_run(void);
const struct suite suite_reset = {"reset", "machine resets through the firmware (reset=cf9|kbc|triple|all)", false,
                                  SUITE_CHECKS(reset_checks), .resets_machine = true, .after_run = reset_after_run};

static void no_reset_check(struct check *c)
{
    expect_true(c, "the machine reset", false, "within 2 s", "%s reset issued, still running after %u ms",
                reset_type_name(rs.rec.current), RESET_WAIT_US / 1000);
}
static const struct check_def no_reset_checks[] = {{"issued", no_reset_check, SCOPE_GLOBAL, NO_FAULT}};
static const struct suite no_reset_suite = {"reset", "a reset that did not happen", false,
                                            SUITE_CHECKS(no_reset_checks), .resets_machine = true};

/* After the last suite: the reset this boot's plan asks for, or the record cleared at the end of the run. */
static void reset_after_run(void)
{
    if (!rs.active)
        return;
    if (rs.next < 0) {
        record_clear(); /* the run is over: a later boot starts a new one */
        return;
    }
    reset_plan_issue(&rs.rec, rs.next);
    record_save();
    hang_guard_before_reset(); /* on purpose: the next boot must not take it for a hang */
    report_comment("reset: boot %u issues the %s reset; this boot's TAP stream ends here, phase 2 follows after "
                   "the firmware and the boot loader (the run's verdict is the last boot's stream)",
                   rs.rec.boots, reset_type_name(rs.next));
    cli();
    if (rs.next == RESET_CF9)
        machine_reset_cf9();
    else if (rs.next == RESET_KBC)
        machine_reset_kbc();
    else
        machine_reset_triple();
    udelay(RESET_WAIT_US);
    record_clear();
    sti();
    suites_run_one(&no_reset_suite);
}
