/* Suite "init": what INIT resets and what it keeps, on every thread. Each AP puts its architectural state, its
 * local APIC and its PMU in a distinctive state, is sent INIT and SIPI by the CPU that runs the suite
 * (smp_init_roundtrip), and records what it finds on re-entry before touching it: the trampoline records the
 * control and debug registers, EFER and the TSC before it changes any (boot/ap_trampoline.asm); ap_main reads
 * the local APIC, the MSRs, the x87/SSE state and the PMU before it sets the APIC up again. The checks compare
 * against SDM Vol.3A Table 10-1 "IA-32 and Intel 64 Processor States Following Power-up, Reset, or INIT"
 * (Table 9-1 in editions before 2024), SDM Vol.3A 11.4.7.3 (local APIC after INIT) and, for the PMU, the KNC
 * PMU document 1.4.4 ("INIT does not affect the core PMU control-register state or the counters"). */
#include <string.h>

#include "apic/apic.h"
#include "lib/fw_resume.h"
#include "lib/hv_deviation.h"
#include "kernel/boot_state.h"
#include "pmu/kernel/pmu_cpu.h"
#include "kernel/safe.h"
#include "kernel/smp.h"
#include "kernel/timing.h"
#include "kernel/x86.h"
#include "pmu/pmu_state.h"
#include "harness/test_util.h"
#include "harness/framework.h"
#include "tests/init/portable/init_judge.h"

#define MSR_PAT 0x277u
#define MSR_MTRR_DEF_TYPE 0x2FFu

/* MSRs INIT leaves unchanged (SDM Vol.3A Table 10-1: "All other MSRs: Unchanged"; PAT: "Unchanged"), each
 * given a distinctive value first (put back afterwards). PAT: only PA7 changes (UC to UC-), an entry the
 * kernel's page tables never select. */
static const struct {
    u32 msr;
    const char *name;
    u64 value;
} kept_msrs[] = {
    {0x174, "SYSENTER_CS", 0x10},
    {0x175, "SYSENTER_ESP", 0x12345670},
    {0x176, "SYSENTER_EIP", 0x23456780},
    {0xC0000081, "STAR", 0x0023001089ABCDEFull},
    {0xC0000082, "LSTAR", 0xFFFFFFFF81234560ull},
    {0xC0000084, "FMASK", 0x47700},
    {MSR_PAT, "PAT", 0x0707040600070406ull},
};
/* MTRRs: read only (writing them needs the SDM 12.11.7.2 procedure on every CPU); compared as found. */
static const struct {
    u32 msr;
    const char *name;
} mtrrs[] = {{MSR_MTRR_DEF_TYPE, "MTRR_DEF_TYPE"}, {0x200, "MTRR_PHYSBASE0"}, {0x201, "MTRR_PHYSMASK0"},
             {0x250, "MTRR_FIX64K_00000"}};

/* Local APIC registers read after INIT, and what SDM Vol.3A 11.4.7.1 (the power-up/reset state, which INIT
 * also gives, 11.4.7.3) says they hold: LVT entries masked and otherwise 0, SVR 0xFF, the rest 0, DFR all ones. */
static const struct {
    u32 reg;
    const char *name;
    u32 expected;
    bool xapic_only;
    u32 min_max_lvt;
} apic_regs[] = {
    {APIC_SVR, "SVR", 0xFF, false, 0},          {APIC_TPR, "TPR", 0, false, 0},
    {APIC_LVT_TIMER, "LVT timer", LVT_MASKED, false, 0},
    {APIC_LVT_THERMAL, "LVT thermal", LVT_MASKED, false, 5},
    {APIC_LVT_PMC, "LVT PC", LVT_MASKED, false, 4}, {APIC_LVT_LINT0, "LVT LINT0", LVT_MASKED, false, 0},
    {APIC_LVT_LINT1, "LVT LINT1", LVT_MASKED, false, 0}, {APIC_LVT_ERROR, "LVT error", LVT_MASKED, false, 0},
    {APIC_LVT_CMCI, "LVT CMCI", LVT_MASKED, false, 6},  {APIC_TIMER_ICR, "timer initial count", 0, false, 0},
    {APIC_TIMER_CCR, "timer current count", 0, false, 0}, {APIC_TIMER_DCR, "timer divide", 0, false, 0},
    {APIC_LDR, "LDR", 0, true, 0},              {APIC_DFR, "DFR", 0xFFFFFFFF, true, 0},
};

