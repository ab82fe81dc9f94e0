/* The PMI handler protocol (pmu/pmi.c, the kernel's source, unchanged) against the register-level PMU/APIC
 * model (docs/model.md), driven as the interrupt would drive it (tests/host/support/pmi_harness.[ch]).
 * docs/pmi-protocol.md "Host tests" describes what is enumerated and why; the expectations below come from
 * that protocol analysis (KNC PMU 1.4.3.9, Intel SDM Vol.3A 11.5.1 LVT masking on delivery, AMD's APIC not
 * masking), never from observed values. Run:
 *     make build/host/test_pmi && CMOCKA_MESSAGE_OUTPUT=TAP build/host/test_pmi */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "tests/host/support/pmi_harness.h"
#include "tests/pmi/portable/pmi_checks.h"

#define MAX_PMUS 16
#define MAX_POINTS 512

static struct pmi_rig_pmu pmus[MAX_PMUS];
static size_t npmus;
/* One rig, restored from `saved` for every scenario: the rig's internal pointers (pmu -> hw -> model) point into
 * `rig` itself, so a copy is only valid at the same address. */
static struct pmi_rig rig, saved;

static const enum pmi_variant offered[] = {PMI_UNMASK_STOPPED, PMI_LATE, PMI_EARLY};
static const enum model_apic_behaviour apics[] = {MODEL_APIC_STRICT_EDGE, MODEL_APIC_LEVEL};

static const char *apic_name(enum model_apic_behaviour b)
{
    return b == MODEL_APIC_STRICT_EDGE ? "strict" : "level";
}

