/* Last Branch Records: discovery (pmu/lbr.c) on real CPUID dumps and on each emulated kind, the filter register
 * values, the model's encoding of every format read back through lbr_decode (emul/model/lbr_model.c against
 * pmu/lbr.c, written apart), the model's filter and order. Suite lbr's expectations and comparison are held in
 * tests/lbr/host/test_lbr_judge.c. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "emul/emul.h"
#include "emul/model/pmu_model.h"
#include "lib/cpu_ident.h"
#include "pmu/cpuid_dump.h"
#include "pmu/lbr.h"
#include "pmu/pmu_msr.h"
#include "tests/host/support/caps_fixture.h"
#include "tests/host/support/test_data.h"

static struct cpuid_dump dump;

/* Discovery on CPU `cpu` of a dump, with IA32_PERF_CAPABILITIES `perf_caps` (not in a CPUID dump). */
static void discover_dump(const char *file, unsigned cpu, u64 perf_caps, struct lbr_caps *out)
{
    struct cpuid_source src;
    struct pmu_caps caps;
    test_dump_discover(&dump, file, cpu, perf_caps, &src, &caps);
    lbr_discover(&caps, &src, out);
}

static void test_discover_real_dumps(void **state)
{
    (void)state;
    struct lbr_caps l;
    /* Alder Lake-P: CPUID.(7,0):EDX[19] and leaf 1CH 4000000B-7-7: Arch LBR, depths 8/16/32. */
    discover_dump("intel_alderlake_p_hybrid_000906A4.txt", 0, 0, &l);
    assert_int_equal(l.kind, LBR_ARCH);
    assert_int_equal(l.depth, 32);
    assert_int_equal(l.depth_mask, 0xb);
    assert_int_equal(l.from, 0x1500);
    assert_true(l.cpl_filter && l.type_filter && l.has_mispred && l.has_cycles && l.has_type);
    /* Zen 4 (Genoa): Fn8000_0022 00000007-00044106: LbrExtV2 with freeze, 16 entries. */
    discover_dump("amd_zen4_genoa_00A10F11.txt", 0, 0, &l);
    assert_int_equal(l.kind, LBR_AMD_V2);
    assert_int_equal(l.depth, 16);
    assert_true(l.freeze);
    assert_int_equal(l.from, 0xc0010300);
    assert_int_equal(l.stride, 2);
    /* Zen 2: no leaf 8000_0022. */
    discover_dump("amd_zen2_matisse_00870F10.txt", 0, 0, &l);
    assert_int_equal(l.kind, LBR_NONE);
    /* Skylake client (06_5EH) with LBR format 5: 32 entries with LBR_INFO. */
    discover_dump("intel_skylake_000506E3.txt", 0, 0x5, &l);
    assert_int_equal(l.kind, LBR_LEGACY);
    assert_int_equal(l.depth, 32);
    assert_int_equal(l.info, 0xdc0);
    assert_int_equal(l.tos, 0x1c9);
    /* Westmere (06_2CH), format 3: 16 entries, no LBR_INFO; Sandy Bridge (06_2AH): 16. */
    discover_dump("intel_westmere_gulftown_000206C2.txt", 0, 0x3, &l);
    assert_int_equal(l.kind, LBR_LEGACY);
    assert_int_equal(l.depth, 16);
    assert_int_equal(l.info, 0);
    assert_true(l.has_mispred);
    discover_dump("intel_sandybridge_000206A7.txt", 0, 0x3, &l);
    assert_int_equal(l.depth, 16);
    /* Core 2 (06_0FH): 4 entries at 40H/60H, no LBR_SELECT, so no filter. */
    discover_dump("intel_core2_conroe_000006F6.txt", 0, 0x0, &l);
    assert_int_equal(l.kind, LBR_LEGACY);
    assert_int_equal(l.depth, 4);
    assert_int_equal(l.from, 0x40);
    assert_int_equal(l.to, 0); /* format 0: FROM and TO in one MSR */
    assert_false(l.cpl_filter);
    /* Knights Landing (06_57H): 8 entries. */
    discover_dump("intel_knights_landing_00050671.txt", 0, 0x1, &l);
    assert_int_equal(l.depth, 8);
    /* An LBR_INFO format on a model without LBR_INFO MSRs is refused with the reason. */
    discover_dump("intel_sandybridge_000206A7.txt", 0, 0x5, &l);
    assert_int_equal(l.kind, LBR_NONE);
    assert_non_null(strstr(l.why_none, "LBR_INFO"));
}