struct fpu_seen {
    u16 fcw;
    u32 mxcsr;
    u64 xmm0[2];
};

/* One record: the per-CPU checks run one CPU at a time, roundtrip first. */
static struct init_obs {
    u32 cpu;
    bool done;
    char why_not[320]; /* cpu0's carries the firmware evidence (lib/fw_resume.h) */
    u64 tsc_before, init_tsc, resume_tsc;
    u64 cr0_before, apic_base_before, apic_base_after;
    u32 apic_id_before, initial_apic_id, seen_count_before;
    struct ap_tramp_seen seen;
    u32 apic_after[ARRAY_SIZE(apic_regs)];
    int apic_rc[ARRAY_SIZE(apic_regs)];
    u64 msr_before[ARRAY_SIZE(kept_msrs)], msr_after[ARRAY_SIZE(kept_msrs)];
    int msr_rc[ARRAY_SIZE(kept_msrs)];
    bool mtrr;
    u32 mtrr_copied; /* MTRRs that differed from the boot CPU's and were set to its values first */
    u64 mtrr_before[ARRAY_SIZE(mtrrs)], mtrr_after[ARRAY_SIZE(mtrrs)];
    struct fpu_seen fpu_before, fpu_after;
    bool pmu;
    int pmu_rc;
    const char *pmu_why;
    u64 status_set_bits;
    struct pmu_state pmu_before, pmu_after;
    u32 lbr_n;           /* LBR registers given a distinctive value (pmu/lbr.h lbr_distinct_state) */
    int lbr_rc;
    u32 lbr_msr[16];
    u64 lbr_before[16], lbr_after[16];
    int lbr_after_rc[16];
} obs;

/* The x87/SSE state is read and written only through FXSAVE and FXRSTOR (SDM Vol.1 10.5.1, Table 10-2 "Format of
 * an FXSAVE Area"), as Linux does (arch/x86/kernel/fpu/core.c), not FLDCW/FNCLEX/LDMXCSR/STMXCSR/PXOR: a hypervisor
 * that runs the kernel's code through KVM's instruction emulator (no VMX or SVM under it: KVM's PVM, or VMX
 * without unrestricted guest in a state it cannot enter) has FXSAVE and FXRSTOR but none of the others
 * (Linux arch/x86/kvm/emulate.c: group15 /0 /1 and escape_d9/escape_db), and stops the guest at the first one. */
#define FXSAVE_FCW 0      /* u16 x87 control word */
#define FXSAVE_FSW 2      /* u16 x87 status word */
#define FXSAVE_MXCSR 24   /* u32 */
#define FXSAVE_XMM0 160   /* 16 bytes */

struct fxsave_area {
    u8 b[512];
} __attribute__((aligned(16)));

static void fxsave(struct fxsave_area *a)
{
    asm volatile("fxsave64 %0" : "=m"(*a));
}

static void fxrstor(const struct fxsave_area *a)
{
    asm volatile("fxrstor64 %0" ::"m"(*a));
}

static void fpu_read(struct fpu_seen *f)
{
    static struct fxsave_area a; /* one CPU at a time: the suite's checks run one after the other */
    fxsave(&a);
    memcpy(&f->fcw, &a.b[FXSAVE_FCW], sizeof(f->fcw));
    memcpy(&f->mxcsr, &a.b[FXSAVE_MXCSR], sizeof(f->mxcsr));
    memcpy(f->xmm0, &a.b[FXSAVE_XMM0], sizeof(f->xmm0));
}

/* The current state with FCW, MXCSR and XMM0 replaced and the status word's exception flags cleared (a pending
 * x87 exception would be raised by the next waiting x87 instruction, SDM Vol.1 8.3.6; FXRSTOR itself raises
 * none, SDM Vol.2A FXRSTOR). */
