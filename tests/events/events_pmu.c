/* The events suite with a PMU: the workloads counted by every counter and compared with their construction
 * and the oracle (tests/events/portable/events_spec.c says which events, and how each is judged). Without a PMU every check
 * here SKIPs with the CPUID evidence.
 *
 * How a count is taken (kvm-unit-tests x86/pmu.c and nanoBench, learnt from, not copied): the counters are
 * programmed and zeroed while stopped, the LVT timer and PMC entries are masked (not CLI: an interrupt held
 * pending slows retirement) and the one global enable is written right before the workload runs and cleared
 * right after, the TSC read with LFENCE on both sides; then the counters are read while stopped. Whatever the
 * measuring path itself adds is the same for every length, so the difference of two lengths n1 < n2 cancels
 * it: construction(n2) - construction(n1) = oracle(n2) - oracle(n1) = counter(n2) - counter(n1). */
#include "tests/events/events_pmu.h"

#include <string.h>

#include "apic/apic.h"
#include "kernel/boot_state.h"
#include "lib/format.h"
#include "pmu/kernel/pmu_cpu.h"
#include "emul/kernel/pmu_emul.h"
#include "kernel/timing.h"
#include "kernel/smi.h"
#include "kernel/x86.h"
#include "pmu/deviations.h"
#include "pmu/event_catalog.h"
#include "pmu/events.h"
#include "tests/events/portable/events_spec.h"
#include "tests/events/pmu_silent.h"
#include "tests/events/portable/events_workloads.h"

#define ATTEMPTS 3      /* a comparison is retried when it misses: a stray counted interrupt only adds */
#define SMI_RETRIES 3   /* attempts with an SMI in a window, not valid, made beyond ATTEMPTS */
#define MAX_DETAIL 6    /* YAML lines for individual misses; the total is always reported */
#define CYCLE_N 2000    /* ew_cycles lengths for the cycle and reference-cycle windows */
#define REF_TOL_PPM 20000 /* 2 %: two windows of one fixed-rate clock against the TSC, before quantization */

static inline u64 rdtsc_fenced(void)
{
    asm volatile("lfence" ::: "memory");
    u64 t = rdtsc();
    asm volatile("lfence" ::: "memory");
    return t;
}

/* Mask what could interrupt the measurement; interrupts stay enabled (nanoBench). */
struct quiet {
    u64 flags;
    u32 timer, pmc;
};

static void quiet_begin(struct quiet *q)
{
    q->flags = irq_save();
    q->timer = apic_read(APIC_LVT_TIMER);
    q->pmc = apic_read(APIC_LVT_PMC);
    apic_write(APIC_LVT_TIMER, q->timer | LVT_MASKED);
    apic_write(APIC_LVT_PMC, q->pmc | LVT_MASKED);
    sti();
}

static void quiet_end(const struct quiet *q)
{
    cli();
    apic_write(APIC_LVT_TIMER, q->timer);
    apic_write(APIC_LVT_PMC, q->pmc);
    irq_restore(q->flags);
}

void ew_measure(struct pmu *p, u64 counters, u8 cpl, ew_fn fn, u64 n, struct ew_meas *m)
{
    m->rc = p->be->global_set(p, 0);
    for (u32 bit = 0; bit < 64 && !m->rc; bit++)
        if (counters >> bit & 1)
            m->rc = p->be->counter_write(p, bit, 0);
    if (m->rc)
        return;
    struct quiet q;
    struct smi_window sw;
    quiet_begin(&q);
    smi_window_begin(&sw); /* read while the counters are stopped: the read itself is not counted */
    u64 t0 = rdtsc_fenced();
    p->be->global_set(p, counters);
    ew_count_run(cpl, fn, n);
    p->be->global_set(p, 0);
    u64 t1 = rdtsc_fenced();
    m->smis = smi_window_end(&sw);
    quiet_end(&q);
    m->tsc = t1 - t0;
    for (u32 bit = 0; bit < 64 && !m->rc; bit++)
        if (counters >> bit & 1)
            m->rc = p->be->counter_read(p, bit, &m->v[bit]);
}

static u64 gp_counters(const struct pmu *p)
{
    return p->counters & 0xFFFFFFFFull;
}

static const char *ctr_name(u32 bit, char *buf, size_t n)
{
    k_snprintf(buf, n, "%s%u", PMU_IS_FIXED(bit) ? "fixed" : "gp", PMU_IS_FIXED(bit) ? bit - PMU_FIXED_BIT : bit);
    return buf;
}

/* Program `ev` with the given filters on every GP counter in `gps`. */
static int program_gp(struct pmu *p, u64 gps, const struct pmu_event *ev, const struct pmu_evsel *base)
{
    struct pmu_evsel e;
    pmu_event_to_evsel(ev, base, &e);
    for (u32 gp = 0; gp < 32; gp++)
        if (gps >> gp & 1) {
            int r = pmu_program_gp(p, gp, &e);
            if (r)
                return r;
        }
    return 0;
}

/* The GP counters that can count `ev` on this CPU's family (pmu_event_gp_constraint: AMD family 15h wires e.g.
 * PMCx076 to PERF_CTL[2:0] only, so gp3-5 would read 0 and fail). The others are named in the YAML with the
 * constraint's source, so a skipped counter is never mistaken for a tested one. */
