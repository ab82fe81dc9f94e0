/* The register-level PMU/APIC model's own tests: each checks one rule the model encodes, with the expected
 * values taken from the manual the model cites (emul/model/pmu_model.c, apic_model.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "lib/cpu_ident.h"
#include "pmu/cpuid_dump.h"
#include "pmu/pmu.h"
#include "pmu/pmu_msr.h"
#include "emul/model/pmu_model.h"
#include "tests/host/support/caps_fixture.h"
#include "tests/host/support/test_data.h"

#include <stdlib.h>
#include <string.h>

/* Select fields (SDM Vol.3B 21.2.1.1; APM Vol.2 13.2.1; KNC Table 1-5). */
#define USR BIT(16)
#define OS BIT(17)
#define INT BIT(20)
#define ANY BIT(21)
#define EN BIT(22)
#define SEL(ev, um) ((u64)(ev) | ((u64)(um) << 8) | USR | OS | EN)
#define INST 0xc0, 0x00 /* instructions retired: event, umask */
#define SEL_INST SEL(0xc0, 0x00)
#define W48 ((1ull << 48) - 1)
#define VEC 0xfe
#define DM_FIXED 0u /* LVT delivery mode 000: fixed */

static struct pmu_caps caps;
static struct pmu_model m;
static struct hw_access hw;

static void start(enum model_apic_behaviour b)
{
    pmu_model_init(&m, &caps, b);
    assert_null(m.config_error);
    pmu_model_access(&m, &hw);
}

static void intel(u32 version, bool fw, enum model_apic_behaviour b)
{
    fixture_caps_intel(&caps, version, 4, 48, 3, 48, fw);
    start(b);
}

static u64 rd(u32 msr)
{
    u64 v = 0xbad;
    assert_int_equal(hw_rdmsr(&hw, msr, &v), 0);
    return v;
}

static void wr(u32 msr, u64 v)
{
    assert_int_equal(hw_wrmsr(&hw, msr, v), 0);
}

static void expect_gp_rd(u32 msr)
{
    u64 v = 0xbad;
    assert_int_equal(hw_rdmsr(&hw, msr, &v), HW_GP);
    assert_int_equal(v, 0); /* access.h: *val is 0 on a fault */
}

static void expect_gp_wr(u32 msr, u64 v)
{
    assert_int_equal(hw_wrmsr(&hw, msr, v), HW_GP);
}

static u64 pmc(u32 ecx)
{
    u64 v = 0xbad;
    assert_int_equal(hw_rdpmc(&hw, ecx, &v), 0);
    return v;
}

static void unmask_lvt(u32 mode)
{
    hw_apic_write(&hw, HW_APIC_LVT_PMC, VEC | mode);
}

static bool lvt_masked(void)
{
    return (hw_apic_read(&hw, HW_APIC_LVT_PMC) & HW_LVT_MASKED) != 0;
}

/* ---- counters: width, wrap, write semantics ------------------------------------------------------------ */

/* SDM 21.2.1: a counter holds gp_width bits and overflows when it wraps past all-ones; the status bit is set
 * at that event (SDM 21.2.2). */
static void test_width_masking_and_wrap(void **state)
{
    (void)state;
    intel(4, true, MODEL_APIC_STRICT_EDGE);
    wr(MSR_IA32_PERFEVTSEL0, SEL_INST);
    wr(MSR_IA32_A_PMC0, W48 - 1);
    pmu_model_count(&m, INST, 1);
    assert_int_equal(rd(MSR_IA32_PMC0), W48);
    assert_int_equal(rd(MSR_IA32_PERF_GLOBAL_STATUS), 0);
    pmu_model_count(&m, INST, 1);
    assert_int_equal(rd(MSR_IA32_PMC0), 0);
    assert_int_equal(rd(MSR_IA32_PERF_GLOBAL_STATUS), BIT(0));
    assert_int_equal(m.st.overflows[0], 1);
    pmu_model_count(&m, INST, 5);
    assert_int_equal(pmc(0), 5);
    /* A value with a bit beyond the width: #GP on the full-width alias (SDM 21.2.6). */
    expect_gp_wr(MSR_IA32_A_PMC0, BIT(48));
    assert_int_equal(rd(MSR_IA32_PMC0), 5);
}

/* SDM 21.2.6: IA32_PMCx takes EAX[31:0] sign-extended; IA32_A_PMCx (only with FW_WRITE) takes the full width. */
static void test_legacy_write_sign_extends(void **state)
{
    (void)state;
    intel(2, false, MODEL_APIC_STRICT_EDGE);
    wr(MSR_IA32_PMC0, 0x80000000);
    assert_int_equal(rd(MSR_IA32_PMC0), 0xffff80000000ull);
    wr(MSR_IA32_PMC0, 0x7fffffff);
    assert_int_equal(rd(MSR_IA32_PMC0), 0x7fffffff);
    wr(MSR_IA32_PMC0, 0xdead00000005ull); /* EDX is ignored */
    assert_int_equal(rd(MSR_IA32_PMC0), 5);
    wr(MSR_IA32_PMC0 + 1, 0xffffffff);
    assert_int_equal(rd(MSR_IA32_PMC0 + 1), W48);
    /* Without PERF_CAPABILITIES.FW_WRITE there is no IA32_A_PMCx. */
    expect_gp_wr(MSR_IA32_A_PMC0, 1);
    expect_gp_rd(MSR_IA32_A_PMC0);

    intel(4, true, MODEL_APIC_STRICT_EDGE);
    wr(MSR_IA32_PMC0, 0x80000000); /* the legacy address keeps sign-extending */
    assert_int_equal(rd(MSR_IA32_PMC0), 0xffff80000000ull);
    wr(MSR_IA32_A_PMC0, 0x80000000);
    assert_int_equal(rd(MSR_IA32_PMC0), 0x80000000);
    assert_int_equal(rd(MSR_IA32_A_PMC0), 0x80000000);

    /* Sign extension stops at the counter width. */
    fixture_caps_intel(&caps, 2, 2, 40, 3, 40, false);
    start(MODEL_APIC_STRICT_EDGE);
    wr(MSR_IA32_PMC0, 0x80000000);
    assert_int_equal(rd(MSR_IA32_PMC0), 0xff80000000ull);
}

/* ---- reserved bits and absent registers --------------------------------------------------------------- */