static void fpu_load(u16 fcw, u32 mxcsr, const u64 xmm0[2])
{
    static struct fxsave_area a;
    const u16 fsw = 0;
    fxsave(&a);
    memcpy(&a.b[FXSAVE_FCW], &fcw, sizeof(fcw));
    memcpy(&a.b[FXSAVE_FSW], &fsw, sizeof(fsw));
    memcpy(&a.b[FXSAVE_MXCSR], &mxcsr, sizeof(mxcsr));
    memcpy(&a.b[FXSAVE_XMM0], xmm0, 16);
    fxrstor(&a);
}

static void fpu_write_distinct(void)
{
    static const u64 pattern[2] = {0x0123456789ABCDEFull, 0xFEDCBA9876543210ull};
    /* precision 53 bits: FNINIT gives 0x037F (SDM Vol.1 8.1.5); MXCSR round toward zero, reset value 0x1F80 */
    fpu_load(0x027F, 0x7F80, pattern);
}

static void fpu_restore(void)
{
    static const u64 zero[2] = {0, 0};
    fpu_load(0x037F, 0x1F80, zero);
}

static bool has_mtrr(void)
{
    u32 a, b, c, d;
    cpuid_count(1, 0, &a, &b, &c, &d);
    return (d >> 12) & 1; /* CPUID.01H:EDX[12] MTRR */
}

/* Runs on re-entry after INIT+SIPI, before ap_main touches the local APIC (nothing on the way there does:
 * the trampoline and ap_entry64 set up paging and the GDT, cpu_local_init the GDT/TSS/IDT and GS base). */
static void capture(void *arg)
{
    struct init_obs *o = arg;
    o->resume_tsc = rdtsc();
    const volatile struct ap_tramp_seen *s = smp_tramp_seen();
    memcpy(&o->seen, (const void *)s, sizeof(o->seen));
    rdmsr_safe(MSR_APIC_BASE, &o->apic_base_after);
    u32 max_lvt = apic_max_lvt();
    for (u32 i = 0; i < ARRAY_SIZE(apic_regs); i++) {
        if (max_lvt < apic_regs[i].min_max_lvt || (apic_regs[i].xapic_only && apic_mode() != APIC_MODE_XAPIC))
            o->apic_rc[i] = PMU_ENOTSUP;
        else
            o->apic_rc[i] = apic_read_safe(apic_regs[i].reg, &o->apic_after[i]);
    }
    if (o->pmu)
        pmu_state_read(&this_pmu_cpu()->pmu, &o->pmu_after);
    for (u32 i = 0; i < o->lbr_n; i++)
        o->lbr_after_rc[i] = rdmsr_safe(o->lbr_msr[i], &o->lbr_after[i]);
    for (u32 i = 0; i < ARRAY_SIZE(kept_msrs); i++)
        rdmsr_safe(kept_msrs[i].msr, &o->msr_after[i]);
    if (o->mtrr)
        for (u32 i = 0; i < ARRAY_SIZE(mtrrs); i++)
            rdmsr_safe(mtrrs[i].msr, &o->mtrr_after[i]);
    /* CR4 as INIT left it is in the trampoline's record; SSE needs CR4.OSFXSR to be read back. */
    write_cr4(read_cr4() | CR4_OSFXSR);
    fpu_read(&o->fpu_after);
}

/* The boot CPU's MTRRs, read when cpu0's roundtrip check runs (first). */
static u64 bsp_mtrr[ARRAY_SIZE(mtrrs)];
static bool bsp_mtrr_valid;

/* An AP's MTRRs must equal the boot CPU's (SDM Vol.3A 12.11.8 "MTRR Considerations in MP Systems"). Where one
 * differs (QEMU TCG: lost at the bring-up INIT), give it the boot CPU's value so INIT has something to keep.
 * On hardware whose firmware set them up nothing is written. */
static void mtrr_align_with_bsp(struct init_obs *o)
{
    if (!bsp_mtrr_valid)
        return;
    for (u32 i = 0; i < ARRAY_SIZE(mtrrs); i++) {
        u64 v = 0;
        rdmsr_safe(mtrrs[i].msr, &v);
        if (v == bsp_mtrr[i])
            continue;
        asm volatile("wbinvd" ::: "memory");
        if (!wrmsr_safe(mtrrs[i].msr, bsp_mtrr[i]))
            o->mtrr_copied |= 1u << i;
        asm volatile("wbinvd" ::: "memory");
    }
}