/* TAP comment lines: every line of the formatted text prefixed with "# ". */
static void comment(const char *fmt, ...) PRINTF_LIKE(1, 2);
static void comment(const char *fmt, ...)
{
    char buf[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    for (char *line = buf; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        printf("# %s\n", line);
        line = nl ? nl + 1 : NULL;
    }
    fflush(stdout);
}

static bool is_amd(const struct pmi_rig_pmu *p)
{
    return pmu_kind_is_amd(p->caps.kind);
}

/* Intel (and KNC, quoting it): "The local APIC ... automatically sets the mask flag in the corresponding LVT
 * entry" (SDM Vol.3A 11.5.1; KNC PMU 1.4.3.9). AMD: the APIC does not (Linux events/amd/core.c
 * amd_pmu_v2_handle_irq; KVM "Do not mask LVTPC when handling a PMI on AMD platforms"). */
static bool masks_on_delivery(const struct pmi_rig_pmu *p)
{
    return !is_amd(p);
}

/* A status register holds the overflow (and the line) until software clears it (Intel v2+, AMD PerfMonV2,
 * KNC); without one (Intel v1, AMD legacy/PerfCtrExtCore) an overflow is a pulse and shows only in the counter. */
static bool has_status(const struct pmi_rig_pmu *p)
{
    return p->caps.msrs.global_status != 0;
}

static bool has_global_ctrl(const struct pmi_rig_pmu *p)
{
    return p->caps.msrs.global_ctrl != 0;
}

/* Where the protocol analysis (docs/pmi-protocol.md) predicts that some overflow injected into the handler is
 * lost (never serviced, or its PMI never comes):
 *   knc, early: nowhere. Counting is stopped from before the first status read until after the unmask (knc) or
 *     the unmask comes before everything (early), so every overflow is either in a status read or a fresh edge
 *     seen by an unmasked entry.
 *   late: an overflow between its restart and its unmask meets a masked entry, which exists only where the APIC
 *     masks on delivery. With a status register the line stays high: a strict APIC drops it, one that re-samples
 *     at unmask (level) delivers it. Without one the overflow was a pulse: gone at unmask under both.
 *   no-stop: counters run through the handler. A counter it reloads can overflow again before the status clear
 *     that follows the service, and that clear wipes the new overflow: lost wherever there is a status register,
 *     whatever the APIC. And an overflow after the last status read meets a masked entry where the APIC masks:
 *     lost under strict (KNC 1.4.3.9), and under level too when it was a pulse. */
static bool predicts_loss(enum pmi_variant v, enum model_apic_behaviour b, const struct pmi_rig_pmu *p)
{
    bool masks = masks_on_delivery(p), status = has_status(p);
    switch (v) {
    case PMI_UNMASK_STOPPED:
    case PMI_EARLY:
        return false;
    case PMI_LATE:
        return masks && (b == MODEL_APIC_STRICT_EDGE || !status);
    case PMI_NO_STOP:
    default:
        return status || masks;
    }
}

static int setup_pmus(void **state)
{
    (void)state;
    npmus = pmi_rig_pmus(pmus, MAX_PMUS);
    return npmus ? 0 : -1;
}

static void must_setup(const struct pmi_rig_pmu *p, const struct pmi_rig_opts *o)
{
    const char *err = pmi_rig_setup(&rig, p, o);
    if (err)
        fail_msg("%s: rig setup: %s", p->name, err);
}

static const char *check_all(char *buf, size_t len)
{
    const char *why = pmi_rig_check(&rig, buf, len);
    return why ? why : pmi_rig_probe(&rig, buf, len);
}

/* ---- every overflow at every handler access ----------------------------------------------------------- */

/* Where each injected counter wraps: a counter that is counting at point k wraps there; one that is stopped at
 * k cannot overflow while stopped, so its overflow is the one that arrived just before the stop took effect:
 * at the last point before k where it was counting (the point just before the access that stopped it). */
struct plan {
    u32 n;
    struct {
        u64 at, bits;
    } at[4];
};

static void make_plan(u64 set, u64 k, const struct pmi_rig_point *points, struct plan *pl)
{
    memset(pl, 0, sizeof(*pl));
    for (u32 b = 0; b < 64; b++) {
        if (!(set & BIT(b)))
            continue;
        u64 j = k + 1;
        while (j > 0 && !(points[j - 1].running & BIT(b)))
            j--;
        if (j == 0)
            continue; /* never counted before k: cannot overflow (does not happen: all run before the PMI) */
        u64 at = j - 1;
        u32 i = 0;
        while (i < pl->n && pl->at[i].at != at)
            i++;
        if (i == pl->n) {
            if (pl->n == ARRAY_SIZE(pl->at))
                continue;
            pl->at[pl->n++].at = at;
        }
        pl->at[i].bits |= BIT(b);
    }
}

struct tally {
    u64 scenarios;    /* distinct scenarios run and checked */
    u64 merged;       /* (set, point) pairs equal to an earlier one: the counters were stopped there */
    u64 stopped;      /* the injection changed the handler's path and a counter was stopped at the later point */
    u64 outstanding;  /* a counter whose last overflow the handler had not serviced yet (not injected) */
    u64 losses;
    u64 losses_masked; /* losses where an edge met the masked LVT entry (KNC 1.4.3.9's mechanism) */
    u64 pmis, empty_pmis, max_loops;
    char first[1024];
    char first_trace[PMI_RIG_TRACE_LEN];
};

enum planned { PLAN_RAN, PLAN_STOPPED, PLAN_OUTSTANDING };

/* Run one scenario: the trigger overflow raises the PMI, the planned overflows happen inside the handler(s),
 * PMIs are drained, then the invariants and the liveness probe. *why = NULL when they hold. */
static enum planned run_planned(u64 trigger, const struct plan *pl, char *buf, size_t len, const char **why)
{
    for (u32 i = 0; i < pl->n; i++)
        pmi_rig_inject(&rig, pl->at[i].bits, pl->at[i].at);
    if (pmi_rig_overflow(&rig, trigger) != trigger)
        fail_msg("%s: trigger overflow did not happen", rig.pmu_name);
    pmi_rig_drain(&rig);
    enum planned r = PLAN_RAN;
    for (u32 i = 0; i < rig.n_inj; i++) {
        if (rig.inj[i].outstanding)
            r = PLAN_OUTSTANDING;
        else if ((!rig.inj[i].done || rig.inj[i].injected != rig.inj[i].bits) && r == PLAN_RAN)
            r = PLAN_STOPPED;
    }
    for (u32 i = 0; i < rig.n_inj; i++)
        rig.inj[i].done = true; /* nothing more during the probe */
    *why = check_all(buf, len);
    return r;
}

static void describe_plan(const struct plan *pl, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = 0;
    for (u32 i = 0; i < pl->n && at < len; i++) {
        char names[48], acc[96] = "before the handler's first access";
        u64 idx = saved.base + pl->at[i].at;
        if (pl->at[i].at > 0) {
            const struct pmu_model_access *a = pmu_model_log_entry(&rig.m, idx - 1);
            char d[80];
            snprintf(acc, sizeof(acc), "after access %llu (%s)", (unsigned long long)(pl->at[i].at - 1),
                     a ? pmi_rig_describe_access(&rig, a, d, sizeof(d)) : "?");
        }
        int w = snprintf(buf + at, len - at, "%s%s overflows %s", i ? "; " : "",
                         pmi_rig_bits_name(pl->at[i].bits, names, sizeof(names)), acc);
        if (w < 0)
            break;
        at += (size_t)w;
    }
}

/* Account one scenario; on the first failure keep its description and a traced re-run. */
static void account(struct tally *t, enum planned r, const char *why, u64 trigger, const struct plan *pl,
                    const char *label)
{
    if (r == PLAN_STOPPED) {
        t->stopped++;
        return;
    }
    if (r == PLAN_OUTSTANDING) {
        t->outstanding++;
        return;
    }
    t->scenarios++;
    t->pmis += rig.s.pmis;
    t->empty_pmis += rig.s.empty_pmis;
    t->max_loops = MAX(t->max_loops, rig.s.max_loops_seen);
    if (!why)
        return;
    t->losses++;
    t->losses_masked += rig.m.apic.st.edges_masked != 0;
    if (t->first[0])
        return;
    char names[48], planned[400], buf[1024];
    describe_plan(pl, planned, sizeof(planned));
    snprintf(t->first, sizeof(t->first), "%s; PMI from %s; %s => %s", label,
             pmi_rig_bits_name(trigger, names, sizeof(names)), pl->n ? planned : "nothing injected", why);
    rig = saved; /* the same scenario again, traced */
    rig.tracing = true;
    const char *again;
    run_planned(trigger, pl, buf, sizeof(buf), &again);
    snprintf(t->first_trace, sizeof(t->first_trace), "%s", rig.trace);
}

static void make_label(char *label, size_t len, const struct pmi_rig_pmu *p, const struct pmi_rig_opts *o,
                       const char *what)
{
    snprintf(label, len, "%s, %s%s, %s APIC, %s delivery%s", p->name, pmi_variant_name(o->variant),
             o->exact_reload ? " (exact reload)" : "", apic_name(o->apic), o->nmi ? "NMI" : "fixed", what);
}

/* Every non-empty set of armed counters overflowing at every point of the handler, after a PMI raised by one
 * armed counter or by all of them at once. */
static void enumerate(const struct pmi_rig_pmu *p, const struct pmi_rig_opts *o, struct tally *t)
{
    must_setup(p, o);
    saved = rig;
    u64 used = saved.used;
    u64 triggers[8];
    u32 nt = 0;
    for (u32 bit = 0; bit < 64; bit++)
        if (used & BIT(bit))
            triggers[nt++] = BIT(bit);
    if (nt > 1)
        triggers[nt++] = used; /* all at once */
    static struct pmi_rig_point points_seen[MAX_POINTS];
    char label[128], why_buf[1024];
    make_label(label, sizeof(label), p, o, "");
    for (u32 ti = 0; ti < nt; ti++) {
        u64 trigger = triggers[ti];
        /* Baseline: no injection; records which counters count at each point. */
        rig = saved;
        memset(points_seen, 0, sizeof(points_seen));
        rig.points = points_seen;
        rig.points_len = MAX_POINTS;
        struct plan pl = {0};
        const char *why;
        enum planned r = run_planned(trigger, &pl, why_buf, sizeof(why_buf), &why);
        u64 points = rig.m.access_index - rig.base; /* the handler's accesses: points 0..points */
        if (points + 1 >= MAX_POINTS)
            fail_msg("%s: %llu handler accesses: raise MAX_POINTS", p->name, (unsigned long long)points);
        account(t, r, why, trigger, &pl, label);
        /* Subsets in increasing order, so the first failure reported is the simplest. */
        for (u64 set = (0 - used) & used; set; set = (set - used) & used) {
            struct plan prev = {0};
            bool have_prev = false;
            for (u64 k = 0; k <= points; k++) {
                make_plan(set, k, points_seen, &pl);
                if (have_prev && !memcmp(&pl, &prev, sizeof(pl))) {
                    t->merged++;
                    continue;
                }
                prev = pl;
                have_prev = true;
                rig = saved;
                r = run_planned(trigger, &pl, why_buf, sizeof(why_buf), &why);
                account(t, r, why, trigger, &pl, label);
            }
        }
    }
}

/* Back to back: one counter overflows at point k1, then one (the same or another) at a later point k2, which
 * may fall in a later PMI's handler run; the PMI comes from the lowest armed counter. Only points where the
 * counter is counting (a stopped one is the single-overflow case above). */
static void enumerate_pairs(const struct pmi_rig_pmu *p, const struct pmi_rig_opts *o, struct tally *t)
{
    must_setup(p, o);
    saved = rig;
    u64 used = saved.used, trigger = used & (~used + 1);
    char label[128], why_buf[1024];
    make_label(label, sizeof(label), p, o, ", two overflows");
    static struct pmi_rig_point base_pts[MAX_POINTS], one_pts[MAX_POINTS];
    struct plan none = {0};
    const char *why;
    rig = saved;
    memset(base_pts, 0, sizeof(base_pts));
    rig.points = base_pts;
    rig.points_len = MAX_POINTS;
    run_planned(trigger, &none, why_buf, sizeof(why_buf), &why);
    u64 points = rig.m.access_index - rig.base;
    for (u64 k1 = 0; k1 <= points; k1++) {
        for (u32 i1 = 0; i1 < 64; i1++) {
            if (!(base_pts[k1].running & ~base_pts[k1].outstanding & BIT(i1)))
                continue; /* stopped or outstanding there: not a new first overflow */
            /* The run with the first overflow alone is the same as the pair's up to k2: it says where the second
             * counter can overflow. */
            struct plan one = {.n = 1, .at = {{k1, BIT(i1)}}};
            rig = saved;
            memset(one_pts, 0, sizeof(one_pts));
            rig.points = one_pts;
            rig.points_len = MAX_POINTS;
            run_planned(trigger, &one, why_buf, sizeof(why_buf), &why);
            u64 points1 = MIN(rig.m.access_index - rig.base, MAX_POINTS - 1);
            for (u64 k2 = k1 + 1; k2 <= points1; k2++) {
                for (u32 i2 = 0; i2 < 64; i2++) {
                    if (!(one_pts[k2].running & ~one_pts[k2].outstanding & BIT(i2))) {
                        t->stopped += (used & BIT(i2)) != 0;
                        continue;
                    }
                    struct plan pl = {.n = 2, .at = {{k1, BIT(i1)}, {k2, BIT(i2)}}};
                    rig = saved;
                    enum planned r = run_planned(trigger, &pl, why_buf, sizeof(why_buf), &why);
                    account(t, r, why, trigger, &pl, label);
                }
            }
        }
    }
}

enum family { SINGLE, PAIRS };

/* Per APIC behaviour and PMU, from the last exhaustive() run: losses where an edge met the masked entry. */
static u64 masked_losses[2][MAX_PMUS];

/* Run the enumeration for variant `v` on every PMU, both APIC behaviours, fixed and NMI delivery; assert
 * losses exactly where predicts_loss() says (for PAIRS: none where no loss is predicted). */
static void exhaustive(enum pmi_variant v, enum family fam, bool exact)
{
    u64 total = 0, merged = 0, stopped = 0, outstanding = 0;
    memset(masked_losses, 0, sizeof(masked_losses));
    for (size_t ai = 0; ai < ARRAY_SIZE(apics); ai++) {
        enum model_apic_behaviour b = apics[ai];
        u64 scen = 0, lost = 0, pmis = 0, empty = 0, loops = 0;
        bool shown[2] = {false, false};
        for (size_t pi = 0; pi < npmus; pi++) {
            const struct pmi_rig_pmu *p = &pmus[pi];
            bool want = predicts_loss(v, b, p);
            if (fam == PAIRS && want)
                continue;
            for (int nmi = 0; nmi <= 1; nmi++) {
                static struct tally t;
                memset(&t, 0, sizeof(t));
                struct pmi_rig_opts o = {.variant = v, .apic = b, .nmi = nmi, .exact_reload = exact};
                if (fam == SINGLE)
                    enumerate(p, &o, &t);
                else
                    enumerate_pairs(p, &o, &t);
                scen += t.scenarios;
                lost += t.losses;
                pmis += t.pmis;
                empty += t.empty_pmis;
                loops = MAX(loops, t.max_loops);
                merged += t.merged;
                stopped += t.stopped;
                outstanding += t.outstanding;
                masked_losses[ai][pi] += t.losses_masked;
                if (want && !t.losses)
                    fail_msg("%s %s APIC on %s (%s): the protocol analysis predicts lost PMIs, but none of %llu "
                             "scenarios lost one",
                             pmi_variant_name(v), apic_name(b), p->name, nmi ? "NMI" : "fixed",
                             (unsigned long long)t.scenarios);
                if (!want && t.losses) {
                    comment("sequence:%s", t.first_trace);
                    fail_msg("%llu of %llu scenarios failed; first: %s", (unsigned long long)t.losses,
                             (unsigned long long)t.scenarios, t.first);
                }
                if (!t.losses || nmi)
                    continue;
                comment("%s %s %s: %llu of %llu scenarios lose; first: %s", pmi_variant_name(v), apic_name(b),
                        p->name, (unsigned long long)t.losses, (unsigned long long)t.scenarios, t.first);
                if (!shown[has_status(p)]) {
                    comment("  sequence:%s", t.first_trace);
                    shown[has_status(p)] = true;
                }
            }
        }
        total += scen;
        comment("%s%s%s, %s APIC: %llu scenarios, %llu lose; %llu PMIs, %llu of them empty; at most %llu service "
                "loops per PMI",
                pmi_variant_name(v), exact ? " (exact reload)" : "", fam == PAIRS ? " (two overflows)" : "",
                apic_name(b), (unsigned long long)scen, (unsigned long long)lost, (unsigned long long)pmis,
                (unsigned long long)empty, (unsigned long long)loops);
    }
    comment("%s%s%s: %llu scenarios over %zu PMUs x 2 APIC behaviours x fixed/NMI; not run: %llu (set, point) "
            "pairs equal to the overflow just before the stop, %llu where the changed path had the counter stopped, "
            "%llu on a counter with an overflow still outstanding",
            pmi_variant_name(v), exact ? " (exact reload)" : "", fam == PAIRS ? " (two overflows)" : "",
            (unsigned long long)total, npmus, (unsigned long long)merged, (unsigned long long)stopped,
            (unsigned long long)outstanding);
}

static void test_knc_loses_no_pmi_anywhere(void **state)
{
    (void)state;
    exhaustive(PMI_UNMASK_STOPPED, SINGLE, false);
    exhaustive(PMI_UNMASK_STOPPED, SINGLE, true); /* one more access (the counter read) per serviced counter */
}

static void test_early_loses_no_pmi_anywhere(void **state)
{
    (void)state;
    exhaustive(PMI_EARLY, SINGLE, false);
}

static void test_late_loses_pmis_only_where_the_lvt_is_masked(void **state)
{
    (void)state;
    exhaustive(PMI_LATE, SINGLE, false);
}

/* Back-to-back overflows (two, at any two points, also in the PMI the first one raises): no loss for knc and
 * early anywhere, nor for late where it is claimed correct. */
static void test_back_to_back_overflows_lose_no_pmi(void **state)
{
    (void)state;
    for (size_t vi = 0; vi < ARRAY_SIZE(offered); vi++)
        exhaustive(offered[vi], PAIRS, false);
}

/* Negative control (KNC 1.4.3.9: "if the counters are not stopped in step 2, a PMI arising in step 3 or later
 * is not cleared and the interrupt line stays at 1"): the same enumeration must see it lose PMIs under the
 * strict APIC. The test passes when the loss is observed. */
static void test_negative_control_no_stop_loses_pmis_under_strict_apic(void **state)
{
    (void)state;
    for (size_t pi = 0; pi < npmus; pi++)
        if (masks_on_delivery(&pmus[pi]))
            assert_true(predicts_loss(PMI_NO_STOP, MODEL_APIC_STRICT_EDGE, &pmus[pi]));
    exhaustive(PMI_NO_STOP, SINGLE, false);
    /* And by that mechanism: an overflow after the last status read raised the line while the entry was masked. */
    for (size_t pi = 0; pi < npmus; pi++) {
        if (!masks_on_delivery(&pmus[pi]))
            continue;
        if (!masked_losses[0][pi])
            fail_msg("no-stop on %s: no PMI lost to an edge while the LVT entry was masked", pmus[pi].name);
        comment("no-stop, strict APIC, %s: %llu scenarios lose an overflow whose edge met the masked entry",
                pmus[pi].name, (unsigned long long)masked_losses[0][pi]);
    }
}

/* ---- directed tests --------------------------------------------------------------------------------- */

static u64 lowest(u64 bits)
{
    return bits & (~bits + 1);
}

/* The first value the handler read from the status register since access index `from` (or ~0 if none). */
static u64 first_status_read(u64 from)
{
    for (u64 i = from; i < rig.m.access_index; i++) {
        const struct pmu_model_access *a = pmu_model_log_entry(&rig.m, i);
        if (a && a->op == PMU_MODEL_OP_RDMSR && a->reg == rig.m.caps.msrs.global_status)
            return a->value;
    }
    return ~0ull;
}

/* One overflow on one counter: exactly one PMI that finds something (plus, for `early` under a re-sampling
 * APIC where the entry was masked and a status holds the line, one empty PMI taken at its own unmask), the
 * handler reads exactly that status bit, services exactly that counter, and the status is clear afterwards. */
static void test_one_overflow_one_pmi(void **state)
{
    (void)state;
    char buf[1024];
    u64 runs = 0;
    for (size_t pi = 0; pi < npmus; pi++) {
        const struct pmi_rig_pmu *p = &pmus[pi];
        for (size_t vi = 0; vi < ARRAY_SIZE(offered); vi++) {
            for (size_t ai = 0; ai < ARRAY_SIZE(apics); ai++) {
                for (int nmi = 0; nmi <= 1; nmi++) {
                    for (u32 bit = 0; bit < 64; bit++) {
                        if (!(p->used & BIT(bit)))
                            continue;
                        struct pmi_rig_opts o = {.variant = offered[vi], .apic = apics[ai], .nmi = nmi};
                        must_setup(p, &o);
                        char label[128];
                        snprintf(label, sizeof(label), "%s %s %s %s GP/FX bit %u", p->name,
                                 pmi_variant_name(offered[vi]), apic_name(apics[ai]), nmi ? "nmi" : "fixed", bit);
                        u64 from = rig.m.access_index;
                        assert_int_equal(pmi_rig_overflow(&rig, BIT(bit)), BIT(bit));
                        assert_true(pmu_model_pending_pmi(&rig.m));
                        pmi_rig_drain(&rig);
                        const char *why = pmi_rig_check(&rig, buf, sizeof(buf));
                        if (why)
                            fail_msg("%s: %s", label, why);
                        bool extra = offered[vi] == PMI_EARLY && apics[ai] == MODEL_APIC_LEVEL &&
                                     masks_on_delivery(p) && has_status(p);
                        if (rig.s.pmis - rig.s.empty_pmis != 1 || rig.s.empty_pmis != (extra ? 1u : 0u))
                            fail_msg("%s: %llu PMIs, %llu empty (expected 1 + %d empty)", label,
                                     (unsigned long long)rig.s.pmis, (unsigned long long)rig.s.empty_pmis, extra);
                        for (u32 o2 = 0; o2 < 64; o2++)
                            if (rig.s.serviced[o2] != (o2 == bit ? 1u : 0u))
                                fail_msg("%s: counter bit %u serviced %llu times", label, o2,
                                         (unsigned long long)rig.s.serviced[o2]);
                        if (has_status(p)) {
                            u64 st = first_status_read(from);
                            if ((st & rig.pmu.counters) != BIT(bit))
                                fail_msg("%s: the handler's first status read gave 0x%llx", label,
                                         (unsigned long long)st);
                            if (rig.m.global_status != 0)
                                fail_msg("%s: status 0x%llx after the handler", label,
                                         (unsigned long long)rig.m.global_status);
                        }
                        /* Reloaded with the period: 2^w - period. */
                        assert_int_equal(pmu_model_counter(&rig.m, bit),
                                         (0 - rig.s.period[bit]) & pmu_counter_mask(&rig.pmu, bit));
                        runs++;
                    }
                }
            }
        }
    }
    comment("%llu single-overflow runs", (unsigned long long)runs);
}

/* The cost target: the default handler needs at most 8 PMU/APIC register accesses for one overflow
 * where the PMU has a global control and a status register: stop, status read, reload, clear, re-read,
 * unmask, restart, EOI (MSR writes: stop, reload, clear, restart; reads: two status reads; APIC: unmask, EOI).
 * NMI delivery has no EOI. */
static void test_default_handler_accesses_single_overflow(void **state)
{
    (void)state;
    for (size_t pi = 0; pi < npmus; pi++) {
        const struct pmi_rig_pmu *p = &pmus[pi];
        if (!has_status(p) || !has_global_ctrl(p))
            continue;
        for (int nmi = 0; nmi <= 1; nmi++) {
            struct pmi_rig_opts o = {.variant = PMI_UNMASK_STOPPED, .apic = MODEL_APIC_STRICT_EDGE, .nmi = nmi};
            must_setup(p, &o);
            pmi_rig_overflow(&rig, lowest(p->used));
            hw_access_reset_counts(&rig.hw);
            assert_int_equal(pmi_rig_drain(&rig), 1);
            u64 total = hw_access_total(&rig.hw);
            comment("%s, %s: %llu accesses (%llu MSR reads, %llu MSR writes, %llu APIC writes)", p->name,
                    nmi ? "NMI" : "fixed", (unsigned long long)total, (unsigned long long)rig.hw.msr_reads,
                    (unsigned long long)rig.hw.msr_writes, (unsigned long long)rig.hw.apic_writes);
            assert_true(total <= 8);
            assert_int_equal(rig.hw.msr_reads, 2);
            assert_int_equal(rig.hw.msr_writes, 4);
            assert_int_equal(rig.hw.apic_writes, nmi ? 1 : 2);
            assert_int_equal(rig.hw.apic_reads + rig.hw.rdpmcs, 0);
        }
    }
}

/* Every counter that can count instructions (all GP + fixed 0) on the same event, same period: they wrap at the
 * same event, one line edge (KNC 1.4.3.9: "the first one is signalled to the APIC; the rest are tracked in the
 * overflow status register"), and each is serviced exactly once. */
static void test_simultaneous_overflow_same_event(void **state)
{
    (void)state;
    char buf[1024];
    for (size_t pi = 0; pi < npmus; pi++) {
        const struct pmi_rig_pmu *p = &pmus[pi];
        u64 all = p->caps.gp_mask;
        if (p->caps.kind == PMU_KIND_INTEL_ARCH && p->caps.version >= 2 && (p->caps.fixed_mask & 1))
            all |= BIT(PMU_FIXED(0)); /* INST_RETIRED.ANY (SDM Vol.3B 21.2.2) */
        for (size_t vi = 0; vi < ARRAY_SIZE(offered); vi++) {
            for (size_t ai = 0; ai < ARRAY_SIZE(apics); ai++) {
                for (int nmi = 0; nmi <= 1; nmi++) {
                    struct pmi_rig_opts o = {.variant = offered[vi], .apic = apics[ai], .nmi = nmi, .used = all,
                                             .default_period = 5000};
                    must_setup(p, &o);
                    u64 sel = rig.m.gp_sel[0];
                    u16 event = (u16)(sel & 0xff);
                    if (is_amd(p))
                        event |= (u16)(((sel >> 32) & 0xf) << 8);
                    pmu_model_count(&rig.m, event, (u8)(sel >> 8), 5000);
                    for (u32 b = 0; b < 64; b++)
                        if (all & BIT(b))
                            assert_int_equal(rig.m.st.overflows[b], 1);
                    assert_int_equal(rig.m.apic.st.line_rises, 1);
                    u32 n = pmi_rig_drain(&rig);
                    const char *why = check_all(buf, sizeof(buf));
                    if (why)
                        fail_msg("%s %s %s: %s", p->name, pmi_variant_name(offered[vi]), apic_name(apics[ai]), why);
                    /* check_all's probe overflowed everything once more. */
                    for (u32 b = 0; b < 64; b++)
                        if (all & BIT(b))
                            assert_int_equal(rig.s.serviced[b], 2);
                    if (offered[vi] == PMI_UNMASK_STOPPED && !nmi && ai == 0)
                        comment("%s: %u counters at once -> %u PMI(s), %u status read(s) in the handler", p->name,
                                popcount64(all), n, rig.s.max_loops_seen + 1);
                    assert_int_equal(n, 1 + (offered[vi] == PMI_EARLY && apics[ai] == MODEL_APIC_LEVEL &&
                                             masks_on_delivery(p) && has_status(p)));
                }
            }
        }
    }
}

/* A sampling run: every armed counter with its own period, events fed in pseudo-random chunks and while the
 * handler runs (its own instructions), over K periods; serviced == produced exactly, for every variant and APIC
 * behaviour the analysis calls correct. */
#define SAMPLING_PERIODS 150

static void test_sampling_run_serviced_equals_produced(void **state)
{
    (void)state;
    char buf[1024];
    static const enum pmi_variant all_variants[] = {PMI_UNMASK_STOPPED, PMI_LATE, PMI_EARLY, PMI_NO_STOP};
    for (size_t pi = 0; pi < npmus; pi++) {
        const struct pmi_rig_pmu *p = &pmus[pi];
        for (size_t vi = 0; vi < ARRAY_SIZE(all_variants); vi++) {
            for (size_t ai = 0; ai < ARRAY_SIZE(apics); ai++) {
                if (predicts_loss(all_variants[vi], apics[ai], p))
                    continue;
                for (int mode = 0; mode < (all_variants[vi] == PMI_UNMASK_STOPPED ? 4 : 2); mode++) {
                    bool nmi = mode & 1, exact = mode >> 1;
                    struct pmi_rig_opts o = {.variant = all_variants[vi], .apic = apics[ai], .nmi = nmi,
                                             .exact_reload = exact};
                    u64 maxp = 0, minp = ~0ull;
                    for (u32 b = 0, i = 0; b < 64; b++)
                        if (p->used & BIT(b)) {
                            o.period[b] = 400 + 97 * i++;
                            maxp = MAX(maxp, o.period[b]);
                            minp = MIN(minp, o.period[b]);
                        }
                    must_setup(p, &o);
                    rig.feed_max = 3;
                    u64 fed = 0;
                    for (bool done = false; !done;) {
                        u64 n = 1 + (fed * 2654435761u >> 7) % (minp / 2);
                        pmi_rig_feed(&rig, n);
                        fed += n;
                        pmi_rig_drain(&rig);
                        done = true;
                        for (u32 b = 0; b < 64; b++)
                            if ((p->used & BIT(b)) && rig.s.serviced[b] < SAMPLING_PERIODS)
                                done = false;
                        assert_true(fed < 4 * SAMPLING_PERIODS * maxp); /* overflows keep coming */
                    }
                    const char *why = pmi_rig_check(&rig, buf, sizeof(buf));
                    if (why)
                        fail_msg("%s %s %s %s: %s", p->name, pmi_variant_name(o.variant), apic_name(o.apic),
                                 nmi ? "nmi" : "fixed", why);
                    /* Every event is accounted for: serviced periods, what plain reloads overwrote (exact reloads
                     * keep it), the residue. */
                    for (u32 b = 0; b < 64; b++) {
                        if (!(p->used & BIT(b)))
                            continue;
                        u64 mask = pmu_counter_mask(&rig.pmu, b), period = rig.s.period[b];
                        u64 residual = (pmu_model_counter(&rig.m, b) - ((0 - period) & mask)) & mask;
                        assert_int_equal(rig.s.serviced[b] * period + residual + (exact ? 0 : rig.discarded[b]),
                                         rig.fed[b]);
                    }
                    why = pmi_rig_probe(&rig, buf, sizeof(buf));
                    if (why)
                        fail_msg("%s %s %s %s: %s", p->name, pmi_variant_name(o.variant), apic_name(o.apic),
                                 nmi ? "nmi" : "fixed", why);
                    if (!nmi && !strcmp(p->name, "intel_v4"))
                        comment("sampling %s%s %s on %s: %llu overflows serviced in %llu PMIs (%llu empty)",
                                pmi_variant_name(o.variant), exact ? " (exact reload)" : "", apic_name(o.apic), p->name,
                                (unsigned long long)rig.s.serviced_total, (unsigned long long)rig.s.pmis,
                                (unsigned long long)rig.s.empty_pmis);
                }
            }
        }
    }
}

/* No drift: counts after many PMIs equal the counts of the same work without sampling: serviced * period + what
 * the counter holds above its preload must equal what a counter that is never sampled (same select without INT,
 * counting from 0) counts for the same feed. Three ways:
 *   precise: events stop exactly at each overflow (the PMI is taken at the event that raised it) and none are
 *     fed while the handler runs: nothing is counted between a wrap and its reload; must be exact.
 *   skid: events go on after the wrap and while the handler runs; the plain reload (pmu_preload(period))
 *     overwrites what was counted since the wrap. Exact once the overwritten counts are added back; how many
 *     were overwritten is reported.
 *   skid with exact_reload: the handler carries the events since the wrap into the reload; must be exact.
 * With skid the handler's own events (fed while it runs, before its stop and after its restart) count as well. */
enum drift_mode { PRECISE, SKID, SKID_EXACT };

static void test_no_drift(void **state)
{
    (void)state;
    char buf[1024];
    static const char *const mode_name[] = {"precise", "skid", "skid + exact reload"};
    static struct pmu_model ref;
    for (size_t pi = 0; pi < npmus; pi++) {
        const struct pmi_rig_pmu *p = &pmus[pi];
        for (int mode = PRECISE; mode <= SKID_EXACT; mode++) {
            struct pmi_rig_opts o = {.variant = PMI_UNMASK_STOPPED, .apic = MODEL_APIC_STRICT_EDGE,
                                     .exact_reload = mode == SKID_EXACT};
            for (u32 b = 0, i = 0; b < 64; b++)
                if (p->used & BIT(b))
                    o.period[b] = 300 + 71 * i++;
            must_setup(p, &o);
            rig.feed_max = mode == PRECISE ? 0 : 5;
            /* The same work, not sampled. */
            pmu_model_init(&ref, &p->caps, MODEL_APIC_STRICT_EDGE);
            struct hw_access ref_hw;
            struct pmu ref_pmu;
            pmu_model_access(&ref, &ref_hw);
            assert_int_equal(pmu_init(&ref_pmu, &ref.caps, &ref_hw), 0);
            assert_int_equal(pmu_reset(&ref_pmu), 0);
            for (u32 b = 0; b < 64; b++) {
                if (!(p->used & BIT(b)))
                    continue;
                if (PMU_IS_FIXED(b)) {
                    assert_int_equal(pmu_program_fixed(&ref_pmu, b - PMU_FIXED_BIT, PMU_FIXED_OS | PMU_FIXED_USR), 0);
                } else {
                    struct pmu_evsel e;
                    pmu_evsel_decode(&rig.pmu, rig.m.gp_sel[b], &e);
                    e.intr = false;
                    assert_int_equal(pmu_program_gp(&ref_pmu, b, &e), 0);
                }
            }
            assert_int_equal(ref_pmu.be->global_set(&ref_pmu, p->used), 0);
            u64 total = 0;
            for (u32 i = 0; i < 3000; i++) {
                u64 n = 1 + (i * 2654435761u >> 5) % 250;
                if (mode == PRECISE)
                    for (u32 b = 0; b < 64; b++)
                        if (p->used & BIT(b))
                            n = MIN(n, pmu_counter_mask(&rig.pmu, b) - pmu_model_counter(&rig.m, b) + 1);
                pmi_rig_feed(&rig, n);
                for (u32 b = 0; b < 64; b++)
                    if (p->used & BIT(b))
                        assert_int_equal(pmu_model_tick(&ref, b, n), n);
                total += n;
                pmi_rig_drain(&rig);
            }
            const char *why = pmi_rig_check(&rig, buf, sizeof(buf));
            if (why)
                fail_msg("%s (%s): %s", p->name, mode_name[mode], why);
            u64 overwritten = 0;
            for (u32 b = 0; b < 64; b++) {
                if (!(p->used & BIT(b)))
                    continue;
                u64 mask = pmu_counter_mask(&rig.pmu, b), period = rig.s.period[b];
                u64 residual = (pmu_model_counter(&rig.m, b) - ((0 - period) & mask)) & mask;
                u64 sampled = rig.s.serviced[b] * period + residual;
                u64 reference = pmu_model_counter(&ref, b);
                /* What the plain reload overwrote (the hook saw the counter just before each reload write). */
                u64 lost = mode == SKID ? rig.discarded[b] : 0;
                /* With skid the handler's own events count too (fed includes them): the unsampled reference, which
                 * runs no handler, is compared in the precise mode only. */
                bool ok = sampled + lost == rig.fed[b] && reference == total &&
                          (mode == PRECISE ? rig.discarded[b] == 0 && sampled == reference : true);
                if (!ok)
                    fail_msg("%s (%s), counter bit %u: %llu serviced x %llu + %llu residual = %llu; overwritten %llu; "
                             "fed %llu; the unsampled counter counted %llu of %llu events",
                             p->name, mode_name[mode], b, (unsigned long long)rig.s.serviced[b],
                             (unsigned long long)period, (unsigned long long)residual, (unsigned long long)sampled,
                             (unsigned long long)rig.discarded[b], (unsigned long long)rig.fed[b],
                             (unsigned long long)reference, (unsigned long long)total);
                overwritten += lost;
            }
            if (mode == SKID && pi == 0)
                comment("%s, skid, plain reload: %llu overflows; %llu events counted after a wrap were overwritten by "
                        "the reload (exact_reload keeps them: no drift)",
                        p->name, (unsigned long long)rig.s.serviced_total, (unsigned long long)overwritten);
        }
    }
}

/* The LVT entry as the handler finds it: masked by the APIC on Intel and KNC, not on AMD; unmasked by the
 * handler in every case. Through the handler, the difference decides whether `late` can lose: an overflow just
 * after its restart meets a masked entry on Intel (lost under strict) and an unmasked one on AMD (delivered). */
struct lvt_seen {
    u64 base;
    bool done;
    u32 lvt_at_entry;
};

static void see_lvt(struct pmu_model *m, const struct pmu_model_access *a, bool after, void *arg)
{
    struct lvt_seen *s = arg;
    if (!after && !s->done && a->index == s->base) {
        s->lvt_at_entry = m->apic.lvt_pc;
        s->done = true;
    }
}

/* The point just after the handler's restart (the last write of a non-zero global control before the end of
 * the first PMI), from an undisturbed run; 0 if there is none. */
static u64 point_after_restart(const struct pmi_rig_pmu *p, const struct pmi_rig_opts *o, u64 trigger)
{
    must_setup(p, o);
    pmi_rig_overflow(&rig, trigger);
    pmi_rig_drain(&rig);
    u64 at = 0;
    for (u64 i = rig.base; i < rig.m.access_index; i++) {
        const struct pmu_model_access *a = pmu_model_log_entry(&rig.m, i);
        if (a && a->op == PMU_MODEL_OP_WRMSR && a->reg == rig.m.caps.msrs.global_ctrl && a->value)
            at = i - rig.base + 1;
    }
    return at;
}

static void test_lvt_mask_on_delivery_through_handler(void **state)
{
    (void)state;
    char buf[1024];
    for (size_t pi = 0; pi < npmus; pi++) {
        const struct pmi_rig_pmu *p = &pmus[pi];
        if (!has_status(p) || !has_global_ctrl(p))
            continue;
        struct pmi_rig_opts o = {.variant = PMI_UNMASK_STOPPED, .apic = MODEL_APIC_STRICT_EDGE};
        must_setup(p, &o);
        struct lvt_seen seen = {.base = rig.base};
        rig.extra_hook = see_lvt;
        rig.extra_arg = &seen;
        pmi_rig_overflow(&rig, lowest(p->used));
        pmi_rig_drain(&rig);
        assert_true(seen.done);
        assert_int_equal((seen.lvt_at_entry & HW_LVT_MASKED) != 0, masks_on_delivery(p));
        assert_int_equal(seen.lvt_at_entry & ~HW_LVT_MASKED, PMI_RIG_VECTOR);
        assert_int_equal(rig.m.apic.lvt_pc, PMI_RIG_VECTOR); /* unmasked by the handler */
        assert_null(check_all(buf, sizeof(buf)));

        /* late: overflow of the other armed counter right after the restart. */
        o.variant = PMI_LATE;
        u64 trigger = lowest(p->used), other = lowest(p->used & ~trigger);
        u64 at = point_after_restart(p, &o, trigger);
        assert_true(at > 0);
        must_setup(p, &o);
        pmi_rig_inject(&rig, other, at);
        pmi_rig_overflow(&rig, trigger);
        pmi_rig_drain(&rig);
        assert_int_equal(pmi_rig_injected(&rig, NULL, NULL), other);
        const char *why = pmi_rig_check(&rig, buf, sizeof(buf));
        if (masks_on_delivery(p)) {
            if (!why || !strstr(why, "LOST"))
                fail_msg("%s: late, overflow after restart under strict: expected a lost PMI, got %s", p->name,
                         why ? why : "none");
            assert_int_equal(rig.m.apic.st.edges_masked, 1);
        } else {
            if (why)
                fail_msg("%s: late on an APIC that does not mask: %s", p->name, why);
            assert_int_equal(rig.s.pmis, 2);
        }
    }
}

/* Without a status register (Intel v1, AMD legacy / PerfCtrExtCore) the handler finds overflows by the counters'
 * top bits (pmi.c read_status -> pmu_sign_overflow): no status MSR is touched (nothing faults), every armed
 * counter is read, exactly the wrapped one is serviced and reloaded. */
static void test_sign_bit_path_without_status(void **state)
{
    (void)state;
    char buf[1024];
    u32 kinds = 0;
    for (size_t pi = 0; pi < npmus; pi++) {
        const struct pmi_rig_pmu *p = &pmus[pi];
        if (has_status(p))
            continue;
        kinds++;
        for (u32 bit = 0; bit < 64; bit++) {
            if (!(p->used & BIT(bit)))
                continue;
            struct pmi_rig_opts o = {.variant = PMI_UNMASK_STOPPED, .apic = MODEL_APIC_STRICT_EDGE};
            must_setup(p, &o);
            u64 from = rig.m.access_index;
            pmi_rig_overflow(&rig, BIT(bit));
            assert_int_equal(pmi_rig_drain(&rig), 1);
            assert_null(pmi_rig_check(&rig, buf, sizeof(buf)));
            assert_int_equal(rig.m.st.faults, 0);
            assert_int_equal(rig.s.serviced[bit], 1);
            assert_int_equal(rig.s.serviced_total, 1);
            u32 counter_reads = 0;
            for (u64 i = from; i < rig.m.access_index; i++) {
                const struct pmu_model_access *a = pmu_model_log_entry(&rig.m, i);
                assert_non_null(a);
                if (a->op == PMU_MODEL_OP_RDMSR && pmi_rig_counter_of_msr(&rig, a->reg) >= 0)
                    counter_reads++;
            }
            /* A scan after the stop and the re-read: every armed counter twice. */
            assert_int_equal(counter_reads, 2 * popcount64(p->used));
            u64 top = (pmu_counter_mask(&rig.pmu, bit) >> 1) + 1;
            assert_true(pmu_model_counter(&rig.m, bit) & top); /* reloaded: negative again */
            assert_null(pmi_rig_probe(&rig, buf, sizeof(buf)));
        }
    }
    assert_true(kinds >= 2);
}

/* A status bit that cannot be cleared (it comes back after every clear until the PMU is reset): the handler
 * re-reads PMI_MAX_LOOPS times, then resets the PMU and reports stuck; the APIC is left sane (unmasked, EOI'd)
 * and the drain ends. */
struct stuck_bit {
    struct pmi_rig *r;
    u64 bit;
    bool armed;
    u32 clears;
};

static void keep_status(struct pmu_model *m, const struct pmu_model_access *a, bool after, void *arg)
{
    struct stuck_bit *s = arg;
    if (!after || a->op != PMU_MODEL_OP_WRMSR)
        return;
    if (a->reg == m->caps.msrs.global_status_reset) {
        s->clears++;
        if (s->armed)
            m->global_status |= s->bit;
    }
    /* pmu_reset() writes 0 to every select: the stuck condition ends with the reset. */
    if (a->value == 0 && a->reg == m->caps.msrs.evtsel0)
        s->armed = false;
}

static void test_stuck_status_resets_and_reports(void **state)
{
    (void)state;
    for (size_t pi = 0; pi < npmus; pi++) {
        const struct pmi_rig_pmu *p = &pmus[pi];
        if (!has_status(p))
            continue;
        for (size_t ai = 0; ai < ARRAY_SIZE(apics); ai++) {
            struct pmi_rig_opts o = {.variant = PMI_UNMASK_STOPPED, .apic = apics[ai]};
            must_setup(p, &o);
            u64 bit = lowest(p->used);
            struct stuck_bit sb = {.r = &rig, .bit = bit, .armed = true};
            rig.extra_hook = keep_status;
            rig.extra_arg = &sb;
            pmi_rig_overflow(&rig, bit);
            u32 n = pmi_rig_drain(&rig);
            assert_false(rig.storm);
            assert_int_equal(n, 1);
            assert_int_equal(rig.s.stuck, 1);
            assert_int_equal(rig.s.last_error, 0);
            assert_int_equal(rig.s.max_loops_seen, PMI_MAX_LOOPS + 1);
            assert_int_equal(sb.clears, PMI_MAX_LOOPS + 1); /* one per loop, one by pmu_reset */
            assert_false(sb.armed);                         /* the PMU was reset */
            assert_int_equal(rig.m.global_status, 0);
            assert_false(pmu_model_pmi_line(&rig.m));
            assert_int_equal(rig.m.apic.lvt_pc, PMI_RIG_VECTOR);
            assert_false(rig.m.apic.isr);
            assert_false(pmu_model_pending_pmi(&rig.m));
            assert_int_equal(pmi_rig_overflow(&rig, bit), 0); /* the reset left the counters stopped */
        }
    }
}

/* A PMI raised while the handler runs waits: with fixed delivery until the handler's EOI (the second PMI is in
 * the IRR, the first in service), with NMI delivery until the handler returns (SDM Vol.3A "Handling Multiple
 * NMIs"). The overflow is injected right after knc's restart. */
struct nested {
    bool nmi;
    u64 eoi_index;
    bool pending_before_eoi, pending_after_eoi, seen;
};

static void watch_eoi(struct pmu_model *m, const struct pmu_model_access *a, bool after, void *arg)
{
    struct nested *n = arg;
    if (a->op != PMU_MODEL_OP_APIC_WRITE || a->reg != HW_APIC_EOI || n->seen)
        return;
    if (!after) {
        n->pending_before_eoi = pmu_model_pending_pmi(m);
    } else {
        n->pending_after_eoi = pmu_model_pending_pmi(m);
        n->seen = true;
    }
}

static void test_pmi_during_handler_waits_for_eoi_or_return(void **state)
{
    (void)state;
    char buf[1024];
    for (size_t pi = 0; pi < npmus; pi++) {
        const struct pmi_rig_pmu *p = &pmus[pi];
        if (!has_status(p) || !has_global_ctrl(p))
            continue;
        for (int nmi = 0; nmi <= 1; nmi++) {
            struct pmi_rig_opts o = {.variant = PMI_UNMASK_STOPPED, .apic = MODEL_APIC_STRICT_EDGE, .nmi = nmi};
            u64 trigger = lowest(p->used), other = lowest(p->used & ~trigger);
            u64 at = point_after_restart(p, &o, trigger);
            must_setup(p, &o);
            struct nested n = {.nmi = nmi};
            rig.extra_hook = watch_eoi;
            rig.extra_arg = &n;
            pmi_rig_inject(&rig, other, at);
            pmi_rig_overflow(&rig, trigger);
            struct apic_model_irq irq;
            assert_true(pmu_model_take_pmi(&rig.m, &irq));
            rig.in_handler = true;
            pmi_handle(&rig.s);
            rig.in_handler = false;
            assert_int_equal(pmi_rig_injected(&rig, NULL, NULL), other);
            if (!nmi) {
                assert_true(n.seen);
                assert_false(n.pending_before_eoi); /* in the IRR behind the one in service */
                assert_true(n.pending_after_eoi);
            } else {
                assert_false(n.seen); /* no EOI for NMIs */
                assert_false(pmu_model_pending_pmi(&rig.m)); /* latched until the handler returns */
            }
            pmu_model_pmi_done(&rig.m);
            assert_true(pmu_model_pending_pmi(&rig.m));
            assert_int_equal(pmi_rig_drain(&rig), 1);
            assert_int_equal(rig.s.serviced[__builtin_ctzll(other)], 1);
            assert_null(check_all(buf, sizeof(buf)));
        }
    }
}

/* An overflow that lands after the stop write took effect (the model stops counting at once; hardware could post
 * the status of an event in flight a little later - docs/pmi-protocol.md step 6 "overflows that arrived before
 * step 2 took effect"). Forced at every point of each variant's stopped window, on the other armed counter: up
 * to the last status read the reads find it (the re-read in a second service loop); after the last read and
 * before the unmask it raises the line while the entry is masked, so a strict APIC loses it where the APIC masks
 * on delivery, and a re-sampling one delivers it; after the unmask it is a fresh edge. knc and late rely on the
 * stop being complete by their last status read; early, which unmasks first, does not. */
struct forced {
    u64 base, at, bit;
    bool done;
};

static void force_overflow(struct pmu_model *m, const struct pmu_model_access *a, bool after, void *arg)
{
    struct forced *f = arg;
    if (!after || f->done || a->index != f->base + f->at - 1)
        return;
    f->done = true;
    u64 saved_ctrl = m->global_ctrl;
    m->global_ctrl |= f->bit; /* the event was in flight when counting stopped */
    u32 b = (u32)__builtin_ctzll(f->bit);
    u64 left = (b < PMU_MODEL_FIXED_BIT ? m->gp_val_mask : m->fx_val_mask) - pmu_model_counter(m, b) + 1;
    pmu_model_tick(m, b, left);
    m->global_ctrl = saved_ctrl;
}

static void test_overflow_landing_after_the_stop(void **state)
{
    (void)state;
    char buf[1024];
    for (size_t pi = 0; pi < npmus; pi++) {
        const struct pmi_rig_pmu *p = &pmus[pi];
        if (!has_status(p) || !has_global_ctrl(p))
            continue;
        for (size_t vi = 0; vi < ARRAY_SIZE(offered); vi++) {
            for (size_t ai = 0; ai < ARRAY_SIZE(apics); ai++) {
                struct pmi_rig_opts o = {.variant = offered[vi], .apic = apics[ai]};
                u64 trigger = lowest(p->used), other = lowest(p->used & ~trigger);
                /* Where the handler stops, reads, unmasks and restarts, from an undisturbed run. */
                must_setup(p, &o);
                pmi_rig_overflow(&rig, trigger);
                pmi_rig_drain(&rig);
                u64 unmask_at = 0, last_read_at = 0, first_read_at = ~0ull, stop_at = ~0ull, restart_at = 0;
                for (u64 i = rig.base; i < rig.m.access_index; i++) {
                    const struct pmu_model_access *a = pmu_model_log_entry(&rig.m, i);
                    assert_non_null(a);
                    u64 k = i - rig.base;
                    if (a->op == PMU_MODEL_OP_APIC_WRITE && a->reg == HW_APIC_LVT_PMC)
                        unmask_at = k;
                    if (a->op == PMU_MODEL_OP_RDMSR && a->reg == rig.m.caps.msrs.global_status)
                        last_read_at = k, first_read_at = MIN(first_read_at, k);
                    if (a->op == PMU_MODEL_OP_WRMSR && a->reg == rig.m.caps.msrs.global_ctrl) {
                        if (a->value)
                            restart_at = k;
                        else
                            stop_at = MIN(stop_at, k);
                    }
                    if (a->op == PMU_MODEL_OP_APIC_WRITE && a->reg == HW_APIC_EOI)
                        break; /* the first PMI's handler ends here (early under level takes a second one) */
                }
                assert_true(stop_at < first_read_at && last_read_at < restart_at);
                /* Points after the stop write up to just before the restart. */
                for (u64 at = stop_at + 1; at <= restart_at; at++) {
                    must_setup(p, &o);
                    struct forced f = {.base = rig.base, .at = at, .bit = other};
                    rig.extra_hook = force_overflow;
                    rig.extra_arg = &f;
                    pmi_rig_overflow(&rig, trigger);
                    pmi_rig_drain(&rig);
                    assert_true(f.done);
                    const char *why = pmi_rig_check(&rig, buf, sizeof(buf));
                    bool after_last_read = at > last_read_at, masked = at <= unmask_at;
                    bool lost = after_last_read && masked && apics[ai] == MODEL_APIC_STRICT_EDGE &&
                                masks_on_delivery(p);
                    if (lost != (why != NULL))
                        fail_msg("%s, %s, %s APIC, overflow landing after access %llu: %s (expected %s)", p->name,
                                 pmi_variant_name(o.variant), apic_name(apics[ai]), (unsigned long long)(at - 1),
                                 why ? why : "no loss", lost ? "a lost PMI" : "no loss");
                    if (!after_last_read) /* found by the first read, or by the re-read in a second service loop */
                        assert_int_equal(rig.s.max_loops_seen, at > first_read_at ? 2 : 1);
                    if (lost && !strcmp(p->name, "intel_v4"))
                        comment("%s, %s, strict APIC: an overflow landing after the last status read (access %llu) "
                                "and before the unmask (access %llu) is lost: %s",
                                p->name, pmi_variant_name(o.variant), (unsigned long long)last_read_at,
                                (unsigned long long)unmask_at, why);
                }
            }
        }
    }
}


/* ---- the status judged exactly (tests/pmi/portable/pmi_checks.c) ------------------------------------------ */

/* The wrap rule: a counter reloaded to 2^w - period is below that value again only after it wrapped. */
static void test_counter_wrapped_rule(void **state)
{
    (void)state;
    u64 reload = (1ull << 48) - 1000;
    assert_true(pmi_counter_wrapped(0, reload));             /* wrapped on the last event */
    assert_true(pmi_counter_wrapped(999, reload));           /* wrapped, 999 events of skid */
    assert_false(pmi_counter_wrapped(reload, reload));       /* not one event counted */
    assert_false(pmi_counter_wrapped((1ull << 48) - 1, reload)); /* all-ones: one event short of the wrap */
}

/* Each clause of pmi_status_judge on its own: removing any one makes its case pass. */
static void test_status_judge_each_clause(void **state)
{
    (void)state;
    static struct pmi_state s;
    struct pmi_status_judgement j;
    memset(&s, 0, sizeof(s));
    s.status_seen = 0x1;
    s.serviced[0] = 1;
    assert_true(pmi_status_judge(&s, 0x1, 0x1, &j));
    s.status_seen = 0x3; /* GP 1's bit read: it did not overflow */
    assert_false(pmi_status_judge(&s, 0x1, 0x1, &j));
    assert_int_equal(j.extra, 0x2);
    s.status_seen = 0x1ull << 33; /* fixed 1 instead of fixed 0: one extra, one missing */
    assert_false(pmi_status_judge(&s, 0x1ull << 32, 0x1ull << 32, &j));
    assert_int_equal(j.extra, 0x1ull << 33);
    assert_int_equal(j.missing, 0x1ull << 32);
    s.status_seen = 0x0; /* the overflow never showed */
    assert_false(pmi_status_judge(&s, 0x1, 0x1, &j));
    assert_int_equal(j.missing, 0x1);
    s.status_seen = 0x3; /* both expected, but GP 1's value showed no wrap */
    s.phantom = 0x2;
    assert_false(pmi_status_judge(&s, 0x3, 0x3, &j));
    assert_int_equal(j.phantom, 0x2);
    s.phantom = 0;
    s.status_seen = 0x1; /* a counter that was not armed was serviced */
    s.serviced[1] = 1;
    assert_false(pmi_status_judge(&s, 0x1, 0x1, &j));
    assert_int_equal(j.unarmed_serviced, 0x2);
}

/* Through the handler against the model: one counter of the armed ones overflows. Without a fault the judgement
 * holds on every PMU, variant and delivery; with status-extra-bit (the next counter's bit set too) it fails on every
 * PMU with a status register, as an extra bit and, the next counter being armed with a period, as one not wrapped. */
static void test_status_exact_through_the_handler(void **state)
{
    (void)state;
    u64 runs = 0, caught = 0;
    for (size_t pi = 0; pi < npmus; pi++) {
        const struct pmi_rig_pmu *p = &pmus[pi];
        for (size_t vi = 0; vi < ARRAY_SIZE(offered); vi++) {
            for (int nmi = 0; nmi <= 1; nmi++) {
                for (int fault = 0; fault <= 1; fault++) {
                    for (u32 bit = 0; bit < 64; bit++) {
                        if (!(p->used & BIT(bit)))
                            continue;
                        struct pmi_rig_opts o = {.variant = offered[vi], .apic = MODEL_APIC_STRICT_EDGE, .nmi = nmi};
                        must_setup(p, &o);
                        rig.s.check_wrap = true;
                        if (fault)
                            pmu_model_set_faults(&rig.m, PMU_FAULT_STATUS_EXTRA_BIT);
                        assert_int_equal(pmi_rig_overflow(&rig, BIT(bit)), BIT(bit));
                        pmi_rig_drain(&rig);
                        struct pmi_status_judgement j;
                        bool ok = pmi_status_judge(&rig.s, rig.used, BIT(bit), &j);
                        runs++;
                        if (!fault || !has_status(p)) {
                            if (!ok)
                                fail_msg("%s %s %s bit %u: judged wrong without a fault: extra 0x%llx missing "
                                         "0x%llx phantom 0x%llx", p->name, pmi_variant_name(offered[vi]),
                                         nmi ? "nmi" : "fixed", bit, (unsigned long long)j.extra,
                                         (unsigned long long)j.missing, (unsigned long long)j.phantom);
                            continue;
                        }
                        if (ok || !j.extra)
                            fail_msg("%s %s bit %u: status-extra-bit not caught", p->name,
                                     pmi_variant_name(offered[vi]), bit);
                        if ((j.extra & rig.used) && !(j.phantom & j.extra))
                            fail_msg("%s %s bit %u: the armed counter 0x%llx read without its wrap is not flagged",
                                     p->name, pmi_variant_name(offered[vi]), bit, (unsigned long long)j.extra);
                        caught++;
                    }
                }
            }
        }
    }
    comment("%llu runs, status-extra-bit caught in %llu", (unsigned long long)runs, (unsigned long long)caught);
    assert_true(caught > 0);
}

/* pmi/freeze_on_pmi's status: the one counter, CTR_Frz on v4+, no LBR_Frz unless asked; before v4 no status bit. */
static void test_freeze_status_expected(void **state)
{
    (void)state;
    assert_int_equal(pmi_freeze_status_expected(4, 0x1, false), 0x1 | BIT(59));
    assert_int_equal(pmi_freeze_status_expected(5, 0x1, true), 0x1 | BIT(59) | BIT(58));
    assert_int_equal(pmi_freeze_status_expected(2, 0x1, false), 0x1);
    /* The observation: GP 0 and GP 1 with CTR_Frz, only GP 0 enabled, differs in the judged bits. */
    u64 judged = pmi_freeze_status_judged(4, 0x70000000full);
    assert_int_not_equal(0x800000000000003ull & judged, pmi_freeze_status_expected(4, 0x1, false));
    assert_int_equal(judged & BIT(63), 0); /* CondChgd: informational */
    assert_int_equal(pmi_freeze_status_judged(3, 0x3), 0x3);
}


/* ---- freeze judged by its effect (pmi/freeze_on_pmi) ----------------------------------------------------- */

static void test_freeze_effect_each_clause(void **state)
{
    (void)state;
    const char *why;
    assert_int_equal(pmi_freeze_effect_verdict(202, 0, 202, &why), PMI_VERDICT_PASS);
    assert_int_equal(pmi_freeze_effect_verdict(0, 0, 0, &why), PMI_VERDICT_FAIL);     /* shows nothing */
    assert_int_equal(pmi_freeze_effect_verdict(202, 202, 202, &why), PMI_VERDICT_FAIL); /* counted while frozen */
    assert_int_equal(pmi_freeze_effect_verdict(202, 0, 0, &why), PMI_VERDICT_FAIL);   /* never released */
    assert_int_equal(pmi_freeze_effect_verdict(202, 0, 203, &why), PMI_VERDICT_FAIL); /* not exact after it */
}

/* The check's sequence against the model: GP 0 overflows with IA32_DEBUGCTL.Freeze_PerfMon_On_PMI, N events while
 * frozen, the release (v4: STATUS_RESET of CTR_Frz; v2: GLOBAL_CTRL again), N events. PASS on v2 and v4 without a
 * fault; freeze-keeps-counting FAILs on both, freeze-not-released on v4 (its CTR_Frz). */
static enum pmi_verdict freeze_sequence(const struct pmi_rig_pmu *p, u32 faults)
{
    struct pmi_rig_opts o = {.variant = PMI_UNMASK_STOPPED, .apic = MODEL_APIC_STRICT_EDGE, .used = BIT(0)};
    must_setup(p, &o);
    pmu_model_set_faults(&rig.m, faults);
    struct pmu *pm = &rig.pmu;
    u64 sel = rig.m.gp_sel[0], before = 0, frozen_end = 0, after = 0, released_end = 0;
    u16 event = (u16)(sel & 0xff);
    assert_int_equal(hw_wrmsr(&rig.hw, 0x1d9, 1ull << 12), 0);
    assert_int_equal(pmi_rig_overflow(&rig, BIT(0)), BIT(0));
    pm->be->counter_read(pm, 0, &before);
    pmu_model_count(&rig.m, event, (u8)(sel >> 8), 202);
    pm->be->counter_read(pm, 0, &frozen_end);
    assert_int_equal(hw_wrmsr(&rig.hw, 0x1d9, 0), 0);
    if (p->caps.version >= 4)
        pm->be->status_clear(pm, BIT(PMU_STATUS_CTR_FRZ) | BIT(0));
    else
        pm->be->global_set(pm, BIT(0));
    pm->be->counter_read(pm, 0, &after);
    pmu_model_count(&rig.m, event, (u8)(sel >> 8), 202);
    pm->be->counter_read(pm, 0, &released_end);
    const char *why;
    u64 mask = pmu_counter_mask(pm, 0);
    return pmi_freeze_effect_verdict(202, (frozen_end - before) & mask, (released_end - after) & mask, &why);
}

static void test_freeze_effect_against_the_model(void **state)
{
    (void)state;
    u32 seen = 0;
    for (size_t pi = 0; pi < npmus; pi++) {
        const struct pmi_rig_pmu *p = &pmus[pi];
        if (!pmu_freezes_on_pmi(&p->caps))
            continue;
        seen++;
        if (freeze_sequence(p, 0) != PMI_VERDICT_PASS)
            fail_msg("%s: the freeze judged wrong without a fault", p->name);
        if (freeze_sequence(p, PMU_FAULT_FREEZE_KEEPS_COUNTING) != PMI_VERDICT_FAIL)
            fail_msg("%s: freeze-keeps-counting not caught", p->name);
        if (freeze_sequence(p, PMU_FAULT_NO_FREEZE) != PMI_VERDICT_FAIL)
            fail_msg("%s: no-freeze not caught", p->name);
        if (p->caps.version >= 4 && freeze_sequence(p, PMU_FAULT_FREEZE_NOT_RELEASED) != PMI_VERDICT_FAIL)
            fail_msg("%s: freeze-not-released not caught", p->name);
    }
    assert_true(seen >= 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counter_wrapped_rule),
        cmocka_unit_test(test_status_judge_each_clause),
        cmocka_unit_test(test_status_exact_through_the_handler),
        cmocka_unit_test(test_freeze_status_expected),
        cmocka_unit_test(test_freeze_effect_each_clause),
        cmocka_unit_test(test_freeze_effect_against_the_model),
        cmocka_unit_test(test_one_overflow_one_pmi),
        cmocka_unit_test(test_default_handler_accesses_single_overflow),
        cmocka_unit_test(test_simultaneous_overflow_same_event),
        cmocka_unit_test(test_sampling_run_serviced_equals_produced),
        cmocka_unit_test(test_no_drift),
        cmocka_unit_test(test_lvt_mask_on_delivery_through_handler),
        cmocka_unit_test(test_sign_bit_path_without_status),
        cmocka_unit_test(test_stuck_status_resets_and_reports),
        cmocka_unit_test(test_pmi_during_handler_waits_for_eoi_or_return),
        cmocka_unit_test(test_overflow_landing_after_the_stop),
        cmocka_unit_test(test_knc_loses_no_pmi_anywhere),
        cmocka_unit_test(test_early_loses_no_pmi_anywhere),
        cmocka_unit_test(test_late_loses_pmis_only_where_the_lvt_is_masked),
        cmocka_unit_test(test_back_to_back_overflows_lose_no_pmi),
        cmocka_unit_test(test_negative_control_no_stop_loses_pmis_under_strict_apic),
    };
    return cmocka_run_group_tests(tests, setup_pmus, NULL);
}