static void test_intel_reserved_bits_fault(void **state)
{
    (void)state;
    intel(2, false, MODEL_APIC_STRICT_EDGE);
    /* Event select: bits 63:32 reserved (SDM 21.2.1.1); AnyThread only from v3 (SDM 21.2.3). */
    expect_gp_wr(MSR_IA32_PERFEVTSEL0, BIT(32));
    expect_gp_wr(MSR_IA32_PERFEVTSEL0, ANY);
    wr(MSR_IA32_PERFEVTSEL0, 0xffffffffull & ~ANY);
    /* Fixed control: one field per existing counter, AnyThread from v3 (SDM 21.2.2, 21.2.3). */
    expect_gp_wr(MSR_IA32_FIXED_CTR_CTRL, 0x1000);
    expect_gp_wr(MSR_IA32_FIXED_CTR_CTRL, 0x4);
    wr(MSR_IA32_FIXED_CTR_CTRL, 0xbbb);
    /* Global control: only existing counters (SDM "Global Counter Control Facilities In ... Sandy Bridge"). */
    expect_gp_wr(MSR_IA32_PERF_GLOBAL_CTRL, BIT(4));
    expect_gp_wr(MSR_IA32_PERF_GLOBAL_CTRL, BIT(35));
    wr(MSR_IA32_PERF_GLOBAL_CTRL, 0x70000000full);
    /* OVF_CTRL: counters, 62, 63 on v2; 61 (Ovf_Uncore) from v3 (SDM Vol.4 Table 2-2). */
    expect_gp_wr(MSR_IA32_PERF_GLOBAL_OVF_CTRL, BIT(40));
    expect_gp_wr(MSR_IA32_PERF_GLOBAL_OVF_CTRL, BIT(61));
    wr(MSR_IA32_PERF_GLOBAL_OVF_CTRL, BIT(62) | BIT(63) | 0xf);
    /* Fixed counter bits beyond its width must be 0 (SDM 21.2.2). */
    expect_gp_wr(MSR_IA32_FIXED_CTR0, BIT(48));
    /* Read-only registers. */
    expect_gp_wr(MSR_IA32_PERF_GLOBAL_STATUS, 0);
    expect_gp_wr(MSR_IA32_PERF_CAPABILITIES, 0);

    intel(3, false, MODEL_APIC_STRICT_EDGE);
    wr(MSR_IA32_PERFEVTSEL0, ANY);
    wr(MSR_IA32_FIXED_CTR_CTRL, 0xfff);
    wr(MSR_IA32_PERF_GLOBAL_OVF_CTRL, BIT(61));

    intel(4, true, MODEL_APIC_STRICT_EDGE);
    expect_gp_wr(MSR_IA32_PERF_GLOBAL_INUSE, 0);
    expect_gp_wr(MSR_IA32_PERF_GLOBAL_STATUS_SET, BIT(63)); /* reserved in STATUS_SET */
    expect_gp_wr(MSR_IA32_PERF_GLOBAL_STATUS_SET, BIT(40));
    expect_gp_wr(MSR_IA32_PERF_GLOBAL_OVF_CTRL, BIT(56));
    wr(MSR_IA32_PERF_GLOBAL_OVF_CTRL, BIT(55) | BIT(58) | BIT(59) | BIT(60));

    /* UMASK2 (select bits 47:40) exists only where CPUID.23H enumerates it. */
    expect_gp_wr(MSR_IA32_PERFEVTSEL0, BIT(40));
    caps.umask2 = true;
    start(MODEL_APIC_STRICT_EDGE);
    wr(MSR_IA32_PERFEVTSEL0, BIT(40));
}

/* KVM pmu.c: "AMD ignores writes to reserved bits and read-only PMU MSRs". */
static void test_amd_reserved_bits_ignored(void **state)
{
    (void)state;
    fixture_caps_amd(&caps, PMU_KIND_AMD_PERFMON_V2, 6);
    start(MODEL_APIC_STRICT_EDGE);
    u64 keep = SEL(0x76, 0) | (0xfull << 32) | BIT(40) | BIT(41);
    wr(MSR_F15H_PERF_CTL0, keep | BIT(19) | BIT(21) | BIT(36) | BIT(63));
    assert_int_equal(rd(MSR_F15H_PERF_CTL0), keep);
    wr(MSR_F15H_PERF_CTR0, BIT(48) | 5);
    assert_int_equal(rd(MSR_F15H_PERF_CTR0), 5);
    wr(MSR_AMD64_PERF_CNTR_GLOBAL_CTL, ~0ull);
    assert_int_equal(rd(MSR_AMD64_PERF_CNTR_GLOBAL_CTL), 0x3f);
    wr(MSR_AMD64_PERF_CNTR_GLOBAL_STATUS, 0x3); /* read-only: ignored */
    assert_int_equal(rd(MSR_AMD64_PERF_CNTR_GLOBAL_STATUS), 0);
    wr(MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR, ~0ull);
}

static void test_absent_msrs_fault(void **state)
{
    (void)state;
    intel(2, false, MODEL_APIC_STRICT_EDGE); /* 4 GP, 3 fixed */
    rd(MSR_IA32_PMC0 + 3);
    expect_gp_rd(MSR_IA32_PMC0 + 4);
    expect_gp_wr(MSR_IA32_PMC0 + 4, 0);
    expect_gp_rd(MSR_IA32_PERFEVTSEL0 + 4);
    rd(MSR_IA32_FIXED_CTR0 + 2);
    expect_gp_rd(MSR_IA32_FIXED_CTR0 + 3);
    expect_gp_wr(MSR_IA32_PERF_GLOBAL_STATUS_SET, 1); /* v4 */
    expect_gp_rd(MSR_IA32_PERF_GLOBAL_INUSE);         /* v4 */
    expect_gp_rd(MSR_IA32_PMC_V6_GP0_CTR);            /* v6 */
    expect_gp_rd(0x1234);

    intel(1, false, MODEL_APIC_STRICT_EDGE); /* v1: no fixed counters, no global registers */
    expect_gp_rd(MSR_IA32_PERF_GLOBAL_CTRL);
    expect_gp_rd(MSR_IA32_PERF_GLOBAL_STATUS);
    expect_gp_wr(MSR_IA32_PERF_GLOBAL_OVF_CTRL, 0);
    expect_gp_rd(MSR_IA32_FIXED_CTR_CTRL);
    expect_gp_rd(MSR_IA32_FIXED_CTR0);

    fixture_caps_amd(&caps, PMU_KIND_AMD_PERFMON_V2, 6);
    start(MODEL_APIC_STRICT_EDGE);
    rd(MSR_F15H_PERF_CTR0 + 2 * 5);
    expect_gp_rd(MSR_F15H_PERF_CTL0 + 2 * 6);
    expect_gp_rd(MSR_F15H_PERF_CTR0 + 2 * 6);
    /* The K7 MSRs alias counters 0-3 (KVM svm/pmu.c get_gp_pmc_amd). */
    wr(MSR_K7_EVNTSEL0 + 3, SEL(0x76, 0));
    assert_int_equal(rd(MSR_F15H_PERF_CTL0 + 2 * 3), SEL(0x76, 0));
    wr(MSR_F15H_PERF_CTR0 + 2 * 3, 77);
    assert_int_equal(rd(MSR_K7_PERFCTR0 + 3), 77);

    fixture_caps_amd(&caps, PMU_KIND_AMD_LEGACY, 0);
    start(MODEL_APIC_STRICT_EDGE);
    rd(MSR_K7_PERFCTR0 + 3);
    expect_gp_rd(MSR_F15H_PERF_CTL0);
    expect_gp_rd(MSR_AMD64_PERF_CNTR_GLOBAL_STATUS);

    fixture_caps_knc(&caps);
    start(MODEL_APIC_STRICT_EDGE);
    rd(MSR_KNC_PERFCTR0 + 1);
    expect_gp_rd(MSR_KNC_PERFCTR0 + 2);
    expect_gp_rd(MSR_KNC_EVNTSEL0 + 2);
    expect_gp_rd(MSR_IA32_PERF_GLOBAL_CTRL);

    /* RDMSR/WRMSR at CPL 3: #GP (SDM Vol.2 RDMSR). */
    m.cpl = 3;
    expect_gp_rd(MSR_KNC_PERFCTR0);
    expect_gp_wr(MSR_KNC_PERFCTR0, 0);
}

/* ---- status: sticky, write-1-to-clear, STATUS_SET ----------------------------------------------------- */

static void test_status_sticky_and_write1_clear(void **state)
{
    (void)state;
    intel(2, false, MODEL_APIC_STRICT_EDGE);
    wr(MSR_IA32_PERFEVTSEL0, SEL_INST); /* INT clear: status is set anyway (SDM 21.2.2, KNC 0x2D) */
    wr(MSR_IA32_PERFEVTSEL0 + 1, SEL_INST);
    wr(MSR_IA32_PMC0, (u64)-3);
    wr(MSR_IA32_PMC0 + 1, (u64)-3);
    pmu_model_count(&m, INST, 3);
    assert_int_equal(rd(MSR_IA32_PERF_GLOBAL_STATUS), 0x3);
    assert_false(pmu_model_pmi_line(&m));
    pmu_model_count(&m, INST, 100); /* sticky across further counting */
    assert_int_equal(rd(MSR_IA32_PERF_GLOBAL_STATUS), 0x3);
    wr(MSR_IA32_PERF_GLOBAL_OVF_CTRL, 0); /* writing 0 clears nothing */
    assert_int_equal(rd(MSR_IA32_PERF_GLOBAL_STATUS), 0x3);
    wr(MSR_IA32_PERF_GLOBAL_OVF_CTRL, 0x1);
    assert_int_equal(rd(MSR_IA32_PERF_GLOBAL_STATUS), 0x2);
    wr(MSR_IA32_PMC0, (u64)-1);
    pmu_model_count(&m, INST, 1);
    assert_int_equal(rd(MSR_IA32_PERF_GLOBAL_STATUS), 0x3);
    assert_int_equal(m.st.overflows[0], 2);
    assert_int_equal(m.st.overflows[1], 1);
    assert_int_equal(m.st.pmi_requests, 0);
}

