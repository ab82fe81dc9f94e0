/* Suite "pebs"'s comparison (see pebs_judge.h). */
#include "tests/pebs/portable/pebs_judge.h"

static bool fail(struct pebs_judgement *out, int k, const char *why)
{
    out->bad = k;
    out->why = why;
    return false;
}

bool pebs_judge(const struct pebs_stream *s, u64 period, const struct pebs_record *r, u32 nr, u32 max_start, bool trap,
                bool exact, struct pebs_judgement *out)
{
    *out = (struct pebs_judgement){.records = nr, .bad = -1, .why = ""};
    s64 prev = -1;
    s64 first = -1;
    for (u32 k = 0; k < nr; k++) {
        const struct pebs_record *x = &r[k];
        bool eventing = x->has_eventing_ip;
        bool rip_is_eventing = !eventing && x->has_ip_after && !trap; /* a fault-like assist (formats 0-1) */
        /* Where the period puts it: the first record within max_start + 1 events of the period, the second the
         * period or the period + 1 after it, every later one the same distance again. */
        s64 lo = k == 0 ? (s64)period - 1 - max_start : k == 1 || !exact ? prev + (s64)period : prev + out->d;
        s64 hi = !exact ? (s64)s->nev - 1 : k == 0 ? (s64)period : k == 1 ? prev + (s64)period + 1 : prev + out->d;
        s64 p = -1;
        for (s64 q = lo < 0 ? 0 : lo; q <= hi && q < (s64)s->nev && p < 0; q++) {
            u32 i = s->ev[q];
            if (eventing || rip_is_eventing ? s->rip[i] == (eventing ? x->eventing_ip : x->ip_after)
                                            : i + 1 < s->n && s->rip[i + 1] == x->ip_after)
                p = q;
        }
        if (p < 0 && !exact)
            return fail(out, (int)k, k == 0 ? "it names no instruction that counts the event, as late as the period "
                                              "allows"
                                            : "it names no instruction that counts the event, at least the period "
                                              "after the one before");
        if (p < 0)
            return fail(out, (int)k, k == 0 ? "it names no instruction the period's first record can be"
                                            : k == 1 ? "it is neither the period nor the period + 1 events after the "
                                                       "first"
                                                     : "it is not the same number of events after the one before");
        s64 late = p - lo;
        if (late > out->shadow_max)
            out->shadow_max = late;
        u32 i = s->ev[p];
        if (eventing && x->has_ip_after && !(i + 1 < s->n && s->rip[i + 1] == x->ip_after))
            return fail(out, (int)k, "its RIP after is not the instruction after its EventingIP");
        u64 rax;
        if (x->has_gprs && !rip_is_eventing && s->rax_after && s->rax_after(i, &rax)) {
            out->rax_checked++;
            if (x->rax != rax)
                return fail(out, (int)k, "its RAX is not the workload's after that instruction");
        }
        if (k == 1)
            out->d = p - prev;
        if (k == 0)
            first = p;
        prev = p;
    }
    if (!exact) {
        /* At most one record per period of the events there are; at least one. */
        out->d = (s64)period;
        out->start = (s64)max_start;
        out->expected = (u32)(((s64)s->nev + (s64)max_start) / (s64)period);
        if (!nr)
            return fail(out, 0, "no record");
        if (nr > out->expected)
            return fail(out, (int)out->expected, "more records than the events allow");
        return true;
    }
    if (nr < 2)
        return fail(out, (int)nr, "fewer than two records: the spacing is not known");
    /* The first record is the d-th counted event: stream event index d - 1 - start. */
    out->start = out->d - 1 - first;
    if (out->start < 0 || out->start > (s64)max_start)
        return fail(out, 0, "the first record is not where the period puts it");
    out->expected = (u32)(((s64)s->nev + out->start) / out->d);
    if (nr != out->expected)
        return fail(out, (int)(nr < out->expected ? nr : out->expected), "records missing or more than the events "
                                                                         "allow");
    return true;
}
