#include "pmu/entry_state.h"

#include "pmu/pmu_internal.h"
#include "pmu/reset_values.h"

/* Linux check_hw_exists(): "if (val & (0x03ULL << i*4))", the OS and USR bits of fixed counter i's field. */
#define FIXED_RING_BITS (PMU_FIXED_OS | PMU_FIXED_USR)

static bool fixed_exists(const struct pmu_caps *c, u32 i)
{
    return i < c->num_fixed && i < 32 && (!c->fixed_mask || ((c->fixed_mask >> i) & 1));
}

/* The counters IA32_FIXED_CTR_CTRL enables: every existing counter whose field has OS or USR set. A field of a
 * counter that does not exist (a hole, or beyond num_fixed) enables nothing. */
static u64 fixed_enabled(const struct pmu_caps *c, u64 ctrl)
{
    u64 bits = 0;
    for (u32 i = 0; i < 16; i++)
        if (fixed_exists(c, i) && ((ctrl >> (4 * i)) & FIXED_RING_BITS))
            bits |= 1ull << PMU_FIXED(i);
    return bits;
}

/* One entry: enabled (and which counters), programmed (away from its reset value), or at reset. */
static enum pmu_left judge_entry(const struct pmu_caps *c, const struct pmu_state_entry *e, u64 *enables)
{
    *enables = 0;
    if (e->rc)
        return PMU_LEFT_UNREADABLE;
    if (e->reg == PMU_SREG_GP_SEL && (e->value & EVSEL_EN))
        *enables = 1ull << PMU_GP(e->index);
    else if (e->reg == PMU_SREG_FIXED_CTRL)
        *enables = fixed_enabled(c, e->value);
    if (*enables)
        return PMU_LEFT_ENABLED;
    struct pmu_reset_expect x;
    pmu_reset_expect(c, e, &x);
    return pmu_reset_judge(&x, e->value) == PMU_RESET_MISMATCH ? PMU_LEFT_PROGRAMMED : PMU_LEFT_RESET;
}

/* The counters that count now: enabled by their own control and by the global one, where there is one. */
static u64 counting(const struct pmu_caps *c, const struct pmu_state *s, u64 enabled)
{
    if (!c->msrs.global_ctrl)
        return enabled; /* Intel v1, AMD legacy / PerfCtrExtCore: the select's EN alone starts the counter */
    for (u32 i = 0; i < s->count; i++)
        if (s->e[i].reg == PMU_SREG_GLOBAL_CTRL)
            return s->e[i].rc ? enabled : enabled & s->e[i].value;
    return enabled;
}

void pmu_entry_judge(const struct pmu_caps *caps, const struct pmu_state *s, struct pmu_entry_judgement *j)
{
    *j = (struct pmu_entry_judgement){0};
    u32 selects = 0, selects_enabled = 0;
    for (u32 i = 0; i < s->count && i < PMU_STATE_MAX; i++) {
        u64 enables;
        enum pmu_left l = judge_entry(caps, &s->e[i], &enables);
        j->left[i] = l;
        j->enabled += l == PMU_LEFT_ENABLED;
        j->programmed += l == PMU_LEFT_PROGRAMMED;
        j->unreadable += l == PMU_LEFT_UNREADABLE;
        j->enabled_counters |= enables;
        if (s->e[i].reg == PMU_SREG_GP_SEL) {
            selects++;
            selects_enabled += l == PMU_LEFT_ENABLED;
        }
    }
    j->counting = counting(caps, s, j->enabled_counters);
    j->all_gp_enabled = selects && selects_enabled == selects;
}

const char *pmu_left_name(enum pmu_left l)
{
    static const char *const names[] = {"reset", "programmed", "enabled", "unreadable"};
    return (unsigned)l < ARRAY_SIZE(names) ? names[l] : "?";
}