static void test_status_set(void **state)
{
    (void)state;
    intel(4, true, MODEL_APIC_STRICT_EDGE);
    u64 bits = BIT(1) | BIT(33) | BIT(62);
    wr(MSR_IA32_PERF_GLOBAL_STATUS_SET, bits);
    assert_int_equal(rd(MSR_IA32_PERF_GLOBAL_STATUS), bits);
    assert_false(pmu_model_pmi_line(&m)); /* no overflow event: no PMI request */
    wr(MSR_IA32_PERF_GLOBAL_OVF_CTRL, bits);
    assert_int_equal(rd(MSR_IA32_PERF_GLOBAL_STATUS), 0);

    for (u32 v = 2; v <= 3; v++) { /* STATUS_SET arrived with v4 (SDM 21.2.4.2) */
        intel(v, false, MODEL_APIC_STRICT_EDGE);
        expect_gp_wr(MSR_IA32_PERF_GLOBAL_STATUS_SET, BIT(0));
    }

    fixture_caps_amd(&caps, PMU_KIND_AMD_PERFMON_V2, 6);
    start(MODEL_APIC_STRICT_EDGE);
    wr(MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_SET, 0x24);
    assert_int_equal(rd(MSR_AMD64_PERF_CNTR_GLOBAL_STATUS), 0x24);
    wr(MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR, 0x4);
    assert_int_equal(rd(MSR_AMD64_PERF_CNTR_GLOBAL_STATUS), 0x20);
}

/* v4 CTR_Frz (status bit 59): counters frozen while it is set (SDM Vol.4 Table 2-2 0x38E). */
static void test_ctr_frz_freezes(void **state)
{
    (void)state;
    intel(4, true, MODEL_APIC_STRICT_EDGE);
    wr(MSR_IA32_PERFEVTSEL0, SEL_INST);
    wr(MSR_IA32_PERF_GLOBAL_STATUS_SET, BIT(59));
    pmu_model_count(&m, INST, 10);
    assert_int_equal(rd(MSR_IA32_PMC0), 0);
    wr(MSR_IA32_PERF_GLOBAL_OVF_CTRL, BIT(59));
    pmu_model_count(&m, INST, 10);
    assert_int_equal(rd(MSR_IA32_PMC0), 10);
}

/* ---- counting gates ----------------------------------------------------------------------------------- */

/* SDM 21.2.2 / KNC 1.4.1 / APM 13.2.2: a counter counts when its EN bit AND its global bit are set; OS counts
 * at CPL 0, USR at CPL > 0. */
static void test_counting_gated_by_en_and_global(void **state)
{
    (void)state;
    intel(2, false, MODEL_APIC_STRICT_EDGE);
    wr(MSR_IA32_PERFEVTSEL0, SEL_INST & ~EN);
    pmu_model_count(&m, INST, 10);
    assert_int_equal(rd(MSR_IA32_PMC0), 0);
    wr(MSR_IA32_PERFEVTSEL0, SEL_INST);
    wr(MSR_IA32_PERF_GLOBAL_CTRL, 0xe);
    pmu_model_count(&m, INST, 10);
    assert_int_equal(rd(MSR_IA32_PMC0), 0);
    wr(MSR_IA32_PERF_GLOBAL_CTRL, 0x1);
    pmu_model_count(&m, INST, 10);
    assert_int_equal(rd(MSR_IA32_PMC0), 10);
    pmu_model_count(&m, 0xc0, 0x01, 10); /* another umask: not this event */
    pmu_model_count(&m, 0xc4, 0x00, 10);
    assert_int_equal(rd(MSR_IA32_PMC0), 10);
    wr(MSR_IA32_PERFEVTSEL0, SEL_INST & ~USR); /* OS only */
    m.cpl = 3;
    pmu_model_count(&m, INST, 10);
    m.cpl = 0;
    assert_int_equal(rd(MSR_IA32_PMC0), 10);
    wr(MSR_IA32_PERFEVTSEL0, SEL_INST & ~OS); /* USR only */
    m.cpl = 3;
    pmu_model_count(&m, INST, 10);
    m.cpl = 0;
    pmu_model_count(&m, INST, 10);
    assert_int_equal(rd(MSR_IA32_PMC0), 20);
    assert_int_equal(pmu_model_tick(&m, PMU_GP(1), 5), 0); /* counter 1 is not enabled */

    /* AMD before PerfMonV2 has no global control: EN alone counts. */
    fixture_caps_amd(&caps, PMU_KIND_AMD_LEGACY, 0);
    start(MODEL_APIC_STRICT_EDGE);
    wr(MSR_K7_EVNTSEL0, SEL(0x76, 0));
    pmu_model_count(&m, 0x76, 0, 7);
    assert_int_equal(rd(MSR_K7_PERFCTR0), 7);

    /* PerfMonV2: PerfCntrGlobalCtl gates; AMD 12-bit events use select bits 35:32. */
    fixture_caps_amd(&caps, PMU_KIND_AMD_PERFMON_V2, 6);
    start(MODEL_APIC_STRICT_EDGE);
    wr(MSR_F15H_PERF_CTL0, SEL(0xc3, 0) | (1ull << 32));
    wr(MSR_AMD64_PERF_CNTR_GLOBAL_CTL, 0);
    pmu_model_count(&m, 0x1c3, 0, 7);
    assert_int_equal(rd(MSR_F15H_PERF_CTR0), 0);
    wr(MSR_AMD64_PERF_CNTR_GLOBAL_CTL, 1);
    pmu_model_count(&m, 0xc3, 0, 7); /* event 0x0C3 is another event */
    assert_int_equal(rd(MSR_F15H_PERF_CTR0), 0);
    pmu_model_count(&m, 0x1c3, 0, 7);
    assert_int_equal(rd(MSR_F15H_PERF_CTR0), 7);

    /* KNC: GLOBAL_CTRL resets to 0, so EN alone does not count (KNC 1.4.1, Table 1-2). */
    fixture_caps_knc(&caps);
    start(MODEL_APIC_STRICT_EDGE);
    wr(MSR_KNC_EVNTSEL0 + 1, SEL(0x16, 0));
    pmu_model_count(&m, 0x16, 0, 3);
    assert_int_equal(rd(MSR_KNC_PERFCTR0 + 1), 0);
    wr(MSR_KNC_PERF_GLOBAL_CTRL, 0x2);
    pmu_model_count(&m, 0x16, 0, 3);
    assert_int_equal(rd(MSR_KNC_PERFCTR0 + 1), 3);
}

/* AMD family 15h wires PMCx076 (CPU clocks not halted) to PERF_CTL[2:0] and PMCx0C0 to PERF_CTL[5:0] (Linux
 * amd/core.c amd_get_event_constraints_f15h: PMC20, PMC50): programmed on all six counters, only those count.
 * Family 19h has no such constraint: all six count. */
