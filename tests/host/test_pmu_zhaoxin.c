/* The Zhaoxin kind (pmu/kind_zhaoxin.c) on synthetic CPUID tables: which CPUs Linux's zhaoxin_pmu_init accepts
 * and the events of each generation (Linux arch/x86/events/zhaoxin/core.c, the only source; no public manual). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "lib/cpu_ident.h"
#include "pmu/cpuid_dump.h"
#include "emul/model/pmu_model.h"
#include "pmu/events.h"
#include "pmu/pmu_msr.h"
#include "tests/events/portable/events_spec.h"

static struct cpuid_dump dump;
static struct cpu_ident id;
static struct pmu_caps caps;

/* Vendor strings as EBX, EDX, ECX of leaf 0 (Linux arch/x86/kernel/cpu/centaur.c and zhaoxin.c c_ident). */
static const char *const SHANGHAI = "  Shanghai  ", *const CENTAUR = "CentaurHauls";

static u32 word(const char *s)
{
    u32 w;
    memcpy(&w, s, 4);
    return w;
}

/* CPUID.1 signature with the extended model (Linux x86_model: from family 6 on). */
static void synth(const char *vendor, u32 family, u32 model, u32 stepping, u32 leaf_a_eax, u32 leaf_a_ebx)
{
    cpuid_dump_init(&dump);
    cpuid_dump_set(&dump, 0, 0, 0xa, word(vendor), word(vendor + 8), word(vendor + 4));
    cpuid_dump_set(&dump, 1, 0, ((model >> 4) << 16) | (family << 8) | ((model & 0xf) << 4) | stepping, 0, 0, 0);
    cpuid_dump_set(&dump, 0xa, 0, leaf_a_eax, leaf_a_ebx, 0, 3 | (48u << 5)); /* 3 fixed counters, 48-bit */
    struct cpuid_source src;
    cpuid_dump_source(&dump, &src);
    cpu_ident_decode(&id, &src);
    pmu_discover(&caps, &id, &src);
}

#define V2_4GP_48 0x07300402u /* version 2, 4 GP counters, 48 bits, 7 event bits */

static u16 generic_code(enum pmu_generic_event ev)
{
    const struct pmu_event *e = pmu_event_generic(&caps, ev, NULL);
    return e ? (u16)(e->umask << 8 | e->event) : 0xffff;
}

static void test_zxd_zxe(void **state)
{
    (void)state;
    synth(SHANGHAI, 7, 0x1b, 0, V2_4GP_48, 0);
    assert_int_equal(caps.kind, PMU_KIND_ZHAOXIN);
    assert_int_equal(caps.model, 0x1b);
    assert_int_equal(caps.num_gp, 4);
    assert_int_equal(caps.gp_width, 48);
    assert_int_equal(caps.fixed_mask, 0x7);
    assert_int_equal(caps.msrs.evtsel0, 0x186);
    assert_int_equal(caps.msrs.global_ctrl, 0x38f);
    assert_int_equal(caps.msrs.ctr0_full_width, 0xc1); /* PMCx written at 48 bits */
    assert_int_equal(generic_code(PMU_EV_CYCLES), 0x0082);
    assert_int_equal(generic_code(PMU_EV_INSTRUCTIONS), 0x00c0);
    assert_int_equal(generic_code(PMU_EV_BRANCHES), 0x0700);
    assert_int_equal(generic_code(PMU_EV_BRANCH_MISSES), 0x0709);
    struct pmu p;
    assert_int_equal(pmu_init(&p, &caps, NULL), 0);
    assert_true(pmu_has_status(&p));
    assert_int_equal(p.counters, 0xfull | (0x7ull << PMU_FIXED_BIT));
    const struct ew_event *out[8];
    assert_int_equal(ew_events_for(&caps, out, 8), 2);
    assert_int_equal(pmu_max_period(&p, 0), (1ull << 48) - 1);

    synth(CENTAUR, 7, 0x3b, 0, V2_4GP_48, 0);
    assert_int_equal(caps.kind, PMU_KIND_ZHAOXIN);
    assert_int_equal(generic_code(PMU_EV_BRANCHES), 0x0028);
    assert_int_equal(generic_code(PMU_EV_BRANCH_MISSES), 0x0029);

    synth(SHANGHAI, 7, 0x3b, 0, V2_4GP_48, BIT(1)); /* CPUID marks instructions unavailable */
    assert_null(pmu_event_generic(&caps, PMU_EV_INSTRUCTIONS, NULL));
    assert_int_equal(ew_events_for(&caps, out, 8), 1);
}

/* The register model takes the kind's programming model from its descriptor: a ZXD counter programmed through
 * struct pmu counts, overflows into GLOBAL_STATUS and raises a PMI, as on Intel v2. */
