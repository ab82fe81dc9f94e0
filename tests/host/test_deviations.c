/* pmu/deviations: which known event-count deviations apply to which CPU. Two harnesses: synthetic identities
 * (vendor/family/model/stepping/hypervisor set by hand, to walk the model lists of the sources edge by edge)
 * and the real CPUID dumps of tests/host/data run through the real cpu_ident decode and PMU discovery. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cpu_ident.h"
#include "pmu/cpuid_dump.h"
#include "pmu/deviations.h"
#include "pmu/kind.h"
#include "pmu/pmu_caps.h"
#include "tests/host/support/test_data.h"

static struct cpu_ident ident(enum cpu_vendor v, u32 family, u32 model, u32 stepping, bool hv)
{
    struct cpu_ident id;
    memset(&id, 0, sizeof id);
    id.vendor = v;
    id.family = family;
    id.model = model;
    id.stepping = stepping;
    id.hypervisor_bit = hv;
    return id;
}

/* The ids of the deviations that apply, space-separated, in table order. */
static const char *ids(const struct cpu_ident *id, enum pmu_kind kind)
{
    static char buf[512];
    const struct pmu_deviation *out[16];
    size_t n = pmu_deviations_for(id, kind, out, 16);
    assert_true(n <= 16);
    buf[0] = 0;
    for (size_t i = 0; i < n; i++) {
        strcat(buf, i ? " " : "");
        strcat(buf, out[i]->id);
    }
    return buf;
}

#define INTR "interrupt_counts_one_instruction"
#define ATOM_I "intel_atom_inst_retired_overcount"
#define ATOM_B "intel_atom_br_retired_overcount"
#define CORE2 "intel_core2_cpuid_counts_as_branch"
#define AMD_BR "amd_branches_count_exceptions_interrupts"
#define AMD_VM "amd_branches_count_vmrun_in_guest"
#define ZEN "amd_zen_speclockmap_rollback"

/* kvm-unit-tests lib/x86/pmu.c: 0x4D 0x5F 0x86 0xAF both events; 0xDD instructions only. */
static void test_atom_models(void **state)
{
    (void)state;
    static const u32 both[] = {0x4d, 0x5f, 0x86, 0xaf};
    for (size_t i = 0; i < 4; i++) {
        struct cpu_ident id = ident(VENDOR_INTEL, 6, both[i], 1, false);
        assert_string_equal(ids(&id, PMU_KIND_INTEL_ARCH), ATOM_I " " ATOM_B " " INTR);
    }
    struct cpu_ident cwf = ident(VENDOR_INTEL, 6, 0xdd, 1, false);
    assert_string_equal(ids(&cwf, PMU_KIND_INTEL_ARCH), ATOM_I " " INTR);
    /* neighbours and other Atoms the source does not list: Silvermont 0x37, Goldmont 0x5C, Tremont 0x96,
     * Alder Lake 0x9A (hybrid), Skylake-SP 0x55 */
    static const u32 not_listed[] = {0x37, 0x4c, 0x4e, 0x5c, 0x5e, 0x85, 0x87, 0x96, 0x9a, 0xae, 0xb0, 0xdc, 0xde, 0x55};
    for (size_t i = 0; i < ARRAY_SIZE(not_listed); i++) {
        struct cpu_ident id = ident(VENDOR_INTEL, 6, not_listed[i], 1, false);
        assert_string_equal(ids(&id, PMU_KIND_INTEL_ARCH), INTR);
    }
    /* same model number under another family or vendor is not that part */
    struct cpu_ident f15 = ident(VENDOR_INTEL, 15, 0x5f, 1, false), amd = ident(VENDOR_AMD, 6, 0x5f, 1, false);
    assert_string_equal(ids(&f15, PMU_KIND_INTEL_ARCH), INTR);
    assert_string_equal(ids(&amd, PMU_KIND_INTEL_ARCH), INTR);
}