static void test_family_counter_constraints(void **state)
{
    (void)state;
    static const struct {
        u32 family;
        u16 event;
        u64 counting;
    } t[] = {{0x15, 0x076, 0x07}, {0x15, 0x0c0, 0x3f}, {0x19, 0x076, 0x3f}, {0x19, 0x0c0, 0x3f}};
    for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
        fixture_caps_amd(&caps, PMU_KIND_AMD_CORE_EXT, 6);
        caps.family = t[i].family;
        start(MODEL_APIC_STRICT_EDGE);
        for (u32 gp = 0; gp < 6; gp++)
            wr(MSR_F15H_PERF_CTL0 + 2 * gp, SEL(t[i].event, 0));
        pmu_model_count(&m, t[i].event, 0, 9);
        for (u32 gp = 0; gp < 6; gp++)
            if (rd(MSR_F15H_PERF_CTR0 + 2 * gp) != (t[i].counting >> gp & 1 ? 9u : 0u))
                fail_msg("family 0x%x event 0x%03x gp%u: %llu", t[i].family, t[i].event, gp,
                         (unsigned long long)rd(MSR_F15H_PERF_CTR0 + 2 * gp));
    }
}

/* SDM 21.2.2: fixed counter i counts its architectural event when its FIXED_CTR_CTRL field enables the current
 * ring and GLOBAL_CTRL bit 32 + i is set. */
static void test_fixed_counters_gated(void **state)
{
    (void)state;
    intel(2, false, MODEL_APIC_STRICT_EDGE);
    wr(MSR_IA32_PERF_GLOBAL_CTRL, 0x700000000ull);
    pmu_model_count(&m, PMU_MODEL_EV_INSTRUCTIONS, 10);
    assert_int_equal(rd(MSR_IA32_FIXED_CTR0), 0); /* field 0 */
    wr(MSR_IA32_FIXED_CTR_CTRL, 0x1);              /* fixed 0: OS only */
    pmu_model_count(&m, PMU_MODEL_EV_INSTRUCTIONS, 10);
    m.cpl = 3;
    pmu_model_count(&m, PMU_MODEL_EV_INSTRUCTIONS, 10);
    m.cpl = 0;
    assert_int_equal(rd(MSR_IA32_FIXED_CTR0), 10);
    wr(MSR_IA32_FIXED_CTR_CTRL, 0x333);
    pmu_model_count(&m, PMU_MODEL_EV_CORE_CYCLES, 4);
    assert_int_equal(rd(MSR_IA32_FIXED_CTR0), 10);
    assert_int_equal(rd(MSR_IA32_FIXED_CTR0 + 1), 4);
    pmu_model_count(&m, PMU_MODEL_EV_REF_CYCLES, 6);
    assert_int_equal(rd(MSR_IA32_FIXED_CTR0 + 2), 6);
    wr(MSR_IA32_PERF_GLOBAL_CTRL, 0x600000000ull); /* fixed 0 globally off */
    pmu_model_count(&m, PMU_MODEL_EV_INSTRUCTIONS, 10);
    assert_int_equal(rd(MSR_IA32_FIXED_CTR0), 10);
    assert_int_equal(pmu_model_tick(&m, PMU_FIXED(1), 2), 2);
    assert_int_equal(pmc((1u << 30) | 1), 6);
}

/* ---- RDPMC ------------------------------------------------------------------------------------------------ */

static void test_rdpmc_encodings(void **state)
{
    (void)state;
    u64 v;
    intel(4, true, MODEL_APIC_STRICT_EDGE);
    wr(MSR_IA32_A_PMC0 + 1, 0x123456789abull);
    wr(MSR_IA32_FIXED_CTR0 + 2, 0xfedcba98765ull);
    assert_int_equal(pmc(1), 0x123456789abull);
    assert_int_equal(pmc((1u << 30) | 2), 0xfedcba98765ull);
    /* SDM Vol.2 RDPMC: type ECX[31:16] (0 GP, 4000H fixed), index ECX[15:0]; anything else #GP. */
    assert_int_equal(hw_rdpmc(&hw, 4, &v), HW_GP);
    assert_int_equal(hw_rdpmc(&hw, (1u << 30) | 3, &v), HW_GP);
    assert_int_equal(hw_rdpmc(&hw, 1u << 29, &v), HW_GP); /* 2000H: performance metrics, not modelled */
    assert_int_equal(hw_rdpmc(&hw, 1u << 31, &v), HW_GP);
    assert_int_equal(hw_rdpmc(&hw, 1u << 16, &v), HW_GP);
    assert_int_equal(v, 0);
    /* CPL 3 needs CR4.PCE. */
    m.cpl = 3;
    assert_int_equal(hw_rdpmc(&hw, 1, &v), HW_GP);
    m.cr4_pce = true;
    assert_int_equal(pmc(1), 0x123456789abull);

    fixture_caps_amd(&caps, PMU_KIND_AMD_PERFMON_V2, 6);
    start(MODEL_APIC_STRICT_EDGE);
    wr(MSR_F15H_PERF_CTR0 + 2 * 5, 42);
    assert_int_equal(pmc(5), 42); /* APM RDPMC: ECX = counter number */
    assert_int_equal(hw_rdpmc(&hw, 6, &v), HW_GP);
    assert_int_equal(hw_rdpmc(&hw, (1u << 30), &v), HW_GP);

    fixture_caps_knc(&caps);
    start(MODEL_APIC_STRICT_EDGE);
    wr(MSR_KNC_PERFCTR0 + 1, (1ull << 40) - 1);
    assert_int_equal(pmc(1), (1ull << 40) - 1); /* KNC Table 1-1: zero-extended 40-bit */
    assert_int_equal(hw_rdpmc(&hw, 2, &v), HW_GP);
}

/* ---- PMI line and APIC ------------------------------------------------------------------------------------ */

/* Program GP counter `i` to count instructions with INT set and overflow after `period` more. */
static void arm_intel(u32 i, u64 period)
{
    wr(MSR_IA32_PERFEVTSEL0 + i, SEL_INST | INT);
    wr(MSR_IA32_PMC0 + i, (u64)-(s64)period);
}

static void arm_amd(u32 i, u64 period)
{
    wr(MSR_F15H_PERF_CTL0 + 2 * i, SEL_INST | INT);
    wr(MSR_F15H_PERF_CTR0 + 2 * i, (1ull << 48) - period);
}

static void test_pmi_delivery_masks_lvt_intel_not_amd(void **state)
{
    (void)state;
    struct apic_model_irq irq;
    intel(2, false, MODEL_APIC_STRICT_EDGE);
    assert_int_equal(hw_apic_read(&hw, HW_APIC_LVT_PMC), HW_LVT_MASKED); /* reset: masked, all else 0 */
    /* Only vector, delivery mode and mask are writable; delivery status and reserved bits read 0 (SDM Vol.3A
     * "Local Vector Table"). */
    hw_apic_write(&hw, HW_APIC_LVT_PMC, 0xffffffffu);
    assert_int_equal(hw_apic_read(&hw, HW_APIC_LVT_PMC), 0x107ffu);
    unmask_lvt(DM_FIXED);
    arm_intel(0, 3);
    pmu_model_count(&m, INST, 2);
    assert_false(pmu_model_pending_pmi(&m));
    pmu_model_count(&m, INST, 1);
    assert_true(pmu_model_pmi_line(&m));
    assert_true(pmu_model_pending_pmi(&m));
    assert_true(lvt_masked()); /* SDM: the APIC sets the mask flag on delivery */
    assert_true(pmu_model_take_pmi(&m, &irq));
    assert_int_equal(irq.vector, VEC);
    assert_false(irq.nmi);
    assert_false(pmu_model_pending_pmi(&m));
    hw_apic_write(&hw, HW_APIC_EOI, 0);
    assert_int_equal(m.apic.st.eoi, 1);
    assert_int_equal(m.apic.st.delivered, 1);

    fixture_caps_amd(&caps, PMU_KIND_AMD_PERFMON_V2, 6);
    start(MODEL_APIC_STRICT_EDGE);
    unmask_lvt(HW_LVT_DM_NMI);
    arm_amd(2, 1);
    pmu_model_count(&m, INST, 1);
    assert_int_equal(rd(MSR_AMD64_PERF_CNTR_GLOBAL_STATUS), BIT(2));
    assert_true(pmu_model_take_pmi(&m, &irq));
    assert_true(irq.nmi);
    assert_false(lvt_masked()); /* AMD: the APIC does not mask */
}