static void test_model_runs_zhaoxin(void **state)
{
    (void)state;
    synth(SHANGHAI, 7, 0x1b, 0, V2_4GP_48, 0);
    static struct pmu_model m;
    struct hw_access hw;
    struct pmu p;
    pmu_model_init(&m, &caps, MODEL_APIC_STRICT_EDGE);
    assert_null(m.config_error);
    pmu_model_access(&m, &hw);
    assert_int_equal(pmu_init(&p, &caps, &hw), 0);
    struct pmu_evsel e = {.event = 0xc0, .usr = true, .os = true, .intr = true, .enable = true};
    assert_int_equal(pmu_program_gp(&p, 0, &e), 0);
    assert_int_equal(pmu_preload(&p, 0, 10), 0);
    hw_apic_write(&hw, HW_APIC_LVT_PMC, 0xfe);
    assert_int_equal(hw_wrmsr(&hw, MSR_IA32_PERF_GLOBAL_CTRL, 1), 0);
    pmu_model_count(&m, 0xc0, 0, 10);
    u64 status = 0;
    assert_int_equal(hw_rdmsr(&hw, MSR_IA32_PERF_GLOBAL_STATUS, &status), 0);
    assert_int_equal(status & 1, 1);
    assert_true(pmu_model_pending_pmi(&m));
    /* IA32_DEBUGCTL (its freeze bits) is an Intel architectural register the model gives arch_perfmon kinds only. */
    assert_int_equal(hw_rdmsr(&hw, MSR_IA32_DEBUGCTL, &status), 0);
    /* The face's full-width IA32_PMCx (Linux: "read/write operation for PMCx MSR is 48 bits"): bit 47 written there
     * is kept, where an Intel part sign-extends bit 31; pmu_regs/write_semantics expects it (pmu/kind_zhaoxin.c). */
    u64 v = 0;
    assert_int_equal(hw_wrmsr(&hw, MSR_IA32_PMC0, 1ull << 47), 0);
    assert_int_equal(hw_rdmsr(&hw, MSR_IA32_PMC0, &v), 0);
    assert_int_equal(v, 1ull << 47);
    assert_int_equal(p.be->counter_write(&p, 1, 0x800000000000ull), 0); /* the backend: through ctr0_full_width */
    assert_int_equal(p.be->counter_read(&p, 1, &v), 0);
    assert_int_equal(v, 0x800000000000ull);
}

static void test_zxc(void **state)
{
    (void)state;
    synth(CENTAUR, 6, 0x0f, 0x0e, V2_4GP_48, 0);
    assert_int_equal(caps.kind, PMU_KIND_ZHAOXIN);
    assert_int_equal(generic_code(PMU_EV_CYCLES), 0x0082);
    const char *why = NULL;
    assert_null(pmu_event_generic(&caps, PMU_EV_INSTRUCTIONS, &why));
    assert_non_null(strstr(why, "generation"));
    struct pmu p;
    assert_int_equal(pmu_init(&p, &caps, NULL), 0);
    assert_false(pmu_has_status(&p)); /* status cleared only with global control on: not used */
    assert_int_equal(pmu_max_period(&p, 0), (1ull << 47) - 1);
    struct strbuf sb;
    char buf[2048];
    sb_init(&sb, buf, sizeof(buf));
    pmu_caps_describe(&caps, &sb);
    assert_non_null(strstr(buf, "pmu: kind zhaoxin:"));
    assert_non_null(strstr(buf, "ZXC"));
}

static void test_refused(void **state)
{
    (void)state;
    synth(CENTAUR, 6, 0x0f, 0x0c, V2_4GP_48, 0); /* Nano: family 6 model 0x0F stepping below 0x0E */
    assert_int_equal(caps.kind, PMU_KIND_NONE);
    assert_non_null(strstr(caps.evidence, "not ZXC"));
    synth(SHANGHAI, 7, 0x1b, 0, 0x07300403, 0); /* version 3: Linux wants exactly 2 */
    assert_int_equal(caps.kind, PMU_KIND_NONE);
    synth(SHANGHAI, 7, 0x1b, 0, 0x05300402, 0); /* event vector length 5 < 6 */
    assert_int_equal(caps.kind, PMU_KIND_NONE);
    synth("CyrixInstead", 6, 0x0f, 0x0e, V2_4GP_48, 0); /* a vendor no kind claims */
    assert_int_equal(caps.kind, PMU_KIND_NONE);
    assert_non_null(strstr(caps.evidence, "has no PMU pmuboot knows"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zxd_zxe),
        cmocka_unit_test(test_zxc),
        cmocka_unit_test(test_model_runs_zhaoxin),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