/* open-vm-tools CPUID_CountsCPUIDAsBranch: family 6 before Merom E (model 0x0F stepping 9). */
static void test_core2_cpuid_branch(void **state)
{
    (void)state;
    struct cpu_ident yonah = ident(VENDOR_INTEL, 6, 0x0e, 8, false), merom6 = ident(VENDOR_INTEL, 6, 0x0f, 6, false),
                     merom8 = ident(VENDOR_INTEL, 6, 0x0f, 8, false), merom9 = ident(VENDOR_INTEL, 6, 0x0f, 9, false),
                     meromd = ident(VENDOR_INTEL, 6, 0x0f, 0xd, false), penryn = ident(VENDOR_INTEL, 6, 0x17, 6, false),
                     nehalem = ident(VENDOR_INTEL, 6, 0x1a, 5, false);
    assert_string_equal(ids(&yonah, PMU_KIND_INTEL_ARCH), CORE2 " " INTR);
    assert_string_equal(ids(&merom6, PMU_KIND_INTEL_ARCH), CORE2 " " INTR);
    assert_string_equal(ids(&merom8, PMU_KIND_INTEL_ARCH), CORE2 " " INTR);
    assert_string_equal(ids(&merom9, PMU_KIND_INTEL_ARCH), INTR);
    assert_string_equal(ids(&meromd, PMU_KIND_INTEL_ARCH), INTR);
    assert_string_equal(ids(&penryn, PMU_KIND_INTEL_ARCH), INTR);
    assert_string_equal(ids(&nehalem, PMU_KIND_INTEL_ARCH), INTR);
}

static void test_amd(void **state)
{
    (void)state;
    struct cpu_ident k8 = ident(VENDOR_AMD, 0x0f, 0x21, 1, false), f15 = ident(VENDOR_AMD, 0x15, 0x02, 0, false),
                     f16 = ident(VENDOR_AMD, 0x16, 0x30, 1, false), zen = ident(VENDOR_AMD, 0x17, 0x01, 1, false),
                     zen4 = ident(VENDOR_AMD, 0x19, 0x11, 1, false), zen5 = ident(VENDOR_AMD, 0x1a, 0x24, 0, false),
                     zen_guest = ident(VENDOR_AMD, 0x17, 0x71, 0, true),
                     hygon = ident(VENDOR_HYGON, 0x18, 0x00, 1, false);
    assert_string_equal(ids(&k8, PMU_KIND_AMD_LEGACY), AMD_BR " " INTR);
    assert_string_equal(ids(&f15, PMU_KIND_AMD_CORE_EXT), AMD_BR " " INTR);
    assert_string_equal(ids(&f16, PMU_KIND_AMD_CORE_EXT), AMD_BR " " INTR);
    assert_string_equal(ids(&zen, PMU_KIND_AMD_CORE_EXT), AMD_BR " " ZEN " " INTR);
    assert_string_equal(ids(&zen4, PMU_KIND_AMD_PERFMON_V2), AMD_BR " " ZEN " " INTR);
    assert_string_equal(ids(&zen5, PMU_KIND_AMD_PERFMON_V2), AMD_BR " " ZEN " " INTR);
    assert_string_equal(ids(&zen_guest, PMU_KIND_AMD_CORE_EXT), AMD_BR " " AMD_VM " " ZEN " " INTR);
    /* Hygon: the AMD event definitions follow the PMU kind; SpecLockMap is only documented for AMD parts */
    assert_string_equal(ids(&hygon, PMU_KIND_AMD_CORE_EXT), AMD_BR " " INTR);
}

