#include "lib/guest_state.h"

#include "lib/format.h"

static const char *const names[GSEG_N] = {"ES", "CS", "SS", "DS", "FS", "GS", "LDTR", "TR"};

const char *guest_seg_name(enum guest_seg s)
{
    return (unsigned)s < GSEG_N ? names[s] : "?";
}

bool seg_load(const u64 *gdt, u32 n, u16 sel, bool ia32e, struct seg_state *out)
{
    u32 idx = sel >> 3;
    out->sel = sel;
    if ((sel & ~3u) == 0) {
        out->base = 0;
        out->limit = 0;
        out->ar = SEG_AR_UNUSABLE | ((sel & 3u) << 5);
        return true;
    }
    if ((sel & 4) || idx >= n)
        return false;
    u64 d = gdt[idx];
    u32 limit = (u32)(d & 0xFFFF) | (u32)((d >> 32) & 0xF0000);
    out->base = ((d >> 16) & 0xFFFFFF) | (((d >> 56) & 0xFF) << 24);
    out->ar = (u32)((d >> 40) & 0xFF) | (u32)(((d >> 52) & 0xF) << 12);
    if (out->ar & SEG_AR_G)
        limit = (limit << 12) | 0xFFF;
    out->limit = limit;
    if (out->ar & SEG_AR_S) {
        out->ar |= 1; /* accessed: set by the load */
    } else if (ia32e) {
        if (idx + 1 >= n)
            return false;
        out->base |= (gdt[idx + 1] & 0xFFFFFFFF) << 32;
    }
    return true;
}

struct seg_state seg_after_reset(enum guest_seg s)
{
    struct seg_state r = {0, 0, 0xFFFF, SEG_AR_P | SEG_AR_S | 3};
    if (s == GSEG_CS) {
        r.sel = 0xF000;
        r.base = 0xFFFF0000;
    } else if (s == GSEG_LDTR) {
        r.ar = SEG_AR_P | 2;
    } else if (s == GSEG_TR) {
        r.ar = SEG_AR_P | 11;
    }
    return r;
}

void tss64_descriptor(u64 slot[2], u64 base, u32 limit)
{
    slot[0] = (limit & 0xFFFF) | ((base & 0xFFFFFF) << 16) | (0x89ull << 40) | ((u64)((limit >> 16) & 0xF) << 48) |
              (((base >> 24) & 0xFF) << 56);
    slot[1] = base >> 32;
}

struct problems {
    char (*out)[GUEST_STATE_MSG];
    u32 max, n;
};

static void problem(struct problems *p, enum guest_seg s, const char *what)
{
    if (p->n < p->max)
        k_snprintf(p->out[p->n], GUEST_STATE_MSG, "%s: %s", guest_seg_name(s), what);
    p->n++;
}

static bool canonical(u64 a)
{
    return (u64)((s64)(a << 16) >> 16) == a;
}

/* Limit and G consistency (SDM 27.3.1.2 "G"): limit[11:0] not all ones needs G = 0, limit[31:20] not all zeros
 * needs G = 1. */
static void check_limit_g(struct problems *p, enum guest_seg s, const struct seg_state *r)
{
    if ((r->limit & 0xFFF) != 0xFFF && (r->ar & SEG_AR_G))
        problem(p, s, "G=1 with limit[11:0] not all ones");
    if ((r->limit >> 20) && !(r->ar & SEG_AR_G))
        problem(p, s, "G=0 with limit[31:20] not zero");
}

static bool usable(const struct seg_state *r)
{
    return !(r->ar & SEG_AR_UNUSABLE);
}

