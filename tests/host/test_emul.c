/* The emulated PMU's portable parts: every kind's CPUID answers make pmu_discover() find the capabilities its
 * model implements (pmu/emul_*.c), pmu_init() accepts the model, and each pmu_fault= misbehaviour changes
 * exactly the rule it names (pmu/model/pmu_model*.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "kernel/cpu_ident.h"
#include "pmu/emul.h"
#include "pmu/entry_state.h"
#include "pmu/events.h"
#include "pmu/model/pmu_model.h"
#include "pmu/pmu.h"
#include "pmu/pmu_msr.h"

#define SEL_INST_INT ((u64)0xc0 | 1ull << 16 | 1ull << 17 | 1ull << 20 | 1ull << 22)

/* A base CPU like QEMU TCG's: leaf 0 max 0x0d, hypervisor bit set, nothing PMU-related. */
static bool base_query(void *ctx, u32 leaf, u32 sub, struct cpuid_regs *r)
{
    (void)ctx;
    (void)sub;
    if (leaf == 0)
        r->eax = 0x0d;
    else if (leaf == 1)
        *r = (struct cpuid_regs){0x000663, 0x00000800, 0x80000000u | 1u << 15, 0};
    else if (leaf == 0x80000000)
        r->eax = 0x80000008;
    return true;
}
static const struct cpuid_source base = {base_query, NULL};

static void discover_as(const struct pmu_emul_kind *k, bool kvm, struct cpu_ident *id, struct pmu_caps *c)
{
    struct pmu_emul_cpuid e = {k, &base, kvm};
    struct cpuid_source src = {pmu_emul_cpuid_query, &e};
    cpu_ident_decode(id, &src);
    pmu_discover(c, id, &src);
}

/* KIND@kvm: the hypervisor bit and KVM's signature, which discovery turns into caps.hypervisor; bare metal
 * otherwise, whatever the host CPU says. */
static void kvm_presentation(void **state)
{
    (void)state;
    struct cpu_ident id;
    struct pmu_caps c;
    const struct pmu_emul_kind *k = pmu_emul_kind_find("intel-v4");
    discover_as(k, true, &id, &c);
    assert_true(id.hypervisor_bit);
    assert_string_equal(id.hv_signature, "KVMKVMKVM");
    assert_true(c.hypervisor);
    discover_as(k, false, &id, &c);
    assert_false(id.hypervisor_bit);
    assert_false(c.hypervisor);
}

static void discover(const struct pmu_emul_kind *k, struct cpu_ident *id, struct pmu_caps *c)
{
    discover_as(k, false, id, c);
}

static void every_kind_discovers_its_model(void **state)
{
    (void)state;
    assert_int_equal(pmu_emul_kind_count(), 10);
    for (u32 i = 0; i < pmu_emul_kind_count(); i++) {
        const struct pmu_emul_kind *k = pmu_emul_kind_at(i);
        assert_ptr_equal(pmu_emul_kind_find(k->name), k);
        assert_non_null(strstr(pmu_emul_kind_list(), k->name));
        struct cpu_ident id;
        struct pmu_caps got, want;
        discover(k, &id, &got);
        pmu_emul_caps(k, &want);
        if (got.pdcm)
            pmu_caps_apply_perf_capabilities(&got, want.perf_caps.raw);
        assert_false(id.hypervisor_bit);
        assert_int_equal(got.kind, k->kind);
        assert_int_equal(got.kind, want.kind);
        assert_int_equal(got.family, want.family); /* the model applies the family's counter constraints */
        assert_int_equal(got.version, want.version);
        assert_int_equal(got.num_gp, want.num_gp);
        assert_int_equal(got.gp_mask, want.gp_mask);
        assert_int_equal(got.gp_width, want.gp_width);
        assert_int_equal(got.num_fixed, want.num_fixed);
        assert_int_equal(got.fixed_mask, want.fixed_mask);
        assert_int_equal(got.fixed_width, want.fixed_width);
        assert_int_equal(got.pdcm, want.pdcm);
        assert_memory_equal(&got.msrs, &want.msrs, sizeof(got.msrs));
        /* pmu_init accepts the model built from those capabilities. */
        struct pmu_model m;
        struct hw_access hw;
        struct pmu p;
        pmu_model_init(&m, &want, MODEL_APIC_STRICT_EDGE);
        assert_null(m.config_error);
        pmu_model_access(&m, &hw);
        assert_int_equal(pmu_init(&p, &got, &hw), 0);
        /* Every register of the kind is routed to the model; the APIC base, x2APIC and TSC MSRs are not. */
        const u32 *r = (const u32 *)&want.msrs;
        for (size_t j = 0; j < sizeof(want.msrs) / sizeof(u32); j++)
            if (r[j] > 0x10) /* stride and v6_stride are small numbers, not addresses */
                assert_true(pmu_emul_msr_is_pmu(k, r[j]));
        assert_false(pmu_emul_msr_is_pmu(k, 0x10));
        assert_false(pmu_emul_msr_is_pmu(k, 0x1b));
        assert_false(pmu_emul_msr_is_pmu(k, 0x830));
        assert_int_equal(pmu_emul_msr_is_pmu(k, MSR_IA32_DEBUGCTL), k->kind == PMU_KIND_INTEL_ARCH);
    }
    assert_null(pmu_emul_kind_find("intel-v7"));
}