/* A high line at unmask: STRICT delivers nothing (KNC 1.4.3.9), LEVEL delivers. */
static void test_strict_vs_level_at_unmask(void **state)
{
    (void)state;
    struct apic_model_irq irq;
    for (int b = MODEL_APIC_STRICT_EDGE; b <= MODEL_APIC_LEVEL; b++) {
        intel(2, false, (enum model_apic_behaviour)b);
        unmask_lvt(DM_FIXED);
        arm_intel(0, 1);
        arm_intel(1, 2);
        pmu_model_count(&m, INST, 1);
        assert_true(pmu_model_take_pmi(&m, &irq));
        hw_apic_write(&hw, HW_APIC_EOI, 0);
        pmu_model_count(&m, INST, 1); /* counter 1 overflows: the line is already high, no edge */
        assert_int_equal(rd(MSR_IA32_PERF_GLOBAL_STATUS), 0x3);
        assert_int_equal(m.apic.st.line_rises, 1);
        unmask_lvt(DM_FIXED); /* status not cleared: line still high */
        assert_int_equal(m.apic.st.unmask_high, 1);
        if (b == MODEL_APIC_STRICT_EDGE) {
            assert_false(pmu_model_pending_pmi(&m)); /* a lost PMI */
            assert_false(lvt_masked());
        } else {
            assert_true(pmu_model_take_pmi(&m, &irq));
            assert_true(lvt_masked());
            hw_apic_write(&hw, HW_APIC_EOI, 0);
        }
        /* Clear the status, then unmask: the line drops; the next overflow is a fresh edge, delivered. */
        wr(MSR_IA32_PERF_GLOBAL_OVF_CTRL, 0x3);
        assert_false(pmu_model_pmi_line(&m));
        unmask_lvt(DM_FIXED);
        assert_int_equal(m.apic.st.unmask_high, 1);
        arm_intel(0, 1);
        pmu_model_count(&m, INST, 1);
        assert_true(pmu_model_take_pmi(&m, &irq));
        hw_apic_write(&hw, HW_APIC_EOI, 0);

        /* An edge while masked: dropped; at unmask STRICT delivers nothing, LEVEL delivers. */
        wr(MSR_IA32_PERF_GLOBAL_OVF_CTRL, 0x3);
        arm_intel(0, 1);
        hw_apic_write(&hw, HW_APIC_LVT_PMC, VEC | HW_LVT_MASKED);
        pmu_model_count(&m, INST, 1);
        assert_int_equal(m.apic.st.edges_masked, 1);
        assert_false(pmu_model_pending_pmi(&m));
        unmask_lvt(DM_FIXED);
        assert_int_equal(pmu_model_pending_pmi(&m), b == MODEL_APIC_LEVEL);
        assert_int_equal(m.apic.st.delivered, b == MODEL_APIC_LEVEL ? 4 : 2);
    }
}

/* Fixed delivery: one PMI in service and one in the IRR; more collapse (SDM "Interrupt Acceptance for Fixed
 * Interrupts"); the IRR one is dispatched after EOI. NMI: one latched while the handler runs. */
static void test_isr_irr_and_nmi_latch(void **state)
{
    (void)state;
    struct apic_model_irq irq;
    fixture_caps_amd(&caps, PMU_KIND_AMD_PERFMON_V2, 6); /* no mask on delivery: every edge reaches the APIC */
    start(MODEL_APIC_STRICT_EDGE);
    unmask_lvt(DM_FIXED);
    for (int k = 0; k < 3; k++) {
        arm_amd(0, 1);
        pmu_model_count(&m, INST, 1);
        if (k == 0)
            assert_true(pmu_model_take_pmi(&m, &irq)); /* in service, no EOI yet */
        wr(MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR, 1); /* line low again */
    }
    assert_int_equal(m.apic.st.line_rises, 3);
    assert_int_equal(m.apic.st.coalesced, 1);
    assert_false(pmu_model_pending_pmi(&m)); /* blocked by the one in service */
    assert_false(pmu_model_take_pmi(&m, &irq));
    hw_apic_write(&hw, HW_APIC_EOI, 0);
    assert_true(pmu_model_take_pmi(&m, &irq));
    assert_int_equal(irq.seq, 2);
    hw_apic_write(&hw, HW_APIC_EOI, 0);
    hw_apic_write(&hw, HW_APIC_EOI, 0);
    assert_int_equal(m.apic.st.spurious_eoi, 1);

    start(MODEL_APIC_STRICT_EDGE);
    unmask_lvt(HW_LVT_DM_NMI);
    arm_amd(0, 1);
    pmu_model_count(&m, INST, 1);
    assert_true(pmu_model_take_pmi(&m, &irq));
    assert_true(irq.nmi);
    wr(MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR, 1);
    arm_amd(0, 1);
    pmu_model_count(&m, INST, 1);
    assert_false(pmu_model_pending_pmi(&m)); /* NMIs blocked until the handler's IRET */
    pmu_model_pmi_done(&m);
    assert_true(pmu_model_take_pmi(&m, &irq));
    assert_int_equal(m.apic.st.eoi, 0);
}

/* Two counters wrapping at the same event: both status bits, one edge (KNC 1.4.3.9). */
static void test_simultaneous_overflows_one_edge(void **state)
{
    (void)state;
    intel(2, false, MODEL_APIC_STRICT_EDGE);
    unmask_lvt(DM_FIXED);
    arm_intel(0, 5);
    arm_intel(3, 5);
    pmu_model_count(&m, INST, 5);
    assert_int_equal(rd(MSR_IA32_PERF_GLOBAL_STATUS), BIT(0) | BIT(3));
    assert_int_equal(m.apic.st.line_rises, 1);
    assert_int_equal(m.apic.st.delivered, 1);
    assert_int_equal(m.st.overflows_total, 2);
    assert_int_equal(m.st.pmi_requests, 2);
}

/* pmu_fault=early-pmi: the overflow (status bit, PMI) is signalled at the all-ones value, one event before the
 * wrap, and not again at the wrap; without the fault, at the wrap only. */
static void test_early_pmi_fault(void **state)
{
    (void)state;
    for (int fault = 0; fault < 2; fault++) {
        intel(4, true, MODEL_APIC_STRICT_EDGE);
        pmu_model_set_faults(&m, fault ? PMU_FAULT_EARLY_PMI : 0);
        unmask_lvt(DM_FIXED);
        arm_intel(0, 10);
        pmu_model_count(&m, INST, 9);
        assert_int_equal(rd(MSR_IA32_PERF_GLOBAL_STATUS) & BIT(0), fault ? BIT(0) : 0);
        assert_int_equal(m.apic.st.delivered, fault ? 1 : 0);
        pmu_model_count(&m, INST, 1);
        assert_int_equal(rd(MSR_IA32_PERF_GLOBAL_STATUS) & BIT(0), BIT(0));
        assert_int_equal(m.apic.st.delivered, 1);
        assert_int_equal(m.st.overflows_total, 1);
        assert_int_equal(pmc(0), 0);
    }
}

/* PMUs without a status register signal each overflow with INT as a pulse. */
static void test_no_status_pmu_pulses(void **state)
{
    (void)state;
    fixture_caps_amd(&caps, PMU_KIND_AMD_CORE_EXT, 0);
    start(MODEL_APIC_STRICT_EDGE);
    unmask_lvt(HW_LVT_DM_NMI);
    arm_amd(1, 2);
    pmu_model_count(&m, INST, 2);
    assert_false(pmu_model_pmi_line(&m));
    assert_int_equal(m.apic.st.line_rises, 1);
    assert_true(pmu_model_pending_pmi(&m));
    assert_int_equal(rd(MSR_F15H_PERF_CTR0 + 2), 0); /* wrapped: top bit clear */
}

/* ---- KNC ---------------------------------------------------------------------------------------------------- */

