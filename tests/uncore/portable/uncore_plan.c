/* Suite "uncore"'s SKIP reasons (tests/uncore/portable/uncore_plan.h). */
#include "tests/uncore/portable/uncore_plan.h"

#include "lib/format.h"

bool uncore_plan_kind_can(const struct uncore_kind_desc *k, enum uncore_plan_need need, const char **why)
{
    static const enum uncore_need needs[] = {
        [UNCORE_PLAN_ROUTING] = UNCORE_NEED_ROUTING,
        [UNCORE_PLAN_FREEZE] = UNCORE_NEED_FREEZE,
        [UNCORE_PLAN_STATUS] = UNCORE_NEED_STATUS,
        [UNCORE_PLAN_FIXED] = UNCORE_NEED_FIXED,
    };
    return need == UNCORE_PLAN_ANY || uncore_kind_can(k, needs[need], why);
}

const char *uncore_plan_skip_reason(const struct uncore_recognition *r, enum uncore_plan_need need,
                                    const char *held_back, char *buf, size_t size)
{
    struct strbuf sb;
    sb_init(&sb, buf, size);
    if (!r->kind) {
        sb_printf(&sb, "no uncore PMU known: %s", r->why);
        return buf;
    }
    const char *why;
    if (!uncore_plan_kind_can(r->kind, need, &why)) {
        sb_printf(&sb, "%s: %s", r->kind->name, why);
        return buf;
    }
    sb_printf(&sb, "%s uncore recognised (%s): its per-package checks do not run: %s (the packages are planned from the "
              "topology, in the evidence)", r->kind->name, r->why, held_back ? held_back : "not asked to");
    return buf;
}
