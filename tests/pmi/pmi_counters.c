/* The counters the PMI and skid suites drive (see pmi_counters.h). */
#include "tests/pmi/pmi_counters.h"

#include "pmu/events.h"
#include "tests/pmi/portable/pmi_checks.h"

/* Program counter `bit` to count retired instructions at CPL 3 only, with PMI on overflow. */
int instructions_program(struct check *c, struct pmu *p, u32 bit)
{
    const char *why = NULL;
    int r = pmi_program_instructions(p, bit, false, &why);
    if (r && why)
        check_note(c, "instructions event", "%s", why);
    return r;
}

/* Counters that can count retired instructions: every GP counter its family's constraint allows
 * (pmu_event_gp_constraint; none restricts it today: AMD family 15h counts PMCx0C0 on PERF_CTL[5:0]), named in
 * the YAML when one does, and Intel's fixed counter 0. */
u64 instructions_counters(struct check *c, struct pmu *p)
{
    const struct pmu_event *ev = pmu_event_generic(p->caps, PMU_EV_INSTRUCTIONS, NULL);
    struct pmu_gp_constraint k = ev ? pmu_event_gp_constraint(p->caps, ev->event, ev->umask)
                                    : (struct pmu_gp_constraint){p->caps->gp_mask, NULL};
    u64 m = 0;
    for (u32 bit = 0; bit < 64; bit++)
        if (pmu_counter_exists(p, bit) &&
            (PMU_IS_FIXED(bit) ? pmu_intel_fixed_event(bit - PMU_FIXED_BIT) == PMU_AE_INSTRUCTIONS
                               : (k.counters >> bit & 1)))
            m |= 1ull << bit;
    if (k.source)
        check_note(c, "skipped GP counters", "0x%x cannot count instructions: %s",
                   p->caps->gp_mask & ~k.counters, k.source);
    return m;
}