static void set_apic_distinct(void)
{
    apic_write(APIC_TPR, 0x20);
    apic_write(APIC_LVT_PMC, 0xE9); /* unmasked, fixed vector 0xE9: nothing can raise it (no INT bit set) */
    apic_write(APIC_TIMER_DCR, 0xB);
    apic_write(APIC_LVT_TIMER, LVT_MASKED | 0xEA);
    apic_write(APIC_TIMER_ICR, 0x7FFFFFFF);
    if (apic_mode() == APIC_MODE_XAPIC)
        apic_write(APIC_LDR, 0x02000000);
    apic_write(APIC_SVR, SVR_APIC_ENABLE | 0xFE);
}

static void roundtrip_check(struct check *c)
{
    struct init_obs *o = &obs;
    memset(o, 0, sizeof(*o));
    o->cpu = this_cpu()->index;
    if (o->cpu == 0) {
        bsp_mtrr_valid = has_mtrr();
        for (u32 i = 0; bsp_mtrr_valid && i < ARRAY_SIZE(mtrrs); i++)
            rdmsr_safe(mtrrs[i].msr, &bsp_mtrr[i]);
    }
    u32 a, b, cx, d;
    cpuid_count(1, 0, &a, &b, &cx, &d);
    o->initial_apic_id = b >> 24;
    o->apic_id_before = apic_id();
    o->cr0_before = read_cr0();
    rdmsr_safe(MSR_APIC_BASE, &o->apic_base_before);
    const volatile struct ap_tramp_seen *s = smp_tramp_seen();
    o->seen_count_before = s ? s->count : 0;

    /* Distinctive state. */
    /* CD/NW clear, so that INIT's "unchanged" is told apart from the reset value (SDM Table 10-1 note 2). */
    write_cr0(o->cr0_before & ~(CR0_CD | CR0_NW));
    o->cr0_before = read_cr0();
    u64 cr4 = read_cr4(), dr0, dr7;
    asm volatile("mov %%dr0, %0; mov %%dr7, %1" : "=r"(dr0), "=r"(dr7));
    asm volatile("mov %0, %%dr0; mov %1, %%dr7" ::"r"(0x12345000ull), "r"(0x400ull | BIT(9)));
    write_cr4(cr4 | CR4_OSFXSR);
    fpu_write_distinct();
    fpu_read(&o->fpu_before);
    u64 saved[ARRAY_SIZE(kept_msrs)];
    for (u32 i = 0; i < ARRAY_SIZE(kept_msrs); i++) {
        rdmsr_safe(kept_msrs[i].msr, &saved[i]);
        o->msr_rc[i] = wrmsr_safe(kept_msrs[i].msr, kept_msrs[i].value);
        rdmsr_safe(kept_msrs[i].msr, &o->msr_before[i]);
    }
    o->mtrr = has_mtrr();
    if (o->mtrr)
        mtrr_align_with_bsp(o);
    if (o->mtrr)
        for (u32 i = 0; i < ARRAY_SIZE(mtrrs); i++)
            rdmsr_safe(mtrrs[i].msr, &o->mtrr_before[i]);
    struct pmu_cpu *pc = this_pmu_cpu();
    const char *why;
    o->pmu = pmu_cpu_usable(pc, &why);
    if (o->pmu) {
        o->pmu_rc = pmu_state_program_distinct(&pc->pmu, &o->status_set_bits, &o->pmu_why);
        pmu_state_read(&pc->pmu, &o->pmu_before);
    }
    /* The LBR: its first entries and its filter, recording off. */
    u64 lbr_value[ARRAY_SIZE(o->lbr_msr)];
    o->lbr_n = o->pmu ? lbr_distinct_state(&pc->lbr, o->lbr_msr, lbr_value, ARRAY_SIZE(o->lbr_msr)) : 0;
    o->lbr_rc = 0;
    for (u32 i = 0; i < o->lbr_n && !o->lbr_rc; i++) {
        o->lbr_rc = wrmsr_safe(o->lbr_msr[i], lbr_value[i]);
        o->lbr_rc = o->lbr_rc ? o->lbr_rc : rdmsr_safe(o->lbr_msr[i], &o->lbr_before[i]);
    }
    set_apic_distinct();
    o->tsc_before = rdtsc();

    const char *not_why = "";
    bool back = smp_init_roundtrip(capture, o, &o->init_tsc, &not_why);

    /* Put back what INIT kept (apic_cpu_init already reset the APIC). */
    for (u32 i = 0; i < ARRAY_SIZE(kept_msrs); i++)
        wrmsr_safe(kept_msrs[i].msr, saved[i]);
    fpu_restore();
    write_cr4(cr4);
    asm volatile("mov %0, %%dr0; mov %1, %%dr7" ::"r"(dr0), "r"(dr7));
    if (o->pmu)
        pmu_reset(&pc->pmu);

    if (!back) {
        k_snprintf(o->why_not, sizeof(o->why_not), "%s", not_why);
        return check_skip(c, "%s", o->why_not);
    }
    o->done = true;
    if (!o->cpu)
        check_note(c, "firmware", "%s", smp_bsp_resume()->evidence);
    check_note(c, "path", "%s", o->cpu ? "INIT and SIPI from cpu0 (wait-for-SIPI)"
                                       : "INIT to itself, then the firmware (SeaBIOS) through CMOS 0x0A and 40:67: "
                                         "what the trampoline saw is after firmware");
    expect_eq_dec(c, "trampoline passages", o->seen_count_before + 1, o->seen.count);
    expect_eq(c, "trampoline record's initial APIC ID", o->initial_apic_id, o->seen.apic_id);
    check_note(c, "INIT to re-entry", "%llu us", (unsigned long long)tsc_to_us(o->resume_tsc - o->init_tsc));
}

