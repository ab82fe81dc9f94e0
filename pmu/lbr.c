/* Last Branch Records: discovery, filter encoding and record decoding (see lbr.h). */
#include "pmu/lbr.h"

#include "pmu/event_catalog.h"
#include "pmu/pmu_msr.h"

/* Legacy LBR, by family-6 model: Linux arch/x86/events/intel/core.c intel_pmu_init() calls one of the
 * intel_pmu_lbr_init_* of arch/x86/events/intel/lbr.c per model, and the SDM's LBR tables agree where they give the
 * depth (Vol.3B: 06_1AH 16 entries, 06_4EH/06_5EH 32, 06_0FH/06_17H/06_1DH 4, 06_1CH 8). Core 2 and the first Atoms
 * have no LBR_SELECT (Linux gives them no select map). */
struct legacy_row {
    const char *source;
    u32 depth, from, to, info;
    bool select;
    u8 models[24];
};

static const struct legacy_row legacy_rows[] = {
    {"intel_pmu_lbr_init_core (Core 2)", 4, 0x40, 0x60, 0, false, {0x0f, 0x16, 0x17, 0x1d}},
    {"intel_pmu_lbr_init_atom (Bonnell, Saltwell)", 8, 0x40, 0x60, 0, false, {0x1c, 0x26, 0x27, 0x35, 0x36}},
    {"intel_pmu_lbr_init_slm (Silvermont, Airmont)", 8, 0x40, 0x60, 0, true, {0x37, 0x4a, 0x4c, 0x4d, 0x5a, 0x5d}},
    {"intel_pmu_lbr_init_nhm (Nehalem, Westmere)", 16, 0x680, 0x6c0, 0, true,
     {0x1a, 0x1e, 0x1f, 0x2e, 0x25, 0x2c, 0x2f}},
    {"intel_pmu_lbr_init_snb (Sandy Bridge, Ivy Bridge)", 16, 0x680, 0x6c0, 0, true, {0x2a, 0x2d, 0x3a, 0x3e}},
    {"intel_pmu_lbr_init_hsw (Haswell, Broadwell)", 16, 0x680, 0x6c0, 0, true,
     {0x3c, 0x3f, 0x45, 0x46, 0x3d, 0x47, 0x4f, 0x56}},
    {"intel_pmu_lbr_init_knl (Knights Landing, Knights Mill)", 8, 0x680, 0x6c0, 0, true, {0x57, 0x85}},
    {"intel_pmu_lbr_init_skl (Skylake to Tiger Lake, Goldmont, Tremont)", 32, 0x680, 0x6c0, 0xdc0, true,
     {0x4e, 0x5e, 0x55, 0x8e, 0x9e, 0xa5, 0xa6, 0x5c, 0x5f, 0x7a, 0x7d, 0x7e, 0x6a, 0x6c, 0x8c, 0x8d, 0xa7, 0x86, 0x96,
      0x9c}},
};

#define MSR_LBR_SELECT 0x1c8
#define MSR_LBR_TOS 0x1c9
#define MSR_ARCH_LBR_CTL 0x14ce
#define MSR_ARCH_LBR_DEPTH 0x14cf
#define MSR_ARCH_LBR_FROM_0 0x1500
#define MSR_ARCH_LBR_TO_0 0x1600
#define MSR_ARCH_LBR_INFO_0 0x1200
#define MSR_AMD_LBR_FROM_0 0xc0010300
#define MSR_AMD_LBR_SELECT 0xc000010e
#define MSR_AMD_DBG_EXTN_CFG 0xc000010f

static const struct legacy_row *legacy_row_of(u32 model)
{
    for (u32 i = 0; i < ARRAY_SIZE(legacy_rows); i++)
        for (u32 j = 0; j < ARRAY_SIZE(legacy_rows[i].models) && legacy_rows[i].models[j]; j++)
            if (legacy_rows[i].models[j] == model)
                return &legacy_rows[i];
    return NULL;
}

