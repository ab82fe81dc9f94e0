/* pmu-decode --checks (tests/host/support/checks_predict.c): a whole machine's CPUID-only checks predicted from
 * its dump, with the kernel's decision code (tests/smp/portable/topology.c topology_judge, tests/smp/portable/features_compare.c,
 * tests/pmu_enum/portable/pmu_enum_judge.c, pmu/). Healthy machines (every multi-CPU dump of tests/host/data, InstLatx64 via
 * PROVENANCE.md) predict no FAIL; a difference put into one thread's copy of a real dump, here in memory, is
 * predicted as a FAIL whose TAP line names the register, the reference thread and both values. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/smp/portable/topology.h"
#include "tests/host/support/checks_predict.h"
#include "tests/host/support/test_data.h"
#include "tests/pmu_enum/portable/pmu_enum_judge.h"

/* The predicted stream of `text` (malloc'd; free it), its summary in *sum; fails the test on a parse error. */
static char *predict_text(const char *name, const char *text, size_t len, struct checks_summary *sum)
{
    char *out = NULL;
    size_t out_len = 0;
    FILE *f = open_memstream(&out, &out_len);
    assert_non_null(f);
    char err[256] = "";
    bool ok = checks_predict(name, text, len, f, sum, err, sizeof(err));
    fclose(f);
    if (!ok)
        fail_msg("%s: %s", name, err);
    return out;
}

static char *predict_file(const char *name, struct checks_summary *sum)
{
    size_t len;
    char *text = test_data_read(name, &len);
    assert_non_null(text);
    char *out = predict_text(name, text, len, sum);
    free(text);
    return out;
}

/* In the block of "Logical CPU #<cpu> ]", replace `from` by `to` (same length): one thread's copy changed. */
static void change_thread(char *text, unsigned cpu, const char *from, const char *to)
{
    char tag[64];
    snprintf(tag, sizeof(tag), "Logical CPU #%u ]", cpu);
    char *block = strstr(text, tag);
    assert_non_null(block);
    char *at = strstr(block, from);
    assert_non_null(at);
    char *next = strstr(block + 1, "Logical CPU #");
    assert_true(!next || at < next); /* inside this thread's block */
    assert_int_equal(strlen(from), strlen(to));
    memcpy(at, to, strlen(to));
}

