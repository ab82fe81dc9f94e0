/* Suite "skid"'s arithmetic and verdict (see skid_judge.h). */
#include "tests/skid/portable/skid_judge.h"

static bool own_start(const struct skid_trial *t, s64 *start)
{
    if (!t->pmi || !t->in_stream || !t->counter_read)
        return false;
    s64 overflowing = t->interrupted - 1 - t->after_wrap;
    *start = (s64)t->period - 1 - overflowing;
    return true;
}

void skid_counting_start(const struct skid_trial *t, u32 n, struct skid_start *out)
{
    *out = (struct skid_start){0};
    for (u32 i = 0; i < n; i++) {
        s64 a, b;
        if (!own_start(&t[i], &a))
            continue;
        out->trials++;
        u32 same = 0;
        for (u32 j = 0; j < n; j++)
            same += own_start(&t[j], &b) && b == a;
        if (same > out->agree) {
            out->agree = same;
            out->start = a;
        }
    }
    out->found = out->agree * 2 > out->trials;
}

bool skid_distance(const struct skid_trial *t, s64 start, s64 *out)
{
    s64 own;
    if (!t->pmi || !t->in_stream || (own_start(t, &own) && own != start))
        return false;
    s64 overflowing = (s64)t->period - 1 - start;
    *out = t->interrupted - overflowing;
    return true;
}

static void sort(s64 *d, u32 n)
{
    for (u32 i = 1; i < n; i++)
        for (u32 j = i; j > 0 && d[j - 1] > d[j]; j--) {
            s64 x = d[j];
            d[j] = d[j - 1];
            d[j - 1] = x;
        }
}

/* The p-th percentile by the nearest-rank rule: the smallest value with at least p% of the values at or below it. */
static s64 nearest_rank(const s64 *d, u32 n, u32 p)
{
    u32 rank = (u32)(((u64)p * n + 99) / 100);
    return d[rank ? rank - 1 : 0];
}

void skid_summarize(s64 *d, u32 valid, u32 trials, u64 bound, struct skid_summary *out)
{
    *out = (struct skid_summary){.trials = trials, .valid = valid};
    if (!valid)
        return;
    sort(d, valid);
    out->min = d[0];
    out->max = d[valid - 1];
    out->median = nearest_rank(d, valid, 50);
    out->p99 = nearest_rank(d, valid, 99);
    for (u32 i = 0; i < valid; i++) {
        out->early += d[i] <= 0;
        out->beyond += bound && d[i] > (s64)bound;
    }
}

enum skid_verdict skid_judge(const struct skid_summary *s, const char **why)
{
    if (s->early >= 2) {
        *why = "the PMI arrived before the overflowing instruction retired, in two trials or more";
        return SKID_FAIL_EARLY;
    }
    if (s->beyond >= 2) {
        *why = "the PMI arrived later than the bound, in two trials or more";
        return SKID_FAIL_BOUND;
    }
    if (s->early || s->beyond) {
        *why = "one trial alone deviated: not repeated, so not a verdict";
        return SKID_INCONCLUSIVE;
    }
    if (!s->valid || s->valid * 2 < s->trials) {
        *why = "fewer than half the trials gave a distance (no PMI, or its RIP outside the workload)";
        return SKID_INCONCLUSIVE;
    }
    *why = "every trial's PMI came after the overflowing instruction retired";
    return SKID_PASS;
}