static bool arch_lbr(const struct cpuid_source *src, struct lbr_caps *out)
{
    struct cpuid_regs r;
    if (!cpuid_query(src, 0, 0, &r) || r.eax < 0x1c || !cpuid_query(src, 7, 0, &r) || !(r.edx & BIT(19)))
        return false;
    /* SDM Vol.2A CPUID leaf 1CH: EAX[7:0] depths supported (bit n: 8(n+1)); EBX[0] CPL filtering, [1] branch
     * filtering; ECX[0] mispredict bit, [1] timed LBRs, [2] branch type field. */
    cpuid_query(src, 0x1c, 0, &r);
    u32 mask = r.eax & 0xff;
    if (!mask) {
        out->why_none = "CPUID.(7,0):EDX[19] announces Architectural LBR, but CPUID.1CH:EAX[7:0] lists no depth";
        return true;
    }
    out->kind = LBR_ARCH;
    out->source = "CPUID.(7,0):EDX[19] and leaf 1CH";
    out->depth = 8 * (32 - (u32)__builtin_clz(mask));
    out->depth_mask = mask;
    out->from = MSR_ARCH_LBR_FROM_0;
    out->to = MSR_ARCH_LBR_TO_0;
    out->info = MSR_ARCH_LBR_INFO_0;
    out->stride = 1;
    out->select = MSR_ARCH_LBR_CTL;
    out->depth_msr = MSR_ARCH_LBR_DEPTH;
    out->enable_msr = MSR_ARCH_LBR_CTL;
    out->enable_bit = BIT(0); /* LBREn */
    out->cpl_filter = r.ebx & 1;
    out->type_filter = r.ebx >> 1 & 1;
    out->has_mispred = r.ecx & 1;
    out->has_cycles = r.ecx >> 1 & 1;
    out->has_type = r.ecx >> 2 & 1;
    out->freeze = true; /* DEBUGCTL.FREEZE_LBRS_ON_PMI still applies (Linux __intel_pmu_lbr_enable) */
    return true;
}

static bool amd_lbr_v2(const struct cpuid_source *src, struct lbr_caps *out)
{
    struct cpuid_regs r;
    if (!cpuid_query(src, 0x80000000, 0, &r) || r.eax < 0x80000022 || !cpuid_query(src, 0x80000022, 0, &r) ||
        !(r.eax & BIT(1)))
        return false;
    u32 depth = r.ebx >> 4 & 0x3f;
    if (!depth) {
        out->why_none = "CPUID Fn8000_0022 EAX[1] announces LbrExtV2, but EBX[9:4] (the stack size) is 0";
        return true;
    }
    out->kind = LBR_AMD_V2;
    out->source = "CPUID Fn8000_0022 EAX[1] LbrExtV2, EBX[9:4] stack size";
    out->depth = depth;
    out->from = MSR_AMD_LBR_FROM_0;
    out->to = MSR_AMD_LBR_FROM_0 + 1;
    out->stride = 2;
    out->select = MSR_AMD_LBR_SELECT;
    out->enable_msr = MSR_AMD_DBG_EXTN_CFG;
    out->enable_bit = BIT(6); /* LBRV2EN */
    out->cpl_filter = out->type_filter = true;
    out->has_mispred = true;
    out->freeze = r.eax >> 2 & 1; /* LBR and PMC freeze on PMI (Linux X86_FEATURE_AMD_LBR_PMC_FREEZE) */
    return true;
}