static u64 event_gp_counters(struct check *c, const struct pmu *p, const struct pmu_event *ev)
{
    u64 gps = gp_counters(p);
    struct pmu_gp_constraint k = pmu_event_gp_constraint(p->caps, ev->event, ev->umask);
    u64 skipped = gps & ~(u64)k.counters;
    if (!skipped)
        return gps;
    char key[64], list[64];
    struct strbuf sb;
    sb_init(&sb, list, sizeof(list));
    for (u32 gp = 0; gp < 32; gp++)
        if (skipped >> gp & 1)
            sb_printf(&sb, "%sgp%u", sb.len ? " " : "", gp);
    k_snprintf(key, sizeof(key), "skipped %s", ev->name);
    check_note(c, key, "%s not programmed: event 0x%03x cannot count there on family 0x%x: %s", list, ev->event,
               p->caps->family, k.source ? k.source : "constraint");
    return gps & k.counters;
}

static const struct pmu_event *find_event(struct check *c, const struct pmu *p, const char *name)
{
    const struct pmu_event *ev = pmu_event_find(p->caps, name);
    if (!ev)
        check_note(c, "missing_event", "%s not in pmu/events.c for this kind/family", name);
    return ev;
}

/* --- exact events ------------------------------------------------------------------------------------- */

static const enum ew_id exact_workloads[] = {EW_STRAIGHT, EW_BRANCHES, EW_LFSR, EW_MEM, EW_REP_STOS, EW_CALLS};

struct filter {
    const char *name;
    bool usr, os;
};
static const struct filter filters[] = {{"USR", true, false}, {"OS", false, true}, {"USR+OS", true, true}};

/* Tally of one check's comparisons: every miss counted, the first few described. */
struct tally {
    u64 compared, missed;
    s64 ovh_min, ovh_max; /* counted minus construction at n1: what the difference cancelled */
    bool ovh_seen;
    u64 missed_on;        /* counters with a miss */
    u64 should_count;     /* counters given a window in which they should count */
    u64 counted;          /* ... of which read anything but 0 at least once */
    u32 smi_attempts, smis; /* attempts with an SMI in a window (not valid), and the SMIs in them */
    u32 undecided;          /* comparisons every attempt of which had an SMI */
};

static void silent_counters_deviation(struct check *c, const struct tally *t)
{
    pmu_silent_counters_deviation(c, &this_pmu_cpu()->caps, t->should_count, t->counted, t->missed_on);
}

static void note_overhead(struct tally *t, s64 o)
{
    if (!t->ovh_seen || o < t->ovh_min)
        t->ovh_min = o;
    if (!t->ovh_seen || o > t->ovh_max)
        t->ovh_max = o;
    t->ovh_seen = true;
}

/* How many attempts SMIs cost (kernel/smi.h), where they can be counted. */
static void report_smis(struct check *c, const struct tally *t)
{
    const char *why = "";
    if (smi_countable(&why))
        check_note(c, "SMIs", "%u attempts had an SMI in a window (%u SMIs by MSR_SMI_COUNT): not valid, made again; "
                   "%u comparisons undecided", t->smi_attempts, t->smis, t->undecided);
}

/* One line per event: a catalog event's name and encoding in the part's file, and the overhead the differences
 * cancelled (counted minus construction at n1, over every run; then reset for the next event). */
static void report_event(struct check *c, struct tally *t, const char *event, const struct pmu_event *ev)
{
    char what[96] = "";
    if (event_catalog_owns(ev))
        k_snprintf(what, sizeof(what), "%s %x/%02x, ", ev->name, ev->event, ev->umask);
    if (t->ovh_seen)
        check_note(c, event, "%soverhead %lld..%lld", what, (long long)t->ovh_min, (long long)t->ovh_max);
    t->ovh_seen = false;
}

static void miss(struct check *c, struct tally *t, const char *what, s64 want, s64 got, const char *attempts)
{
    t->missed++;
    if (t->missed <= MAX_DETAIL)
        expect_true(c, what, false, "exact", "expected %lld, counted %lld (attempts: %s)", (long long)want,
                    (long long)got, attempts);
}

/* What a counter with these filters sees of a run of w at cpl by construction, at n1 and n2 (0 when the filter
 * excludes cpl). The oracle's counts agree (oracle_agrees). */
struct want {
    s64 n1, delta;
    bool zero; /* the window holds nothing at the filter's CPLs (USR-only over a CPL-0 run): 0 in every run */
};

static struct want expected(enum ew_id w, u32 fields, u8 cpl, const struct filter *f)
{
    struct ew_counts a, b;
    ew_expect(w, ew_lengths[w].n1, &a);
    ew_expect(w, ew_lengths[w].n2, &b);
    if (!ew_filter_counts(f->usr, f->os, cpl))
        return (struct want){0, 0, cpl == 0 && !f->os};
    return (struct want){(s64)ew_fields_sum(&a, fields), (s64)(ew_fields_sum(&b, fields) - ew_fields_sum(&a, fields)),
                         false};
}

/* Counters whose difference of the two runs is not `want` (or that counted in a window that holds nothing). */
static u64 bad_counters(u64 counters, const struct ew_meas *m1, const struct ew_meas *m2, struct want wt)
{
    u64 bad = 0;
    for (u32 bit = 0; bit < 64; bit++)
        if (counters >> bit & 1 &&
            ((s64)(m2->v[bit] - m1->v[bit]) != wt.delta || (wt.zero && (m1->v[bit] || m2->v[bit]))))
            bad |= 1ull << bit;
    return bad;
}

/* Run w at both lengths on `counters` until every counter's difference is `want` or ATTEMPTS are spent. An attempt
 * with an SMI in either window is not valid: SMM code is counted unless IA32_DEBUGCTL.FREEZE_WHILE_SMM (bit 14) is
 * set (Linux "x86/perf: Default set FREEZE_ON_SMI for all" sets it for that reason; pmuboot leaves it clear). It is
 * made again, up to SMI_RETRIES times, and tallied; the last valid attempt is the one reported, and a comparison no
 * valid attempt decided is inconclusive. */
