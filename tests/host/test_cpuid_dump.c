/* The CPUID dump parser (pmu/cpuid_dump.c): the three line formats, logical-CPU selection, subleaf rules,
 * missing leaves, and one clear file-line error for every truncated or garbled CPUID line. Register values
 * in the inline dumps are arbitrary patterns: only the parsing is under test here. */
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

static struct cpuid_dump dump; /* large: static */

static void parse_ok(const char *text, unsigned cpu)
{
    if (!cpuid_dump_parse(&dump, text, strlen(text), cpu))
        fail_msg("parse failed at line %u: %s", dump.err_line, dump.err);
}

static void parse_bad(const char *text, unsigned cpu, unsigned line, const char *needle)
{
    assert_false(cpuid_dump_parse(&dump, text, strlen(text), cpu));
    assert_int_equal(dump.err_line, line);
    if (!strstr(dump.err, needle))
        fail_msg("error \"%s\" does not mention \"%s\"", dump.err, needle);
}

static void expect_leaf(u32 leaf, u32 subleaf, u32 a, u32 b, u32 c, u32 d)
{
    struct cpuid_regs r;
    if (!cpuid_dump_lookup(&dump, leaf, subleaf, &r))
        fail_msg("leaf 0x%x subleaf 0x%x missing", leaf, subleaf);
    assert_int_equal(r.eax, a);
    assert_int_equal(r.ebx, b);
    assert_int_equal(r.ecx, c);
    assert_int_equal(r.edx, d);
}

static const char raw_two_cpus[] = "CPU 0:\n"
                                   "   0x00000000 0x00: eax=0x0000000a ebx=0x756e6547 ecx=0x6c65746e edx=0x49656e69\n"
                                   "   0x0000000a 0x00: eax=0x07300404 ebx=0x00000000 ecx=0x00000000 edx=0x00000603\n"
                                   "   0x00000004 0x01: eax=0x11111111 ebx=0x22222222 ecx=0x33333333 edx=0x44444444\n"
                                   "CPU 1:\n"
                                   "   0x00000000 0x00: eax=0x0000000a ebx=0x756e6547 ecx=0x6c65746e edx=0x49656e69\n"
                                   "   0x0000000a 0x00: eax=0xaaaaaaaa ebx=0xbbbbbbbb ecx=0xcccccccc edx=0xdddddddd\n";

static void test_raw_format_and_cpu_selection(void **state)
{
    (void)state;
    parse_ok(raw_two_cpus, 0);
    assert_int_equal(dump.cpus_seen, 2);
    assert_int_equal(dump.count, 3);
    expect_leaf(0xa, 0, 0x07300404, 0, 0, 0x603);
    expect_leaf(4, 1, 0x11111111, 0x22222222, 0x33333333, 0x44444444);

    parse_ok(raw_two_cpus, 1);
    assert_int_equal(dump.count, 2);
    expect_leaf(0xa, 0, 0xaaaaaaaa, 0xbbbbbbbb, 0xcccccccc, 0xdddddddd);

    parse_bad(raw_two_cpus, 2, 0, "dump holds 2");
}

static void test_aida_format_subleaves(void **state)
{
    (void)state;
    const char *text = "------[ CPU Info ]------\n"
                       "CPUID Manufacturer: GenuineIntel\n"
                       "CPUID CPU Name    : Intel(R) Core(TM) i5\n"
                       "CPUID Revision    : 000506E3h\n"
                       "------[ Logical CPU #0 ]------\n"
                       "CPUID 00000000: 00000016-756E6547-6C65746E-49656E69 [GenuineIntel]\n"
                       "CPUID 0000000D: 00000001-00000002-00000003-00000004 [SL 00] [x87]\n"
                       "CPUID 0000000D: 00000005-00000006-00000007-00000008 [SL 0B]\n"
                       "CPUID 00000004: 1C004121-01C0003F-0000003F-00000000\n"
                       "CPUID 00000004: 1C004122-01C0003F-0000003F-00000000\n"
                       "CPUID 0000000B: 00000001-00000001-00000100-00000000\n"
                       "CPUID 80000006: 00000000-00000000-04008040-00000000 [L2: 1024 KB] / L3: 0 KB]\n"
                       "MSR 00000017: 0004-0000-0000-0000 [PlatID = 1]\n";
    parse_ok(text, 0);
    assert_int_equal(dump.cpus_seen, 1);
    expect_leaf(0xd, 0, 1, 2, 3, 4);
    expect_leaf(0xd, 0xb, 5, 6, 7, 8); /* [SL 0B] is hex */
    /* Untagged repeats of one leaf are consecutive subleaves; a different leaf starts again at 0. */
    expect_leaf(4, 0, 0x1C004121, 0x01C0003F, 0x3F, 0);
    expect_leaf(4, 1, 0x1C004122, 0x01C0003F, 0x3F, 0);
    expect_leaf(0xb, 0, 1, 1, 0x100, 0);
    expect_leaf(0x80000006, 0, 0, 0, 0x04008040, 0);
    assert_int_equal(dump.count, 7);
}