static void test_discover_emulated_kinds(void **state)
{
    (void)state;
    static const struct {
        const char *kind;
        enum lbr_kind lbr;
        u32 depth, format;
    } want[] = {{"intel-v1", LBR_NONE, 0, 0}, {"intel-v2", LBR_LEGACY, 32, 3}, {"intel-v4", LBR_LEGACY, 32, 5},
                {"intel-v6", LBR_ARCH, 32, 0},  {"amd-v2", LBR_AMD_V2, 16, 0},  {"amd-legacy", LBR_NONE, 0, 0},
                {"knc", LBR_NONE, 0, 0},        {"adl", LBR_ARCH, 32, 0},       {"mtl", LBR_ARCH, 32, 0}};
    for (u32 i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        struct lbr_caps l;
        pmu_emul_lbr(pmu_emul_kind_find(want[i].kind), 0, &l);
        assert_int_equal(l.kind, want[i].lbr);
        assert_int_equal(l.depth, want[i].depth);
        assert_int_equal(l.format, want[i].format);
    }
    struct pmu_emul_kind k;
    const char *why = NULL;
    assert_true(pmu_emul_kind_with_lbr(pmu_emul_kind_find("intel-v4"), "legacy:6", &k, &why));
    assert_int_equal(pmu_emul_perf_capabilities(&k) & 0x3f, 6);
    assert_false(pmu_emul_kind_with_lbr(pmu_emul_kind_find("amd-core-ext"), "amd", &k, &why));
    assert_false(pmu_emul_kind_with_lbr(pmu_emul_kind_find("intel-v4"), "legacy:8", &k, &why));
    assert_false(pmu_emul_kind_with_lbr(pmu_emul_kind_find("knc"), "arch", &k, &why));
}

static void test_filter_values(void **state)
{
    (void)state;
    struct lbr_caps legacy = {.kind = LBR_LEGACY, .select = 0x1c8}, arch = {.kind = LBR_ARCH, .select = 0x14ce,
                                                                            .cpl_filter = true, .type_filter = true};
    struct lbr_filter user_all = {false, true, LBR_BR_ALL}, calls = {true, true, BIT(LBR_BR_REL_CALL)};
    /* LBR_SELECT suppresses: CPL_EQ_0 (bit 0) only. */
    assert_int_equal(lbr_filter_value(&legacy, &user_all), 0x1);
    /* Everything but NEAR_REL_CALL (bit 3) suppressed. */
    assert_int_equal(lbr_filter_value(&legacy, &calls), 0x1f4);
    /* IA32_LBR_CTL enables: LBREn, USR, the seven kinds (bits 16-22). */
    assert_int_equal(lbr_filter_value(&arch, &user_all), 0x7f0005);
    assert_int_equal(lbr_filter_value(&arch, &calls), 0x80007);
    arch.type_filter = false; /* no branch filtering: no type bits, every branch kept */
    assert_int_equal(lbr_filter_value(&arch, &calls), 0x7);
    assert_true(lbr_filter_passes(&user_all, LBR_BR_RET, 3));
    assert_false(lbr_filter_passes(&user_all, LBR_BR_RET, 0));
    assert_false(lbr_filter_passes(&calls, LBR_BR_RET, 3));
}

/* A model with one LBR, recording on, every kind kept at every CPL. */
static struct pmu_model m;

static void model_with(const struct lbr_caps *l)
{
    struct pmu_caps caps;
    fixture_caps_intel(&caps, 5, 4, 48, 3, 48, true);
    pmu_model_init(&m, &caps, MODEL_APIC_STRICT_EDGE);
    pmu_model_set_lbr(&m, l);
    struct hw_access hw;
    pmu_model_access(&m, &hw);
    struct lbr_filter all = {true, true, LBR_BR_ALL};
    if (l->select)
        assert_int_equal(hw_wrmsr(&hw, l->select, lbr_filter_value(l, &all)), 0);
    if (l->kind == LBR_LEGACY)
        assert_int_equal(hw_wrmsr(&hw, MSR_IA32_DEBUGCTL, 1), 0);
    else if (l->kind == LBR_AMD_V2)
        assert_int_equal(hw_wrmsr(&hw, l->enable_msr, l->enable_bit), 0);
}

static void read_youngest(const struct lbr_caps *l, u32 i, struct lbr_record *r)
{
    struct hw_access hw;
    pmu_model_access(&m, &hw);
    u64 tos = 0, from = 0, to = 0, info = 0;
    if (l->kind == LBR_LEGACY)
        assert_int_equal(hw_rdmsr(&hw, l->tos, &tos), 0);
    u32 s = lbr_slot(l, tos, i);
    assert_int_equal(hw_rdmsr(&hw, l->from + s * l->stride, &from), 0);
    if (l->to)
        assert_int_equal(hw_rdmsr(&hw, l->to + s * l->stride, &to), 0);
    if (l->info)
        assert_int_equal(hw_rdmsr(&hw, l->info + s, &info), 0);
    lbr_decode(l, from, to, info, r);
}