/* Returns false (after a SKIP) when the round trip did not happen on this CPU. */
static bool have_obs(struct check *c)
{
    if (obs.cpu == this_cpu()->index && obs.done)
        return true;
    check_skip(c, "%s", obs.cpu == this_cpu()->index && obs.why_not[0] ? obs.why_not : "no INIT round trip");
    return false;
}

/* SDM Vol.3A Table 10-1, INIT column (tests/init/portable/init_judge.h says what each register must hold). */
static void arch_reset_check(struct check *c)
{
    if (!have_obs(c))
        return;
    const struct ap_tramp_seen *s = &obs.seen;
    struct init_arch_regs want;
    init_arch_expected(obs.cr0_before, &want);
    check_note(c, "CR0 before INIT", "0x%llx", (unsigned long long)obs.cr0_before);
    bool cr0_ok = expect_eq(c, "CR0 (ET set, CD/NW unchanged)", want.cr0, s->cr0);
    expect_eq(c, "CR2", want.cr2, s->cr2);
    expect_eq(c, "CR3", want.cr3, s->cr3);
    expect_eq(c, "CR4", want.cr4, s->cr4);
    expect_eq(c, "EFER", want.efer, s->efer);
    expect_eq(c, "DR0 (was 0x12345000)", want.dr0, s->dr0);
    expect_eq(c, "DR6", want.dr6, s->dr6);
    expect_eq(c, "DR7 (was 0x600)", want.dr7, s->dr7);
    if (!cr0_ok && c->failures == 1 && init_cr0_is_reset_value(s->cr0) && platform_is_qemu_tcg())
        check_deviation(c, "QEMU TCG deviation: target/i386/cpu.c x86_cpu_reset_hold sets CR0 = 0x60000010 on INIT as on "
                      "reset (do_cpu_init, target/i386/helper.c, runs the full CPU reset), where the SDM keeps "
                      "CD/NW (KVM kvm_vcpu_reset does)");
}

/* SDM Vol.3A 11.4.7.3: after INIT the local APIC is as after power-up (11.4.7.1) except the APIC ID (and
 * arbitration ID); IA32_APIC_BASE is not changed by INIT (11.12.5.1, Figure 11-27). */