static void test_colon_format_crlf_and_tabs(void **state)
{
    (void)state;
    const char *text = "> CPUID 00000000:00 = 0000000b 756e6547 6c65746e 49656e69 | ....Genu\r\n"
                       "\tCPUID 0000000a:00 = 07300602 00000000 00000000 00008603 | ..0.....\r\n"
                       "CPUID 0000000b:01 = 00000005 00000020 00000201 00000000\r\n";
    /* The first line starts with "> " (a quoted dump): not a CPUID line, so it is skipped. */
    parse_ok(text, 0);
    assert_int_equal(dump.count, 2);
    expect_leaf(0xa, 0, 0x07300602, 0, 0, 0x8603);
    expect_leaf(0xb, 1, 5, 0x20, 0x201, 0);
}

static void test_headerless_cpus_split_at_leaf_0(void **state)
{
    (void)state;
    const char *text = "CPUID 00000000: 00000020-756E6547-6C65746E-49656E69\n"
                       "CPUID 00000001: 00090675-00100800-7FFAFBFF-BFEBFBFF\n"
                       "\n\n"
                       "CPUID 00000000: 00000020-756E6547-6C65746E-49656E69\n"
                       "CPUID 00000001: 00090675-01100800-7FFAFBFF-BFEBFBFF\n";
    parse_ok(text, 1);
    assert_int_equal(dump.cpus_seen, 2);
    expect_leaf(1, 0, 0x00090675, 0x01100800, 0x7FFAFBFF, 0xBFEBFBFF);
}

static void test_missing_leaf_is_absent(void **state)
{
    (void)state;
    parse_ok(raw_two_cpus, 0);
    struct cpuid_source src;
    cpuid_dump_source(&dump, &src);
    struct cpuid_regs r;
    assert_true(cpuid_query(&src, 0xa, 0, &r));
    assert_int_equal(r.eax, 0x07300404);
    r.eax = 0x1234;
    assert_false(cpuid_query(&src, 0x80000022, 0, &r)); /* not in the dump */
    assert_int_equal(r.eax, 0);                          /* and the registers read as zero */
    assert_false(cpuid_query(&src, 0xa, 1, &r));         /* a subleaf the dump lacks */
}

static void test_errors_name_the_line(void **state)
{
    (void)state;
    parse_bad("CPUID 00000000: 0000000A-756E6547-6C65746E-49656E69\n"
              "CPUID 0000000A: 07300404-00000000\n",
              0, 2, "four 8-digit hex registers");
    parse_bad("CPUID 0000000A: 07300404-0000000G-00000000-00000603\n", 0, 1, "four 8-digit hex registers");
    parse_bad("CPUID 0000000A: 07300404-000000000-00000000-00000603\n", 0, 1, "four 8-digit hex registers");
    parse_bad("CPUID 000000A: 07300404-00000000-00000000-00000603\n", 0, 1, "leaf must be 8 hex digits");
    parse_bad("CPUID 0000000A: 07300404-00000000-00000000-00000603 [SL zz]\n", 0, 1, "subleaf tag");
    parse_bad("CPU 0:\n   0x0000000a 0x00: eax=0x07300404 ebx=0x00000000 ecx=0x00000000\n", 0, 2, "edx");
    parse_bad("   0x0000000a 0x00: eax=0x0730 ebx=0x00000000 ecx=0x00000000 edx=0x00000603\n", 0, 1, "eax");
    parse_bad("   0x0000000a 0x00: eax=0x07300404 ebx=0x00000000 ecx=0x00000000 edx=0x00000603 junk\n", 0, 1,
              "after edx");
    parse_bad("CPUID 0000000a:00 = 07300602 00000000 00000000\n", 0, 1, "CPUID LLLLLLLL:SS");
    parse_bad("just some text\nno cpuid here\n", 0, 0, "no CPUID data lines");
    parse_bad("", 0, 0, "no CPUID data lines");
    parse_bad("CPUID 00000004: 00000001-00000002-00000003-00000004 [SL 01]\n"
              "CPUID 00000005: 00000001-00000002-00000003-00000004\n"
              "CPUID 00000004: 00000001-00000002-00000003-00000004 [SL 01]\n",
              0, 3, "appears twice");
}