void lbr_discover(const struct pmu_caps *caps, const struct cpuid_source *src, struct lbr_caps *out)
{
    *out = (struct lbr_caps){.kind = LBR_NONE, .why_none = "", .source = "", .stride = 1};
    if (caps->vendor == VENDOR_AMD || caps->vendor == VENDOR_HYGON) {
        if (!amd_lbr_v2(src, out))
            out->why_none = "no LbrExtV2 (CPUID Fn8000_0022 EAX[1] clear or the leaf absent); the single LBR "
                            "of SVM's LBR virtualization is not a stack";
        return;
    }
    if (caps->vendor != VENDOR_INTEL) {
        out->why_none = "neither Intel nor AMD";
        return;
    }
    if (arch_lbr(src, out))
        return;
    const struct legacy_row *row = caps->family == 6 ? legacy_row_of(caps->model) : NULL;
    if (!row) {
        out->why_none = "no Architectural LBR (CPUID.(7,0):EDX[19] clear), and the model-specific LBR of this family "
                        "and model is not in the table (pmu/lbr.c, from Linux intel_pmu_init)";
        return;
    }
    if (!caps->has_perf_capabilities) {
        out->why_none = "model-specific LBR, but IA32_PERF_CAPABILITIES (and its LBR format) is not readable: "
                        "CPUID.01H:ECX[15] PDCM clear";
        return;
    }
    u32 fmt = caps->perf_caps.lbr_format;
    /* Knights Landing and Mill report format 1 but have the mispredict bit in FROM[63] (Linux intel_pmu_lbr_init_knl:
     * "Knights Landing does have MISPREDICT bit", LBR_FORMAT_LIP becomes LBR_FORMAT_EIP_FLAGS). */
    if ((caps->model == 0x57 || caps->model == 0x85) && fmt == LBR_FMT_LIP)
        fmt = LBR_FMT_EIP_FLAGS;
    if (fmt > LBR_FMT_INFO2) {
        out->why_none = "IA32_PERF_CAPABILITIES[5:0] names an LBR format above 7, which no manual here describes";
        return;
    }
    if (!row->info && (fmt == LBR_FMT_INFO || fmt == LBR_FMT_INFO2)) {
        out->why_none = "IA32_PERF_CAPABILITIES[5:0] names an LBR_INFO format on a model without LBR_INFO MSRs";
        return;
    }
    out->kind = LBR_LEGACY;
    out->source = row->source;
    out->depth = row->depth;
    out->format = fmt;
    out->from = row->from;
    out->to = fmt == LBR_FMT_32 ? 0 : row->to;
    out->info = fmt == LBR_FMT_INFO || fmt == LBR_FMT_INFO2 ? row->info : 0;
    out->tos = MSR_LBR_TOS;
    out->select = row->select ? MSR_LBR_SELECT : 0;
    out->enable_msr = MSR_IA32_DEBUGCTL;
    out->enable_bit = BIT(0); /* DEBUGCTL.LBR */
    out->cpl_filter = out->type_filter = row->select;
    out->has_mispred = fmt >= LBR_FMT_EIP_FLAGS;
    out->has_cycles = fmt == LBR_FMT_INFO || fmt == LBR_FMT_TIME || fmt == LBR_FMT_INFO2;
    out->freeze = pmu_freezes_on_pmi(caps);
}

const char *lbr_kind_name(enum lbr_kind k)
{
    static const char *const names[] = {"none", "model-specific", "architectural", "AMD LbrExtV2"};
    return (unsigned)k < ARRAY_SIZE(names) ? names[k] : "?";
}

const char *lbr_branch_name(enum lbr_branch b)
{
    static const char *const names[] = {"conditional", "relative jump", "indirect jump", "relative call",
                                        "indirect call", "return", "far/other"};
    return (unsigned)b < ARRAY_SIZE(names) ? names[b] : "?";
}