static void fault_names_parse(void **state)
{
    (void)state;
    u32 mask = 0;
    char bad[32];
    for (u32 i = 0; i < PMU_MODEL_FAULT_COUNT; i++) {
        const char *n = pmu_model_fault_name(1u << i);
        assert_non_null(n);
        assert_non_null(strstr(pmu_model_fault_list(), n));
        assert_true(pmu_model_faults_parse(n, &mask, bad, sizeof(bad)));
        assert_int_equal(mask, 1u << i);
    }
    assert_true(pmu_model_faults_parse("lost-pmi,width", &mask, bad, sizeof(bad)));
    assert_int_equal(mask, PMU_FAULT_LOST_PMI | PMU_FAULT_WIDTH);
    assert_false(pmu_model_faults_parse("lost-pmi,nope", &mask, bad, sizeof(bad)));
    assert_string_equal(bad, "nope");
    assert_false(pmu_model_faults_parse("lost-pmi,", &mask, bad, sizeof(bad)));
    assert_false(pmu_model_faults_parse("width-", &mask, bad, sizeof(bad)));
}

static struct pmu_model m;
static struct hw_access hw;

static void intel4(u32 faults)
{
    struct pmu_caps c;
    pmu_model_caps_intel(&c, 4, 4, 48, 3, 48, true);
    pmu_model_init(&m, &c, MODEL_APIC_STRICT_EDGE);
    pmu_model_set_faults(&m, faults);
    pmu_model_access(&m, &hw);
}

static u64 rd(u32 msr)
{
    u64 v = 0;
    assert_int_equal(hw_rdmsr(&hw, msr, &v), 0);
    return v;
}

/* GP0 armed with INT, one event before the wrap, LVT fixed unmasked. */
static void arm_gp0(void)
{
    assert_int_equal(hw_wrmsr(&hw, MSR_IA32_PERF_GLOBAL_CTRL, 1), 0);
    assert_int_equal(hw_wrmsr(&hw, MSR_IA32_PERFEVTSEL0, SEL_INST_INT), 0);
    assert_int_equal(hw_wrmsr(&hw, MSR_IA32_A_PMC0, (1ull << 48) - 1), 0);
    hw_apic_write(&hw, HW_APIC_LVT_PMC, 0xfe);
}