static void test_knc_registers(void **state)
{
    (void)state;
    fixture_caps_knc(&caps);
    start(MODEL_APIC_STRICT_EDGE);
    /* KNC 1.4.4 / Table 1-2: everything resets to 0. */
    assert_int_equal(rd(MSR_KNC_PERF_GLOBAL_CTRL), 0);
    assert_int_equal(rd(MSR_KNC_PERF_GLOBAL_STATUS), 0);
    /* 40-bit counters, written in full (KNC 1.4 PerfCnt); 63:40 reserved. */
    wr(MSR_KNC_PERFCTR0, (1ull << 40) - 1);
    assert_int_equal(rd(MSR_KNC_PERFCTR0), (1ull << 40) - 1);
    expect_gp_wr(MSR_KNC_PERFCTR0, 1ull << 40);
    /* Select: 32 bits, bit 19 reserved; bit 21 is the thread-count mode. */
    expect_gp_wr(MSR_KNC_EVNTSEL0, BIT(32));
    expect_gp_wr(MSR_KNC_EVNTSEL0, BIT(19));
    wr(MSR_KNC_EVNTSEL0, SEL(0x16, 0) | INT | ANY);
    expect_gp_wr(MSR_KNC_PERF_GLOBAL_CTRL, BIT(2));
    wr(MSR_KNC_PERF_GLOBAL_CTRL, 0x1);
    pmu_model_count(&m, 0x16, 0, 1);
    assert_int_equal(rd(MSR_KNC_PERFCTR0), 0);
    assert_int_equal(rd(MSR_KNC_PERF_GLOBAL_STATUS), 0x1);
    /* 0x2D read-only, 0x2E write-only, 1 clears (Table 1-2). */
    expect_gp_wr(MSR_KNC_PERF_GLOBAL_STATUS, 0);
    expect_gp_rd(MSR_KNC_PERF_GLOBAL_OVF_CTRL);
    expect_gp_wr(MSR_KNC_PERF_GLOBAL_OVF_CTRL, BIT(2));
    wr(MSR_KNC_PERF_GLOBAL_OVF_CTRL, 0x1);
    assert_int_equal(rd(MSR_KNC_PERF_GLOBAL_STATUS), 0);
    wr(MSR_KNC_SPFLT_CONTROL, BIT(63));
    assert_int_equal(rd(MSR_KNC_SPFLT_CONTROL), BIT(63));
}

/* ---- reset, INIT, INUSE --------------------------------------------------------------------------------- */

static void test_reset_values(void **state)
{
    (void)state;
    intel(2, false, MODEL_APIC_STRICT_EDGE);
    assert_int_equal(rd(MSR_IA32_PERF_GLOBAL_CTRL), 0xf); /* GP enables set at RESET (KVM pmu.c, SDM 325462-079US) */
    assert_int_equal(rd(MSR_IA32_PERF_GLOBAL_STATUS), 0);
    m.reset_condchgd = true;
    pmu_model_reset(&m);
    assert_int_equal(rd(MSR_IA32_PERF_GLOBAL_STATUS), BIT(63));
    wr(MSR_IA32_PERF_GLOBAL_OVF_CTRL, BIT(63));
    assert_int_equal(rd(MSR_IA32_PERF_GLOBAL_STATUS), 0);

    fixture_caps_amd(&caps, PMU_KIND_AMD_PERFMON_V2, 5);
    start(MODEL_APIC_STRICT_EDGE);
    assert_int_equal(rd(MSR_AMD64_PERF_CNTR_GLOBAL_CTL), 0x1f);

    /* INIT keeps the PMU and resets the APIC (LVT masked). */
    intel(2, false, MODEL_APIC_STRICT_EDGE);
    wr(MSR_IA32_PMC0 + 2, 1234);
    wr(MSR_IA32_PERFEVTSEL0 + 2, SEL_INST);
    unmask_lvt(DM_FIXED);
    pmu_model_init_signal(&m);
    assert_int_equal(rd(MSR_IA32_PMC0 + 2), 1234);
    assert_int_equal(rd(MSR_IA32_PERFEVTSEL0 + 2), SEL_INST);
    assert_true(lvt_masked());
    pmu_model_reset(&m);
    assert_int_equal(rd(MSR_IA32_PMC0 + 2), 0);
    assert_int_equal(rd(MSR_IA32_PERFEVTSEL0 + 2), 0);
}

/* SDM 21.2.4.3 IA32_PERF_GLOBAL_INUSE. */
static void test_inuse(void **state)
{
    (void)state;
    intel(4, true, MODEL_APIC_STRICT_EDGE);
    assert_int_equal(rd(MSR_IA32_PERF_GLOBAL_INUSE), 0);
    wr(MSR_IA32_PERFEVTSEL0 + 2, 0x3c);
    wr(MSR_IA32_FIXED_CTR_CTRL, 0x020);
    assert_int_equal(rd(MSR_IA32_PERF_GLOBAL_INUSE), BIT(2) | BIT(33));
    wr(MSR_IA32_FIXED_CTR_CTRL, 0x820);
    assert_int_equal(rd(MSR_IA32_PERF_GLOBAL_INUSE), BIT(2) | BIT(33) | BIT(63));
    wr(MSR_IA32_FIXED_CTR_CTRL, 0);
    wr(MSR_IA32_PERFEVTSEL0 + 1, INT);
    assert_int_equal(rd(MSR_IA32_PERF_GLOBAL_INUSE), BIT(2) | BIT(63));
}

/* v6: CTR/CFG_A aliases in 4-MSR blocks (Linux msr-index.h V6 PMON range). */
static void test_v6_aliases(void **state)
{
    (void)state;
    fixture_caps_intel(&caps, 6, 10, 48, 3, 48, true);
    start(MODEL_APIC_STRICT_EDGE);
    wr(MSR_IA32_PMC_V6_GP0_CFG_A, SEL_INST);
    assert_int_equal(rd(MSR_IA32_PERFEVTSEL0), SEL_INST);
    wr(MSR_IA32_PMC_V6_GP0_CTR + 9 * MSR_IA32_PMC_V6_STEP, 0x80000000);
    assert_int_equal(pmc(9), 0x80000000); /* full width, not sign-extended */
    expect_gp_wr(MSR_IA32_PMC_V6_GP0_CTR, BIT(48));
    assert_int_equal(rd(MSR_IA32_PMC0 + 9), 0x80000000); /* IA32_PMC9 is the same counter (pmu_msr.h) */
    expect_gp_rd(MSR_IA32_PMC0 + 10);                      /* legacy addresses stop at 10 counters */
    expect_gp_rd(MSR_IA32_PMC_V6_GP0_CTR + 10 * MSR_IA32_PMC_V6_STEP);
    wr(MSR_IA32_PMC_V6_FX0_CTR + 2 * MSR_IA32_PMC_V6_STEP, 7);
    assert_int_equal(rd(MSR_IA32_FIXED_CTR0 + 2), 7);
}

/* ---- hooks and accounting -------------------------------------------------------------------------------- */

struct seen {
    u32 calls, bit;
    u64 counter, events;
    bool stop;
};

static void on_overflow(struct pmu_model *mm, u32 bit, void *arg)
{
    struct seen *s = arg;
    s->calls++;
    s->bit = bit;
    s->counter = pmu_model_counter(mm, bit);
    s->events = mm->st.events_counted;
    if (s->stop)
        mm->gp_sel[bit] &= ~EN; /* as a handler would, mid-burst */
}

/* The overflow happens at the exact event, and later events see what the hook changed. */
static void test_overflow_hook_exact_event(void **state)
{
    (void)state;
    struct seen s = {.stop = true};
    intel(2, false, MODEL_APIC_STRICT_EDGE);
    wr(MSR_IA32_PERFEVTSEL0 + 1, SEL_INST);
    wr(MSR_IA32_PMC0 + 1, (u64)-5);
    pmu_model_set_overflow_hook(&m, on_overflow, &s);
    pmu_model_count(&m, INST, 12);
    assert_int_equal(s.calls, 1);
    assert_int_equal(s.bit, 1);
    assert_int_equal(s.counter, 0);
    assert_int_equal(s.events, 5);
    assert_int_equal(rd(MSR_IA32_PMC0 + 1), 0); /* the 7 later events found it stopped */
}