u64 lbr_filter_value(const struct lbr_caps *c, const struct lbr_filter *f)
{
    /* Bit of each kind: LBR_SELECT (SDM Vol.3B 18.7.2 / Table 17-11; AMD LBR_SELECT, Linux amd/lbr.c) suppresses
     * JCC 2, NEAR_REL_CALL 3, NEAR_IND_CALL 4, NEAR_RET 5, NEAR_IND_JMP 6, NEAR_REL_JMP 7, FAR_BRANCH 8;
     * IA32_LBR_CTL enables JCC 16, NEAR_REL_JMP 17, NEAR_IND_JMP 18, NEAR_REL_CALL 19, NEAR_IND_CALL 20, NEAR_RET 21,
     * OTHER_BRANCH 22 (Linux ARCH_LBR_*). */
    static const u8 select_bit[LBR_BR_COUNT] = {2, 7, 6, 3, 4, 5, 8};
    static const u8 ctl_bit[LBR_BR_COUNT] = {16, 17, 18, 19, 20, 21, 22};
    u64 v = 0;
    if (c->kind == LBR_ARCH) {
        /* Without CPL or branch filtering (CPUID.1CH:EBX[0], [1]) those bits are not written: every branch is kept
         * (Linux intel_pmu_arch_lbr_init refuses such filters). */
        v = BIT(0) | (!c->cpl_filter || f->os ? BIT(1) : 0) | (!c->cpl_filter || f->usr ? BIT(2) : 0);
        for (u32 b = 0; b < LBR_BR_COUNT && c->type_filter; b++)
            v |= f->types >> b & 1 ? BIT(ctl_bit[b]) : 0;
        return v;
    }
    v = (f->os ? 0 : BIT(0)) | (f->usr ? 0 : BIT(1)); /* CPL_EQ_0, CPL_NEQ_0: suppress */
    for (u32 b = 0; b < LBR_BR_COUNT; b++)
        v |= f->types >> b & 1 ? 0 : BIT(select_bit[b]);
    return v;
}

bool lbr_filter_passes(const struct lbr_filter *f, enum lbr_branch b, u8 to_cpl)
{
    return (to_cpl ? f->usr : f->os) && (f->types >> b & 1);
}

u32 lbr_slot(const struct lbr_caps *c, u64 tos, u32 i)
{
    if (c->kind != LBR_LEGACY || !c->depth)
        return i;
    return (u32)((tos + c->depth - (i % c->depth)) % c->depth);
}

static u64 sext(u64 v, u32 bits)
{
    return (u64)((s64)(v << (64 - bits)) >> (64 - bits));
}

u32 lbr_arch_br_type(enum lbr_branch b)
{
    static const u8 t[LBR_BR_COUNT] = {0, 2, 1, 4, 3, 5, 8};
    return (unsigned)b < LBR_BR_COUNT ? t[b] : 8;
}

static int br_of_arch_type(u32 t)
{
    for (u32 b = 0; b < LBR_BR_FAR; b++)
        if (lbr_arch_br_type(b) == t)
            return (int)b;
    return t >= 8 ? LBR_BR_FAR : -1;
}