static void compare_counters(struct check *c, struct tally *t, struct pmu *p, u64 counters, enum ew_id w, u8 cpl,
                             struct want wt, const char *label)
{
    ew_fn fn = ew_function(w);
    struct ew_meas m1, m2, s1, s2; /* the last valid attempt; the one being made */
    char attempts[96] = "";
    struct strbuf sb;
    sb_init(&sb, attempts, sizeof(attempts));
    u64 bad = counters;
    u32 valid = 0, lost = 0;
    for (int a = 0; valid < ATTEMPTS && lost <= SMI_RETRIES && bad; a++) {
        ew_measure(p, counters, cpl, fn, ew_lengths[w].n1, &s1);
        ew_measure(p, counters, cpl, fn, ew_lengths[w].n2, &s2);
        if (s1.rc || s2.rc) {
            expect_eq(c, "measurement access", 0, (u64)(s1.rc ? s1.rc : s2.rc));
            return;
        }
        if (s1.smis || s2.smis) {
            lost++;
            t->smi_attempts++;
            t->smis += s1.smis + s2.smis;
            sb_printf(&sb, "%sSMI", a ? ", " : "");
            continue;
        }
        valid++;
        m1 = s1;
        m2 = s2;
        bad = bad_counters(counters, &m1, &m2, wt);
        sb_printf(&sb, "%s%u bad", a ? ", " : "", popcount64(bad));
    }
    if (!valid) {
        t->undecided++;
        return check_inconclusive(c, label, "every attempt had an SMI in a window (attempts: %s)", attempts);
    }
    for (u32 bit = 0; bit < 64; bit++) {
        if (!(counters >> bit & 1))
            continue;
        t->compared++;
        note_overhead(t, (s64)m1.v[bit] - wt.n1);
        if (!wt.zero && wt.delta > 0) {
            t->should_count |= 1ull << bit;
            if (m1.v[bit] || m2.v[bit])
                t->counted |= 1ull << bit;
        }
        if (bad >> bit & 1) {
            t->missed_on |= 1ull << bit;
            char what[96], cn[12];
            k_snprintf(what, sizeof(what), "%s %s", label, ctr_name(bit, cn, sizeof(cn)));
            if (wt.zero)
                k_snprintf(what + strlen(what), sizeof(what) - strlen(what), " (0 per run; counted %llu, %llu)",
                           (unsigned long long)m1.v[bit], (unsigned long long)m2.v[bit]);
            miss(c, t, what, wt.delta, (s64)(m2.v[bit] - m1.v[bit]), attempts);
        }
    }
}

/* Oracle differences for the workloads compared: construction = oracle before any counter is believed. */
static bool oracle_agrees(struct check *c)
{
    for (size_t i = 0; i < ARRAY_SIZE(exact_workloads); i++) {
        enum ew_id w = exact_workloads[i];
        for (u8 cpl = 0; cpl <= 3; cpl += 3) {
            struct ew_oracle o1, o2;
            struct ew_counts e1, e2;
            ew_oracle_run(cpl, ew_function(w), ew_lengths[w].n1, &o1);
            ew_oracle_run(cpl, ew_function(w), ew_lengths[w].n2, &o2);
            ew_expect(w, ew_lengths[w].n1, &e1);
            ew_expect(w, ew_lengths[w].n2, &e2);
            for (int f = 0; f < EWC_FIELDS; f++) {
                u32 bit = BIT(f);
                s64 od = (s64)(ew_fields_sum(&o2.counts, bit) - ew_fields_sum(&o1.counts, bit));
                s64 ed = (s64)(ew_fields_sum(&e2, bit) - ew_fields_sum(&e1, bit));
                if (od != ed) {
                    char what[64];
                    k_snprintf(what, sizeof(what), "oracle %s CPL %u %s difference", ew_name(w), cpl,
                               ew_field_name((enum ew_count_field)f));
                    expect_eq_dec(c, what, (u64)ed, (u64)od);
                    return false;
                }
            }
        }
    }
    return true;
}

/* Known deviations (pmu/deviations.c) that move this event on this CPU: named with their source. Their triggers
 * inside the window (the IRET into CPL 3, the #UD back; no interrupt: the LVT entries are masked) are the same
 * at both lengths, so the difference cancels them and a miss stays a FAIL. */
static void note_deviations(struct check *c, const struct pmu_cpu *pmc, const struct pmu_event *ev)
{
    const struct pmu_deviation *devs[8];
    size_t n = pmu_deviations_for(&pmc->id, pmc->pmu.caps->kind, devs, ARRAY_SIZE(devs));
    for (size_t i = 0; i < n && i < ARRAY_SIZE(devs); i++)
        if (pmu_deviation_affects_code(devs[i], ev->event))
            check_note(c, devs[i]->id, "%s: %s (%s); same triggers at both lengths, cancelled", ev->name,
                       devs[i]->title, devs[i]->source);
}

/* A miss on an event for which the part's intel/perfmon file lists errata: the errata are named, so the reader can
 * hold the miss against them. The verdict stays a FAIL: whether an erratum describes exactly this deviation is not
 * something the catalog's list of IDs says. */
static void note_catalog_errata(struct check *c, const struct pmu_caps *caps, const struct pmu_event *ev)
{
    const struct catalog_part *part = event_catalog_for(caps);
    const struct catalog_event *ce = event_catalog_by_code(part, ev->event, ev->umask);
    if (!ce || !ce->errata[0])
        return;
    char key[80];
    k_snprintf(key, sizeof(key), "errata %s", ce->ev.name);
    check_note(c, key, "%s %s lists %s for this event; the misses may be one of them", part->catalog, part->file,
               ce->errata);
}

