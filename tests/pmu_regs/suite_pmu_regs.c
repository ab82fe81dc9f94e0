/* Suite "pmu_regs": the PMU's registers behave as the manuals say, on every thread. Checks that need a PMU
 * SKIP with the CPUID evidence without one; the CPL-3 privilege check needs none and runs everywhere. */
#include <string.h>

#include "pmu/kernel/pmu_cpu.h"
#include "emul/kernel/pmu_emul.h"
#include "kernel/safe.h"
#include "kernel/user.h"
#include "kernel/x86.h"
#include "pmu/reset_values.h"
#include "harness/framework.h"
#include "tests/pmu_regs/portable/pmu_regs_judge.h"

/* GLOBAL_CTRL as the firmware left it (recorded before any write), then zeroed. On Intel it resets with every
 * GP enable bit set (SDM Vol.3B 21.2.2, 325462-079US), so "as found" is evidence, not an expectation. */
static void global_ctrl_check(struct check *c)
{
    struct pmu_cpu *pc = this_pmu_cpu();
    SKIP_WITHOUT_PMU(c, pc);
    if (!pmu_has_global_ctrl(&pc->pmu))
        return check_skip(c, "no global control register on %s", pmu_kind_name(pc->caps.kind));
    expect_eq(c, "read at entry", 0, (u64)pc->global_ctrl_rc);
    /* Informational on hardware: firmware may leave any value here (an enabled counter it left running is
     * pmu_enum/firmware_state's to judge, from its select). */
    check_note(c, "at entry", "0x%llx%s", (unsigned long long)pc->global_ctrl_at_entry,
               g_pmu_emulated ? "" : " (informational: what firmware left, any value is legal)");
    /* The emulated PMU comes out of its reset straight into the kernel, with no firmware in between, so there
     * "as found" is the reset value the kind's descriptor gives, its newest (pmu/reset_values.h): every GP enable on
     * Intel v2+ (SDM Vol.3B 21.2.2; KVM pmu.c kvm_pmu_refresh) and AMD PerfMonV2 (KVM pmu.c kvm_pmu_refresh), 0 on KNC
     * (KNC PMU Table 1-2, 1.4.4). */
    if (g_pmu_emulated) {
        struct pmu_reset_expect reset;
        pmu_reset_expect(&pc->caps, &(struct pmu_state_entry){.reg = PMU_SREG_GLOBAL_CTRL}, &reset);
        expect_eq(c, "at entry = reset value (emulated PMU: no firmware ran)", reset.value, pc->global_ctrl_at_entry);
    }
    expect_eq(c, "pmu_reset", 0, (u64)pmu_reset(&pc->pmu));
    u64 v = ~0ull;
    expect_eq(c, "rdmsr status", 0, (u64)rdmsr_safe(pc->caps.msrs.global_ctrl, &v));
    expect_eq(c, "after zeroing", 0, v);
}

/* Every GP select takes a valid encoding and reads it back (SDM Vol.3B 21.2.1.1; APM Vol.2 13.2.1). */
static void evtsel_rw_check(struct check *c)
{
    struct pmu_cpu *pc = this_pmu_cpu();
    SKIP_WITHOUT_PMU(c, pc);
    struct pmu *p = &pc->pmu;
    pmu_reset(p);
    const struct pmu_evsel e = {.event = 0xC0, .umask = 0x00, .usr = true, .os = true, .edge = true, .cmask = 1};
    u64 raw;
    const char *why = "";
    if (!expect_eq(c, "encode", 0, (u64)pmu_evsel_encode(p, &e, &raw, &why)))
        return check_note(c, "why", "%s", why);
    for (u32 i = 0; i < pc->caps.num_gp; i++) {
        if (!pmu_counter_exists(p, PMU_GP(i)))
            continue;
        char what[32];
        u64 back = 0;
        k_snprintf(what, sizeof(what), "select %u write", i);
        expect_eq(c, what, 0, (u64)p->be->select_write(p, i, raw));
        k_snprintf(what, sizeof(what), "select %u readback", i);
        p->be->select_read(p, i, &back);
        expect_eq(c, what, raw, back);
        p->be->select_write(p, i, 0);
    }
}

