/* Judging clock measurements and choosing the TSC's calibration; see clock_select.h. */
#include "lib/clock_select.h"

#include <string.h>

#include "lib/apic_timer_calc.h"
#include "lib/format.h"

typedef unsigned long long ull;

u64 clock_counter_delta(u64 prev, u64 now, u32 bits, bool down)
{
    u64 mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    return (down ? prev - now : now - prev) & mask;
}

static bool bracket_ok(u64 bracket, u64 tsc)
{
    return tsc && mul_div_u64(bracket, 1000000, tsc, NULL) <= CLOCK_BRACKET_MAX_PPM;
}

static bool gaps_ok(const struct clock_window *w)
{
    return w->max_gap <= w->tsc / 100 * CLOCK_GAP_MAX_PCT;
}

bool clock_window_can_end(const struct clock_window *w, u64 want, u64 end_bracket)
{
    if (w->ticks < want)
        return false;
    if (w->ticks >= want * CLOCK_WINDOW_STRETCH_MAX)
        return true;
    return bracket_ok(w->bracket + end_bracket, w->tsc) && gaps_ok(w);
}

u64 clock_window_tsc_hz(const struct clock_window *w, struct clock_rate r)
{
    if (!w->ticks || !r.den)
        return 0;
    bool ok;
    u64 ticks_den = w->ticks * r.den; /* ticks of a 40 ms window times 3 at most: no overflow */
    u64 hz = mul_div_u64(w->tsc, r.num, ticks_den, &ok);
    return ok ? hz : 0;
}

void clock_meas_begin(struct clock_meas *m, struct clock_rate r, u32 bits)
{
    memset(m, 0, sizeof(*m));
    m->state = CLOCK_UNUSABLE;
    m->rate = r;
    m->bits = bits;
}

bool clock_meas_add(struct clock_meas *m, const struct clock_window *w)
{
    if (m->tried >= CLOCK_WINDOWS_MAX)
        return false;
    m->tried++;
    /* The time of a read is known to within its bracket: the window's length to within the two ends'. */
    if (!bracket_ok(w->bracket, w->tsc)) {
        m->rejected_bracket++;
        return false;
    }
    /* The longest gap, in counter ticks at the window's own rate, or the largest step: over a quarter of the
     * range, whole wraps could hide in it (the PIT's 16 bits wrap every 55 ms). Never used. */
    u64 range = m->bits < 64 ? 1ull << m->bits : 0;
    u64 gap_ticks = w->tsc ? mul_div_u64(w->max_gap, w->ticks, w->tsc, NULL) : UINT64_MAX;
    if (range && (w->max_step > range / 4 || gap_ticks > range / 4)) {
        m->rejected_wrap++;
        return false;
    }
    u64 hz = clock_window_tsc_hz(w, m->rate);
    u64 ppm = mul_div_u64(w->bracket, 1000000, w->tsc, NULL) / 2; /* each end within half its bracket */
    /* A long unobserved stretch (a descheduled vCPU): both clocks run on in it on hardware and under QEMU, but a
     * hypervisor whose clock stopped meanwhile would skew the window. Such windows are kept apart, used only
     * when too few clean ones were had, and then their spread shows whether the clocks kept running. */
    if (!gaps_ok(w)) {
        if (m->gapped < CLOCK_WINDOWS_WANT) {
            m->gapped_hz[m->gapped] = hz;
            m->gapped_uncertainty_ppm = MAX(m->gapped_uncertainty_ppm, ppm);
        }
        m->gapped++;
        return false;
    }
    m->window_hz[m->kept++] = hz;
    m->uncertainty_ppm = MAX(m->uncertainty_ppm, ppm);
    return true;
}

bool clock_meas_more(const struct clock_meas *m)
{
    return m->kept < CLOCK_WINDOWS_WANT && m->tried < CLOCK_WINDOWS_MAX;
}

void clock_meas_dead(struct clock_meas *m, const char *why)
{
    m->state = CLOCK_DEAD;
    k_snprintf(m->note, sizeof(m->note), "%s", why);
}

