/* lib/verdict_repeat.c: a per-CPU SKIP identical to an earlier CPU's after the name is printed short, with its
 * reason's head; anything else (another reason, a YAML block, no head, another verdict) is printed as it is. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "lib/verdict_repeat.h"

static u32 repeat(const char *text, const char *ref, u32 ref_cpu, char *out, u32 size)
{
    return verdict_repeat(text, (u32)strlen(text), ref, (u32)strlen(ref), ref_cpu, out, size);
}

static void test_same_skip_is_short(void **state)
{
    (void)state;
    char out[256];
    const char *ref = " - cpu0/pmu_regs/gp_rw # SKIP no PMU: CPUID 0x0A EAX=0x00000000 (version 0); no AMD counters\n";
    const char *text = " - cpu17/pmu_regs/gp_rw # SKIP no PMU: CPUID 0x0A EAX=0x00000000 (version 0); no AMD counters\n";
    u32 n = repeat(text, ref, 0, out, sizeof(out));
    assert_string_equal(out, " - cpu17/pmu_regs/gp_rw # SKIP no PMU: as cpu0\n");
    assert_int_equal(n, strlen(out));
    /* The emulated-PMU mark stays. */
    ref = " - cpu0/x/y [emulated PMU] # SKIP no fixed counter 3: CPUID 0x0A EDX[4:0]=3 and no bitmap\n";
    text = " - cpu2/x/y [emulated PMU] # SKIP no fixed counter 3: CPUID 0x0A EDX[4:0]=3 and no bitmap\n";
    repeat(text, ref, 1, out, sizeof(out));
    assert_string_equal(out, " - cpu2/x/y [emulated PMU] # SKIP no fixed counter 3: as cpu1\n");
}

static void test_different_is_kept(void **state)
{
    (void)state;
    char out[256];
    const char *ref = " - cpu0/a/b # SKIP no PMU: CPUID 0x0A EAX=0x00000000\n";
    /* Other evidence. */
    assert_int_equal(repeat(" - cpu1/a/b # SKIP no PMU: CPUID 0x0A EAX=0x00000001\n", ref, 0, out, sizeof(out)), 0);
    /* Not a SKIP, or a TODO that mentions SKIP after the name. */
    assert_int_equal(repeat(" - cpu1/a/b\n", " - cpu0/a/b\n", 0, out, sizeof(out)), 0);
    assert_int_equal(repeat(" - cpu1/a/b # TODO x: y\n", " - cpu0/a/b # TODO x: y\n", 0, out, sizeof(out)), 0);
    /* A block after the line. */
    const char *block = " - cpu0/a/b # SKIP no PMU: z\n  ---\n  k: v\n  ...\n";
    const char *block1 = " - cpu1/a/b # SKIP no PMU: z\n  ---\n  k: v\n  ...\n";
    assert_int_equal(repeat(block1, block, 0, out, sizeof(out)), 0);
    /* No head before a colon, an empty head, or a head too long to be one. */
    assert_int_equal(repeat(" - cpu1/a/b # SKIP no PMU\n", " - cpu0/a/b # SKIP no PMU\n", 0, out, sizeof(out)), 0);
    assert_int_equal(repeat(" - cpu1/a/b # SKIP : x\n", " - cpu0/a/b # SKIP : x\n", 0, out, sizeof(out)), 0);
    char longr[300], longt[300];
    char head[120];
    memset(head, 'h', sizeof(head) - 1);
    head[sizeof(head) - 1] = 0;
    snprintf(longr, sizeof(longr), " - cpu0/a/b # SKIP %s: x\n", head);
    snprintf(longt, sizeof(longt), " - cpu1/a/b # SKIP %s: x\n", head);
    assert_int_equal(repeat(longt, longr, 0, out, sizeof(out)), 0);
    /* No room for the short form. */
    const char *r2 = " - cpu0/a/b # SKIP no PMU: CPUID 0x0A EAX=0x00000000\n";
    assert_int_equal(repeat(" - cpu1/a/b # SKIP no PMU: CPUID 0x0A EAX=0x00000000\n", r2, 0, out, 10), 0);
    /* Malformed text. */
    assert_int_equal(repeat("garbage\n", ref, 0, out, sizeof(out)), 0);
    assert_int_equal(verdict_repeat(" - ", 3, ref, (u32)strlen(ref), 0, out, sizeof(out)), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_skip_is_short),
        cmocka_unit_test(test_different_is_kept),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