/* Counter width: all-ones written reads back masked to the width (SDM Vol.3B 21.2.6; KNC PMU 1.4: 40 bits).
 * Without full-width writes the legacy write of 0xFFFFFFFF sign-extends to all-ones, the same value. */
static void counter_width_check(struct check *c)
{
    struct pmu_cpu *pc = this_pmu_cpu();
    SKIP_WITHOUT_PMU(c, pc);
    struct pmu *p = &pc->pmu;
    pmu_reset(p);
    for (u32 bit = 0; bit < 64; bit++) {
        if (!pmu_counter_exists(p, bit))
            continue;
        u64 mask = pmu_counter_mask(p, bit), back = 0;
        char what[40];
        k_snprintf(what, sizeof(what), "%s%u all-ones", PMU_IS_FIXED(bit) ? "fixed" : "gp",
                   PMU_IS_FIXED(bit) ? bit - PMU_FIXED_BIT : bit);
        int w = p->be->counter_write(p, bit, mask);
        int r = p->be->counter_read(p, bit, &back);
        expect_eq(c, what, mask, (w || r) ? (u64)(w ? w : r) << 48 : back);
        p->be->counter_write(p, bit, 0);
    }
}

/* Legacy IA32_PMCx writes take bits 31:0 and sign-extend bit 31 (SDM Vol.3B 21.2.6); with
 * PERF_CAPABILITIES.FW_WRITE the IA32_A_PMCx aliases take the full width. Which kinds do is their descriptor's
 * legacy_write_sign_extends (Intel architectural). AMD, KNC and Zhaoxin write the full width (APM Vol.2 13.2.1; KNC
 * PMU 1.4.3: "unlike some IA-32 CPUs"; Linux zhaoxin/core.c: 48-bit PMCx writes). */
static void write_semantics_check(struct check *c)
{
    struct pmu_cpu *pc = this_pmu_cpu();
    SKIP_WITHOUT_PMU(c, pc);
    struct pmu *p = &pc->pmu;
    const struct pmu_msrs *m = &pc->caps.msrs;
    pmu_reset(p);
    u64 mask = pmu_counter_mask(p, 0), back = 0;
    if (pmu_legacy_write_sign_extends(pc->caps.kind)) {
        expect_eq(c, "legacy write 0x80000000 status", 0, (u64)wrmsr_safe(m->ctr0, 0x80000000ull));
        rdmsr_safe(m->ctr0, &back);
        expect_eq(c, "legacy write 0x80000000 reads", mask & 0xFFFFFFFF80000000ull, back);
        wrmsr_safe(m->ctr0, 0x7FFFFFFFull);
        rdmsr_safe(m->ctr0, &back);
        expect_eq(c, "legacy write 0x7FFFFFFF reads", 0x7FFFFFFFull, back);
        u64 high = 1ull << (pc->caps.gp_width - 1);
        if (m->ctr0_full_width) {
            expect_eq(c, "full-width alias write status", 0, (u64)wrmsr_safe(m->ctr0_full_width, high));
            rdmsr_safe(m->ctr0, &back);
            expect_eq(c, "full-width alias reads", high, back);
        } else {
            check_note(c, "full-width writes", "not offered (PERF_CAPABILITIES.FW_WRITE=0 or PDCM=0)");
        }
    } else {
        u64 high = (mask >> 1) + 1;
        expect_eq(c, "full-width write status", 0, (u64)p->be->counter_write(p, 0, high));
        p->be->counter_read(p, 0, &back);
        expect_eq(c, "full-width write reads", high, back);
    }
    p->be->counter_write(p, 0, 0);
}

/* Reserved select bits raise #GP on Intel (SDM Vol.3B 21.2.1.1 "reserved: must be 0"); AMD ignores them (APM
 * Vol.2 13.2.1), which pmu_reserved_faults() says. KNC: its PMU document does not say
 * (pmu_reserved_faults_documented() false), so there every reserved bit must behave alike, and which way is
 * reported. Bit by bit on counter 0. */
