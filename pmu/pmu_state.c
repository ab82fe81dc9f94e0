#include "pmu/pmu_state.h"

#include "lib/format.h"

static void add(struct pmu_state *s, enum pmu_sreg reg, u32 index, int rc, u64 value)
{
    if (s->count < PMU_STATE_MAX)
        s->e[s->count++] = (struct pmu_state_entry){(u8)reg, (u8)index, rc, rc ? 0 : value};
}

static void add_msr(struct pmu *p, struct pmu_state *s, enum pmu_sreg reg, u32 msr)
{
    u64 v = 0;
    if (!msr)
        return;
    int rc = hw_rdmsr(p->hw, msr, &v);
    add(s, reg, 0, rc, v);
}

void pmu_state_read(struct pmu *p, struct pmu_state *s)
{
    s->count = 0;
    const struct pmu_caps *c = p->caps;
    for (u32 i = 0; i < c->num_gp; i++) {
        if (!pmu_counter_exists(p, PMU_GP(i)))
            continue;
        u64 v = 0;
        int rc = p->be->counter_read(p, PMU_GP(i), &v);
        add(s, PMU_SREG_GP_CTR, i, rc, v);
        rc = p->be->select_read(p, i, &v);
        add(s, PMU_SREG_GP_SEL, i, rc, v);
    }
    for (u32 i = 0; i < c->num_fixed; i++) {
        if (!pmu_counter_exists(p, PMU_FIXED(i)))
            continue;
        u64 v = 0;
        int rc = p->be->counter_read(p, PMU_FIXED(i), &v);
        add(s, PMU_SREG_FIXED_CTR, i, rc, v);
    }
    if (c->num_fixed)
        add_msr(p, s, PMU_SREG_FIXED_CTRL, c->msrs.fixed_ctr_ctrl);
    add_msr(p, s, PMU_SREG_GLOBAL_CTRL, c->msrs.global_ctrl);
    add_msr(p, s, PMU_SREG_GLOBAL_STATUS, c->msrs.global_status);
    /* KNC PERF_SPFLT_CONTROL (KNC PMU Table 1-2: 0 at reset; it lets user mode start and stop counters). */
    add_msr(p, s, PMU_SREG_SPFLT, c->msrs.spflt_ctrl);
}

void pmu_state_name(const struct pmu_state_entry *e, char *buf, size_t size)
{
    static const char *const names[] = {"gp",          "sel",           "fixed", "fixed_ctrl",
                                        "global_ctrl", "global_status", "spflt"};
    if (e->reg <= PMU_SREG_FIXED_CTR)
        k_snprintf(buf, size, "%s%u", names[e->reg], e->index);
    else
        k_snprintf(buf, size, "%s", e->reg < ARRAY_SIZE(names) ? names[e->reg] : "?");
}

/* Event codes legal everywhere (Intel architectural, AMD, KNC all take 8-bit codes); the umask makes each
 * select distinct. */
static const u16 events[] = {0x3C, 0xC0, 0xC4, 0xC5, 0x2E, 0x76, 0xC2, 0x16};

int pmu_state_program_distinct(struct pmu *p, u64 *status_set_bits, const char **why)
{
    const struct pmu_caps *c = p->caps;
    bool global = pmu_has_global_ctrl(p);
    u64 global_bits = 0;
    int rc;
    *status_set_bits = 0;
    *why = NULL;
    /* Stop everything first so nothing counts while the state is built. */
    if ((rc = pmu_reset(p))) {
        *why = "pmu_reset";
        return rc;
    }
    for (u32 i = 0; i < c->num_gp; i++) {
        if (!pmu_counter_exists(p, PMU_GP(i)))
            continue;
        /* Counters on an even index are stopped by their select (EN clear) and get their global bit; odd
         * ones keep EN and are stopped by a clear global bit. Without a global control EN is always clear. */
        bool by_global = global && (i & 1);
        struct pmu_evsel e = {.event = events[i % ARRAY_SIZE(events)], .umask = (u8)(i + 1), .os = true,
                              .usr = (i & 2) != 0, .edge = (i & 4) != 0, .enable = by_global};
        u64 raw;
        if ((rc = pmu_evsel_encode(p, &e, &raw, why)))
            return rc;
        if ((rc = p->be->select_write(p, i, raw))) {
            *why = "select write";
            return rc;
        }
        /* Below 2^31: a legacy Intel counter write sign-extends bit 31 (SDM Vol.3B 21.2.6). */
        if ((rc = p->be->counter_write(p, PMU_GP(i), 0x01020304ull * (i + 1) + 0x50)))  {
            *why = "counter write";
            return rc;
        }
        if (!by_global)
            global_bits |= 1ull << PMU_GP(i);
    }
    for (u32 i = 0; i < c->num_fixed; i++) {
        if (!pmu_counter_exists(p, PMU_FIXED(i)))
            continue;
        bool by_global = global && (i & 1);
        /* PMI only (no ring: does not count), or OS+USR(+PMI on i=1,5..) stopped by the global bit. */
        u32 field = by_global ? (PMU_FIXED_OS | PMU_FIXED_USR | ((i & 2) ? 0 : PMU_FIXED_PMI)) : PMU_FIXED_PMI;
        if ((rc = p->be->fixed_ctrl_write(p, i, field))) {
            *why = "fixed control write";
            return rc;
        }
        if ((rc = p->be->counter_write(p, PMU_FIXED(i), 0x00A0B0C0ull + 0x01000001ull * (i + 1)))) {
            *why = "fixed counter write";
            return rc;
        }
        if (!by_global)
            global_bits |= 1ull << PMU_FIXED(i);
    }
    if (global && (rc = p->be->global_set(p, global_bits))) {
        *why = "global control write";
        return rc;
    }
    if (pmu_has_status(p) && pmu_counter_exists(p, PMU_GP(0))) {
        rc = p->be->status_set(p, 1ull << PMU_GP(0));
        if (rc == 0)
            *status_set_bits = 1ull << PMU_GP(0);
        else if (rc != PMU_ENOTSUP) {
            *why = "status set";
            return rc;
        }
    }
    return 0;
}