void clock_meas_finish(struct clock_meas *m)
{
    if (m->state == CLOCK_DEAD)
        return;
    m->state = CLOCK_UNUSABLE;
    for (u32 i = 0; m->kept < CLOCK_WINDOWS_MIN && i < MIN(m->gapped, (u32)CLOCK_WINDOWS_WANT); i++) {
        /* the second tier, if need be */
        m->window_hz[m->kept++] = m->gapped_hz[i];
        m->used_gapped++;
        m->uncertainty_ppm = MAX(m->uncertainty_ppm, m->gapped_uncertainty_ppm);
    }
    if (m->kept < CLOCK_WINDOWS_MIN) {
        k_snprintf(m->note, sizeof(m->note), "%u of %u windows usable (%u slow reads, %u wrap risks), %u needed",
                   m->kept, m->tried, m->rejected_bracket, m->rejected_wrap, CLOCK_WINDOWS_MIN);
        return;
    }
    u64 sorted[CLOCK_WINDOWS_MAX];
    memcpy(sorted, m->window_hz, m->kept * sizeof(sorted[0]));
    m->tsc_hz = median_u64(sorted, m->kept);
    m->spread_ppm = m->tsc_hz ? mul_div_u64(sorted[m->kept - 1] - sorted[0], 1000000, m->tsc_hz, NULL) : 0;
    m->uncertainty_ppm = MAX(m->uncertainty_ppm, m->spread_ppm);
    if (m->tsc_hz < CLOCK_TSC_HZ_MIN || m->tsc_hz > CLOCK_TSC_HZ_MAX) {
        k_snprintf(m->note, sizeof(m->note), "measures the TSC at %llu Hz: not a plausible TSC (%llu MHz - %llu GHz)",
                   (ull)m->tsc_hz, (ull)(CLOCK_TSC_HZ_MIN / 1000000), (ull)(CLOCK_TSC_HZ_MAX / 1000000000));
        return;
    }
    if (m->uncertainty_ppm > CLOCK_UNCERTAIN_MAX_PPM) {
        k_snprintf(m->note, sizeof(m->note), "windows spread over %llu ppm (more than %u)", (ull)m->spread_ppm,
                   CLOCK_UNCERTAIN_MAX_PPM);
        return;
    }
    m->state = CLOCK_OK;
}

void clock_meas_enumerated(struct clock_meas *m, u64 hz)
{
    m->state = CLOCK_OK;
    m->tsc_hz = hz;
    m->uncertainty_ppm = 0;
}

u64 clock_diff_ppm(u64 a, u64 b)
{
    if (!b)
        return UINT64_MAX;
    return mul_div_u64(a > b ? a - b : b - a, 1000000, b, NULL);
}

const char *clock_name(enum clock_id id)
{
    static const char *const names[] = {"CPUID 15H", "HPET", "PM timer", "PIT", "CPUID 16H"};
    return id < CLOCK_COUNT ? names[id] : "none";
}

const char *clock_state_name(enum clock_state s)
{
    static const char *const names[] = {"absent", "does not count", "unusable", "ok"};
    return (unsigned)s < ARRAY_SIZE(names) ? names[s] : "?";
}

static bool candidate(const struct clock_meas m[CLOCK_COUNT], u32 i)
{
    return i != CLOCK_CPUID16 && m[i].state == CLOCK_OK;
}

static bool agree(const struct clock_meas *a, const struct clock_meas *b, u64 *ppm)
{
    *ppm = clock_diff_ppm(a->tsc_hz, b->tsc_hz);
    return *ppm <= CLOCK_AGREE_PPM + a->uncertainty_ppm + b->uncertainty_ppm;
}

/* "2445.1 MHz" */
static void mhz(struct strbuf *sb, u64 hz)
{
    sb_printf(sb, "%llu.%llu MHz", (ull)(hz / 1000000), (ull)(hz / 100000 % 10));
}

