/* Suite "uncore" (not in the default set, docs/uncore.md says why): the uncore PMU shared by a package's threads. With
 * uncore=emulated:FACE every check runs on the emulated uncore (emul/kernel/uncore_emul.h), once per scope (package;
 * L3 complex on AMD) by its leader thread, the verdicts from pmu/uncore_verdict.h, each marked [emulated PMU]; every
 * register written is put back as found. Without it the uncore is recognised from the boot CPU's CPUID and, on a
 * recognised part not under a hypervisor and without uncore=off, the same checks run on its own registers (probed
 * first); otherwise every check SKIPs with what was found (tests/uncore/portable/uncore_plan.c).
 * This file: the table; the checks in uncore_reg_checks.c, uncore_pmi_checks.c and uncore_event_check.c, their start
 * in uncore_check_start.c. */
#include "tests/uncore/uncore_checks.h"

static const struct check_def uncore_checks[] = {
    {"enumeration", uncore_enumeration, SCOPE_GLOBAL, NO_FAULT},
    {"register_widths", uncore_register_widths, SCOPE_GLOBAL, NO_FAULT},
    {"global_enable", uncore_global_enable, SCOPE_GLOBAL, NO_FAULT},
    {"pmi_routing", uncore_pmi_routing, SCOPE_GLOBAL, NO_FAULT},
    {"pmi_routing_simultaneous", uncore_pmi_routing_simultaneous, SCOPE_GLOBAL, NO_FAULT},
    {"freeze_on_pmi", uncore_freeze_on_pmi, SCOPE_GLOBAL, NO_FAULT},
    {"overflow_status", uncore_overflow_status, SCOPE_GLOBAL, NO_FAULT},
    {"fixed_clock_rate", uncore_fixed_clock_rate, SCOPE_GLOBAL, NO_FAULT},
    {"bounded_event", uncore_bounded_event, SCOPE_GLOBAL, NO_FAULT},
};

const struct suite suite_uncore = {
    .name = "uncore",
    .about = "the uncore PMU: every check on each package (L3 complex) of the emulated uncore (uncore=emulated:FACE) "
             "or of a recognised part's own (uncore=off: none); otherwise recognition, SKIP with the evidence",
    .in_default = false,
    .checks = uncore_checks,
    .count = ARRAY_SIZE(uncore_checks),
    .after_run = uncore_put_back, /* each package's registers as found, by its leader, after all the checks */
};