static bool has_line(const char *out, const char *line)
{
    size_t n = strlen(line);
    for (const char *p = out; (p = strstr(p, line)); p += n)
        if ((p == out || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0'))
            return true;
    return false;
}

static unsigned count_prefix(const char *out, const char *prefix)
{
    unsigned n = 0;
    size_t len = strlen(prefix);
    for (const char *p = out; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        n += !strncmp(p, prefix, len);
    return n;
}

/* Every dump of tests/host/data that holds more than one logical CPU: a healthy machine, so no FAIL predicted
 * (what make check's "pmu-decode --checks" step requires), one topology check and three per thread, a plan
 * that matches and the kernel's summary line. */
static void healthy_dumps_predict_no_fail(void **state)
{
    (void)state;
    static const char *const multi[] = {
        "amd_k8_manchester_00020FB1.txt",         "amd_zen5_strixpoint_00B20F40.txt",
        "intel_alderlake_p_hybrid_000906A4.txt",  "intel_arrowlake_h_hybrid_000C0652.txt",
        "intel_arrowlake_u_hybrid_000B0650.txt",  "intel_core2_conroe_000006F6.txt",
        "intel_meteorlake_hybrid_000A06A4.txt",   "intel_raptorlake_p_hybrid_000B06A2.txt",
        "intel_westmere_gulftown_000206C2.txt",   "kvm_guest_this_host_cpuid_r.txt",
    };
    for (size_t i = 0; i < ARRAY_SIZE(multi); i++) {
        struct checks_summary s;
        char *out = predict_file(multi[i], &s);
        if (s.failed || count_prefix(out, "not ok"))
            fail_msg("%s: %u FAIL predicted:\n%s", multi[i], s.failed, out);
        assert_true(s.cpus > 1);
        assert_int_equal(s.tests, 1 + 3 * s.cpus);
        assert_int_equal(s.passed + s.skipped, s.tests);
        char plan[32], summary[64];
        snprintf(plan, sizeof(plan), "1..%u", s.tests);
        snprintf(summary, sizeof(summary), "%u passed, 0 failed, %u skipped", s.passed, s.skipped);
        assert_true(has_line(out, "TAP version 13"));
        assert_true(has_line(out, plan));
        assert_true(has_line(out, summary));
        assert_true(has_line(out, "ok 1 - smp/topology"));
        free(out);
    }
}

/* Raptor Lake-P (Core i7-1370P, all 20 threads): 6 Raptor Cove P-cores with HT and 8 Gracemont E-cores. The
 * E-cores enumerate 6 GP and 3 fixed counters, the P-cores 8 and 4 (after the hybrid quirk): equal within each
 * kind, so every check passes, each kind against its own first thread (cpu0, cpu12). */
static void raptor_lake_p_whole_machine(void **state)
{
    (void)state;
    struct checks_summary s;
    char *out = predict_file("intel_raptorlake_p_hybrid_000B06A2.txt", &s);
    assert_int_equal(s.cpus, 20);
    assert_int_equal(s.tests, 61);
    assert_int_equal(s.passed, 61);
    assert_true(has_line(out, "ok 1 - smp/topology"));
    assert_true(has_line(out, "ok 2 - cpu0/smp/features"));
    assert_true(has_line(out, "ok 21 - cpu19/smp/features"));
    assert_true(has_line(out, "ok 22 - cpu0/pmu_enum/discover"));
    assert_true(has_line(out, "ok 23 - cpu0/pmu_enum/consistent"));
    assert_true(has_line(out, "ok 61 - cpu19/pmu_enum/consistent"));
    assert_non_null(strstr(out, "\"reference\": \"cpu12 (CPUID.1AH:EAX 0x20000001: core type and native model)\""));
    assert_non_null(strstr(out, "\"reference\": \"cpu12 (CPUID.1AH:EAX 0x20000001: Atom core, native model 0x000001)\""));
    assert_non_null(strstr(out, "\"reference\": \"cpu0 (CPUID.1AH:EAX 0x40000001: Core core, native model 0x000001)\""));
    /* APIC IDs from leaf 1FH: P-core threads 0, 1, 8, 9, ..., E-cores 0x30, 0x32, ... 0x3e (AIDA's "All CPUs"). */
    assert_non_null(strstr(out, "# topology (CPUID 0x1F)"));
    assert_non_null(strstr(out, "#   cpu19  0x3e "));
    free(out);
}

/* Strix Point (Ryzen AI 7 PRO 360, all 16 threads): 3 Zen 5 and 5 Zen 5c cores. Not hybrid in CPUID.07H:EDX[15]
 * terms, so every thread is compared with cpu0; the compared leaves are equal (the core kinds differ in
 * 80000026H and the L3 leaf, which no check compares), and every thread has PerfMonV2 with 6 counters. */
static void strix_point_whole_machine(void **state)
{
    (void)state;
    struct checks_summary s;
    char *out = predict_file("amd_zen5_strixpoint_00B20F40.txt", &s);
    assert_int_equal(s.cpus, 16);
    assert_int_equal(s.tests, 49);
    assert_int_equal(s.passed, 49);
    assert_true(has_line(out, "ok 8 - cpu6/smp/features")); /* the first Zen 5c thread */
    assert_non_null(strstr(out, "\"caps 1\": \"pmu: kind amd_perfmon_v2: AMD PerfMonV2\""));
    assert_int_equal(count_prefix(out, "  \"reference\": \"cpu0 (CPUID.1AH:EAX 0x00000000: not hybrid)\""), 16);
    free(out);
}

/* A difference in one thread's copy: Raptor Lake-P's E-core cpu13 given 4 GP counters in CPUID.0AH:EAX[15:8]
 * (07300405 for 07300605). smp/features and pmu_enum/consistent FAIL on it, and only on it, each TAP line naming
 * what differs, the reference thread (cpu12, the first E-core) and both values. */
static void one_thread_differs(void **state)
{
    (void)state;
    size_t len;
    char *text = test_data_read("intel_raptorlake_p_hybrid_000B06A2.txt", &len);
    assert_non_null(text);
    change_thread(text, 13, "CPUID 0000000A: 07300605", "CPUID 0000000A: 07300405");
    struct checks_summary s;
    char *out = predict_text("changed", text, len, &s);
    assert_int_equal(s.failed, 2);
    assert_int_equal(count_prefix(out, "not ok"), 2);
    assert_true(has_line(out, "not ok 15 - cpu13/smp/features (CPUID.0AH:EAX reference 0x07300605 on cpu12, this "
                              "thread 0x07300405, compared bits 0xffffffff; 1 register differs)"));
    assert_true(has_line(out, "not ok 49 - cpu13/pmu_enum/consistent (GP counter mask reference 0x3f on cpu12, this "
                              "thread 0xf)"));
    assert_non_null(strstr(out, "\"CPUID.0AH:EAX\": \"reference 0x07300605, this CPU 0x07300405 (compared bits "
                                "0xffffffff)\""));
    assert_non_null(strstr(out, "\"GP counter mask\": {expected: 0x3f, observed: 0xf, tolerance: 0}"));
    free(out);

    /* A per-thread field is not a difference: the HFI row (06H:EDX[31:16]) and the APIC ID (01H:EBX[31:24]). */
    change_thread(text, 13, "CPUID 0000000A: 07300405", "CPUID 0000000A: 07300605");
    change_thread(text, 13, "CPUID 00000006: 00DFCFF7-00000002-00000409-00060003",
                  "CPUID 00000006: 00DFCFF7-00000002-00000409-00120003");
    out = predict_text("per-thread", text, len, &s);
    assert_int_equal(s.failed, 0);
    free(out);
    free(text);
}

/* Two threads with one APIC ID (a dump taken twice on the same thread, as InstLatx64's
 * GenuineIntel00C06F2_EmeraldRapids_03_CPUID.txt has from its logical CPU #32 on): smp/topology FAILs, naming them. */
static void duplicate_apic_id(void **state)
{
    (void)state;
    size_t len;
    char *text = test_data_read("intel_meteorlake_hybrid_000A06A4.txt", &len);
    assert_non_null(text);
    char *second = strstr(text, "------[ CPUID Registers / Logical CPU #2 ]");
    assert_non_null(second);
    size_t first_len = (size_t)(second - text);
    char *twice = malloc(2 * first_len + 1);
    assert_non_null(twice);
    memcpy(twice, text, first_len);
    memcpy(twice + first_len, text, first_len);
    twice[2 * first_len] = '\0';
    struct checks_summary s;
    char *out = predict_text("twice", twice, 2 * first_len, &s);
    assert_int_equal(s.cpus, 2);
    assert_int_equal(s.failed, 1);
    assert_true(has_line(out, "not ok 1 - smp/topology (cpu0 and cpu1 share APIC ID 0x20 (CPUID 0x1F))"));
    assert_non_null(strstr(out, "\"threads sharing one topology ID\": {expected: 0, observed: 1, tolerance: 0}"));
    free(out);
    free(twice);
    free(text);
}

/* What a dump cannot say is said, not guessed: an AMD guest without PerfCtrExtCore (Zen 2's dump with the
 * hypervisor bit set and 80000001H:ECX[23] clear) is where the kernel probes the K7 counters by writing them. */
static void amd_guest_k7_probe_not_predicted(void **state)
{
    (void)state;
    size_t len;
    char *text = test_data_read("amd_zen2_matisse_00870F10.txt", &len);
    assert_non_null(text);
    change_thread(text, 0, "CPUID 00000001: 00870F10-00180800-7ED8320B", "CPUID 00000001: 00870F10-00180800-FED8320B");
    change_thread(text, 0, "CPUID 80000001: 00870F10-20000000-75C237FF", "CPUID 80000001: 00870F10-20000000-754237FF");
    struct checks_summary s;
    char *out = predict_text("guest", text, len, &s);
    assert_int_equal(s.failed, 0);
    assert_int_equal(s.skipped, 2);
    assert_non_null(strstr(out, "ok 3 - cpu0/pmu_enum/discover # SKIP not predictable from CPUID: "));
    assert_non_null(strstr(out, "the kernel probes the K7 counters here (pmu_probe_amd_legacy"));
    free(out);
    /* Bare metal, the same CPU: its PMU is decided from CPUID, nothing skipped. */
    change_thread(text, 0, "FED8320B", "7ED8320B");
    out = predict_text("bare", text, len, &s);
    assert_int_equal(s.skipped, 0);
    assert_int_equal(s.passed, 4);
    free(out);
    free(text);
}

/* No PMU (this machine's KVM guest: CPUID.0AH = 0): both pmu_enum checks SKIP with the kernel's evidence. No long
 * mode (the synthetic Knights Corner vector's placeholder feature bits): boot/entry.asm halts, no check at all. */
static void no_pmu_and_no_long_mode(void **state)
{
    (void)state;
    struct checks_summary s;
    char *out = predict_file("kvm_guest_this_host_cpuid_r.txt", &s);
    assert_int_equal(s.skipped, 4);
    assert_true(has_line(out, "ok 4 - cpu0/pmu_enum/discover # SKIP no PMU: CPUID.0AH EAX=0x00000000 EBX=0x00000000 "
                              "ECX=0x00000000 EDX=0x00000000; version 0 with 0 GP counters: no architectural perfmon; "
                              "CPUID.1:ECX.PDCM=0"));
    free(out);
    out = predict_file("knc_synthetic.txt", &s);
    assert_int_equal(s.tests, 0);
    assert_non_null(strstr(out, "\n1..0 # SKIP pmuboot does not run here: no long mode"));
    free(out);
}

static void garbled_dump_is_an_error(void **state)
{
    (void)state;
    static const char bad[] = "CPUID 00000000: 0000000D-756E6547-6C65746E\n";
    char err[256] = "";
    char *out = NULL;
    size_t out_len = 0;
    FILE *f = open_memstream(&out, &out_len);
    struct checks_summary s;
    assert_false(checks_predict("bad", bad, sizeof(bad) - 1, f, &s, err, sizeof(err)));
    fclose(f);
    assert_int_equal(out_len, 0);
    assert_non_null(strstr(err, "line 1: "));
    free(out);
}

/* The shared judgements themselves: pmu_caps_compare's fields in the kernel check's order and print format,
 * pmu_caps_bounds, topology_judge with threads left out. */
static void shared_judgements(void **state)
{
    (void)state;
    struct pmu_caps a = {.kind = PMU_KIND_INTEL_ARCH, .version = 5, .num_gp = 8, .gp_mask = 0xff, .gp_width = 48,
                         .fixed_mask = 0xf, .fixed_width = 48, .arch_events = 0x7f};
    struct pmu_caps b = a;
    struct pmu_caps_field f[PMU_CAPS_COMPARED];
    assert_int_equal(pmu_caps_compare(&a, &b, f), 0);
    static const char *const names[PMU_CAPS_COMPARED] = {
        "kind", "version", "GP counter mask", "GP width", "fixed counter mask", "fixed width",
        "architectural events", "TSX (CPUID.(7,0):EBX HLE/RTM)", "IA32_PERF_CAPABILITIES"};
    static const bool hex[PMU_CAPS_COMPARED] = {false, false, true, false, true, false, true, false, true};
    for (u32 i = 0; i < PMU_CAPS_COMPARED; i++) {
        assert_string_equal(f[i].what, names[i]);
        assert_int_equal(f[i].hex, hex[i]);
    }
    b.fixed_mask = 0x7;
    b.perf_caps.raw = 0x33e5;
    assert_int_equal(pmu_caps_compare(&a, &b, f), 2);
    assert_int_equal(f[4].reference, 0xf);
    assert_int_equal(f[4].value, 0x7);

    struct pmu_caps_bound bd[PMU_CAPS_BOUNDS];
    assert_int_equal(pmu_caps_bounds(&a, bd), 2); /* num_fixed 0 here: no fixed width bound */
    assert_true(bd[0].ok && bd[1].ok);
    a.num_fixed = 4;
    a.gp_width = 31;
    assert_int_equal(pmu_caps_bounds(&a, bd), 3);
    assert_false(bd[1].ok);
    assert_string_equal(bd[1].expected, "32..64 bits");

    struct topology t[3] = {{.source = "CPUID 0x1F", .apic_id = 0},
                            {.source = "CPUID 0x0B", .apic_id = 0},
                            {.source = "CPUID 0x1F", .apic_id = 2}};
    u32 dup, mixed;
    topology_judge(t, NULL, 3, &dup, &mixed);
    assert_int_equal(dup, 1);
    assert_int_equal(mixed, 1);
    const bool present[3] = {true, false, true};
    topology_judge(t, present, 3, &dup, &mixed);
    assert_int_equal(dup, 0);
    assert_int_equal(mixed, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(healthy_dumps_predict_no_fail),
        cmocka_unit_test(raptor_lake_p_whole_machine),
        cmocka_unit_test(strix_point_whole_machine),
        cmocka_unit_test(one_thread_differs),
        cmocka_unit_test(duplicate_apic_id),
        cmocka_unit_test(amd_guest_k7_probe_not_predicted),
        cmocka_unit_test(no_pmu_and_no_long_mode),
        cmocka_unit_test(garbled_dump_is_an_error),
        cmocka_unit_test(shared_judgements),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
