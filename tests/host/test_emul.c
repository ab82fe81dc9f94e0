/* The emulated PMU's portable parts: every kind's CPUID answers make pmu_discover() find the capabilities its
 * model implements (emul/emul_*.c), pmu_init() accepts the model, and each pmu_fault= misbehaviour changes
 * exactly the rule it names (emul/model/pmu_model*.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "lib/cpu_ident.h"
#include "emul/emul.h"
#include "pmu/kind.h"
#include "pmu/lbr.h"
#include "pmu/event_catalog.h"
#include "pmu/entry_state.h"
#include "pmu/events.h"
#include "emul/model/pmu_model.h"
#include "tests/host/support/caps_fixture.h"
#include "pmu/pmu.h"
#include "pmu/pmu_msr.h"
#include "tests/host/support/test_data.h"

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

static void discover_as(const struct pmu_emul_kind *k, bool kvm, u32 core, struct cpu_ident *id,
                        struct pmu_caps *c)
{
    struct pmu_emul_cpuid e = {k, &base, kvm, core};
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
    discover_as(k, true, 0, &id, &c);
    assert_true(id.hypervisor_bit);
    assert_string_equal(id.hv_signature, "KVMKVMKVM");
    assert_true(c.hypervisor);
    discover_as(k, false, 0, &id, &c);
    assert_false(id.hypervisor_bit);
    assert_false(c.hypervisor);
}

/* Discovery on the CPUID a thread presenting kind of core `core` answers (ignored for kinds that are not hybrid). */
static void discover(const struct pmu_emul_kind *k, u32 core, struct cpu_ident *id, struct pmu_caps *c)
{
    discover_as(k, false, core, id, c);
}

/* Discovery on kind k's CPUID for kind of core `core` finds exactly the capabilities its model is built from. */
static void discovers_model(const struct pmu_emul_kind *k, u32 core)
{
    struct cpu_ident id;
    struct pmu_caps got, want;
    discover(k, core, &id, &got);
    pmu_emul_caps(k, core, &want);
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
    /* Hybrid: the core type and native model (what pmu_enum/consistent and smp/features group threads by); the
     * hybrid bit only on the hybrid kinds. */
    assert_int_equal(got.hybrid, k->num_cores != 0);
    assert_int_equal(got.hybrid, want.hybrid);
    assert_int_equal(got.core_type, want.core_type);
    assert_int_equal(got.native_model_id, want.native_model_id);
    assert_int_equal(cpu_ident_kind(&id), k->num_cores ? pmu_emul_core_at(k, core)->leaf_1a : 0);
    if (pmu_kind_get(k->kind)->arch_perfmon) {
        assert_int_equal(got.model, want.model);
        assert_int_equal(got.stepping, want.stepping);
        assert_int_equal(got.arch_events_len, want.arch_events_len);
        assert_int_equal(got.arch_events, want.arch_events);
        assert_int_equal(got.anythread_deprecated, want.anythread_deprecated);
        assert_int_equal(got.ext_leaf, want.ext_leaf);
        assert_int_equal(got.ext_subleaves, want.ext_subleaves);
    }
    /* ...and those are the counters the kind's table declares (a hybrid kind's core: as Linux intel_pmu_init
     * widens them), an expectation apart from discovery, which builds `want` too. */
    const struct pmu_emul_core *kc = pmu_emul_core_at(k, core);
    assert_int_equal(want.num_gp, kc ? kc->num_gp : k->num_gp);
    if (kc) {
        assert_int_equal(want.fixed_mask, kc->fixed_mask);
        assert_int_equal(want.arch_events, kc->arch_events);
    } else if (k->version >= 2) {
        assert_int_equal(want.num_fixed, k->num_fixed);
    }
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
    /* DEBUGCTL: the architectural freeze bits and LBR enable, AMD's LBR freeze (LbrExtV2). */
    assert_int_equal(pmu_emul_msr_is_pmu(k, MSR_IA32_DEBUGCTL), pmu_kind_get(k->kind)->arch_perfmon || k->lbr == EMUL_LBR_AMD);
    /* Every register of its LBR too (pmu/lbr.c finds them on the kind's CPUID). */
    struct lbr_caps l;
    pmu_emul_lbr(k, core, &l);
    for (u32 i = 0; l.kind != LBR_NONE && i < l.depth; i++) {
        assert_true(pmu_emul_msr_is_pmu(k, l.from + i * l.stride));
        if (l.to)
            assert_true(pmu_emul_msr_is_pmu(k, l.to + i * l.stride));
        if (l.info)
            assert_true(pmu_emul_msr_is_pmu(k, l.info + i));
    }
    if (l.select)
        assert_true(pmu_emul_msr_is_pmu(k, l.select));
}