/* No counters, or a PMU no source speaks about (KNC): nothing applies. */
static void test_kinds_without_sources(void **state)
{
    (void)state;
    struct cpu_ident knc = ident(VENDOR_INTEL, 0x0b, 0x01, 1, false), denverton = ident(VENDOR_INTEL, 6, 0x5f, 1, true),
                     zen = ident(VENDOR_AMD, 0x17, 0x71, 0, true);
    assert_string_equal(ids(&knc, PMU_KIND_KNC), "");
    assert_string_equal(ids(&denverton, PMU_KIND_NONE), ""); /* e.g. under QEMU TCG: CPUID.0AH = 0 */
    assert_string_equal(ids(&zen, PMU_KIND_NONE), "");
    /* an Intel identity with an AMD kind (impossible in practice) takes only the kind-keyed entries */
    assert_string_equal(ids(&denverton, PMU_KIND_AMD_CORE_EXT), AMD_BR " " AMD_VM " " INTR);
}

static void test_truncation(void **state)
{
    (void)state;
    struct cpu_ident id = ident(VENDOR_INTEL, 6, 0x5f, 1, false);
    const struct pmu_deviation *out[1] = {NULL};
    assert_int_equal(pmu_deviations_for(&id, PMU_KIND_INTEL_ARCH, out, 1), 3);
    assert_string_equal(out[0]->id, ATOM_I);
    assert_int_equal(pmu_deviations_for(&id, PMU_KIND_INTEL_ARCH, NULL, 0), 3);
}

static const struct pmu_deviation *find(const char *id)
{
    for (size_t i = 0; i < pmu_deviation_table_len; i++)
        if (strcmp(pmu_deviation_table[i].id, id) == 0)
            return &pmu_deviation_table[i];
    fail_msg("no deviation %s", id);
    return NULL;
}

static void test_events_and_bounds(void **state)
{
    (void)state;
    const struct pmu_deviation *cpuid = find(CORE2), *atom = find(ATOM_I), *amd = find(AMD_BR);
    assert_true(pmu_deviation_affects(cpuid, PMU_EV_BRANCHES));
    assert_false(pmu_deviation_affects(cpuid, PMU_EV_INSTRUCTIONS));
    assert_false(pmu_deviation_affects(cpuid, PMU_EV_COUNT));
    assert_true(pmu_deviation_affects_code(amd, 0x0c2));
    assert_true(pmu_deviation_affects_code(amd, 0x0c4));
    assert_false(pmu_deviation_affects_code(amd, 0x0c0));
    assert_false(pmu_deviation_affects_code(amd, 0));
    assert_true(pmu_deviation_affects_code(atom, 0x0c0));

    u64 occ[PMU_DT_COUNT] = {0}, lo, hi;
    occ[PMU_DT_CPUID] = 3;
    occ[PMU_DT_INTERRUPT] = 7; /* not a trigger of the CPUID entry */
    assert_true(pmu_deviation_bounds(cpuid, 100, occ, &lo, &hi));
    assert_int_equal(lo, 103);
    assert_int_equal(hi, 103);
    /* AMD: interrupts and exceptions both add one */
    occ[PMU_DT_EXCEPTION] = 2;
    assert_true(pmu_deviation_bounds(amd, 100, occ, &lo, &hi));
    assert_int_equal(lo, 109);
    assert_int_equal(hi, 109);
    /* Atom: no published bound -> only the lower end, unless nothing triggered */
    assert_true(pmu_deviation_bounds(atom, 100, occ, &lo, &hi));
    assert_int_equal(lo, 100);
    assert_int_equal(hi, 100);
    occ[PMU_DT_FAR_TRANSFER] = 1;
    assert_false(pmu_deviation_bounds(atom, 100, occ, &lo, &hi));
    assert_int_equal(lo, 100);
    assert_int_equal(hi, UINT64_MAX);
    /* saturation, no wrap */
    u64 huge[PMU_DT_COUNT] = {0};
    huge[PMU_DT_CPUID] = UINT64_MAX;
    assert_true(pmu_deviation_bounds(cpuid, 5, huge, &lo, &hi));
    assert_int_equal(lo, UINT64_MAX);
    assert_int_equal(hi, UINT64_MAX);
}