static void faults_change_their_rule(void **state)
{
    (void)state;
    struct apic_model_irq irq;
    /* lost-pmi: status set, no PMI. */
    intel4(PMU_FAULT_LOST_PMI);
    arm_gp0();
    pmu_model_count(&m, 0xc0, 0, 1);
    assert_int_equal(rd(MSR_IA32_PERF_GLOBAL_STATUS) & 1, 1);
    assert_false(pmu_model_pending_pmi(&m));
    /* status-sticky: the clear writes are accepted and clear nothing. */
    intel4(PMU_FAULT_STATUS_STICKY);
    arm_gp0();
    pmu_model_count(&m, 0xc0, 0, 1);
    assert_int_equal(hw_wrmsr(&hw, MSR_IA32_PERF_GLOBAL_OVF_CTRL, 1), 0);
    assert_int_equal(rd(MSR_IA32_PERF_GLOBAL_STATUS) & 1, 1);
    /* lvtpc-no-mask: the PMI is delivered and the LVT stays unmasked; without the fault it is masked. */
    intel4(0);
    arm_gp0();
    pmu_model_count(&m, 0xc0, 0, 1);
    assert_true(hw_apic_read(&hw, HW_APIC_LVT_PMC) & HW_LVT_MASKED);
    intel4(PMU_FAULT_LVTPC_NO_MASK);
    arm_gp0();
    pmu_model_count(&m, 0xc0, 0, 1);
    assert_true(pmu_model_pending_pmi(&m));
    assert_false(hw_apic_read(&hw, HW_APIC_LVT_PMC) & HW_LVT_MASKED);
    /* duplicate-pmi: one overflow, two PMIs taken. */
    intel4(PMU_FAULT_DUPLICATE_PMI);
    arm_gp0();
    pmu_model_count(&m, 0xc0, 0, 1);
    assert_true(pmu_model_take_pmi(&m, &irq));
    hw_apic_write(&hw, HW_APIC_EOI, 0);
    assert_true(pmu_model_take_pmi(&m, &irq));
    hw_apic_write(&hw, HW_APIC_EOI, 0);
    assert_false(pmu_model_take_pmi(&m, &irq));
    assert_int_equal(m.st.overflows_total, 1);
    /* width: one bit narrower; legacy writes zero-extended. */
    intel4(PMU_FAULT_WIDTH);
    assert_int_equal(hw_wrmsr(&hw, MSR_IA32_PMC0, 0x80000000ull), 0);
    assert_int_equal(rd(MSR_IA32_PMC0), 0x80000000ull);
    assert_int_equal(hw_wrmsr(&hw, MSR_IA32_A_PMC0 + 1, 1ull << 47), HW_GP); /* bit 47 is past 47 bits */
    assert_int_equal(hw_wrmsr(&hw, MSR_IA32_A_PMC0 + 1, (1ull << 47) - 1), 0);
    /* global-ctrl-reset-zero. */
    intel4(0);
    assert_int_equal(rd(MSR_IA32_PERF_GLOBAL_CTRL), 0xf);
    intel4(PMU_FAULT_GLOBAL_CTRL_RESET_ZERO);
    pmu_model_reset(&m);
    assert_int_equal(rd(MSR_IA32_PERF_GLOBAL_CTRL), 0);
    /* counters-survive-reset. */
    intel4(PMU_FAULT_COUNTERS_SURVIVE_RESET);
    assert_int_equal(hw_wrmsr(&hw, MSR_IA32_PERFEVTSEL0, SEL_INST_INT), 0);
    assert_int_equal(hw_wrmsr(&hw, MSR_IA32_PMC0, 1234), 0);
    pmu_model_reset(&m);
    assert_int_equal(rd(MSR_IA32_PMC0), 1234);
    assert_int_equal(rd(MSR_IA32_PERFEVTSEL0), SEL_INST_INT);
    /* reset-on-init: INIT clears the counters; without the fault they survive it (KNC 1.4.4). */
    intel4(0);
    assert_int_equal(hw_wrmsr(&hw, MSR_IA32_PMC0, 1234), 0);
    pmu_model_init_signal(&m);
    assert_int_equal(rd(MSR_IA32_PMC0), 1234);
    intel4(PMU_FAULT_RESET_ON_INIT);
    assert_int_equal(hw_wrmsr(&hw, MSR_IA32_PMC0, 1234), 0);
    pmu_model_init_signal(&m);
    assert_int_equal(rd(MSR_IA32_PMC0), 0);
    /* no-freeze: DEBUGCTL bit 12 set, a PMI, and CTR_Frz (status bit 59) stays 0. */
    intel4(PMU_FAULT_NO_FREEZE);
    arm_gp0();
    assert_int_equal(hw_wrmsr(&hw, 0x1d9, 1ull << 12), 0);
    pmu_model_count(&m, 0xc0, 0, 1);
    assert_int_equal(rd(MSR_IA32_PERF_GLOBAL_STATUS) >> 59 & 1, 0);
    /* overcount: 2000 instructions count 2002. */
    intel4(PMU_FAULT_OVERCOUNT);
    assert_int_equal(hw_wrmsr(&hw, MSR_IA32_PERFEVTSEL0, SEL_INST_INT), 0);
    pmu_model_count(&m, 0xc0, 0, 1999);
    pmu_model_count(&m, 0xc0, 0, 1);
    assert_int_equal(rd(MSR_IA32_PMC0), 2000 + 2000 / PMU_MODEL_OVERCOUNT_N);
}

/* The kernel hands line edges to its own delivery (through the real local APIC). */
static int delivered;
static void deliver(void *ctx)
{
    (void)ctx;
    delivered++;
}

static void external_delivery(void **state)
{
    (void)state;
    intel4(0);
    m.apic.deliver = deliver;
    arm_gp0();
    pmu_model_count(&m, 0xc0, 0, 1);
    assert_int_equal(delivered, 1);
    assert_false(pmu_model_pending_pmi(&m)); /* nothing queued in the modelled APIC */
    assert_true(pmu_model_pmi_line(&m));
}