void lbr_decode(const struct lbr_caps *c, u64 from, u64 to, u64 info, struct lbr_record *out)
{
    *out = (struct lbr_record){.type = -1};
    switch (c->kind) {
    case LBR_LEGACY:
        switch (c->format) {
        case LBR_FMT_32:
            out->from = from & 0xffffffffu;
            out->to = from >> 32;
            break;
        case LBR_FMT_EIP_FLAGS: /* Linux intel_pmu_lbr_read_64: skip 1 flag bit, sign-extend the rest */
            out->mispred = from >> 63;
            out->from = sext(from, 63);
            out->to = to;
            break;
        case LBR_FMT_EIP_FLAGS2: /* MISPRED 63, IN_TX 62, ABORT 61 */
            out->mispred = from >> 63;
            out->from = sext(from, 61);
            out->to = to;
            break;
        case LBR_FMT_TIME: /* MISPRED in FROM 63, cycles in TO 63:48 */
            out->mispred = from >> 63;
            out->from = sext(from, 63);
            out->cycles = (u32)(to >> 48);
            out->cycles_valid = true;
            out->to = sext(to, 48);
            break;
        case LBR_FMT_INFO:
        case LBR_FMT_INFO2: /* MSR_LBR_INFO_x: MISPRED 63, cycles 15:0 (SDM Vol.3B Table 17-16) */
            out->from = from;
            out->to = to;
            out->mispred = info >> 63;
            out->cycles = (u32)(info & 0xffff);
            out->cycles_valid = true;
            break;
        default: /* LIP, EIP: addresses only */
            out->from = from;
            out->to = to;
            break;
        }
        out->valid = out->from || out->to;
        break;
    case LBR_ARCH: /* IA32_LBR_x_INFO: MISPRED 63, CYC_CNT_VALID 60, BR_TYPE 59:56, CYC_CNT 15:0 */
        out->from = from;
        out->to = to;
        out->mispred = c->has_mispred && info >> 63;
        out->cycles_valid = c->has_cycles && (info >> 60 & 1);
        out->cycles = out->cycles_valid ? (u32)(info & 0xffff) : 0;
        out->type = c->has_type ? br_of_arch_type((u32)(info >> 56 & 0xf)) : -1;
        out->valid = from || to;
        break;
    case LBR_AMD_V2: /* FROM: IP 57:0, mispredict 63; TO: IP 57:0, spec 62, valid 63 (Linux amd/lbr.c) */
        out->from = sext(from, 58);
        out->mispred = from >> 63;
        out->to = sext(to, 58);
        out->valid = to >> 63;
        /* Linux amd_pmu_lbr_read: valid 0, spec 1 is a branch on the wrong path; TO[61] set is erratum 1452's. */
        out->not_retired = (!out->valid && (to >> 62 & 1)) || (to >> 61 & 1);
        break;
    default:
        break;
    }
}

int lbr_branch_of_evc(u32 evc)
{
    if (!(evc & BIT(EVC_TAKEN)))
        return -1;
    if (evc & BIT(EVC_FAR))
        return LBR_BR_FAR;
    if (evc & BIT(EVC_COND_TAKEN))
        return LBR_BR_JCC;
    if (evc & BIT(EVC_REL_CALL))
        return LBR_BR_REL_CALL;
    if (evc & BIT(EVC_INDIRECT_CALL))
        return LBR_BR_IND_CALL;
    if (evc & BIT(EVC_NEAR_RETURN))
        return LBR_BR_RET;
    if (evc & BIT(EVC_INDIRECT_JMP))
        return LBR_BR_IND_JMP;
    if (evc & BIT(EVC_REL_JMP))
        return LBR_BR_REL_JMP;
    return -1;
}

u32 lbr_distinct_state(const struct lbr_caps *c, u32 *msr, u64 *value, u32 max)
{
    u32 n = 0;
    if (c->kind == LBR_NONE)
        return 0;
    /* Canonical addresses below 4 GiB (every format holds them; LBR_FMT_32 packs FROM and TO in one), INFO values in
     * the cycle-count field only (bits 15:0: no flag an Arch LBR INFO would refuse). */
    for (u32 i = 0; i < c->depth && i < 4; i++) {
        if (n + 3 > max)
            break;
        msr[n] = c->from + i * c->stride;
        value[n++] = c->kind == LBR_LEGACY && c->format == LBR_FMT_32 ? 0x00200040ull << 32 | (0x00100000u + 0x40 * i)
                                                                       : 0x00100000u + 0x40 * i;
        if (c->to) {
            msr[n] = c->to + i * c->stride;
            value[n++] = c->kind == LBR_AMD_V2 ? BIT(63) | (0x00200000u + 0x40 * i) : 0x00200000u + 0x40 * i;
        }
        if (c->info) {
            msr[n] = c->info + i;
            value[n++] = 0x100 + i;
        }
    }
    if (c->select && n < max) {
        /* Legacy/AMD: suppress CPL 0 and conditional branches; Arch: OS, JCC and NEAR_RET, LBREn off. */
        msr[n] = c->select;
        value[n++] = c->kind == LBR_ARCH ? BIT(1) | BIT(16) | BIT(21) : BIT(0) | BIT(2);
    }
    return n;
}
