/* Suite uncore's start of every check and its evidence helpers (uncore_checks.h): SKIP without an emulated uncore
 * (the recognition's evidence) or when the kind lacks what the check needs; the scope plan of the emulated machine
 * (tests/uncore/portable/uncore_scope.c over each CPU's placement); a verdict's describe lines as notes. */
#include <string.h>

#include "emul/kernel/pmu_emul.h"
#include "emul/kernel/uncore_emul.h"
#include "kernel/cpuid_hw.h"
#include "kernel/smp.h"
#include "tests/uncore/uncore_checks.h"

static void skip_with_plan(struct check *c, enum uncore_plan_need need)
{
    struct uncore_recognition r;
    char reason[400];
    uncore_recognise(&cpuid_hw, &r);
    if (r.kind)
        check_note(c, "uncore", "%s", r.kind->title);
    check_skip(c, "%s", uncore_plan_skip_reason(&r, need, reason, sizeof(reason)));
}

/* The emulated machine's scopes: which CPU leads each, and each CPU's scope and core rank. */
struct uncore_scope_plan uncore_plan;
u32 uncore_cpu_scope[UNCORE_PROTO_MAX_CPUS], uncore_cpu_core[UNCORE_PROTO_MAX_CPUS];
u32 uncore_ncpu;

const char *const uncore_scope_prefix[8] = {"scope0: ", "scope1: ", "scope2: ", "scope3: ",
                                            "scope4: ", "scope5: ", "scope6: ", "scope7: "};

/* The emulated uncore's kind with the plan made, or NULL after a SKIP (no emulated uncore: the recognition's). */
const struct uncore_kind_desc *uncore_check_begin(struct check *c, enum uncore_plan_need need)
{
    const struct uncore_kind_desc *k = uncore_emul_kind();
    if (!k) {
        skip_with_plan(c, need);
        return NULL;
    }
    pmu_emul_mark_use(); /* the verdict is the emulated uncore's */
    check_note(c, "uncore", "emulated %s: %s, %u scope(s) over %u CPU(s) (docs/uncore.md)", k->emul->name, k->name,
               uncore_emul_scopes(), smp.count ? smp.count : 1);
    static const enum uncore_need needs[] = {
        [UNCORE_PLAN_ROUTING] = UNCORE_NEED_ROUTING,
        [UNCORE_PLAN_FREEZE] = UNCORE_NEED_FREEZE,
        [UNCORE_PLAN_STATUS] = UNCORE_NEED_STATUS,
        [UNCORE_PLAN_FIXED] = UNCORE_NEED_FIXED,
    };
    const char *why;
    if (need != UNCORE_PLAN_ANY && !uncore_kind_can(k, needs[need], &why)) {
        check_skip(c, "%s (emulated %s): %s", k->name, k->emul->name, why);
        return NULL;
    }
    uncore_ncpu = smp.count ? smp.count : 1;
    if (uncore_ncpu > UNCORE_PROTO_MAX_CPUS)
        uncore_ncpu = UNCORE_PROTO_MAX_CPUS;
    u32 skey[UNCORE_PROTO_MAX_CPUS], ckey[UNCORE_PROTO_MAX_CPUS];
    bool present[UNCORE_PROTO_MAX_CPUS];
    for (u32 i = 0; i < uncore_ncpu; i++) {
        u32 s = 0, core = 0;
        present[i] = uncore_emul_place(i, &s, &core);
        skey[i] = s;
        ckey[i] = core;
    }
    const char *bad = NULL;
    if (!uncore_scope_plan(skey, ckey, present, uncore_ncpu, uncore_cpu_scope, uncore_cpu_core, &uncore_plan, &bad)) {
        check_fail(c, "the scope plan failed: %s", bad);
        return NULL;
    }
    return k;
}

/* A describe function's "key: value" lines as notes. */
static void note_lines(struct check *c, char *buf)
{
    for (char *line = buf; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        char *colon = strstr(line, ": ");
        if (colon) {
            *colon = '\0';
            check_note(c, line, "%s", colon + 2);
        }
        line = nl ? nl + 1 : NULL;
    }
}

void uncore_check_verdict(struct check *c, const char *what, enum uncore_outcome o, char *evidence)
{
    note_lines(c, evidence);
    expect_true(c, what, o == UNCORE_PASS, "pass", "%s", uncore_outcome_name(o));
}