void events_exact_gp_check(struct check *c)
{
    struct pmu_cpu *pmc = this_pmu_cpu();
    SKIP_WITHOUT_PMU(c, pmc);
    struct pmu *p = &pmc->pmu;
    if (!oracle_agrees(c))
        return;
    const struct ew_event *evs[32];
    size_t nev = MIN(ew_events_for(p->caps, evs, ARRAY_SIZE(evs)), ARRAY_SIZE(evs));
    struct tally t = {0};
    u32 events_done = 0;
    for (size_t i = 0; i < nev; i++) {
        if (evs[i]->judge != EWJ_EXACT)
            continue;
        const struct pmu_event *ev = find_event(c, p, evs[i]->event);
        if (!ev)
            continue;
        if (ew_exact_entry_for(p->caps, ev) != evs[i])
            continue; /* an earlier entry compares this encoding */
        u64 gps = event_gp_counters(c, p, ev);
        if (!gps)
            continue;
        events_done++;
        note_deviations(c, pmc, ev);
        u64 missed_before = t.missed;
        for (size_t fi = 0; fi < ARRAY_SIZE(filters); fi++) {
            const struct filter *f = &filters[fi];
            pmu_reset(p);
            struct pmu_evsel base = {.usr = f->usr, .os = f->os, .enable = true};
            int r = program_gp(p, gps, ev, &base);
            if (r) {
                expect_eq(c, "programming", 0, (u64)r);
                check_note(c, "programming_failed", "%s %s: %s", evs[i]->event, f->name, pmu_strerror(r));
                continue;
            }
            for (size_t wi = 0; wi < ARRAY_SIZE(exact_workloads); wi++) {
                enum ew_id w = exact_workloads[wi];
                if (!ew_workload_for(w, evs[i]->fields))
                    continue;
                for (u8 cpl = 0; cpl <= 3; cpl += 3) {
                    char label[80];
                    k_snprintf(label, sizeof(label), "%s %s %s CPL %u", evs[i]->event, f->name, ew_name(w), cpl);
                    compare_counters(c, &t, p, gps, w, cpl, expected(w, evs[i]->fields, cpl, f), label);
                }
            }
        }
        report_event(c, &t, evs[i]->event, ev);
        if (t.missed > missed_before)
            note_catalog_errata(c, p->caps, ev);
    }
    pmu_reset(p);
    const struct catalog_part *part = event_catalog_for(p->caps);
    if (part)
        check_note(c, "catalog", "the catalog events as %s %s lists them (name, event/umask)", part->catalog,
                   part->file);
    check_note(c, "overhead", "per event, counted minus construction at n1 in every run: what the differences cancel");
    check_note(c, "compared", "%u exact events x their GP counters (%u here) x USR/OS/USR+OS x CPL 3/0 x "
               "workloads: %llu differences n2-n1", events_done, popcount64(gp_counters(p)),
               (unsigned long long)t.compared);
    report_smis(c, &t);
    expect_true(c, "exact events compared", events_done > 0, "at least one", "%u", events_done);
    expect_eq_dec(c, "differences not exact", 0, t.missed);
    silent_counters_deviation(c, &t);
}

/* Intel fixed counter 0 (instructions retired, SDM Vol.3B Table 21-2) at USR, OS and USR+OS. */
void events_exact_fixed_check(struct check *c)
{
    struct pmu_cpu *pmc = this_pmu_cpu();
    SKIP_WITHOUT_PMU(c, pmc);
    struct pmu *p = &pmc->pmu;
    u32 bit = PMU_FIXED(0);
    if (!pmu_counter_exists(p, bit))
        return check_skip(c, "no fixed counter 0 (%s PMU, %u fixed counters)", p->be->name, p->caps->num_fixed);
    struct tally t = {0};
    for (size_t fi = 0; fi < ARRAY_SIZE(filters); fi++) {
        const struct filter *f = &filters[fi];
        pmu_reset(p);
        int r = pmu_program_fixed(p, 0, (f->usr ? PMU_FIXED_USR : 0) | (f->os ? PMU_FIXED_OS : 0));
        if (!expect_eq(c, "programming fixed0", 0, (u64)r))
            continue;
        for (size_t wi = 0; wi < ARRAY_SIZE(exact_workloads); wi++) {
            enum ew_id w = exact_workloads[wi];
            for (u8 cpl = 0; cpl <= 3; cpl += 3) {
                char label[64];
                k_snprintf(label, sizeof(label), "instructions %s %s CPL %u", f->name, ew_name(w), cpl);
                compare_counters(c, &t, p, 1ull << bit, w, cpl, expected(w, BIT(EWC_INSNS), cpl, f), label);
            }
        }
    }
    pmu_reset(p);
    check_note(c, "compared", "%llu differences n2-n1 on fixed0", (unsigned long long)t.compared);
    report_event(c, &t, "fixed0 instructions", NULL);
    report_smis(c, &t);
    expect_eq_dec(c, "differences not exact", 0, t.missed);
    silent_counters_deviation(c, &t);
}

/* --- bounded events ------------------------------------------------------------------------------------ */

/* The first event of this PMU judged `j`, or NULL. */
static const struct ew_event *event_judged(const struct pmu *p, enum ew_judge j)
{
    const struct ew_event *evs[32];
    size_t n = MIN(ew_events_for(p->caps, evs, ARRAY_SIZE(evs)), ARRAY_SIZE(evs));
    for (size_t i = 0; i < n; i++)
        if (evs[i]->judge == j)
            return evs[i];
    return NULL;
}