static void every_kind_discovers_its_model(void **state)
{
    (void)state;
    /* The list of names is the table's: one name per kind, ", " between them. */
    u32 commas = 0;
    for (const char *s = pmu_emul_kind_list(); (s = strstr(s, ", ")); s += 2)
        commas++;
    assert_int_equal(commas + 1, pmu_emul_kind_count());
    for (u32 i = 0; i < pmu_emul_kind_count(); i++) {
        const struct pmu_emul_kind *k = pmu_emul_kind_at(i);
        assert_ptr_equal(pmu_emul_kind_find(k->name), k);
        assert_non_null(strstr(pmu_emul_kind_list(), k->name));
        for (u32 core = 0; core < (k->num_cores ? k->num_cores : 1); core++)
            discovers_model(k, core);
    }
    assert_null(pmu_emul_kind_find("intel-v7"));
}

/* The kind of core of each CPU index (pmu_emul_core_of, docs/emulated-pmu.md): consecutive blocks in the order of the
 * kind's cores, P-cores first; a 2-CPU run (tools/emul-check.sh's -smp 2) has two kinds on adl and on mtl. */
static void hybrid_core_patterns(void **state)
{
    (void)state;
    const struct pmu_emul_kind *adl = pmu_emul_kind_find("adl"), *mtl = pmu_emul_kind_find("mtl");
    assert_non_null(adl);
    assert_non_null(mtl);
    static const struct {
        const char *kind;
        u32 count, cores[8];
    } t[] = {
        {"adl", 1, {0}},          {"adl", 2, {0, 1}},          {"adl", 3, {0, 0, 1}},
        {"adl", 4, {0, 0, 1, 1}}, {"mtl", 1, {0}},             {"mtl", 2, {0, 1}},
        {"mtl", 3, {0, 1, 2}},    {"mtl", 4, {0, 0, 1, 2}},    {"mtl", 6, {0, 0, 1, 1, 2, 2}},
        {"intel-v4", 4, {0}},
    };
    for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
        for (u32 cpu = 0; cpu < t[i].count; cpu++)
            assert_int_equal(pmu_emul_core_of(pmu_emul_kind_find(t[i].kind), cpu, t[i].count), t[i].cores[cpu]);
    assert_null(pmu_emul_core_at(pmu_emul_kind_find("intel-v4"), 0));
    assert_null(pmu_emul_core_at(adl, 2));
    assert_string_equal(pmu_emul_core_at(adl, 0)->name, "P-core (Golden Cove)");
    assert_string_equal(pmu_emul_core_at(mtl, 2)->name, "LP E-core (Crestmont)");
}

/* Every CPU index of every run size: discovery on the CPUID that CPU presents equals the capabilities of the model
 * it is given (the same pmu_emul_core_of decides both in emul/kernel/pmu_emul.c), and from 2 CPUs on a hybrid kind shows
 * at least two kinds of core, CPUID.1AH:EAX values (what smp/features and pmu_enum/consistent group by). */
static void every_cpu_index_discovers_its_core(void **state)
{
    (void)state;
    for (u32 i = 0; i < pmu_emul_kind_count(); i++) {
        const struct pmu_emul_kind *k = pmu_emul_kind_at(i);
        for (u32 count = 1; count <= 8; count++) {
            u32 first = 0, kinds = 0;
            for (u32 cpu = 0; cpu < count; cpu++) {
                u32 core = pmu_emul_core_of(k, cpu, count);
                discovers_model(k, core);
                struct cpu_ident id;
                struct pmu_caps c;
                discover(k, core, &id, &c);
                if (cpu == 0)
                    first = cpu_ident_kind(&id), kinds = 1;
                else if (cpu_ident_kind(&id) != first)
                    kinds = 2;
            }
            if (k->num_cores && count >= 2)
                assert_int_equal(kinds, 2);
            if (!k->num_cores)
                assert_int_equal(first, 0);
        }
    }
}

