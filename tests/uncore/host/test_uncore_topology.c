/* Where each hardware thread sits for suite "uncore" (tests/uncore/portable/uncore_topology.h), on the recorded CPUID
 * dumps of tests/host/data, and the scope plan (tests/uncore/portable/uncore_scope.h) they give: the packages (L3
 * complexes on AMD), their leaders and each core's rank, the routing field's "core n". */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/cpuid_dump.h"
#include "tests/host/support/test_data.h"
#include "tests/uncore/portable/uncore_scope.h"
#include "tests/uncore/portable/uncore_topology.h"

#define MAXT 64

static struct cpuid_dump dump;
static struct uncore_thread_place place[MAXT];
static u32 skey[MAXT], ckey[MAXT], scope_of[MAXT], rank[MAXT];
static struct uncore_scope_plan plan;

/* Place every CPU of the dump `name` for a kind of `scope` and plan; returns the CPUs. */
static u32 place_dump(const char *name, enum uncore_scope scope)
{
    size_t len;
    char *text = test_data_read(name, &len);
    assert_non_null(text);
    u32 n = 0;
    do {
        assert_true(cpuid_dump_parse(&dump, text, len, n));
        struct cpuid_source src;
        cpuid_dump_source(&dump, &src);
        const char *why = NULL;
        assert_true(uncore_thread_place(&src, scope, &place[n], &why));
        skey[n] = place[n].scope_key;
        ckey[n] = place[n].core_key;
        n++;
    } while (n < dump.cpus_seen && n < MAXT);
    free(text);
    const char *why = NULL;
    assert_true(uncore_scope_plan(skey, ckey, NULL, n, scope_of, rank, &plan, &why));
    if (getenv("UNCORE_TOPOLOGY_VERBOSE"))
        for (u32 i = 0; i < n; i++)
            printf("%s cpu%u apic 0x%x %s scope key %u core key %u: scope %u rank %u\n", name, i, place[i].apic_id,
                   place[i].source, skey[i], ckey[i], scope_of[i], rank[i]);
    return n;
}

static void test_raptorlake_one_package(void **state)
{
    (void)state;
    u32 n = place_dump("intel_raptorlake_p_hybrid_000B06A2.txt", UNCORE_SCOPE_PACKAGE);
    assert_int_equal(n, 20);
    assert_int_equal(plan.nscopes, 1);
    assert_int_equal(plan.leader[0], 0);
    /* Six P-cores of two threads (APIC IDs 0, 1, 8, 9, ...), then eight E-cores of one (0x30, 0x32, ...): 14 cores, the
     * two threads of a P-core one rank, the E-cores after them. */
    assert_int_equal(plan.cores[0], 14);
    assert_int_equal(rank[2], 1);
    assert_int_equal(rank[3], 1);
    assert_int_equal(rank[12], 6);
    assert_int_equal(rank[19], 13);
}

static void test_zen5_l3_complexes(void **state)
{
    (void)state;
    u32 n = place_dump("amd_zen5_strixpoint_00B20F40.txt", UNCORE_SCOPE_L3);
    assert_int_equal(n, 16);
    /* Two CCXs, one L3 each: the Zen 5 cores' (APIC IDs below 0x10) and the Zen 5c cores' (from 0x10); one package. */
    assert_int_equal(plan.nscopes, 2);
    assert_int_equal(place[0].l3_shift, 3);  /* 4 cores, 8 threads */
    assert_int_equal(place[6].l3_shift, 4);  /* 8 cores, 16 threads */
    assert_int_equal(plan.leader[1], 6);
    assert_int_equal(scope_of[5], 0);
    assert_int_equal(scope_of[6], 1);
    assert_int_equal(rank[8], 1);
    assert_int_equal(plan.cores[1], 5);
    /* The same threads by package: one scope. */
    place_dump("amd_zen5_strixpoint_00B20F40.txt", UNCORE_SCOPE_PACKAGE);
    assert_int_equal(plan.nscopes, 1);
}

static void test_westmere_package(void **state)
{
    (void)state;
    place_dump("intel_westmere_gulftown_000206C2.txt", UNCORE_SCOPE_PACKAGE);
    assert_int_equal(plan.nscopes, 1);
    assert_int_equal(plan.cores[0], 1); /* the dump's two threads are core 0's */
}

/* A thread without leaf 01H has no APIC ID: no place, and the reason. */
static bool no_leaves(void *ctx, u32 leaf, u32 subleaf, struct cpuid_regs *r)
{
    (void)ctx, (void)leaf, (void)subleaf;
    memset(r, 0, sizeof(*r));
    return false;
}

static void test_no_cpuid(void **state)
{
    (void)state;
    struct cpuid_source src = {no_leaves, NULL};
    struct uncore_thread_place p;
    const char *why = NULL;
    assert_false(uncore_thread_place(&src, UNCORE_SCOPE_PACKAGE, &p, &why));
    assert_non_null(why);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_raptorlake_one_package), cmocka_unit_test(test_zen5_l3_complexes),
        cmocka_unit_test(test_westmere_package),        cmocka_unit_test(test_no_cpuid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