u64 pmu_state_diff(const struct pmu_state *a, const struct pmu_state *b)
{
    u64 d = 0;
    u32 n = a->count < b->count ? a->count : b->count;
    for (u32 i = 0; i < n && i < 64; i++) {
        const struct pmu_state_entry *x = &a->e[i], *y = &b->e[i];
        if (x->reg != y->reg || x->index != y->index || x->rc != y->rc || x->value != y->value)
            d |= 1ull << i;
    }
    for (u32 i = n; i < a->count || i < b->count; i++)
        if (i < 64)
            d |= 1ull << i;
    return d;
}

static bool is_control(u8 reg)
{
    return reg == PMU_SREG_GP_SEL || reg == PMU_SREG_FIXED_CTRL || reg == PMU_SREG_GLOBAL_CTRL || reg == PMU_SREG_SPFLT;
}

u64 pmu_state_controls_diff(const struct pmu_state *a, const struct pmu_state *b)
{
    u64 d = pmu_state_diff(a, b), m = 0;
    for (u32 i = 0; i < a->count && i < 64; i++)
        if (is_control(a->e[i].reg))
            m |= 1ull << i;
    return d & m;
}

static u32 sreg_msr(const struct pmu *p, u8 reg)
{
    const struct pmu_caps *c = p->caps;
    return reg == PMU_SREG_FIXED_CTRL ? c->msrs.fixed_ctr_ctrl
           : reg == PMU_SREG_GLOBAL_CTRL ? c->msrs.global_ctrl
           : reg == PMU_SREG_SPFLT ? c->msrs.spflt_ctrl
                                   : 0;
}

/* One step of the restore: the entries of register kind `reg` (value, or 0 when `stop`). Every entry is tried; the
 * first error is kept in *rc and *why. */
static void restore_kind(struct pmu *p, const struct pmu_state *s, u8 reg, bool stop, int *first_rc, const char **why)
{
    for (u32 i = 0; i < s->count; i++) {
        const struct pmu_state_entry *e = &s->e[i];
        if (e->reg != reg || e->rc)
            continue;
        u64 v = stop ? 0 : e->value;
        int rc;
        const char *step;
        switch (reg) {
        case PMU_SREG_GP_SEL:
            rc = p->be->select_write(p, e->index, v);
            step = "select write";
            break;
        case PMU_SREG_GP_CTR:
            rc = p->be->counter_write(p, PMU_GP(e->index), v);
            step = "counter write (a value the counter's writable alias cannot take)";
            break;
        case PMU_SREG_FIXED_CTR:
            rc = p->be->counter_write(p, PMU_FIXED(e->index), v);
            step = "fixed counter write";
            break;
        default:
            rc = hw_wrmsr(p->hw, sreg_msr(p, reg), v);
            step = reg == PMU_SREG_GLOBAL_CTRL ? "global control write"
                   : reg == PMU_SREG_FIXED_CTRL ? "fixed control write"
                                                 : "SPFLT write";
        }
        if (rc && !*first_rc) {
            *first_rc = rc;
            *why = step;
        }
    }
}

int pmu_state_restore(struct pmu *p, const struct pmu_state *s, const char **why)
{
    static const struct {
        u8 reg;
        bool stop;
    } steps[] = {
        {PMU_SREG_GLOBAL_CTRL, true}, {PMU_SREG_FIXED_CTRL, true}, {PMU_SREG_GP_SEL, true},
        {PMU_SREG_GP_CTR, false},     {PMU_SREG_FIXED_CTR, false}, {PMU_SREG_GP_SEL, false},
        {PMU_SREG_FIXED_CTRL, false}, {PMU_SREG_SPFLT, false},     {PMU_SREG_GLOBAL_CTRL, false},
    };
    /* Best effort: a step that fails (a counter value a legacy alias cannot write, SDM Vol.3B 21.2.6) never leaves the
     * controls stopped; every step runs and the first error is returned. */
    int rc = 0;
    *why = NULL;
    for (u32 i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
        restore_kind(p, s, steps[i].reg, steps[i].stop, &rc, why);
    return rc;
}