/* CPUID leaf `leaf`.`sub` of a source, or all zero when it does not answer. */
static struct cpuid_regs q(const struct cpuid_source *s, u32 leaf, u32 sub)
{
    struct cpuid_regs r = {0, 0, 0, 0};
    if (!cpuid_query(s, leaf, sub, &r))
        r = (struct cpuid_regs){0, 0, 0, 0};
    return r;
}

/* A hybrid kind's core answers the PMU leaves as the real CPU of the dump it was copied from (tests/host/data,
 * PROVENANCE.md): signature (unless `other_part`), hybrid bit, ArchPerfmonExt, leaves 0AH, 1AH and 23H.0-3, and
 * discovery on either finds the same counters and events. */
static void core_matches_dump(const char *kind, u32 core, const char *file, unsigned cpu, bool other_part)
{
    static struct cpuid_dump d;
    test_dump_load(&d, file, cpu);
    struct cpuid_source real;
    cpuid_dump_source(&d, &real);
    const struct pmu_emul_kind *k = pmu_emul_kind_find(kind);
    struct pmu_emul_cpuid e = {k, &base, false, core};
    struct cpuid_source emu = {pmu_emul_cpuid_query, &e};
    if (!other_part)
        assert_int_equal(q(&emu, 1, 0).eax, q(&real, 1, 0).eax);
    assert_int_equal(q(&emu, 7, 0).edx >> 15 & 1, q(&real, 7, 0).edx >> 15 & 1);
    assert_int_equal(q(&emu, 7, 1).eax >> 8 & 1, q(&real, 7, 1).eax >> 8 & 1);
    const u32 leaves[][2] = {{0x0a, 0}, {0x1a, 0}, {0x23, 0}, {0x23, 1}, {0x23, 2}, {0x23, 3}};
    for (size_t i = 0; i < sizeof(leaves) / sizeof(leaves[0]); i++) {
        if (leaves[i][0] == 0x23 && !(q(&real, 7, 1).eax >> 8 & 1))
            continue; /* no leaf 23H on the real part */
        struct cpuid_regs a = q(&emu, leaves[i][0], leaves[i][1]), b = q(&real, leaves[i][0], leaves[i][1]);
        assert_memory_equal(&a, &b, sizeof(a));
    }
    struct cpu_ident ia, ib;
    struct pmu_caps ca, cb;
    cpu_ident_decode(&ia, &emu);
    pmu_discover(&ca, &ia, &emu);
    cpu_ident_decode(&ib, &real);
    pmu_discover(&cb, &ib, &real);
    assert_int_equal(cpu_ident_kind(&ia), cpu_ident_kind(&ib));
    assert_int_equal(ca.version, cb.version);
    assert_int_equal(ca.gp_mask, cb.gp_mask);
    assert_int_equal(ca.gp_width, cb.gp_width);
    assert_int_equal(ca.fixed_mask, cb.fixed_mask);
    assert_int_equal(ca.fixed_width, cb.fixed_width);
    assert_int_equal(ca.arch_events, cb.arch_events);
    assert_int_equal(ca.ext_subleaves, cb.ext_subleaves);
    assert_int_equal(ca.num_quirks, cb.num_quirks); /* the Alder Lake P-core widening on both */
    /* ...and the model the kernel builds for that core implements exactly those counters. */
    struct pmu_caps want;
    pmu_emul_caps(k, core, &want);
    assert_int_equal(want.gp_mask, cb.gp_mask);
    assert_int_equal(want.fixed_mask, cb.fixed_mask);
}

