/* pmu/entry_state.c: which registers read at entry firmware left enabled (Linux check_hw_exists(),
 * arch/x86/events/core.c) or programmed, on the register-level model read through pmu_state_read as the kernel
 * reads the hardware. The firmware values are the ones Linux printed on real machines in its "[Firmware Bug]: the
 * BIOS has corrupted hw-PMU resources (MSR %x is %Lx)" line, found in public boot logs:
 *   - "MSR 38d is 330": Core i3-3240 (Ivy Bridge, arch perfmon v3, 4 GP + 3 fixed): fixed counters 1 and 2 at OS+USR;
 *   - "MSR 38d is b0":  Lenovo ThinkSystem SR650 V2 (Ice Lake-SP): fixed counter 1 at OS+USR with PMI;
 *   - "MSR 38d is 3":   VMware with virtual performance counters: fixed counter 0 at OS+USR;
 *   - "MSR c0010200 is 530076": a KVM guest on Zen after a QEMU system_reset ("Fam17h+ core perfctr"): PerfEvtSel0
 *     with EN, INT, OS, USR, event 076h (QEMU "reset AMD PMU registers" series by Dongli Zhang). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "pmu/entry_state.h"
#include "emul/model/pmu_model.h"
#include "tests/host/support/caps_fixture.h"
#include "pmu/pmu_msr.h"

static struct pmu_caps caps;
static struct pmu_model model;
static struct hw_access hw;
static struct pmu pmu;
static struct pmu_state st;
static struct pmu_entry_judgement j;

/* Power-up state of a PMU with these caps (the model's reset: pmu/reset_values.h). */
static void power_up(void)
{
    pmu_model_init(&model, &caps, MODEL_APIC_STRICT_EDGE);
    assert_null(model.config_error);
    pmu_model_access(&model, &hw);
    assert_int_equal(pmu_init(&pmu, &model.caps, &hw), 0);
}

/* What firmware wrote, then the read at entry and its judgement. */
static void firmware_writes(u32 msr, u64 value)
{
    assert_int_equal(hw_wrmsr(&hw, msr, value), 0);
}

static void entry(void)
{
    pmu_state_read(&pmu, &st);
    pmu_entry_judge(&model.caps, &st, &j);
}

/* The entry of state st named `name` ("sel0", "fixed_ctrl", ...). */
static enum pmu_left left_of(const char *name)
{
    for (u32 i = 0; i < st.count; i++) {
        char n[32];
        pmu_state_name(&st.e[i], n, sizeof(n));
        if (!strcmp(n, name))
            return j.left[i];
    }
    fail_msg("no entry %s", name);
    return PMU_LEFT_UNREADABLE;
}

static void ivy_bridge(void)
{
    fixture_caps_intel(&caps, 3, 4, 48, 3, 48, false);
}

/* Every kind straight out of reset: nothing left; on Intel whichever edition's GLOBAL_CTRL reset value (SDM 079 or
 * older). */
static void test_reset_is_clean(void **state)
{
    (void)state;
    struct pmu_caps kinds[8];
    u32 n = 0;
    fixture_caps_intel(&kinds[n++], 1, 2, 40, 0, 0, false);
    fixture_caps_intel(&kinds[n++], 2, 4, 48, 3, 48, false);
    fixture_caps_intel(&kinds[n++], 5, 6, 48, 4, 48, true);
    fixture_caps_amd(&kinds[n++], PMU_KIND_AMD_LEGACY, 4);
    fixture_caps_amd(&kinds[n++], PMU_KIND_AMD_CORE_EXT, 6);
    fixture_caps_amd(&kinds[n++], PMU_KIND_AMD_PERFMON_V2, 6);
    fixture_caps_knc(&kinds[n++]);
    for (u32 k = 0; k < n; k++) {
        caps = kinds[k];
        power_up();
        entry();
        assert_true(st.count >= 2 * caps.num_gp);
        assert_int_equal(j.enabled + j.programmed + j.unreadable, 0);
        assert_int_equal(j.enabled_counters | j.counting, 0);
        assert_false(j.all_gp_enabled);
        if (caps.kind == PMU_KIND_INTEL_ARCH && caps.msrs.global_ctrl) { /* the SDM's editions before 079: 0 */
            firmware_writes(caps.msrs.global_ctrl, 0);
            entry();
            assert_int_equal(j.enabled + j.programmed, 0);
        }
    }
}