static void reserved_bits_check(struct check *c)
{
    struct pmu_cpu *pc = this_pmu_cpu();
    SKIP_WITHOUT_PMU(c, pc);
    struct pmu *p = &pc->pmu;
    pmu_reset(p);
    u64 reserved = pmu_evsel_reserved(p);
    struct reserved_bits_tally t;
    reserved_bits_begin(&t, pmu_reserved_faults(p), pmu_reserved_faults_documented(p));
    for (u32 b = 0; b < 64; b++) {
        if (!(reserved & (1ull << b)))
            continue;
        int r = wrmsr_safe(pc->caps.msrs.evtsel0, 1ull << b);
        bool faulted = r == (FIXUP_FAULT | 13);
        if (reserved_bits_step(&t, faulted)) {
            char key[24];
            k_snprintf(key, sizeof(key), "bit %u", b);
            check_note(c, key, "%s", faulted ? "#GP where ignored was expected" : "accepted where #GP was expected");
        }
        wrmsr_safe(pc->caps.msrs.evtsel0, 0);
    }
    check_note(c, "reserved mask", "0x%016llx, %s", (unsigned long long)reserved,
               !t.documented ? "undocumented (KNC PMU document): all must behave alike"
               : t.faults    ? "writes must #GP"
                             : "writes are ignored");
    check_note(c, "observed", "%u of %u reserved bits faulted", t.faulted, t.tested);
    expect_eq_dec(c, "bits behaving otherwise", 0, t.wrong);
    expect_true(c, "bits tested", t.tested > 0, "at least one reserved bit", "%u", t.tested);
}

/* RDPMC with an index that names no counter: #GP(0) (SDM Vol.2B RDPMC; AMD APM Vol.3 RDPMC). On AMD the index
 * is past the core counters and past the northbridge (6-9) and L3 (10-15) blocks this CPU enumerates
 * (pmu_rdpmc_invalid_index; Linux events/amd/uncore.c). */
static void rdpmc_invalid_check(struct check *c)
{
    struct pmu_cpu *pc = this_pmu_cpu();
    SKIP_WITHOUT_PMU(c, pc);
    u64 v;
    u32 index = pmu_rdpmc_invalid_index(&pc->pmu);
    check_note(c, "index", "0x%x (GP counters %u; AMD PerfCtrExtNB %u, PerfCtrExtLLC %u)", index, pc->caps.num_gp,
               pc->caps.amd_perfctr_nb, pc->caps.amd_perfctr_llc);
    expect_eq(c, "fault", FIXUP_FAULT | 13, (u64)rdpmc_safe(index, &v));
}

static u64 user_rdpmc(u64 index)
{
    u64 v = 0;
    int r = rdpmc_safe((u32)index, &v);
    return r ? (u64)r << 48 : v & 0xFFFFFFFFFFFFull;
}

/* RDPMC at CPL 3: #GP(0) while CR4.PCE = 0, whatever the counter (SDM Vol.2B RDPMC: the CPL/PCE check
 * comes first). This needs no PMU. With CR4.PCE = 1 it must return the counter, which needs one. */
static void rdpmc_cpl3_check(struct check *c)
{
    struct pmu_cpu *pc = this_pmu_cpu();
    u64 cr4 = read_cr4();
    write_cr4(cr4 & ~CR4_PCE);
    u64 r = run_at_cpl3(user_rdpmc, 0);
    expect_eq(c, "CR4.PCE=0: fault", (u64)(FIXUP_FAULT | 13) << 48, r);
    const char *why;
    if (!pmu_cpu_usable(pc, &why)) {
        write_cr4(cr4);
        check_note(c, "CR4.PCE=1", "not checked: no PMU: %s", why);
        return;
    }
    struct pmu *p = &pc->pmu;
    pmu_reset(p);
    p->be->counter_write(p, 0, 0x12345);
    write_cr4(cr4 | CR4_PCE);
    r = run_at_cpl3(user_rdpmc, p->be->rdpmc_index(p, 0));
    write_cr4(cr4);
    expect_eq(c, "CR4.PCE=1: counter 0 value", 0x12345, r);
    p->be->counter_write(p, 0, 0);
}