static void hybrid_cores_answer_as_the_dumps(void **state)
{
    (void)state;
    /* Core i3-1220P: CPU 0 P-core 0x40000001, CPU 1 E-core 0x20000001; 8 GP + fixed 0-3 and 6 GP + fixed 0-2. */
    core_matches_dump("adl", 0, "intel_alderlake_p_hybrid_000906A4.txt", 0, false);
    core_matches_dump("adl", 1, "intel_alderlake_p_hybrid_000906A4.txt", 1, false);
    core_matches_dump("adl", 0, "intel_alderlake_p_hybrid_000906A4.txt", 2, false);
    const struct pmu_emul_kind *adl = pmu_emul_kind_find("adl");
    struct pmu_caps c;
    pmu_emul_caps(adl, 0, &c);
    assert_int_equal(c.gp_mask, 0xff);
    assert_int_equal(c.fixed_mask, 0xf);
    pmu_emul_caps(adl, 1, &c);
    assert_int_equal(c.gp_mask, 0x3f);
    assert_int_equal(c.fixed_mask, 0x7);
    /* Core Ultra 5 125H: CPU 0 P-core 0x40000002 (fixed 0-3), CPU 1 E-core 0x20000002 (fixed 0-2); the LP E-core as
     * the "Intel Atom LP" core of the Core Ultra 7 265U (Arrow Lake-U, Meteor Lake's cores), its CPU 2. */
    core_matches_dump("mtl", 0, "intel_meteorlake_hybrid_000A06A4.txt", 0, false);
    core_matches_dump("mtl", 1, "intel_meteorlake_hybrid_000A06A4.txt", 1, false);
    core_matches_dump("mtl", 2, "intel_meteorlake_hybrid_000A06A4.txt", 1, false);
    core_matches_dump("mtl", 2, "intel_arrowlake_u_hybrid_000B0650.txt", 2, true);
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
    fixture_caps_intel(&c, 4, 4, 48, 3, 48, true);
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
    /* status-extra-bit: GP 0 overflows, the status also shows GP 1; without the fault GP 0 only. */
    intel4(0);
    arm_gp0();
    pmu_model_count(&m, 0xc0, 0, 1);
    assert_int_equal(rd(MSR_IA32_PERF_GLOBAL_STATUS), 0x1);
    intel4(PMU_FAULT_STATUS_EXTRA_BIT);
    arm_gp0();
    pmu_model_count(&m, 0xc0, 0, 1);
    assert_int_equal(rd(MSR_IA32_PERF_GLOBAL_STATUS), 0x3);
    /* freeze-keeps-counting: CTR_Frz is set, and GP 0 still counts; without the fault it stands still. */
    for (int f = 0; f < 2; f++) {
        intel4(f ? PMU_FAULT_FREEZE_KEEPS_COUNTING : 0);
        arm_gp0();
        assert_int_equal(hw_wrmsr(&hw, 0x1d9, 1ull << 12), 0);
        pmu_model_count(&m, 0xc0, 0, 1 + 10);
        assert_int_equal(rd(MSR_IA32_PERF_GLOBAL_STATUS) >> 59 & 1, 1);
        assert_int_equal(rd(MSR_IA32_PMC0), f ? 10 : 0);
    }
    /* freeze-not-released: STATUS_RESET of CTR_Frz is accepted and the counters stay frozen. */
    for (int f = 0; f < 2; f++) {
        intel4(f ? PMU_FAULT_FREEZE_NOT_RELEASED : 0);
        arm_gp0();
        assert_int_equal(hw_wrmsr(&hw, 0x1d9, 1ull << 12), 0);
        pmu_model_count(&m, 0xc0, 0, 1);
        assert_int_equal(hw_wrmsr(&hw, MSR_IA32_PERF_GLOBAL_OVF_CTRL, 1ull << 59 | 1), 0);
        pmu_model_count(&m, 0xc0, 0, 10);
        assert_int_equal(rd(MSR_IA32_PERF_GLOBAL_STATUS) >> 59 & 1, f ? 1 : 0);
        assert_int_equal(rd(MSR_IA32_PMC0), f ? 0 : 10);
    }
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
        pmu_emul_caps(k, 0, &caps);
        int n = 0;
        for (const struct pmu_emul_event *e = pmu_emul_events(k); e->name; e++, n++)
            if (!pmu_event_find(&caps, e->name))
                fail_msg("%s: emulated event %s not in pmu/events.c", k->name, e->name);
        assert_true(n >= 4);
    }
    /* As evc_classes gives them: a taken Jcc, a read-modify-write of memory. */
    struct pmu_emul_step jcc = {.evc = 1u << EVC_INSTRUCTIONS | 1u << EVC_BRANCHES | 1u << EVC_COND |
                                       1u << EVC_COND_TAKEN | 1u << EVC_TAKEN | 1u << EVC_NEAR_TAKEN,
                                .mispredicted = true};
    struct pmu_emul_step rmw = {.evc = 1u << EVC_INSTRUCTIONS | 1u << EVC_LOADS | 1u << EVC_LOAD_UOPS |
                                       1u << EVC_STORES | 1u << EVC_STORE_UOPS};
    assert_int_equal(pmu_emul_event_count(1u << PMU_EMUL_INSNS, 0, &jcc), 1);
    assert_int_equal(pmu_emul_event_count(1u << PMU_EMUL_TAKEN, 0, &jcc), 1);
    assert_int_equal(pmu_emul_event_count(1u << PMU_EMUL_LOADS, 0, &jcc), 0);
    assert_int_equal(pmu_emul_event_count(1u << PMU_EMUL_LOADS | 1u << PMU_EMUL_STORES, 0, &rmw), 2);
    assert_int_equal(pmu_emul_event_count(1u << PMU_EMUL_CYCLES, 0, &rmw), 0);
    /* Catalog events count by the instruction's event classes (evc_classes). */
    struct pmu_emul_step call = {.evc = 1u << EVC_INSTRUCTIONS | 1u << EVC_BRANCHES | 1u << EVC_TAKEN |
                                        1u << EVC_NEAR_TAKEN | 1u << EVC_NEAR_CALL | 1u << EVC_REL_CALL};
    assert_int_equal(pmu_emul_event_count(0, 1u << EVC_NEAR_CALL, &call), 1);
    assert_int_equal(pmu_emul_event_count(0, 1u << EVC_NEAR_RETURN, &call), 0);
}