static void no_source(const struct clock_meas m[CLOCK_COUNT], struct clock_choice *c)
{
    struct strbuf sb;
    sb_init(&sb, c->problem, sizeof(c->problem));
    sb_printf(&sb, "no trustworthy clock:");
    for (u32 i = 0; i < CLOCK_CPUID16; i++)
        sb_printf(&sb, "%s %s %s", i ? "," : "", clock_name(i), clock_state_name(m[i].state));
    if (m[CLOCK_CPUID16].state == CLOCK_OK) {
        c->source = CLOCK_CPUID16;
        c->tsc_hz = m[CLOCK_CPUID16].tsc_hz;
        sb_printf(&sb, "; using CPUID 16H's nominal base frequency, unverified");
        k_snprintf(c->summary, sizeof(c->summary), "CPUID 16H (nominal, NOT measured: nothing to measure the TSC "
                                                   "against)");
    } else {
        k_snprintf(c->summary, sizeof(c->summary), "none (no clock to measure the TSC against)");
    }
}

void clock_choose(const struct clock_meas m[CLOCK_COUNT], struct clock_choice *c)
{
    memset(c, 0, sizeof(*c));
    c->source = CLOCK_COUNT;
    int best = -1;
    u32 best_agree = 0;
    for (u32 i = 0; i < CLOCK_COUNT; i++) {
        if (!candidate(m, i))
            continue;
        u32 n = 0;
        for (u32 j = 0; j < CLOCK_COUNT; j++) {
            u64 ppm;
            n += j != i && candidate(m, j) && agree(&m[i], &m[j], &ppm);
        }
        if (best < 0 || n > best_agree) {
            best = (int)i;
            best_agree = n;
        }
    }
    if (best < 0)
        return no_source(m, c);
    c->source = (enum clock_id)best;
    c->tsc_hz = m[best].tsc_hz;

    struct strbuf sb, pb;
    sb_init(&sb, c->summary, sizeof(c->summary));
    sb_init(&pb, c->problem, sizeof(c->problem));
    sb_printf(&sb, "%s (", clock_name(c->source));
    bool first = true;
    for (u32 j = 0; j < CLOCK_CPUID16; j++) {
        if (j == (u32)best || (j == CLOCK_CPUID15 && m[j].state == CLOCK_ABSENT))
            continue;
        sb_printf(&sb, "%s%s ", first ? "" : ", ", clock_name(j));
        first = false;
        u64 ppm;
        if (!candidate(m, j)) {
            sb_printf(&sb, "%s", clock_state_name(m[j].state));
        } else if (agree(&m[best], &m[j], &ppm)) {
            c->agree++;
            c->worst_agree_ppm = MAX(c->worst_agree_ppm, ppm);
            sb_printf(&sb, "agrees within %llu ppm", (ull)ppm);
        } else {
            c->disagree++;
            sb_printf(&sb, "DISAGREES: ");
            mhz(&sb, m[j].tsc_hz);
            sb_printf(&pb, "%s%s measures ", pb.len ? "; " : "", clock_name(j));
            mhz(&pb, m[j].tsc_hz);
            sb_printf(&pb, ", %llu ppm from %s (tolerance %llu ppm)", (ull)ppm, clock_name(c->source),
                      (ull)(CLOCK_AGREE_PPM + m[best].uncertainty_ppm + m[j].uncertainty_ppm));
        }
    }
    if (c->agree + c->disagree == 0)
        sb_printf(&sb, "%snot cross-checked: no other clock", first ? "" : "; ");
    sb_printf(&sb, ")");
    c->trusted = c->disagree == 0;
}

bool hpet_caps_decode(u64 gcap, struct hpet_caps *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof(*out));
    out->period_fs = (u32)(gcap >> 32);
    out->bits = (gcap >> 13) & 1 ? 64 : 32;
    out->timers = ((gcap >> 8) & 0x1F) + 1;
    out->rev = (u8)gcap;
    if (gcap == ~0ull) {
        k_snprintf(why, why_size, "capabilities read 0xffffffffffffffff: no device answers there");
        return false;
    }
    if (out->rev == 0) { /* HPET 1.0a 2.3.4: REV_ID "must not be 0" */
        k_snprintf(why, why_size, "capabilities 0x%016llx: REV_ID 0", (ull)gcap);
        return false;
    }
    if (out->period_fs == 0 || out->period_fs > HPET_PERIOD_MAX_FS) {
        k_snprintf(why, why_size, "COUNTER_CLK_PERIOD %u fs outside (0, %u] (capabilities 0x%016llx)", out->period_fs,
                   HPET_PERIOD_MAX_FS, (ull)gcap);
        return false;
    }
    return true;
}