/* Every enumerated counter, GP and fixed, read by RDPMC at CPL 0 and at CPL 3 with CR4.PCE = 1 (SDM Vol.2B
 * RDPMC: ECX selects the counter, bit 30 the fixed ones on Intel; the value is the counter's, within its width)
 * equals the same counter read by RDMSR: a #GP on any valid index, or another counter's value, is a finding
 * (a vPMU that passes RDPMC through for GP counter 0 only would pass rdpmc_cpl3). Each counter holds a
 * distinct value, written while stopped. */
static void rdpmc_every_counter_check(struct check *c)
{
    struct pmu_cpu *pc = this_pmu_cpu();
    SKIP_WITHOUT_PMU(c, pc);
    struct pmu *p = &pc->pmu;
    pmu_reset(p);
    u64 cr4 = read_cr4();
    char bad[200] = "";
    struct strbuf sb;
    sb_init(&sb, bad, sizeof(bad));
    u32 counters = 0, wrong = 0;
    for (u32 bit = 0; bit < 64; bit++) {
        if (!pmu_counter_exists(p, bit))
            continue;
        counters++;
        struct rdpmc_reading rr = {0};
        rr.write_rc = p->be->counter_write(p, bit, pmu_regs_rdpmc_pattern(bit));
        rr.msr_rc = p->be->counter_read(p, bit, &rr.msr);
        rr.cpl0_rc = rdpmc_safe(p->be->rdpmc_index(p, bit), &rr.cpl0);
        write_cr4(cr4 | CR4_PCE);
        rr.cpl3 = run_at_cpl3(user_rdpmc, p->be->rdpmc_index(p, bit)); /* user_rdpmc keeps 48 bits */
        write_cr4(cr4);
        if (!pmu_regs_rdpmc_agrees(&rr, pmu_counter_mask(p, bit)) && ++wrong <= 3) {
            char v0s[24], v3s[24]; /* user_rdpmc returns a fault in bits 63:48 */
            k_snprintf(v0s, sizeof(v0s), rr.cpl0_rc ? "fault" : "%llx", (unsigned long long)rr.cpl0);
            k_snprintf(v3s, sizeof(v3s), rr.cpl3 >> 48 ? "fault" : "%llx", (unsigned long long)rr.cpl3);
            sb_printf(&sb, "%s%s%u msr %llx cpl0 %s cpl3 %s", wrong > 1 ? "; " : "", PMU_IS_FIXED(bit) ? "fixed" : "gp",
                      PMU_IS_FIXED(bit) ? bit - PMU_FIXED_BIT : bit, (unsigned long long)rr.msr, v0s, v3s);
        }
        p->be->counter_write(p, bit, 0);
    }
    check_note(c, "counters", "%u (GP %u, fixed %u), each read by RDMSR, RDPMC at CPL 0 and at CPL 3 (CR4.PCE=1)",
               counters, pc->caps.num_gp, pc->caps.num_fixed);
    if (wrong)
        check_note(c, "wrong (first 3)", "%s", bad);
    expect_true(c, "RDPMC = RDMSR on every counter", wrong == 0, "all equal", "%u of %u wrong", wrong, counters);
}

static const struct check_def pmu_regs_checks[] = {
    {"global_ctrl", global_ctrl_check, SCOPE_PER_CPU, NO_FAULT},
    {"evtsel_rw", evtsel_rw_check, SCOPE_PER_CPU, NO_FAULT},
    {"counter_width", counter_width_check, SCOPE_PER_CPU, NO_FAULT},
    {"write_semantics", write_semantics_check, SCOPE_PER_CPU, NO_FAULT},
    {"reserved_bits", reserved_bits_check, SCOPE_PER_CPU, NO_FAULT},
    {"rdpmc_invalid", rdpmc_invalid_check, SCOPE_PER_CPU, NO_FAULT},
    {"rdpmc_cpl3", rdpmc_cpl3_check, SCOPE_PER_CPU, NO_FAULT},
    {"rdpmc_every_counter", rdpmc_every_counter_check, SCOPE_PER_CPU, NO_FAULT},
};

const struct suite suite_pmu_regs = {"pmu_regs", "PMU register semantics on every thread", true,
                                     SUITE_CHECKS(pmu_regs_checks), .uses_pmu = true};