/* pmu_part=: a kind presenting a catalog part takes the part's signature and, on Intel kinds, its counters. */
static void kind_as_part(void **state)
{
    (void)state;
    /* SDM Vol.2A Figure 3-6: Skylake-SP 06_55H stepping 4 is 0x50654; AMD family 19h model 11h is 0xA10F11. */
    assert_int_equal(pmu_emul_signature(6, 0x55, 4), 0x50654);
    assert_int_equal(pmu_emul_signature(0x19, 0x11, 1), 0xA10F11);
    assert_int_equal(pmu_emul_signature(0x1A, 0x02, 0), 0xB00F20);
    struct pmu_emul_kind out;
    const char *why = NULL;
    const struct catalog_part *spr = event_catalog_part_named("sapphirerapids_core");
    assert_non_null(spr);
    assert_true(pmu_emul_kind_as_part(pmu_emul_kind_find("intel-v5"), spr, &out, &why));
    assert_int_equal(out.signature, pmu_emul_signature(6, 0x8F, 0));
    assert_int_equal(out.num_gp, 8); /* Linux sapphirerapids/counter.json: 8 generic, 4 fixed */
    assert_int_equal(out.num_fixed, 4);
    struct pmu_caps caps;
    pmu_emul_caps(&out, 0, &caps);
    assert_ptr_equal(event_catalog_for(&caps), spr);
    /* Another vendor's part, a hybrid kind, one core type of a hybrid CPU: refused with the reason. */
    assert_false(pmu_emul_kind_as_part(pmu_emul_kind_find("amd-v2"), spr, &out, &why));
    assert_non_null(strstr(why, "vendor"));
    assert_false(pmu_emul_kind_as_part(pmu_emul_kind_find("adl"), spr, &out, &why));
    assert_false(pmu_emul_kind_as_part(pmu_emul_kind_find("intel-v5"),
                                       event_catalog_part_named("alderlake_gracemont_core"), &out, &why));
    assert_non_null(strstr(why, "hybrid"));
}

/* firmware-left-enabled, on every kind: after the power-up reset the firmware's writes leave GP counter 0 (and
 * fixed 1 and 2 where they exist) enabled, which is exactly what pmu_enum/firmware_state judges from the state read
 * at entry (pmu/entry_state.c); the reset alone leaves nothing. */
static void firmware_left_enabled_is_seen(void **state)
{
    (void)state;
    for (u32 i = 0; i < pmu_emul_kind_count(); i++) {
        const struct pmu_emul_kind *k = pmu_emul_kind_at(i);
        for (u32 core = 0; core < (k->num_cores ? k->num_cores : 1); core++) { /* each kind of core */
            struct pmu_caps c;
            struct pmu p;
            struct pmu_state st;
            struct pmu_entry_judgement j;
            pmu_emul_caps(k, core, &c);
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
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kvm_presentation),
        cmocka_unit_test(every_kind_discovers_its_model),
        cmocka_unit_test(hybrid_core_patterns),
        cmocka_unit_test(every_cpu_index_discovers_its_core),
        cmocka_unit_test(hybrid_cores_answer_as_the_dumps),
        cmocka_unit_test(fault_names_parse),
        cmocka_unit_test(faults_change_their_rule),
        cmocka_unit_test(firmware_left_enabled_is_seen),
        cmocka_unit_test(kind_as_part),
        cmocka_unit_test(external_delivery),
        cmocka_unit_test(btfn_predictor),
        cmocka_unit_test(emulated_events),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