struct inject {
    u64 at;
    u32 bit;
};

static void inject_at(struct pmu_model *mm, const struct pmu_model_access *a, bool after, void *arg)
{
    struct inject *in = arg;
    if (!after && a->index == in->at)
        pmu_model_tick(mm, in->bit, 1);
}

/* The access hook makes an overflow happen exactly before access k; the log records every access. */
static void test_access_hook_injects_before_access_k(void **state)
{
    (void)state;
    intel(2, false, MODEL_APIC_STRICT_EDGE);
    arm_intel(2, 1);
    u64 base = m.access_index;
    struct inject in = {.at = base + 2, .bit = PMU_GP(2)};
    pmu_model_set_access_hook(&m, inject_at, &in);
    assert_int_equal(rd(MSR_IA32_PERF_GLOBAL_STATUS), 0);     /* access base */
    assert_int_equal(rd(MSR_IA32_PMC0 + 2), W48);             /* base + 1 */
    assert_int_equal(rd(MSR_IA32_PERF_GLOBAL_STATUS), BIT(2)); /* base + 2: the overflow came first */
    expect_gp_wr(MSR_IA32_PERF_GLOBAL_STATUS, 0);             /* base + 3 */
    const struct pmu_model_access *a = pmu_model_log_entry(&m, base + 2);
    assert_non_null(a);
    assert_int_equal(a->op, PMU_MODEL_OP_RDMSR);
    assert_int_equal(a->reg, MSR_IA32_PERF_GLOBAL_STATUS);
    assert_int_equal(a->value, BIT(2));
    a = pmu_model_log_entry(&m, base + 3);
    assert_non_null(a);
    assert_int_equal(a->op, PMU_MODEL_OP_WRMSR);
    assert_int_equal(a->result, HW_GP);
    assert_null(pmu_model_log_entry(&m, base + 4));
    assert_int_equal(hw.msr_reads + hw.msr_writes, m.st.accesses);
}

static u32 handled;

static void simple_handler(struct pmu_model *mm, const struct apic_model_irq *irq, void *arg)
{
    (void)arg;
    (void)irq;
    struct hw_access *h = &hw;
    u64 st;
    assert_ptr_equal(mm, &m);
    assert_int_equal(hw_rdmsr(h, MSR_IA32_PERF_GLOBAL_STATUS, &st), 0);
    assert_int_equal(hw_wrmsr(h, MSR_IA32_PERF_GLOBAL_OVF_CTRL, st), 0);
    hw_apic_write(h, HW_APIC_LVT_PMC, VEC);
    hw_apic_write(h, HW_APIC_EOI, 0);
    handled++;
}

static void test_service_runs_handler(void **state)
{
    (void)state;
    intel(2, false, MODEL_APIC_STRICT_EDGE);
    unmask_lvt(DM_FIXED);
    handled = 0;
    for (int k = 0; k < 5; k++) {
        arm_intel(0, 10);
        pmu_model_count(&m, INST, 10);
        assert_int_equal(pmu_model_service(&m, simple_handler, NULL, 4), 1);
    }
    assert_int_equal(handled, 5);
    assert_int_equal(m.st.overflows[0], 5);
    assert_int_equal(m.apic.st.delivered, 5);
    assert_int_equal(m.apic.st.eoi, 5);
}

/* ---- configuration --------------------------------------------------------------------------------------- */

static void test_bad_caps_named(void **state)
{
    (void)state;
    /* Caps no discovery makes: a 64-bit GP counter, 33 GP counters. */
    fixture_caps_intel(&caps, 2, 4, 48, 3, 48, false);
    caps.gp_width = 64;
    pmu_model_init(&m, &caps, MODEL_APIC_STRICT_EDGE);
    assert_non_null(m.config_error);
    assert_non_null(strstr(m.config_error, "gp_width"));
    fixture_caps_intel(&caps, 2, 4, 48, 3, 48, false);
    caps.num_gp = 33;
    pmu_model_init(&m, &caps, MODEL_APIC_STRICT_EDGE);
    assert_non_null(m.config_error);
    assert_non_null(strstr(m.config_error, "num_gp"));
    /* Nothing is modelled then: every counter MSR faults. */
    pmu_model_access(&m, &hw);
    expect_gp_rd(MSR_IA32_PMC0);
}

/* The fixtures' caps (discovery on an emulated kind's CPUID) match what pmu_discover() makes of the same CPU
 * written out by hand: the emulated CPUID encodes the leaves as the manuals lay them out. */
static struct cpuid_dump dump;
#define GENU 0x756e6547u
#define INEI 0x49656e69u
#define NTEL 0x6c65746eu
#define AUTH 0x68747541u
#define ENTI 0x69746e65u
#define CAMD 0x444d4163u

static void discover(struct pmu_caps *out)
{
    struct cpuid_source src;
    struct cpu_ident id;
    cpuid_dump_source(&dump, &src);
    cpu_ident_decode(&id, &src);
    pmu_discover(out, &id, &src);
}

static void expect_same_caps(const struct pmu_caps *d, const struct pmu_caps *s)
{
    assert_int_equal(d->kind, s->kind);
    assert_int_equal(d->version, s->version);
    assert_int_equal(d->num_gp, s->num_gp);
    assert_int_equal(d->gp_mask, s->gp_mask);
    assert_int_equal(d->gp_width, s->gp_width);
    assert_int_equal(d->num_fixed, s->num_fixed);
    assert_int_equal(d->fixed_mask, s->fixed_mask);
    assert_int_equal(d->fixed_width, s->fixed_width);
    assert_memory_equal(&d->msrs, &s->msrs, sizeof(d->msrs));
}

static void test_fixture_caps_match_discovery(void **state)
{
    (void)state;
    struct pmu_caps d, s;
    for (u32 v = 1; v <= 4; v++) {
        cpuid_dump_init(&dump);
        cpuid_dump_set(&dump, 0, 0, 0xa, GENU, NTEL, INEI);
        /* family 6 model 0x55; PDCM (PERF_CAPABILITIES) from v2, as the emulated kinds present it */
        cpuid_dump_set(&dump, 1, 0, 0x00050654, 0, v >= 2 ? 1u << 15 : 0, 0);
        cpuid_dump_set(&dump, 0xa, 0, 0x07300400 | v, 0, 0, 3u | (48u << 5));
        discover(&d);
        if (d.pdcm)
            pmu_caps_apply_perf_capabilities(&d, BIT(13));
        fixture_caps_intel(&s, v, 4, 48, 3, 48, true);
        expect_same_caps(&d, &s);
    }

    /* v5 with ten GP counters from leaf 23H (Arrow Lake-H's Lion Cove P-core) */
    test_dump_load(&dump, "intel_arrowlake_h_hybrid_000C0652.txt", 0);
    discover(&d);
    pmu_caps_apply_perf_capabilities(&d, BIT(13));
    fixture_caps_intel(&s, 5, 10, 48, 4, 48, true);
    expect_same_caps(&d, &s);

    cpuid_dump_init(&dump);
    cpuid_dump_set(&dump, 0, 0, 0x10, AUTH, CAMD, ENTI);
    cpuid_dump_set(&dump, 1, 0, 0x00a10f11, 0, 0, 0);
    cpuid_dump_set(&dump, 0x80000000, 0, 0x80000022, AUTH, CAMD, ENTI);
    cpuid_dump_set(&dump, 0x80000001, 0, 0x00a10f11, 0, 1u << 23, 0);
    cpuid_dump_set(&dump, 0x80000022, 0, 1, 6, 0, 0);
    discover(&d);
    fixture_caps_amd(&s, PMU_KIND_AMD_PERFMON_V2, 6);
    expect_same_caps(&d, &s);

    cpuid_dump_set(&dump, 0x80000022, 0, 0, 0, 0, 0);
    discover(&d);
    fixture_caps_amd(&s, PMU_KIND_AMD_CORE_EXT, 0);
    expect_same_caps(&d, &s);

    cpuid_dump_init(&dump);
    cpuid_dump_set(&dump, 0, 0, 0x4, GENU, NTEL, INEI);
    cpuid_dump_set(&dump, 1, 0, 0x00000b10, 0, 0, 0); /* family 0x0B model 1: Knights Corner */
    discover(&d);
    fixture_caps_knc(&s);
    expect_same_caps(&d, &s);
}