/* Core cycles of ew_cycles (8 dependent IMULs per iteration: at least 8n cycles on any core, see
 * tests/events/events_workloads.asm) on every GP counter and on Intel's fixed counter 1 (and topdown slots on fixed
 * counter 3 where enumerated), counted at OS+USR for a CPL-0 run; the same counters at USR only over that window
 * count exactly 0. */
void events_cycles_check(struct check *c)
{
    struct pmu_cpu *pmc = this_pmu_cpu();
    SKIP_WITHOUT_PMU(c, pmc);
    struct pmu *p = &pmc->pmu;
    const struct ew_event *ce = event_judged(p, EWJ_CYCLES);
    const struct pmu_event *ev = ce ? find_event(c, p, ce->event) : NULL;
    if (!ev)
        return check_skip(c, "no core-cycles event on this PMU (%s)", p->be->name);
    bool f1 = pmu_counter_exists(p, PMU_FIXED(1)), f3 = f1 && pmu_counter_exists(p, PMU_FIXED(3));
    struct tally silent = {0};
    u64 gps = event_gp_counters(c, p, ev);
    if (!gps && !f1)
        return check_skip(c, "no counter can count %s on this family", ev->name);
    /* Pass 0 at OS+USR: the bound. Pass 1 at USR only over the same CPL-0 window: no CPL-3 cycle in it, 0. */
    for (int pass = 0; pass < 2; pass++) {
        bool os = pass == 0;
        u32 field = PMU_FIXED_USR | (os ? PMU_FIXED_OS : 0);
        pmu_reset(p);
        struct pmu_evsel base = {.usr = true, .os = os, .enable = true};
        u64 ctrs = gps;
        int r = program_gp(p, ctrs, ev, &base);
        if (f1 && !r) {
            r = pmu_program_fixed(p, 1, field);
            ctrs |= 1ull << PMU_FIXED(1);
        }
        if (f3 && !r) { /* topdown slots (SDM Vol.3B Table 21-2, v5+) */
            r = pmu_program_fixed(p, 3, field);
            ctrs |= 1ull << PMU_FIXED(3);
        }
        if (!expect_eq(c, "programming", 0, (u64)r))
            return;
        struct ew_meas m;
        ew_measure(p, ctrs, 0, ew_cycles, CYCLE_N, &m);
        pmu_reset(p);
        if (!expect_eq(c, "measurement access", 0, (u64)m.rc))
            return;
        u64 floor = ew_min_cycles(EW_CYCLES, CYCLE_N);
        for (u32 bit = 0; bit < 64; bit++) {
            if (!(ctrs >> bit & 1))
                continue;
            char what[64], cn[12];
            ctr_name(bit, cn, sizeof(cn));
            if (!os) {
                k_snprintf(what, sizeof(what), "%s USR-only over a CPL-0 window", cn);
                expect_eq_dec(c, what, 0, m.v[bit]);
            } else if (bit == PMU_FIXED(3)) {
                /* Slots are cycles x issue width (>= 1): at least fixed1's cycles of the same window, less the
                 * start/stop edge (1 % + 64). */
                u64 cyc = m.v[PMU_FIXED(1)];
                expect_true(c, "fixed3 topdown slots >= fixed1 cycles", m.v[bit] + cyc / 100 + 64 >= cyc,
                            ">= cycles (width >= 1)", "%llu slots, %llu cycles", (unsigned long long)m.v[bit],
                            (unsigned long long)cyc);
            } else {
                k_snprintf(what, sizeof(what), "%s core cycles >= 8n", cn);
                silent.should_count |= 1ull << bit;
                silent.counted |= m.v[bit] ? 1ull << bit : 0;
                if (!expect_true(c, what, m.v[bit] >= floor, ">= dependency-chain bound",
                                 "%llu (bound %llu, TSC window %llu)", (unsigned long long)m.v[bit],
                                 (unsigned long long)floor, (unsigned long long)m.tsc))
                    silent.missed_on |= 1ull << bit;
            }
        }
    }
    check_note(c, "event", "%s: %s", ce->event, ce->claim);
    silent_counters_deviation(c, &silent);
}

/* The clock to size the reference windows for (ew_ref_clock): CPUID.15H of the real CPU (the emulated PMU
 * answers no leaf 15H of its own) and the TSC frequency boot/clocks chose. */
static struct ew_ref_clock ref_clock(void)
{
    u32 max, r[3], a = 0, b = 0, cx = 0, d;
    cpuid_count(0, 0, &max, &r[0], &r[1], &r[2]);
    if (max >= 0x15)
        cpuid_count(0x15, 0, &a, &b, &cx, &d);
    return ew_ref_clock(max >= 0x15, a, b, cx, timing.tsc_hz);
}

/* Iterations of ew_cycles per window: a pilot run of CYCLE_N gives the TSC ticks per iteration, and a window must
 * hold EW_REF_MIN_TICKS ticks of `clk`. With 3n the longest run, n stays within ew_max_n / 3. The pilot is kept as
 * the first run when n is CYCLE_N (so under the emulated PMU, where a single-stepped iteration is long). */
static u64 ref_window_n(struct check *c, struct pmu *p, u64 ctrs, const struct ew_ref_clock *clk, struct ew_meas *pilot)
{
    ew_measure(p, ctrs, 0, ew_cycles, CYCLE_N, pilot);
    u64 n = pilot->rc ? CYCLE_N
                      : ew_ref_window_n(EW_REF_MIN_TICKS, clk->hz, timing.tsc_hz, CYCLE_N, pilot->tsc, CYCLE_N,
                                        ew_max_n(EW_CYCLES) / 3);
    check_note(c, "window", "%llu ew_cycles iterations, sized for >= %u ticks of %llu Hz (%s); pilot: %u iterations "
               "in %llu TSC ticks at %llu Hz", (unsigned long long)n, EW_REF_MIN_TICKS, (unsigned long long)clk->hz,
               clk->source, CYCLE_N, (unsigned long long)pilot->tsc, (unsigned long long)timing.tsc_hz);
    return n;
}