/* Every entry is complete: an id, events, triggers, a sane range, a source naming where it is written. */
static void test_table(void **state)
{
    (void)state;
    assert_int_equal(pmu_deviation_table_len, 7);
    for (size_t i = 0; i < pmu_deviation_table_len; i++) {
        const struct pmu_deviation *d = &pmu_deviation_table[i];
        assert_non_null(d->id);
        assert_non_null(d->title);
        assert_true(d->events != 0 && d->events < (1u << PMU_EV_COUNT));
        assert_true(d->triggers != 0 && d->triggers < (1u << PMU_DT_COUNT));
        assert_true(d->extra_min <= d->extra_max);
        assert_true(strlen(d->effect) > 20);
        assert_true(strlen(d->source) > 20);
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(d->id, pmu_deviation_table[j].id);
    }
    assert_string_equal(pmu_dev_trigger_name(PMU_DT_FAR_TRANSFER), "far_transfer");
    assert_string_equal(pmu_dev_trigger_name(PMU_DT_COUNT), "?");
}

/* Who has a deviation is its kinds' to say (pmu_kind_desc.deviations): every entry of the table is named by some
 * kind, else it would never be reported, and a kind names each entry once. */
static void test_every_deviation_has_a_kind(void **state)
{
    (void)state;
    u32 named = 0;
    for (u32 k = 0; k < PMU_KIND_COUNT; k++) {
        u32 mine = 0;
        for (const struct pmu_kind_deviation *kd = pmu_kinds[k]->deviations; kd && kd->deviation; kd++) {
            size_t i = (size_t)(kd->deviation - pmu_deviation_table);
            assert_true(i < pmu_deviation_table_len);
            assert_false(mine & BIT(i));
            mine |= (u32)BIT(i);
        }
        named |= mine;
    }
    assert_int_equal(named, (u32)BIT(pmu_deviation_table_len) - 1);
}

/* Real CPUs: identity from the dump's CPUID.1, kind from the real discovery. */
static const char *from_dump(const char *file, unsigned cpu)
{
    static struct cpuid_dump dump;
    test_dump_load(&dump, file, cpu);
    struct cpuid_source src;
    struct cpu_ident id;
    struct pmu_caps caps;
    cpuid_dump_source(&dump, &src);
    cpu_ident_decode(&id, &src);
    pmu_discover(&caps, &id, &src);
    return ids(&id, caps.kind);
}

static void test_real_dumps(void **state)
{
    (void)state;
    assert_string_equal(from_dump("intel_core2_conroe_000006F6.txt", 0), CORE2 " " INTR); /* model 0x0F step 6 */
    assert_string_equal(from_dump("intel_denverton_000506F1.txt", 0), ATOM_I " " ATOM_B " " INTR);
    assert_string_equal(from_dump("intel_skylake_000506E3.txt", 0), INTR);
    assert_string_equal(from_dump("intel_westmere_gulftown_000206C2.txt", 0), INTR);
    assert_string_equal(from_dump("intel_knights_landing_00050671.txt", 0), INTR); /* model 0x57: not listed */
    assert_string_equal(from_dump("amd_k8_manchester_00020FB1.txt", 0), AMD_BR " " INTR);
    assert_string_equal(from_dump("amd_zen2_matisse_00870F10.txt", 0), AMD_BR " " ZEN " " INTR);
    assert_string_equal(from_dump("amd_zen4_genoa_00A10F11.txt", 0), AMD_BR " " ZEN " " INTR);
    assert_string_equal(from_dump("knc_synthetic.txt", 0), "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_atom_models),       cmocka_unit_test(test_core2_cpuid_branch),
        cmocka_unit_test(test_amd),               cmocka_unit_test(test_kinds_without_sources),
        cmocka_unit_test(test_truncation),        cmocka_unit_test(test_events_and_bounds),
        cmocka_unit_test(test_table),             cmocka_unit_test(test_real_dumps),
        cmocka_unit_test(test_every_deviation_has_a_kind),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
