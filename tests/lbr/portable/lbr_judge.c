/* Suite "lbr"'s expectations and comparison (see lbr_judge.h). */
#include "tests/lbr/portable/lbr_judge.h"

static bool keeps(const struct lbr_filter *f, const struct lbr_ref *r)
{
    return r->kind >= 0 && lbr_filter_passes(f, (enum lbr_branch)r->kind, r->to_cpl);
}

u32 lbr_expect(const struct lbr_ref *stream, u32 n, const struct lbr_filter *f, u32 depth, struct lbr_ref *out)
{
    u32 k = 0;
    for (u32 i = n; i-- > 0 && k < depth;)
        if (keeps(f, &stream[i]))
            out[k++] = stream[i];
    return k;
}

bool lbr_match(const struct lbr_record *all, u32 nall, const struct lbr_ref *exp, u32 nexp, u64 exit_from,
               bool has_mispred, bool fused_from, struct lbr_match *out)
{
    *out = (struct lbr_match){.expected = nexp, .mismatch = -1};
    struct lbr_record obs[LBR_MAX_DEPTH];
    u32 nobs = 0;
    for (u32 i = 0; i < nall && nobs < LBR_MAX_DEPTH; i++) {
        if (all[i].not_retired)
            out->not_retired++;
        else
            obs[nobs++] = all[i];
    }
    u32 o = 0;
    if (nobs && obs[0].valid && exit_from && obs[0].from == exit_from) {
        out->exit_on_top = true;
        o = 1;
    }
    for (u32 i = 0; i < nexp; i++, o++) {
        bool fused = fused_from && exp[i].kind == LBR_BR_JCC && exp[i].before && o < nobs &&
                     obs[o].from == exp[i].before;
        bool same = o < nobs && obs[o].valid && (obs[o].from == exp[i].from || fused) && obs[o].to == exp[i].to;
        if (!same) {
            out->mismatch = (int)i;
            out->exp_from = exp[i].from;
            out->exp_to = exp[i].to;
            out->got_from = o < nobs ? obs[o].from : 0;
            out->got_to = o < nobs ? obs[o].to : 0;
            break;
        }
        out->matched++;
        out->fused += fused;
        if (obs[o].type >= 0) {
            out->type_checked++;
            out->type_wrong += obs[o].type != exp[i].kind;
        }
        if (has_mispred && exp[i].mispred >= 0) {
            out->mispred_checked++;
            out->mispred_wrong += obs[o].mispred != (exp[i].mispred == 1);
        }
    }
    if (out->mismatch < 0)
        for (; o < nobs; o++)
            out->extra += obs[o].valid;
    return out->mismatch < 0 && !out->extra && !out->type_wrong && !out->mispred_wrong;
}

s32 lbr_freeze_top(const struct lbr_ref *stream, u32 n, const struct lbr_filter *f, u64 k)
{
    s32 top = -1, t = 0;
    for (u32 i = 0; i < n && i < k; i++) {
        if (!keeps(f, &stream[i]))
            continue;
        top = t++;
    }
    return top;
}

u32 lbr_expect_at(const struct lbr_ref *stream, u32 n, const struct lbr_filter *f, u32 top, u32 depth,
                  struct lbr_ref *out)
{
    u32 t = 0;
    for (u32 i = 0; i < n; i++) {
        if (!keeps(f, &stream[i]))
            continue;
        if (t++ == top)
            return lbr_expect(stream, i + 1, f, depth, out);
    }
    return 0;
}

bool lbr_stack_same(const struct lbr_record *a, const struct lbr_record *b, u32 depth)
{
    for (u32 i = 0; i < depth; i++)
        if (a[i].from != b[i].from || a[i].to != b[i].to || a[i].valid != b[i].valid)
            return false;
    return true;
}