/* One counter's two windows: run 2n minus run n, run 3n minus run 2n. */
struct ref_windows {
    u64 ref_a, ref_b, tsc_a, tsc_b;
};

/* Quantization of a window's rate: +-2 ticks of the slowest clock that can drive the counter - the ticks it
 * counted, or the sizing clock's ticks in the window's time when fewer (a counter that steps by more than one per
 * crystal tick, as a TSC-rate count derived from the crystal may). */
static u64 quant_ppm(u64 counted, u64 tsc, const struct ew_ref_clock *clk)
{
    u64 q = ew_ref_quant_ppm(counted), clock_ticks = ew_ref_ticks(tsc, clk->hz, timing.tsc_hz);
    u64 qc = clock_ticks ? ew_ref_quant_ppm(clock_ticks) : 0;
    return q > qc ? q : qc;
}

/* Under a hypervisor a miss (ticks missing, or the ratio off) is the host's scheduling: a named deviation. */
static bool ref_deviation(struct check *c, bool hv, bool ok, s64 ppm, u64 tol, const char *what)
{
    if (!hv || (ok && ppm <= (s64)tol && ppm >= -(s64)tol))
        return false;
    check_deviation(c, "%s: %lld ppm (tolerance %llu%s) under a hypervisor (host scheduling)", what, (long long)ppm,
                    (unsigned long long)tol, ok ? "" : "; a window counted nothing");
    return true;
}

/* The TSC/reference ratio of window b against window a: 0 within 2 % plus both windows' quantization. */
static void judge_constant(struct check *c, const char *cn, const struct ref_windows *w,
                           const struct ew_ref_clock *clk, bool hv)
{
    char what[64];
    k_snprintf(what, sizeof(what), "%s rate constant over two windows", cn);
    s64 drift = 0;
    bool ok = w->ref_a && w->ref_b && ew_ratio_ppm(w->tsc_a, w->ref_a, w->tsc_b, w->ref_b, &drift);
    u64 q = ok ? quant_ppm(w->ref_a, w->tsc_a, clk) + quant_ppm(w->ref_b, w->tsc_b, clk) : 0;
    u64 tol = REF_TOL_PPM + q;
    if (ref_deviation(c, hv, ok, drift, tol, what))
        return;
    if (!ok) {
        expect_true(c, what, false, "ticks in both windows", "ref %llu/%llu, TSC %llu/%llu",
                    (unsigned long long)w->ref_a, (unsigned long long)w->ref_b, (unsigned long long)w->tsc_a,
                    (unsigned long long)w->tsc_b);
        return;
    }
    expect_within(c, what, 0, drift, tol, "ppm");
    char key[32];
    k_snprintf(key, sizeof(key), "%s windows", cn);
    check_note(c, key, "TSC %llu/%llu, ref %llu/%llu; tolerance 2 %% + quantization %llu ppm",
               (unsigned long long)w->tsc_a, (unsigned long long)w->tsc_b, (unsigned long long)w->ref_a,
               (unsigned long long)w->ref_b, (unsigned long long)q);
}

/* Fixed counter 2 over both windows against the TSC: 0 within 2 % plus the quantization of run 3n minus run n. */
static void judge_tsc_rate(struct check *c, const struct ref_windows *w, const struct ew_ref_clock *clk, bool hv)
{
    u64 ref = w->ref_a + w->ref_b, tsc = w->tsc_a + w->tsc_b;
    s64 off = 0;
    bool ok = ref && ew_ratio_ppm(ref, tsc, 1, 1, &off);
    u64 tol = REF_TOL_PPM + (ok ? quant_ppm(ref, tsc, clk) : 0);
    if (ref_deviation(c, hv, ok, off, tol, "fixed2 off the TSC rate"))
        return;
    if (ok)
        expect_within(c, "fixed2 at the TSC rate", 0, off, tol, "ppm");
    else
        expect_true(c, "fixed2 at the TSC rate", false, "ticks counted", "%llu in %llu TSC ticks",
                    (unsigned long long)ref, (unsigned long long)tsc);
}

/* Reference cycles against the TSC. A fixed-rate clock keeps its ratio to the TSC: two windows (ew_cycles with
 * n, 2n and 3n, differences taken so the measuring path cancels) must give the same ratio within 2 % plus the
 * windows' quantization. Intel's fixed counter 2 counts at the TSC rate (SDM Vol.3B Table 21-2,
 * CPU_CLK_UNHALTED.REF_TSC): ratio 1 within 2 % plus quantization. Table 21-1's event 3CH/01H may use the
 * crystal, TSC or bus clock ("software should calibrate it"): its ratio is reported, and only its constancy is
 * checked. At a 24/25 MHz crystal a CYCLE_N window holds a few hundred ticks or fewer, where +-2 ticks alone can
 * exceed 1 %: n is sized for EW_REF_MIN_TICKS ticks of the slowest clock it can be (ref_window_n). */