/* "MSR 38d is 330": fixed counters 1 and 2 enabled in their fields, not counting (GLOBAL_CTRL at its reset value
 * enables the GP counters only, SDM Vol.3B 21.2.2). */
static void test_ivy_bridge_fixed_330(void **state)
{
    (void)state;
    ivy_bridge();
    power_up();
    firmware_writes(MSR_IA32_FIXED_CTR_CTRL, 0x330);
    entry();
    assert_int_equal(left_of("fixed_ctrl"), PMU_LEFT_ENABLED);
    assert_int_equal(j.enabled, 1);
    assert_int_equal(j.programmed, 0);
    assert_int_equal(j.enabled_counters, (1ull << PMU_FIXED(1)) | (1ull << PMU_FIXED(2)));
    assert_int_equal(j.counting, 0);
    /* With the fixed enables set in GLOBAL_CTRL too they count; that value is itself not a reset value. */
    firmware_writes(MSR_IA32_PERF_GLOBAL_CTRL, 0x70000000full);
    entry();
    assert_int_equal(j.counting, (1ull << PMU_FIXED(1)) | (1ull << PMU_FIXED(2)));
    assert_int_equal(left_of("global_ctrl"), PMU_LEFT_PROGRAMMED);
}

/* "MSR 38d is b0" (fixed 1: OS+USR+PMI) and "MSR 38d is 3" (fixed 0: OS+USR). */
static void test_fixed_fields(void **state)
{
    (void)state;
    ivy_bridge();
    power_up();
    firmware_writes(MSR_IA32_FIXED_CTR_CTRL, 0xb0);
    entry();
    assert_int_equal(j.enabled_counters, 1ull << PMU_FIXED(1));
    power_up();
    firmware_writes(MSR_IA32_FIXED_CTR_CTRL, 0x3);
    entry();
    assert_int_equal(j.enabled_counters, 1ull << PMU_FIXED(0));
    /* A field with PMI only counts nothing (no ring): programmed, not enabled, as Linux's 0x3 << 4i test. */
    power_up();
    firmware_writes(MSR_IA32_FIXED_CTR_CTRL, 0x800);
    entry();
    assert_int_equal(left_of("fixed_ctrl"), PMU_LEFT_PROGRAMMED);
    assert_int_equal(j.enabled, 0);
}

/* A fixed-counter hole (v5 bitmap): its field enables no counter. */
static void test_fixed_hole(void **state)
{
    (void)state;
    struct pmu_state s = {.count = 1, .e = {{.reg = PMU_SREG_FIXED_CTRL, .value = 0x30}}};
    fixture_caps_intel(&caps, 5, 4, 48, 3, 48, true);
    caps.fixed_mask = 0x5; /* fixed 0 and 2; 1 is a hole */
    pmu_entry_judge(&caps, &s, &j);
    assert_int_equal(j.left[0], PMU_LEFT_PROGRAMMED);
    assert_int_equal(j.enabled_counters, 0);
    s.e[0].value = 0x300;
    pmu_entry_judge(&caps, &s, &j);
    assert_int_equal(j.left[0], PMU_LEFT_ENABLED);
    assert_int_equal(j.enabled_counters, 1ull << PMU_FIXED(2));
}

/* "MSR c0010200 is 530076" on Zen without PerfMonV2 (PerfCtrExtCore, no global control): counting. */
static void test_amd_core_ext_530076(void **state)
{
    (void)state;
    fixture_caps_amd(&caps, PMU_KIND_AMD_CORE_EXT, 6);
    power_up();
    firmware_writes(MSR_F15H_PERF_CTL0, 0x530076);
    entry();
    assert_int_equal(left_of("sel0"), PMU_LEFT_ENABLED);
    assert_int_equal(j.enabled_counters, 1);
    assert_int_equal(j.counting, 1);
    assert_false(j.all_gp_enabled);
}

/* PerfMonV2: the select's EN counts only with its PerfCntrGlobalCtl bit (reset: every bit set, pmu/reset_values.h). */
static void test_amd_v2_global(void **state)
{
    (void)state;
    fixture_caps_amd(&caps, PMU_KIND_AMD_PERFMON_V2, 6);
    power_up();
    firmware_writes(MSR_F15H_PERF_CTL0 + 2, 0x530076); /* PerfEvtSel1 */
    entry();
    assert_int_equal(j.counting, 2);
    firmware_writes(MSR_AMD64_PERF_CNTR_GLOBAL_CTL, 0);
    entry();
    assert_int_equal(j.enabled_counters, 2);
    assert_int_equal(j.counting, 0);
    /* 0 is QEMU's reset value there (pmu/reset_values.h accepts both): not left programmed. */
    assert_int_equal(left_of("global_ctrl"), PMU_LEFT_RESET);
}