static void apic_reset_check(struct check *c)
{
    if (!have_obs(c))
        return;
    check_note(c, "before INIT", "SVR 0x1FE, TPR 0x20, LVT PC 0xE9 (unmasked), LVT timer 0x100EA, timer "
                                 "initial count 0x7FFFFFFF, divide 0xB%s",
               apic_mode() == APIC_MODE_XAPIC ? ", LDR 0x02000000" : "");
    bool others_ok = true;
    const char *dev = NULL;
    for (u32 i = 0; i < ARRAY_SIZE(apic_regs); i++) {
        if (obs.apic_rc[i] == PMU_ENOTSUP)
            continue;
        if (obs.apic_rc[i]) {
            others_ok &= expect_eq(c, apic_regs[i].name, apic_regs[i].expected, (u64)obs.apic_rc[i] << 32);
            continue;
        }
        bool ok = expect_eq(c, apic_regs[i].name, apic_regs[i].expected, obs.apic_after[i]);
        if (!ok && apic_regs[i].reg == APIC_LVT_LINT0)
            dev = hv_dev_init_lint0(hv_kind_of(&boot_state()->ident), (obs.apic_base_after & APIC_BASE_BSP) != 0,
                                    obs.apic_after[i]);
        else
            others_ok &= ok;
    }
    others_ok &= expect_eq(c, "IA32_APIC_BASE", obs.apic_base_before, obs.apic_base_after);
    others_ok &= expect_eq_dec(c, "APIC ID kept", obs.apic_id_before, apic_id());
    if (dev && others_ok)
        check_deviation(c, "%s", dev);
}

/* SDM Vol.3A 10.1 "Initialization Overview": INIT leaves the MSRs and the x87 FPU state unchanged; Table 10-1:
 * XMM registers and MXCSR unchanged by INIT, the time-stamp counter is not reset by INIT. */
static void kept_check(struct check *c)
{
    if (!have_obs(c))
        return;
    for (u32 i = 0; i < ARRAY_SIZE(kept_msrs); i++) {
        if (obs.msr_rc[i]) {
            check_note(c, kept_msrs[i].name, "not checked: the write of 0x%llx failed (%s)",
                       (unsigned long long)kept_msrs[i].value, pmu_strerror(obs.msr_rc[i]));
            continue;
        }
        expect_eq(c, kept_msrs[i].name, obs.msr_before[i], obs.msr_after[i]);
    }
    expect_true(c, "TSC kept counting", obs.seen.tsc > obs.tsc_before, "trampoline TSC > TSC before INIT",
                "0x%llx then 0x%llx", (unsigned long long)obs.tsc_before, (unsigned long long)obs.seen.tsc);
    expect_eq(c, "x87 control word", obs.fpu_before.fcw, obs.fpu_after.fcw);
    expect_eq(c, "MXCSR", obs.fpu_before.mxcsr, obs.fpu_after.mxcsr);
    expect_eq(c, "XMM0 low", obs.fpu_before.xmm0[0], obs.fpu_after.xmm0[0]);
    expect_eq(c, "XMM0 high", obs.fpu_before.xmm0[1], obs.fpu_after.xmm0[1]);
}

/* SDM Vol.3A Table 10-1: fixed and variable MTRRs "Unchanged" by INIT (and 10.1: "MTRRs ... left unchanged"). */
static void mtrr_check(struct check *c)
{
    if (!have_obs(c))
        return;
    if (!obs.mtrr)
        return check_skip(c, "no MTRRs: CPUID.01H:EDX[12] = 0");
    for (u32 i = 0; i < ARRAY_SIZE(mtrrs); i++)
        expect_eq(c, mtrrs[i].name, obs.mtrr_before[i], obs.mtrr_after[i]);
    struct init_mtrr_tally t;
    init_mtrr_count(obs.mtrr_before, obs.mtrr_after, ARRAY_SIZE(mtrrs), &t);
    if (obs.mtrr_copied)
        check_note(c, "set from the boot CPU first", "mask 0x%x of the list above: this AP's differed from the boot "
                   "CPU's before the check (lost at the bring-up INIT?)", obs.mtrr_copied);
    if (!obs.mtrr_before[0])
        check_note(c, "note", "MTRR_DEF_TYPE was 0 before INIT (as the firmware left it): a reset to 0 cannot show");
    if (init_mtrr_zeroed_by_init(&t) && platform_is_qemu_tcg())
        check_deviation(c, "QEMU TCG deviation: target/i386/cpu.c x86_cpu_reset_hold zeroes mtrr_deftype, mtrr_var and "
                      "mtrr_fixed, and do_cpu_init (target/i386/helper.c) keeps only start_init_save..end_init_save "
                      "of CPUX86State across INIT, which holds no MTRR (KVM keeps them)");
}