void events_ref_cycles_check(struct check *c)
{
    struct pmu_cpu *pmc = this_pmu_cpu();
    SKIP_WITHOUT_PMU(c, pmc);
    struct pmu *p = &pmc->pmu;
    const struct ew_event *re = event_judged(p, EWJ_REF_CYCLES);
    const struct pmu_event *ev = re ? find_event(c, p, re->event) : NULL;
    bool fixed2 = pmu_counter_exists(p, PMU_FIXED(2));
    if (!ev && !fixed2)
        return check_skip(c, "no reference-cycles event on this PMU (%s)", p->be->name);
    pmu_reset(p);
    u64 ctrs = 0;
    int r = 0;
    if (ev) { /* on the first GP counter that can count it */
        struct pmu_evsel base = {.usr = true, .os = true, .enable = true};
        u64 gp = event_gp_counters(c, p, ev);
        gp &= -gp;
        r = program_gp(p, gp, ev, &base);
        ctrs |= gp;
    }
    if (fixed2 && !r) {
        r = pmu_program_fixed(p, 2, PMU_FIXED_USR | PMU_FIXED_OS);
        ctrs |= 1ull << PMU_FIXED(2);
    }
    if (!expect_eq(c, "programming", 0, (u64)r))
        return;
    struct ew_ref_clock clk = ref_clock();
    struct ew_meas m[3];
    u64 n = ref_window_n(c, p, ctrs, &clk, &m[0]);
    /* The two windows are n iterations each, so their TSC lengths agree unless one was stalled from outside (a
     * descheduled vCPU, an SMI): seen under two host hogs, 685 and 266 million TSC ticks, which moved the ratio
     * 17%. Such a measurement is made again, up to 3 times, and the last one is judged: a PMU whose counting
     * itself makes the windows differ (a PMI storm) still fails. */
    u64 tsc_a = 0, tsc_b = 0;
    for (int attempt = 0; attempt < 3; attempt++) {
        for (int i = n == CYCLE_N && attempt == 0 ? 1 : 0; i < 3; i++)
            ew_measure(p, ctrs, 0, ew_cycles, n * (u64)(i + 1), &m[i]);
        tsc_a = m[1].tsc - m[0].tsc;
        tsc_b = m[2].tsc - m[1].tsc;
        if ((tsc_a > tsc_b ? tsc_a - tsc_b : tsc_b - tsc_a) <= MAX(tsc_a, tsc_b) / 5)
            break;
    }
    pmu_reset(p);
    if (!expect_eq(c, "measurement access", 0, (u64)(m[0].rc | m[1].rc | m[2].rc)))
        return;
    if ((tsc_a > tsc_b ? tsc_a - tsc_b : tsc_b - tsc_a) > MAX(tsc_a, tsc_b) / 5)
        check_note(c, "windows apart", "two windows of %llu iterations took %llu and %llu TSC ticks (more than 20%% "
                   "apart) in each of 3 measurements; the last one is judged", (unsigned long long)n,
                   (unsigned long long)tsc_a, (unsigned long long)tsc_b);
    /* The windows are timed by the real TSC: under a hypervisor its scheduling moves them, and so it does for the
     * emulated PMU on one, whose reference cycles follow the TSC only while it steps the workload (windows of
     * 469 and 351 million ticks in all of 3 measurements under two host hogs). A named deviation there. */
    bool hv = p->caps->hypervisor || (g_pmu_emulated && boot_state()->ident.hypervisor_bit);
    for (u32 bit = 0; bit < 64; bit++) {
        if (!(ctrs >> bit & 1))
            continue;
        char cn[12];
        ctr_name(bit, cn, sizeof(cn));
        struct ref_windows w = {m[1].v[bit] - m[0].v[bit], m[2].v[bit] - m[1].v[bit], m[1].tsc - m[0].tsc,
                                m[2].tsc - m[1].tsc};
        judge_constant(c, cn, &w, &clk, hv);
        if (PMU_IS_FIXED(bit)) {
            judge_tsc_rate(c, &w, &clk, hv);
        } else {
            u64 ref = w.ref_a + w.ref_b ? w.ref_a + w.ref_b : 1, tsc = w.tsc_a + w.tsc_b;
            check_note(c, "gp_ref_ratio", "TSC ticks per reference cycle: %llu.%03llu", (unsigned long long)(tsc / ref),
                       (unsigned long long)((tsc * 1000 / ref) % 1000));
        }
    }
}

/* CLFLUSHed lines loaded once each: at least one miss per line (SDM Vol.2A CLFLUSH), on every GP counter. */
void events_llc_check(struct check *c)
{
    struct pmu_cpu *pmc = this_pmu_cpu();
    SKIP_WITHOUT_PMU(c, pmc);
    struct pmu *p = &pmc->pmu;
    const char *gap = pmu_emul_gap(PMU_EMUL_GAP_CACHE);
    if (gap)
        return check_skip(c, "%s", gap);
    const struct ew_event *le = event_judged(p, EWJ_LLC_MISSES);
    const struct pmu_event *ev = le ? find_event(c, p, le->event) : NULL;
    if (!ev)
        return check_skip(c, "no cache-miss event listed for this PMU (%s; AMD's L2/L3 events are family-"
                          "specific and not in tests/events/portable/events_spec.c)", p->be->name);
    pmu_reset(p);
    struct pmu_evsel base = {.usr = true, .os = true, .enable = true};
    u64 gps = event_gp_counters(c, p, ev);
    if (!gps)
        return check_skip(c, "no GP counter can count %s on this family", ev->name);
    if (!expect_eq(c, "programming", 0, (u64)program_gp(p, gps, ev, &base)))
        return;
    struct ew_meas m;
    ew_measure(p, gps, 0, ew_clflush, EW_LINES_MAX, &m);
    pmu_reset(p);
    if (!expect_eq(c, "measurement access", 0, (u64)m.rc))
        return;
    for (u32 bit = 0; bit < 32; bit++) {
        if (!(gps >> bit & 1))
            continue;
        char what[48], cn[12];
        k_snprintf(what, sizeof(what), "%s misses >= lines", ctr_name(bit, cn, sizeof(cn)));
        expect_true(c, what, m.v[bit] >= EW_LINES_MAX, ">= 64", "%llu", (unsigned long long)m.v[bit]);
    }
    check_note(c, "event", "%s: %s", le->event, le->claim);
}