static void test_capacity_limit(void **state)
{
    (void)state;
    size_t n = CPUID_DUMP_MAX_ENTRIES + 1, line_len = 55;
    char *text = malloc(n * line_len + 1), *p = text;
    for (size_t i = 0; i < n; i++)
        p += sprintf(p, "CPUID %08zx: 00000000-00000000-00000000-00000000\n", i + 1);
    assert_false(cpuid_dump_parse(&dump, text, (size_t)(p - text), 0));
    assert_int_equal(dump.err_line, CPUID_DUMP_MAX_ENTRIES + 1);
    assert_non_null(strstr(dump.err, "too many"));
    free(text);
}

static void test_builder(void **state)
{
    (void)state;
    cpuid_dump_init(&dump);
    assert_true(cpuid_dump_set(&dump, 7, 1, 1, 2, 3, 4));
    assert_true(cpuid_dump_set(&dump, 7, 1, 5, 6, 7, 8)); /* replaces */
    assert_int_equal(dump.count, 1);
    expect_leaf(7, 1, 5, 6, 7, 8);
}

/* Every stored real dump parses, with the number of logical CPUs each file holds (PROVENANCE.md). */
static void test_all_data_files_parse(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        unsigned cpus;
    } files[] = {
        {"amd_k8_manchester_00020FB1.txt", 2},          {"amd_zen2_matisse_00870F10.txt", 1},
        {"amd_zen4_genoa_00A10F11.txt", 1},             {"intel_alderlake_p_hybrid_000906A4.txt", 3},
        {"intel_arrowlake_h_hybrid_000C0652.txt", 5},   {"intel_arrowlake_u_hybrid_000B0650.txt", 3},
        {"intel_alderlake_s_ecores_off_00090672.txt", 1}, {"intel_core2_conroe_000006F6.txt", 2},
        {"intel_denverton_000506F1.txt", 1},            {"intel_icelake_000706E5.txt", 1},
        {"intel_knights_landing_00050671.txt", 1},      {"intel_meteorlake_hybrid_000A06A4.txt", 2},
        {"intel_sandybridge_000206A7.txt", 1},          {"intel_skylake_000506E3.txt", 1},
        {"intel_westmere_gulftown_000206C2.txt", 2},    {"knc_synthetic.txt", 1},
        {"kvm_guest_this_host_cpuid_r.txt", 2},         {"intel_raptorlake_p_hybrid_000B06A2.txt", 20},
        {"amd_zen5_strixpoint_00B20F40.txt", 16},
    };
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        size_t len;
        char *text = test_data_read(files[i].file, &len);
        assert_non_null(text);
        for (unsigned cpu = 0; cpu < files[i].cpus; cpu++) {
            if (!cpuid_dump_parse(&dump, text, len, cpu))
                fail_msg("%s:%u: %s", files[i].file, dump.err_line, dump.err);
            assert_int_equal(dump.cpus_seen, files[i].cpus);
            struct cpuid_regs r;
            assert_true(cpuid_dump_lookup(&dump, 0, 0, &r)); /* every CPU block starts with leaf 0 */
        }
        free(text);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_raw_format_and_cpu_selection),
        cmocka_unit_test(test_aida_format_subleaves),
        cmocka_unit_test(test_colon_format_crlf_and_tabs),
        cmocka_unit_test(test_headerless_cpus_split_at_leaf_0),
        cmocka_unit_test(test_missing_leaf_is_absent),
        cmocka_unit_test(test_errors_name_the_line),
        cmocka_unit_test(test_capacity_limit),
        cmocka_unit_test(test_builder),
        cmocka_unit_test(test_all_data_files_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
