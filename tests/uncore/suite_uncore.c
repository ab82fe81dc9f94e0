/* Suite "uncore" (not in the default set yet): the uncore PMU shared by a package's threads (docs/uncore.md). This
 * first version recognises the uncore from the boot CPU's CPUID (pmu/uncore_kind.h) and names, in every check's SKIP
 * reason, what it found: no uncore (vendor, family, model, what was probed: QEMU TCG's case), a kind without what the
 * check needs (AMD's L3 routes no PMI), or a kind whose per-package register checks are not built yet. It touches no
 * uncore register. The verdicts the checks will use are built and held against the emulated uncore in the host tests
 * (pmu/uncore_verdict.h, emul/model/uncore_model.h, tests/host/test_uncore_model.c). */
#include "kernel/cpuid_hw.h"
#include "harness/framework.h"
#include "tests/uncore/portable/uncore_plan.h"

static void skip_with_plan(struct check *c, enum uncore_plan_need need)
{
    struct uncore_recognition r;
    char reason[400];
    uncore_recognise(&cpuid_hw, &r);
    if (r.kind)
        check_note(c, "uncore", "%s", r.kind->title);
    check_skip(c, "%s", uncore_plan_skip_reason(&r, need, reason, sizeof(reason)));
}

static void enumeration(struct check *c)
{
    skip_with_plan(c, UNCORE_PLAN_ANY);
}

static void global_enable(struct check *c)
{
    skip_with_plan(c, UNCORE_PLAN_ANY);
}

static void pmi_routing(struct check *c)
{
    skip_with_plan(c, UNCORE_PLAN_ROUTING);
}

static void pmi_routing_simultaneous(struct check *c)
{
    skip_with_plan(c, UNCORE_PLAN_ROUTING);
}

static void freeze_on_pmi(struct check *c)
{
    skip_with_plan(c, UNCORE_PLAN_FREEZE);
}

static void overflow_status(struct check *c)
{
    skip_with_plan(c, UNCORE_PLAN_STATUS);
}

static void fixed_clock_rate(struct check *c)
{
    skip_with_plan(c, UNCORE_PLAN_FIXED);
}

static void bounded_event(struct check *c)
{
    skip_with_plan(c, UNCORE_PLAN_ANY);
}

static const struct check_def uncore_checks[] = {
    {"enumeration", enumeration, SCOPE_GLOBAL, NO_FAULT},
    {"global_enable", global_enable, SCOPE_GLOBAL, NO_FAULT},
    {"pmi_routing", pmi_routing, SCOPE_GLOBAL, NO_FAULT},
    {"pmi_routing_simultaneous", pmi_routing_simultaneous, SCOPE_GLOBAL, NO_FAULT},
    {"freeze_on_pmi", freeze_on_pmi, SCOPE_GLOBAL, NO_FAULT},
    {"overflow_status", overflow_status, SCOPE_GLOBAL, NO_FAULT},
    {"fixed_clock_rate", fixed_clock_rate, SCOPE_GLOBAL, NO_FAULT},
    {"bounded_event", bounded_event, SCOPE_GLOBAL, NO_FAULT},
};

const struct suite suite_uncore = {
    .name = "uncore",
    .about = "the uncore PMU: recognition; per-package checks not built yet (SKIP with the evidence)",
    .in_default = false,
    .checks = uncore_checks,
    .count = ARRAY_SIZE(uncore_checks),
};