/* KNC PMU 1.4.4 and SDM Vol.3A Table 10-1 ("Perf. counters and event select: INIT unchanged"): every PMU
 * register keeps its value. Nothing counts (pmu_state_program_distinct), so the comparison is exact. */
static void pmu_kept_check(struct check *c)
{
    struct pmu_cpu *pc = this_pmu_cpu();
    SKIP_WITHOUT_PMU(c, pc);
    if (!have_obs(c))
        return;
    if (!expect_eq(c, "distinctive state programmed", 0, (u64)obs.pmu_rc))
        return check_note(c, "failed step", "%s: %s", obs.pmu_why ? obs.pmu_why : "?", pmu_strerror(obs.pmu_rc));
    check_note(c, "pending overflow set", "0x%llx%s", (unsigned long long)obs.status_set_bits,
               obs.status_set_bits ? "" : " (no STATUS_SET on this PMU)");
    for (u32 i = 0; i < obs.pmu_before.count && i < obs.pmu_after.count; i++) {
        char name[32];
        pmu_state_name(&obs.pmu_before.e[i], name, sizeof(name));
        const struct pmu_state_entry *x = &obs.pmu_before.e[i], *y = &obs.pmu_after.e[i];
        expect_eq(c, name, x->rc ? (u64)x->rc << 48 : x->value, y->rc ? (u64)y->rc << 48 : y->value);
    }
    expect_eq_dec(c, "registers compared", obs.pmu_before.count, obs.pmu_after.count);
}

/* The Last Branch Records across INIT: every register keeps its value, as every MSR (SDM Vol.3A 9.1; Arch LBR:
 * only a warm reset clears IA32_LBR_CTL.LBREn, and keeps the rest, SDM Vol.3B "Architectural LBR" reset behaviour). */
static void lbr_kept_check(struct check *c)
{
    struct pmu_cpu *pc = this_pmu_cpu();
    SKIP_WITHOUT_PMU(c, pc);
    if (pc->lbr.kind == LBR_NONE)
        return check_skip(c, "no LBR: %s", pc->lbr.why_none);
    if (!have_obs(c))
        return;
    if (obs.lbr_rc)
        return check_skip(c, "the %s LBR's MSRs fault (%s): not usable here", lbr_kind_name(pc->lbr.kind),
                          pmu_strerror(obs.lbr_rc));
    check_note(c, "lbr", "%s, %u entries: the first entries and the filter", lbr_kind_name(pc->lbr.kind),
               pc->lbr.depth);
    for (u32 i = 0; i < obs.lbr_n; i++) {
        char name[24];
        k_snprintf(name, sizeof(name), "MSR 0x%x", obs.lbr_msr[i]);
        expect_eq(c, name, obs.lbr_before[i], obs.lbr_after_rc[i] ? (u64)obs.lbr_after_rc[i] << 48 : obs.lbr_after[i]);
    }
}

/* CPUS_OTHERS: the round trip needs the boot CPU to send INIT and SIPI (smp_init_roundtrip), and one record (obs)
 * serves the checks after it, so each CPU runs them alone, in this order. */
static const struct check_def init_checks[] = {
    {"roundtrip", roundtrip_check, SCOPE_PER_CPU, NO_FAULT, CPUS_OTHERS},
    {"arch_reset", arch_reset_check, SCOPE_PER_CPU, NO_FAULT, CPUS_OTHERS},
    {"apic_reset", apic_reset_check, SCOPE_PER_CPU, NO_FAULT, CPUS_OTHERS},
    {"kept", kept_check, SCOPE_PER_CPU, NO_FAULT, CPUS_OTHERS},
    {"mtrr_kept", mtrr_check, SCOPE_PER_CPU, NO_FAULT, CPUS_OTHERS},
    {"pmu_kept", pmu_kept_check, SCOPE_PER_CPU, NO_FAULT, CPUS_OTHERS, .uses_pmu = true},
    {"lbr_kept", lbr_kept_check, SCOPE_PER_CPU, NO_FAULT, CPUS_OTHERS},
};

const struct suite suite_init = {"init", "state across INIT (SDM Table 10-1, KNC PMU 1.4.4) on every thread", true,
                                 SUITE_CHECKS(init_checks)};