/* Left programmed, nothing enabled: a count, a select without EN, an overflow pending; CondChgd alone is the
 * erratum pmu/reset_values.h tolerates. */
static void test_programmed(void **state)
{
    (void)state;
    ivy_bridge();
    power_up();
    firmware_writes(MSR_IA32_PMC0 + 1, 12345);
    firmware_writes(MSR_IA32_PERFEVTSEL0 + 2, 0x13003c); /* INT, OS, USR, event 3CH: EN clear */
    firmware_writes(MSR_IA32_FIXED_CTR0, 777);
    entry();
    assert_int_equal(left_of("gp1"), PMU_LEFT_PROGRAMMED);
    assert_int_equal(left_of("sel2"), PMU_LEFT_PROGRAMMED);
    assert_int_equal(left_of("fixed0"), PMU_LEFT_PROGRAMMED);
    assert_int_equal(left_of("gp0"), PMU_LEFT_RESET);
    assert_int_equal(j.programmed, 3);
    assert_int_equal(j.enabled, 0);
    struct pmu_state s = {.count = 1, .e = {{.reg = PMU_SREG_GLOBAL_STATUS, .value = 1ull << 63}}};
    pmu_entry_judge(&caps, &s, &j);
    assert_int_equal(j.left[0], PMU_LEFT_RESET);
    s.e[0].value |= 1;
    pmu_entry_judge(&caps, &s, &j);
    assert_int_equal(j.left[0], PMU_LEFT_PROGRAMMED);
}

/* Every GP select enabled: Linux gives the PMU up. A read that faulted is unreadable, and the global control's
 * fault makes every enabled counter count as far as anyone can tell. */
static void test_all_gp_and_unreadable(void **state)
{
    (void)state;
    fixture_caps_intel(&caps, 1, 2, 40, 0, 0, false);
    power_up();
    firmware_writes(MSR_IA32_PERFEVTSEL0, 0x43003c);
    firmware_writes(MSR_IA32_PERFEVTSEL0 + 1, 0x4300c0);
    entry();
    assert_true(j.all_gp_enabled);
    assert_int_equal(j.counting, 3); /* v1: no global control */
    ivy_bridge();
    struct pmu_state s = {.count = 2,
                          .e = {{.reg = PMU_SREG_GP_SEL, .value = 0x43003c},
                                {.reg = PMU_SREG_GLOBAL_CTRL, .rc = HW_GP}}};
    pmu_entry_judge(&caps, &s, &j);
    assert_int_equal(j.left[1], PMU_LEFT_UNREADABLE);
    assert_int_equal(j.unreadable, 1);
    assert_int_equal(j.counting, 1);
    assert_string_equal(pmu_left_name(PMU_LEFT_ENABLED), "enabled");
}

/* The distinctive state suite init writes: selects with EN stopped by a clear global bit are enabled, not
 * counting; everything else is programmed. */
static void test_distinct_state(void **state)
{
    (void)state;
    fixture_caps_intel(&caps, 4, 4, 48, 3, 48, true);
    power_up();
    u64 set_bits;
    const char *why;
    assert_int_equal(pmu_state_program_distinct(&pmu, &set_bits, &why), 0);
    entry();
    assert_int_equal(j.enabled_counters, (1ull << 1) | (1ull << 3) | (1ull << PMU_FIXED(1)));
    assert_int_equal(j.counting, 0);
    assert_int_equal(j.enabled + j.programmed, st.count);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reset_is_clean),      cmocka_unit_test(test_ivy_bridge_fixed_330),
        cmocka_unit_test(test_fixed_fields),        cmocka_unit_test(test_fixed_hole),
        cmocka_unit_test(test_amd_core_ext_530076), cmocka_unit_test(test_amd_v2_global),
        cmocka_unit_test(test_programmed),          cmocka_unit_test(test_all_gp_and_unreadable),
        cmocka_unit_test(test_distinct_state),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