/* LFSR-driven branches: mispredicted branches retired lie in [1, branches retired] of the same run, counted on
 * two GP counters at once (USR, CPL-3 run). The rate is reported. */
void events_mispredict_check(struct check *c)
{
    struct pmu_cpu *pmc = this_pmu_cpu();
    SKIP_WITHOUT_PMU(c, pmc);
    struct pmu *p = &pmc->pmu;
    const struct ew_event *me = event_judged(p, EWJ_MISPREDICTS);
    const struct pmu_event *mev = me ? find_event(c, p, me->event) : NULL;
    const struct pmu_event *bev = pmu_event_generic(p->caps, PMU_EV_BRANCHES, NULL);
    if (!mev || !bev)
        return check_skip(c, "no mispredict or branch event on this PMU (%s)", p->be->name);
    if (!pmu_counter_exists(p, PMU_GP(1)))
        return check_skip(c, "one GP counter: the bound needs two counting the same run");
    pmu_reset(p);
    struct pmu_evsel base = {.usr = true, .enable = true};
    int r = program_gp(p, 1, mev, &base);
    if (!r)
        r = program_gp(p, 2, bev, &base);
    if (!expect_eq(c, "programming", 0, (u64)r))
        return;
    struct ew_meas m;
    const u64 n = 4 * ew_lengths[EW_LFSR].n2;
    ew_measure(p, 3, 3, ew_lfsr, n, &m);
    pmu_reset(p);
    if (!expect_eq(c, "measurement access", 0, (u64)m.rc))
        return;
    expect_true(c, "mispredicted >= 1", m.v[0] >= 1, ">= 1", "%llu", (unsigned long long)m.v[0]);
    expect_true(c, "mispredicted <= branches", m.v[0] <= m.v[1], "<= branches of the run", "%llu of %llu",
                (unsigned long long)m.v[0], (unsigned long long)m.v[1]);
    struct ew_counts e;
    ew_expect(EW_LFSR, n, &e);
    check_note(c, "rate", "%llu mispredicted per 1000 conditional branches of the workload (n %llu)",
               (unsigned long long)(m.v[0] * 1000 / (e.cond ? e.cond : 1)), (unsigned long long)n);
}

/* CMASK, INV and EDGE on instructions retired, where the select defines them (SDM Vol.3B 21.2.1.1; AMD APM
 * Vol.2 13.2.1 CntMask/Inv/Edge; KNC Table 1-5): with CMASK=1 the counter counts cycles with at least one
 * instruction retired, with INV too the cycles with none; together they are the core cycles of the same
 * window (three counters under one global enable; tolerance 1 % + 64 for the start and stop edges). EDGE with
 * CMASK=1 counts the starts of retiring stretches: at least 1, at most the cycles that retired. */
void events_cmask_check(struct check *c)
{
    struct pmu_cpu *pmc = this_pmu_cpu();
    SKIP_WITHOUT_PMU(c, pmc);
    struct pmu *p = &pmc->pmu;
    const char *gap = pmu_emul_gap(PMU_EMUL_GAP_CMASK);
    if (gap)
        return check_skip(c, "%s", gap);
    if (!pmu_has_global_ctrl(p))
        return check_skip(c, "no global enable: the counters cannot start in the same cycle");
    if (!pmu_counter_exists(p, PMU_GP(3)))
        return check_skip(c, "fewer than 4 GP counters (%u)", p->caps->num_gp);
    const struct pmu_event *ins = pmu_event_generic(p->caps, PMU_EV_INSTRUCTIONS, NULL);
    const struct pmu_event *cyc = pmu_event_generic(p->caps, PMU_EV_CYCLES, NULL);
    if (!ins || !cyc)
        return check_skip(c, "no instructions or cycles event");
    pmu_reset(p);
    struct pmu_evsel any = {.usr = true, .os = true, .enable = true, .cmask = 1};
    struct pmu_evsel none = any, edge = any, plain = {.usr = true, .os = true, .enable = true};
    none.inv = true;
    edge.edge = true;
    struct pmu_evsel e;
    int r = 0;
    pmu_event_to_evsel(ins, &any, &e);
    e.cmask = 1;
    r = r ? r : pmu_program_gp(p, 0, &e);
    pmu_event_to_evsel(ins, &none, &e);
    e.cmask = 1;
    r = r ? r : pmu_program_gp(p, 1, &e);
    pmu_event_to_evsel(cyc, &plain, &e);
    r = r ? r : pmu_program_gp(p, 2, &e);
    pmu_event_to_evsel(ins, &edge, &e);
    e.cmask = 1;
    r = r ? r : pmu_program_gp(p, 3, &e);
    if (!expect_eq(c, "programming", 0, (u64)r))
        return;
    struct ew_meas m;
    ew_measure(p, 0xF, 0, ew_cycles, CYCLE_N, &m);
    pmu_reset(p);
    if (!expect_eq(c, "measurement access", 0, (u64)m.rc))
        return;
    u64 sum = m.v[0] + m.v[1];
    expect_within(c, "CMASK=1 + CMASK=1 INV = cycles", (s64)m.v[2], (s64)sum, m.v[2] / 100 + 64, "cycles");
    expect_true(c, "EDGE starts", m.v[3] >= 1 && m.v[3] <= m.v[0], "1 <= edges <= retiring cycles",
                "%llu edges, %llu retiring cycles", (unsigned long long)m.v[3], (unsigned long long)m.v[0]);
}