static void test_every_format_round_trips(void **state)
{
    (void)state;
    struct lbr_caps kinds[11];
    u32 n = 0;
    for (u32 fmt = 0; fmt <= LBR_FMT_INFO2; fmt++)
        kinds[n++] = (struct lbr_caps){.kind = LBR_LEGACY, .depth = 32, .format = fmt, .from = 0x680,
                                       .to = fmt ? 0x6c0 : 0, .info = fmt == 5 || fmt == 7 ? 0xdc0 : 0, .stride = 1,
                                       .tos = 0x1c9, .select = 0x1c8, .has_mispred = fmt >= 3,
                                       .has_cycles = fmt == 5 || fmt == 6 || fmt == 7};
    kinds[n++] = (struct lbr_caps){.kind = LBR_ARCH, .depth = 32, .depth_mask = 0xb, .from = 0x1500, .to = 0x1600,
                                   .info = 0x1200, .stride = 1, .select = 0x14ce, .has_mispred = true,
                                   .has_cycles = true, .has_type = true};
    kinds[n++] = (struct lbr_caps){.kind = LBR_AMD_V2, .depth = 16, .from = 0xc0010300, .to = 0xc0010301, .stride = 2,
                                   .select = 0xc000010e, .enable_msr = 0xc000010f, .enable_bit = BIT(6),
                                   .has_mispred = true};
    for (u32 k = 0; k < n; k++) {
        model_with(&kinds[k]);
        /* 40 branches of every kind, more than the stack holds; every third mispredicted, 2 instructions apart. */
        for (u32 i = 0; i < 40; i++) {
            struct lbr_model_branch other = {0, 0, -1, 3, false};
            pmu_model_retire_branch(&m, &other);
            struct lbr_model_branch b = {0x100000 + 0x10 * i, 0x200000 + 0x10 * i, (int)(i % LBR_BR_COUNT), 3,
                                         i % 3 == 0};
            pmu_model_retire_branch(&m, &b);
        }
        for (u32 y = 0; y < kinds[k].depth && y < 40; y++) {
            struct lbr_record r;
            read_youngest(&kinds[k], y, &r);
            u32 i = 39 - y;
            assert_true(r.valid);
            assert_int_equal(r.from, 0x100000 + 0x10 * i);
            assert_int_equal(r.to, 0x200000 + 0x10 * i);
            if (kinds[k].has_mispred)
                assert_int_equal(r.mispred, i % 3 == 0);
            if (kinds[k].has_cycles) {
                assert_true(r.cycles_valid);
                assert_int_equal(r.cycles, y == 39 ? 1 : 2);
            }
            assert_int_equal(r.type, kinds[k].has_type ? (int)(i % LBR_BR_COUNT) : -1);
        }
    }
}

static void test_model_filter_freeze_and_faults(void **state)
{
    (void)state;
    struct lbr_caps arch = {.kind = LBR_ARCH, .depth = 32, .depth_mask = 0xb, .from = 0x1500, .to = 0x1600,
                            .info = 0x1200, .stride = 1, .select = 0x14ce, .depth_msr = 0x14cf, .has_type = true,
                            .cpl_filter = true, .type_filter = true};
    model_with(&arch);
    struct hw_access hw;
    pmu_model_access(&m, &hw);
    /* User only, returns only. */
    struct lbr_filter f = {false, true, BIT(LBR_BR_RET)};
    assert_int_equal(hw_wrmsr(&hw, 0x14ce, lbr_filter_value(&arch, &f)), 0);
    struct lbr_model_branch ret0 = {0x1000, 0x2000, LBR_BR_RET, 0, false}, ret3 = {0x3000, 0x4000, LBR_BR_RET, 3, false},
                            jmp3 = {0x5000, 0x6000, LBR_BR_REL_JMP, 3, false};
    pmu_model_retire_branch(&m, &ret0);
    pmu_model_retire_branch(&m, &jmp3);
    pmu_model_retire_branch(&m, &ret3);
    struct lbr_record r;
    read_youngest(&arch, 0, &r);
    assert_int_equal(r.from, 0x3000);
    read_youngest(&arch, 1, &r);
    assert_false(r.valid);
    /* The filter leak fault lets the ring-0 return through. */
    m.faults = PMU_FAULT_LBR_FILTER_LEAK;
    pmu_model_retire_branch(&m, &ret0);
    read_youngest(&arch, 0, &r);
    assert_int_equal(r.from, 0x1000);
    m.faults = 0;
    /* Depth: 24 is not enumerated (mask 0xb: 8, 16, 32), 16 is, and the write clears the entries. */
    assert_int_equal(hw_wrmsr(&hw, 0x14cf, 24), HW_GP);
    assert_int_equal(hw_wrmsr(&hw, 0x14cf, 16), 0);
    read_youngest(&arch, 0, &r);
    assert_false(r.valid);
    u64 v;
    assert_int_equal(hw_rdmsr(&hw, 0x1500 + 16, &v), HW_GP); /* beyond the depth */
    /* Out of order: the two youngest trade places. */
    pmu_model_retire_branch(&m, &ret3);
    m.faults = PMU_FAULT_LBR_OUT_OF_ORDER;
    pmu_model_retire_branch(&m, &(struct lbr_model_branch){0x7000, 0x8000, LBR_BR_RET, 3, false});
    read_youngest(&arch, 0, &r);
    assert_int_equal(r.from, 0x3000);
    m.faults = 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_discover_real_dumps),     cmocka_unit_test(test_discover_emulated_kinds),
        cmocka_unit_test(test_filter_values),           cmocka_unit_test(test_every_format_round_trips),
        cmocka_unit_test(test_model_filter_freeze_and_faults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
