/* Suite "uncore"'s SKIP reasons (tests/uncore/portable/uncore_plan.h): each of the three cases carries its evidence. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "tests/uncore/portable/uncore_plan.h"

static void test_reasons(void **state)
{
    (void)state;
    char buf[400];
    struct uncore_recognition r = {0};
    strcpy(r.why, "AuthenticAMD family 0xf model 0x6b (K8 (Hammer)): no uncore kind; probed ...");
    uncore_plan_skip_reason(&r, UNCORE_PLAN_ROUTING, NULL, buf, sizeof(buf));
    assert_non_null(strstr(buf, "no uncore PMU known: AuthenticAMD family 0xf model 0x6b"));
    r.kind = uncore_kind_by_name("amd_l3_zen3");
    strcpy(r.why, "AuthenticAMD family 0x19 model 0x21 (Zen 3): amd_l3_zen3 by CPUID");
    uncore_plan_skip_reason(&r, UNCORE_PLAN_ROUTING, NULL, buf, sizeof(buf));
    assert_non_null(strstr(buf, "amd_l3_zen3: the kind routes no uncore PMI"));
    uncore_plan_skip_reason(&r, UNCORE_PLAN_ANY, "uncore=off", buf, sizeof(buf));
    assert_non_null(strstr(buf, "do not run: uncore=off"));
    assert_non_null(strstr(buf, "family 0x19"));
    r.kind = uncore_kind_by_name("nhm");
    for (int need = UNCORE_PLAN_ANY; need <= UNCORE_PLAN_FIXED; need++) {
        uncore_plan_skip_reason(&r, (enum uncore_plan_need)need, NULL, buf, sizeof(buf));
        assert_non_null(strstr(buf, "nhm uncore recognised"));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_reasons)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
