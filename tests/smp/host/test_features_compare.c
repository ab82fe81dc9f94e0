/* tests/smp/portable/features_compare.c: smp/features on real CPUID dumps (tests/host/data, InstLatx64 via PROVENANCE.md).
 * Threads of one kind must compare equal once the per-thread fields are masked (the HFI row of Alder Lake-P's
 * second P-core differs in 06H:EDX[31:16]), threads of different kinds must be told apart, and a real
 * difference in a compared bit must still be found. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "emul/emul.h"
#include "tests/smp/portable/features_compare.h"
#include "tests/host/support/test_data.h"

static void snapshot(const char *file, unsigned cpu, struct features_snapshot *f)
{
    static struct cpuid_dump d;
    struct cpuid_source s;
    test_dump_load(&d, file, cpu);
    cpuid_dump_source(&d, &s);
    features_read(&s, f);
}

static void hfi_row_is_per_thread(void **state)
{
    (void)state;
    struct features_snapshot p0, p1;
    snapshot("intel_alderlake_p_hybrid_000906A4.txt", 0, &p0);
    snapshot("intel_alderlake_p_hybrid_000906A4.txt", 2, &p1);
    assert_int_equal(p0.kind, 0x40000001); /* Core (P-core), native model 1 */
    assert_int_equal(p0.kind, p1.kind);
    assert_int_equal(p0.r[1].edx, 0x00000003); /* the raw registers do differ: rows 0 and 1 */
    assert_int_equal(p1.r[1].edx, 0x00010003);
    struct features_diff d[4];
    assert_int_equal(features_compare(&p0, &p1, d, 4), 0);
}

static void kinds_told_apart(void **state)
{
    (void)state;
    struct features_snapshot p, e;
    snapshot("intel_alderlake_p_hybrid_000906A4.txt", 0, &p);
    snapshot("intel_alderlake_p_hybrid_000906A4.txt", 1, &e);
    assert_int_not_equal(p.kind, e.kind);
    assert_int_equal(e.kind >> 24, 0x20); /* Atom (E-core) */
    /* Meteor Lake: Redwood Cove P-cores and Crestmont E-cores, each kind with its own reference. */
    snapshot("intel_meteorlake_hybrid_000A06A4.txt", 0, &p);
    snapshot("intel_meteorlake_hybrid_000A06A4.txt", 1, &e);
    assert_int_equal(p.kind, 0x40000002);
    assert_int_equal(e.kind, 0x20000002);
    /* Arrow Lake-H: Lion Cove P-cores (CPU 0, 1); Skymont E-cores (2, 3) and Crestmont low-power E-cores (4), one
     * core type (Atom), two kinds. */
    snapshot("intel_arrowlake_h_hybrid_000C0652.txt", 0, &p);
    assert_int_equal(p.kind, 0x40000003);
    snapshot("intel_arrowlake_h_hybrid_000C0652.txt", 2, &p);
    snapshot("intel_arrowlake_h_hybrid_000C0652.txt", 4, &e);
    assert_int_equal(p.kind, 0x20000003);
    assert_int_equal(e.kind, 0x20000002);
    /* Not hybrid: one kind, 0. */
    snapshot("intel_skylake_000506E3.txt", 0, &p);
    assert_int_equal(p.kind, 0);
}

/* smp/features under pmu=emulated:KIND reads each thread's emulated CPUID (tests/smp/suite_smp.c): over one real CPU (the
 * Skylake dump) the hybrid kinds' threads, cores chosen by CPU index as the kernel does (pmu_emul_core_of), fall in
 * one group per CPUID.1AH:EAX value, each thread equal to its group's first; the kinds that are not hybrid in one. */
static void emulated_kinds_grouped(void **state)
{
    (void)state;
    static struct cpuid_dump d;
    struct cpuid_source real;
    test_dump_load(&d, "intel_skylake_000506E3.txt", 0);
    cpuid_dump_source(&d, &real);
    static const struct {
        const char *kind;
        u32 cpus, groups;
    } t[] = {{"adl", 2, 2}, {"adl", 4, 2}, {"mtl", 2, 2}, {"mtl", 4, 2}, {"mtl", 1, 1}, {"intel-v4", 4, 1}};
    for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
        const struct pmu_emul_kind *k = pmu_emul_kind_find(t[i].kind);
        struct features_snapshot ref[4], f;
        u32 groups = 0;
        for (u32 cpu = 0; cpu < t[i].cpus; cpu++) {
            struct pmu_emul_cpuid e = {k, &real, false, pmu_emul_core_of(k, cpu, t[i].cpus)};
            struct cpuid_source s = {pmu_emul_cpuid_query, &e};
            features_read(&s, &f);
            u32 g = 0;
            while (g < groups && ref[g].kind != f.kind)
                g++;
            if (g == groups)
                ref[groups++] = f;
            struct features_diff diffs[4];
            assert_int_equal(features_compare(&ref[g], &f, diffs, 4), 0);
            assert_int_equal(f.kind != 0, k->num_cores != 0);
        }
        assert_int_equal(groups, t[i].groups);
    }
}

static void a_real_difference_is_found(void **state)
{
    (void)state;
    struct features_snapshot a, b;
    snapshot("intel_alderlake_p_hybrid_000906A4.txt", 0, &a);
    b = a;
    b.r[2].ebx ^= 1u << 5; /* 07H.0:EBX[5] AVX2 on one thread only */
    b.r[1].edx ^= 1u << 0; /* 06H:EDX[0] HFI on one thread only */
    b.r[0].ecx ^= 1u << 27; /* OSXSAVE: software state, not compared */
    struct features_diff d[4];
    assert_int_equal(features_compare(&a, &b, d, 4), 2);
    assert_int_equal(d[0].probe, 1);
    assert_int_equal(d[0].reg, 3);
    assert_int_equal(d[1].probe, 2);
    assert_int_equal(d[1].reg, 1);
    assert_int_equal(d[1].value ^ d[1].reference, 1u << 5);
    assert_int_equal(features_compare(&a, &b, d, 1), 2); /* counted beyond the room for details */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hfi_row_is_per_thread),
        cmocka_unit_test(kinds_told_apart),
        cmocka_unit_test(emulated_kinds_grouped),
        cmocka_unit_test(a_real_difference_is_found),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