/* Backward taken, forward not taken: mispredicted exactly when a branch goes against its displacement's sign. */
static void btfn_predictor(void **state)
{
    (void)state;
    const u8 jnz_back8[] = {0x75, 0xfc}, jnz_fwd8[] = {0x75, 0x10};
    const u8 jz_back32[] = {0x0f, 0x84, 0x00, 0xff, 0xff, 0xff}, jz_fwd32[] = {0x0f, 0x84, 0x00, 0x01, 0x00, 0x00};
    const u8 hinted_back[] = {0x3e, 0x75, 0xf0}, loop_back[] = {0xe2, 0xfe};
    assert_false(pmu_emul_mispredicted(jnz_back8, 2, true));
    assert_true(pmu_emul_mispredicted(jnz_back8, 2, false));
    assert_false(pmu_emul_mispredicted(jnz_fwd8, 2, false));
    assert_true(pmu_emul_mispredicted(jnz_fwd8, 2, true));
    assert_false(pmu_emul_mispredicted(jz_back32, 6, true));
    assert_true(pmu_emul_mispredicted(jz_fwd32, 6, true));
    assert_false(pmu_emul_mispredicted(jz_fwd32, 6, false));
    assert_true(pmu_emul_mispredicted(hinted_back, 3, false));
    assert_false(pmu_emul_mispredicted(loop_back, 2, true));
}

/* Every event the emulation produces exists in pmu/events.c for its kind; counts per instruction class. */
static void emulated_events(void **state)
{
    (void)state;
    for (u32 i = 0; i < pmu_emul_kind_count(); i++) {
        const struct pmu_emul_kind *k = pmu_emul_kind_at(i);
        struct pmu_caps caps;
        pmu_emul_caps(k, &caps);
        int n = 0;
        for (const struct pmu_emul_event *e = pmu_emul_events(k); e->name; e++, n++)
            if (!pmu_event_find(&caps, e->name))
                fail_msg("%s: emulated event %s not in pmu/events.c", k->name, e->name);
        assert_true(n >= 4);
    }
    struct pmu_emul_step jcc = {.branch = true, .taken = true, .mispredicted = true};
    struct pmu_emul_step rmw = {.load = true, .store = true};
    assert_int_equal(pmu_emul_event_count(1u << PMU_EMUL_INSNS, &jcc), 1);
    assert_int_equal(pmu_emul_event_count(1u << PMU_EMUL_TAKEN, &jcc), 1);
    assert_int_equal(pmu_emul_event_count(1u << PMU_EMUL_LOADS, &jcc), 0);
    assert_int_equal(pmu_emul_event_count(1u << PMU_EMUL_LOADS | 1u << PMU_EMUL_STORES, &rmw), 2);
    assert_int_equal(pmu_emul_event_count(1u << PMU_EMUL_CYCLES, &rmw), 0);
}

/* firmware-left-enabled, on every kind: after the power-up reset the firmware's writes leave GP counter 0 (and
 * fixed 1 and 2 where they exist) enabled, which is exactly what pmu_enum/firmware_state judges from the state read
 * at entry (pmu/entry_state.c); the reset alone leaves nothing. */
static void firmware_left_enabled_is_seen(void **state)
{
    (void)state;
    for (u32 i = 0; i < pmu_emul_kind_count(); i++) {
        const struct pmu_emul_kind *k = pmu_emul_kind_at(i);
        struct pmu_caps c;
        struct pmu p;
        struct pmu_state st;
        struct pmu_entry_judgement j;
        pmu_emul_caps(k, &c);
        pmu_model_init(&m, &c, MODEL_APIC_STRICT_EDGE);
        pmu_model_set_faults(&m, PMU_FAULT_FIRMWARE_LEFT_ENABLED);
        pmu_model_reset(&m);
        pmu_model_access(&m, &hw);
        assert_int_equal(pmu_init(&p, &m.caps, &hw), 0);
        pmu_state_read(&p, &st);
        pmu_entry_judge(&m.caps, &st, &j);
        assert_int_equal(j.enabled + j.programmed, 0);
        pmu_model_firmware_left_enabled(&m);
        pmu_state_read(&p, &st);
        pmu_entry_judge(&m.caps, &st, &j);
        u64 want = 1ull << PMU_GP(0);
        if (c.num_fixed >= 3)
            want |= 1ull << PMU_FIXED(1) | 1ull << PMU_FIXED(2);
        assert_int_equal(j.enabled_counters, want);
        assert_int_equal(j.programmed, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kvm_presentation),
        cmocka_unit_test(every_kind_discovers_its_model),
        cmocka_unit_test(fault_names_parse),
        cmocka_unit_test(faults_change_their_rule),
        cmocka_unit_test(firmware_left_enabled_is_seen),
        cmocka_unit_test(external_delivery),
        cmocka_unit_test(btfn_predictor),
        cmocka_unit_test(emulated_events),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