u32 guest_segs_check(const struct guest_segs *g, char (*out)[GUEST_STATE_MSG], u32 max)
{
    struct problems p = {out, max, 0};
    const struct seg_state *cs = &g->s[GSEG_CS], *ss = &g->s[GSEG_SS], *tr = &g->s[GSEG_TR],
                           *ldtr = &g->s[GSEG_LDTR];
    u32 cs_type = SEG_AR_TYPE(cs->ar);

    if (!g->pe)
        problem(&p, GSEG_CS, "CR0.PE=0: real mode needs unrestricted guest (or vm86, not modelled)");

    /* Selector fields. */
    if (tr->sel & 4)
        problem(&p, GSEG_TR, "TI flag set");
    if (usable(ldtr) && (ldtr->sel & 4))
        problem(&p, GSEG_LDTR, "usable with the TI flag set");
    if ((ss->sel & 3) != (cs->sel & 3))
        problem(&p, GSEG_SS, "RPL differs from CS's RPL");

    /* Base fields (64-bit bases: every guest, IA-32e or not). */
    if (!canonical(tr->base))
        problem(&p, GSEG_TR, "base not canonical");
    if (!canonical(g->s[GSEG_FS].base))
        problem(&p, GSEG_FS, "base not canonical");
    if (!canonical(g->s[GSEG_GS].base))
        problem(&p, GSEG_GS, "base not canonical");
    if (usable(ldtr) && !canonical(ldtr->base))
        problem(&p, GSEG_LDTR, "usable with a base not canonical");
    if (cs->base >> 32)
        problem(&p, GSEG_CS, "base[63:32] not zero");
    static const enum guest_seg low32[] = {GSEG_SS, GSEG_DS, GSEG_ES};
    for (u32 i = 0; i < 3; i++)
        if (usable(&g->s[low32[i]]) && (g->s[low32[i]].base >> 32))
            problem(&p, low32[i], "usable with base[63:32] not zero");

    /* CS access rights: always usable. */
    if (!usable(cs))
        problem(&p, GSEG_CS, "unusable");
    if (cs_type != 9 && cs_type != 11 && cs_type != 13 && cs_type != 15)
        problem(&p, GSEG_CS, "type not an accessed code segment (9, 11, 13, 15)");
    if (!(cs->ar & SEG_AR_S))
        problem(&p, GSEG_CS, "S=0 (system descriptor)");
    if ((cs_type == 9 || cs_type == 11) && SEG_AR_DPL(cs->ar) != SEG_AR_DPL(ss->ar))
        problem(&p, GSEG_CS, "non-conforming with DPL differing from SS's DPL");
    if ((cs_type == 13 || cs_type == 15) && SEG_AR_DPL(cs->ar) > SEG_AR_DPL(ss->ar))
        problem(&p, GSEG_CS, "conforming with DPL above SS's DPL");
    if (!(cs->ar & SEG_AR_P))
        problem(&p, GSEG_CS, "not present");
    if (cs->ar & SEG_AR_RESERVED)
        problem(&p, GSEG_CS, "reserved access-rights bits set");
    if (g->ia32e && (cs->ar & SEG_AR_L) && (cs->ar & SEG_AR_DB))
        problem(&p, GSEG_CS, "L=1 with D/B=1 in an IA-32e mode guest");
    check_limit_g(&p, GSEG_CS, cs);

    /* SS: the DPL rule holds usable or not (it is the CPL). */
    if (SEG_AR_DPL(ss->ar) != (ss->sel & 3u))
        problem(&p, GSEG_SS, "DPL differs from the selector's RPL");
    if (usable(ss)) {
        if (SEG_AR_TYPE(ss->ar) != 3 && SEG_AR_TYPE(ss->ar) != 7)
            problem(&p, GSEG_SS, "usable with a type not read/write accessed data (3, 7)");
        if (!(ss->ar & SEG_AR_S))
            problem(&p, GSEG_SS, "usable with S=0");
        if (!(ss->ar & SEG_AR_P))
            problem(&p, GSEG_SS, "usable and not present");
        if (ss->ar & SEG_AR_RESERVED)
            problem(&p, GSEG_SS, "reserved access-rights bits set");
        check_limit_g(&p, GSEG_SS, ss);
    }

    /* DS, ES, FS, GS when usable. */
    static const enum guest_seg data[] = {GSEG_DS, GSEG_ES, GSEG_FS, GSEG_GS};
    for (u32 i = 0; i < 4; i++) {
        const struct seg_state *r = &g->s[data[i]];
        u32 t = SEG_AR_TYPE(r->ar);
        if (!usable(r))
            continue;
        if (!(t & 1))
            problem(&p, data[i], "usable and not accessed");
        if ((t & 8) && !(t & 2))
            problem(&p, data[i], "usable execute-only code segment");
        if (!(r->ar & SEG_AR_S))
            problem(&p, data[i], "usable with S=0");
        if (t <= 11 && SEG_AR_DPL(r->ar) < (r->sel & 3u))
            problem(&p, data[i], "usable data or non-conforming code with DPL below the selector's RPL");
        if (!(r->ar & SEG_AR_P))
            problem(&p, data[i], "usable and not present");
        if (r->ar & SEG_AR_RESERVED)
            problem(&p, data[i], "reserved access-rights bits set");
        check_limit_g(&p, data[i], r);
    }

    /* TR: always usable, a busy TSS. */
    u32 tr_type = SEG_AR_TYPE(tr->ar);
    if (g->ia32e ? tr_type != 11 : (tr_type != 3 && tr_type != 11))
        problem(&p, GSEG_TR, g->ia32e ? "type not a busy 64-bit TSS (11)" : "type not a busy TSS (3, 11)");
    if (tr->ar & SEG_AR_S)
        problem(&p, GSEG_TR, "S=1 (not a system descriptor)");
    if (!(tr->ar & SEG_AR_P))
        problem(&p, GSEG_TR, "not present");
    if (tr->ar & SEG_AR_RESERVED)
        problem(&p, GSEG_TR, "reserved access-rights bits set");
    if (!usable(tr))
        problem(&p, GSEG_TR, "unusable");
    check_limit_g(&p, GSEG_TR, tr);

    /* LDTR when usable: an LDT. */
    if (usable(ldtr)) {
        if (SEG_AR_TYPE(ldtr->ar) != 2)
            problem(&p, GSEG_LDTR, "usable with a type not an LDT (2)");
        if (ldtr->ar & SEG_AR_S)
            problem(&p, GSEG_LDTR, "usable with S=1");
        if (!(ldtr->ar & SEG_AR_P))
            problem(&p, GSEG_LDTR, "usable and not present");
        if (ldtr->ar & SEG_AR_RESERVED)
            problem(&p, GSEG_LDTR, "reserved access-rights bits set");
        check_limit_g(&p, GSEG_LDTR, ldtr);
    }
    return p.n;
}
