/* Suite "harness": the harness tests itself. Deliberate exceptions inside checks must be caught, reported
 * with their details (as expected failures, TODO), and the run must go on; safe accessors must return
 * faults instead of taking them. */
#include "kernel/percpu.h"
#include "kernel/safe.h"
#include "kernel/user.h"
#include "kernel/x86.h"
#include "harness/test_util.h"
#include "harness/framework.h"

#define NONCANONICAL 0x8000000000000000ull /* bits 63:47 not all equal: #GP (SDM Vol.3A 6.15 #GP) */
#define UNMAPPED 0x0000100000000000ull     /* canonical, beyond the 4 GiB identity map: #PF */

static void raise_gp(struct check *c)
{
    (void)c;
    asm volatile("movq (%0), %%rax" ::"r"(NONCANONICAL) : "rax", "memory");
}

static void raise_ud(struct check *c)
{
    (void)c;
    asm volatile("ud2");
}

static void raise_pf(struct check *c)
{
    (void)c;
    asm volatile("movq (%0), %%rax" ::"r"(UNMAPPED) : "rax", "memory");
}

static void raise_de(struct check *c)
{
    (void)c;
    asm volatile("xorl %%edx, %%edx\n movl $1, %%eax\n xorl %%ecx, %%ecx\n divl %%ecx" ::: "rax", "rcx", "rdx");
}

/* With RSP unmapped, delivering the #PF of a push needs the same stack: a #DF, which the IDT sends to its
 * own IST stack (SDM Vol.3A 6.15 "Interrupt 8—Double Fault Exception"). */
static void raise_df(struct check *c)
{
    (void)c;
    asm volatile("movq %%rsp, %%rbx\n movq %0, %%rsp\n pushq $0\n movq %%rbx, %%rsp" ::"r"(UNMAPPED)
                 : "rbx", "memory");
}

/* The five deliberate exceptions above were charged to their checks, in order, with the right details. */
static void recovered_check(struct check *c)
{
    static const u8 expected[5] = {13, 6, 14, 0, 8};
    const struct check_fault_log *log = &check_fault_logs[this_cpu()->index];
    if (!expect_true(c, "exceptions logged", log->count >= 5, ">= 5", "%u", log->count))
        return;
    const struct fault_record *f = &log->entries[log->count - 5];
    for (u32 i = 0; i < 5; i++) {
        char what[32];
        k_snprintf(what, sizeof(what), "exception %u vector", i + 1);
        expect_eq_dec(c, what, expected[i], f[i].vector);
    }
    expect_eq(c, "#PF CR2", UNMAPPED, f[2].cr2);
    expect_eq(c, "#PF error code (read, not present)", 0, f[2].error & 3);
    expect_eq(c, "#GP error code", 0, f[0].error);
    expect_eq(c, "#DF error code", 0, f[4].error);
}

static void fixup_noncanonical_check(struct check *c)
{
    u64 v;
    int r = read_u64_safe(NONCANONICAL, &v);
    expect_eq(c, "fault returned", FIXUP_FAULT | 13, (u64)r);
}

static void fixup_unmapped_check(struct check *c)
{
    u64 v;
    int r = read_u64_safe(UNMAPPED, &v);
    expect_eq(c, "fault returned", FIXUP_FAULT | 14, (u64)r);
    expect_eq(c, "CR2 recorded", UNMAPPED, this_cpu()->last_fault.cr2);
}

/* A safe accessor that does not fault returns the same value as the plain instruction. */
static void fixup_passthrough_check(struct check *c)
{
    u64 v = 0;
    int r = rdmsr_safe(MSR_EFER, &v);
    expect_eq(c, "rdmsr_safe(EFER) status", 0, (u64)r);
    expect_eq(c, "rdmsr_safe(EFER) value", rdmsr(MSR_EFER), v);
}

/* RDPMC with an invalid counter index must raise #GP(0) (SDM Vol.2B RDPMC "Protected Mode Exceptions").
 * QEMU TCG raises #UD instead (target/i386/tcg/misc_helper.c helper_rdpmc): a known deviation of that platform
 * only (check_deviation); elsewhere #UD fails. */
static void fixup_rdpmc_check(struct check *c)
{
    u64 v;
    int r = rdpmc_safe(0x3FFFFFFF, &v);
    if (r == (FIXUP_FAULT | 6)) {
        check_note(c, "deviation", "RDPMC raised #UD (SDM: #GP(0) for an invalid counter index)");
        if (platform_is_qemu_tcg())
            check_deviation(c, "QEMU TCG deviation: target/i386/tcg/misc_helper.c helper_rdpmc() raises #UD for "
                               "every RDPMC (it emulates no PMU), where the SDM gives #GP(0) for an invalid index");
    }
    expect_eq(c, "fault returned", FIXUP_FAULT | 13, (u64)r);
}

static u64 user_read_cs(u64 arg)
{
    u16 cs;
    asm volatile("mov %%cs, %0" : "=r"(cs));
    return ((u64)cs << 32) | (arg + 1);
}

/* The ring-3 path used by privilege checks: enter CPL 3, compute, come back with the result. */
static void ring3_roundtrip_check(struct check *c)
{
    u64 r = run_at_cpl3(user_read_cs, 41);
    expect_eq(c, "CS at CPL 3", SEL_UCODE, r >> 32);
    expect_eq_dec(c, "result", 42, r & 0xFFFFFFFF);
    expect_eq(c, "CS back at CPL 0", SEL_KCODE, read_cs());
}

static u64 user_rdmsr(u64 msr)
{
    u64 v;
    return (u64)rdmsr_safe((u32)msr, &v);
}

/* RDMSR is privileged: #GP(0) at CPL > 0 (SDM Vol.2B RDMSR "Protected Mode Exceptions"); the fault is
 * fixed up in ring 3 and the caller sees it as a value. */
static void ring3_rdmsr_check(struct check *c)
{
    expect_eq(c, "RDMSR(EFER) at CPL 3", FIXUP_FAULT | 13, run_at_cpl3(user_rdmsr, MSR_EFER));
    expect_eq(c, "#GP error code", 0, this_cpu()->last_fault.error);
    expect_eq(c, "fault CS RPL", 3, this_cpu()->last_fault.cs & 3);
}

static const struct check_def harness_checks[] = {
    {"catch_gp", raise_gp, SCOPE_PER_CPU, 13},
    {"catch_ud", raise_ud, SCOPE_PER_CPU, 6},
    {"catch_pf", raise_pf, SCOPE_PER_CPU, 14},
    {"catch_de", raise_de, SCOPE_PER_CPU, 0},
    {"catch_df", raise_df, SCOPE_PER_CPU, 8},
    {"recovered", recovered_check, SCOPE_PER_CPU, NO_FAULT},
    {"fixup_noncanonical", fixup_noncanonical_check, SCOPE_PER_CPU, NO_FAULT},
    {"fixup_unmapped", fixup_unmapped_check, SCOPE_PER_CPU, NO_FAULT},
    {"fixup_passthrough", fixup_passthrough_check, SCOPE_PER_CPU, NO_FAULT},
    {"fixup_rdpmc", fixup_rdpmc_check, SCOPE_PER_CPU, NO_FAULT},
    {"ring3_roundtrip", ring3_roundtrip_check, SCOPE_PER_CPU, NO_FAULT},
    {"ring3_rdmsr", ring3_rdmsr_check, SCOPE_PER_CPU, NO_FAULT},
};

const struct suite suite_harness = {"harness", "the harness checks its own exception handling", true,
                                    SUITE_CHECKS(harness_checks)};