/* A real CPU's discovered capabilities drive the model: every counter the caps list is there, one more is not,
 * and GLOBAL_CTRL resets to the GP enables. */
static void model_from_dump(const char *file)
{
    test_dump_load(&dump, file, 0);
    discover(&caps);
    start(MODEL_APIC_STRICT_EDGE);
    const struct pmu_msrs *r = &caps.msrs;
    for (u32 i = 0; i < caps.num_gp; i++) {
        assert_int_equal(rd(r->evtsel0 + i * r->stride), 0);
        assert_int_equal(rd(r->ctr0 + i * r->stride), 0);
    }
    expect_gp_rd(r->ctr0 + caps.num_gp * r->stride);
    for (u32 i = 0; i < caps.num_fixed; i++)
        assert_int_equal(rd(r->fixed_ctr0 + i), 0);
    assert_int_equal(rd(r->global_ctrl), caps.gp_mask);
}

static void test_model_from_real_dumps(void **state)
{
    (void)state;
    model_from_dump("intel_icelake_000706E5.txt");
    assert_int_equal(caps.kind, PMU_KIND_INTEL_ARCH);
    assert_int_equal(rd(MSR_IA32_PERF_GLOBAL_STATUS), 0);
    model_from_dump("amd_zen4_genoa_00A10F11.txt");
    assert_int_equal(caps.kind, PMU_KIND_AMD_PERFMON_V2);
}

/* Arrow Lake-H's Lion Cove P-core (tests/host/data, CPU 0): CPUID.0AH version 5 with 8 GP counters, leaf 23H.1 GP
 * bitmap 0x3FF, no v6 aliases. All ten counters are programmed through struct pmu at IA32_PERFEVTSELi = 0x186 + i,
 * written at IA32_PMCi = 0xC1 + i (IA32_A_PMCi = 0x4C1 + i with FW_WRITE), count the same events, and read back
 * by RDMSR and by RDPMC ECX = i (pmu_msr.h MSR_IA32_ARCH_GP_MAX: Linux x86_pmu_config_addr / x86_pmu_event_addr
 * are base + i below v6; SDM Vol.2B RDPMC: ECX = GP counter index). There is no eleventh. */
static u32 last_msr_written(void)
{
    const struct pmu_model_access *a = pmu_model_log_entry(&m, m.access_index - 1);
    assert_non_null(a);
    assert_int_equal(a->op, PMU_MODEL_OP_WRMSR);
    return a->reg;
}

static void test_ten_gp_counters_below_v6(void **state)
{
    (void)state;
    for (int fw = 0; fw < 2; fw++) {
        test_dump_load(&dump, "intel_arrowlake_h_hybrid_000C0652.txt", 0);
        discover(&caps);
        assert_int_equal(caps.version, 5);
        assert_int_equal(caps.gp_mask, 0x3ff);
        assert_int_equal(caps.msrs.v6_stride, 0);
        if (fw)
            pmu_caps_apply_perf_capabilities(&caps, BIT(13)); /* PERF_CAPABILITIES.FW_WRITE */
        start(MODEL_APIC_STRICT_EDGE);
        struct pmu p;
        assert_int_equal(pmu_init(&p, &caps, &hw), 0);
        assert_int_equal(pmu_reset(&p), 0); /* every select and counter, GP 8 and 9 included */
        const struct pmu_evsel e = {.event = 0xc0, .usr = true, .os = true, .enable = true};
        for (u32 i = 0; i < 10; i++) {
            assert_int_equal(pmu_program_gp(&p, i, &e), 0);
            assert_int_equal(last_msr_written(), MSR_IA32_PERFEVTSEL0 + i);
            assert_int_equal(m.gp_sel[i], SEL_INST);
            assert_int_equal(p.be->counter_write(&p, PMU_GP(i), 0x100000ull * (i + 1)), 0);
            assert_int_equal(last_msr_written(), (fw ? MSR_IA32_A_PMC0 : MSR_IA32_PMC0) + i);
        }
        assert_int_equal(p.be->global_set(&p, 0x3ff), 0);
        assert_int_equal(rd(MSR_IA32_PERF_GLOBAL_CTRL), 0x3ff);
        pmu_model_count(&m, INST, 5000);
        for (u32 i = 0; i < 10; i++) {
            u64 want = 0x100000ull * (i + 1) + 5000, v = 0;
            assert_int_equal(p.be->counter_read(&p, PMU_GP(i), &v), 0);
            assert_int_equal(v, want);
            assert_int_equal(p.be->counter_rdpmc(&p, PMU_GP(i), &v), 0);
            assert_int_equal(v, want);
            assert_int_equal(rd(MSR_IA32_PMC0 + i), want);
            assert_int_equal(pmc(i), want);
        }
        /* IA32_PMC8 keeps the legacy write semantics: EAX sign-extended (SDM Vol.3B 21.2.6); IA32_A_PMC8 takes the
         * full width where FW_WRITE says it exists. */
        wr(MSR_IA32_PMC0 + 8, 0x80000000ull);
        assert_int_equal(pmu_model_counter(&m, PMU_GP(8)), 0xffff80000000ull);
        if (fw) {
            wr(MSR_IA32_A_PMC0 + 9, 0x100000000ull);
            assert_int_equal(pmc(9), 0x100000000ull);
        } else {
            expect_gp_wr(MSR_IA32_A_PMC0 + 9, 0);
        }
        assert_int_equal(pmu_program_gp(&p, 10, &e), PMU_EINVAL);
        expect_gp_rd(MSR_IA32_PERFEVTSEL0 + 10);
        expect_gp_rd(MSR_IA32_PMC0 + 10);
        expect_gp_rd(MSR_IA32_A_PMC0 + 10);
        u64 v;
        assert_int_equal(hw_rdpmc(&hw, 10, &v), HW_GP);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_width_masking_and_wrap),
        cmocka_unit_test(test_legacy_write_sign_extends),
        cmocka_unit_test(test_intel_reserved_bits_fault),
        cmocka_unit_test(test_amd_reserved_bits_ignored),
        cmocka_unit_test(test_absent_msrs_fault),
        cmocka_unit_test(test_status_sticky_and_write1_clear),
        cmocka_unit_test(test_status_set),
        cmocka_unit_test(test_ctr_frz_freezes),
        cmocka_unit_test(test_counting_gated_by_en_and_global),
        cmocka_unit_test(test_fixed_counters_gated),
        cmocka_unit_test(test_family_counter_constraints),
        cmocka_unit_test(test_rdpmc_encodings),
        cmocka_unit_test(test_pmi_delivery_masks_lvt_intel_not_amd),
        cmocka_unit_test(test_strict_vs_level_at_unmask),
        cmocka_unit_test(test_isr_irr_and_nmi_latch),
        cmocka_unit_test(test_simultaneous_overflows_one_edge),
        cmocka_unit_test(test_early_pmi_fault),
        cmocka_unit_test(test_no_status_pmu_pulses),
        cmocka_unit_test(test_knc_registers),
        cmocka_unit_test(test_reset_values),
        cmocka_unit_test(test_inuse),
        cmocka_unit_test(test_v6_aliases),
        cmocka_unit_test(test_ten_gp_counters_below_v6),
        cmocka_unit_test(test_overflow_hook_exact_event),
        cmocka_unit_test(test_access_hook_injects_before_access_k),
        cmocka_unit_test(test_service_runs_handler),
        cmocka_unit_test(test_bad_caps_named),
        cmocka_unit_test(test_fixture_caps_match_discovery),
        cmocka_unit_test(test_model_from_real_dumps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
