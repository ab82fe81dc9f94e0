/* Processor Event-Based Sampling: discovery, DS layout and record decoding (see pebs.h). */
#include "pmu/pebs.h"

#include "pmu/events.h"
#include "pmu/kind.h"
#include "pmu/pmu.h"

void pebs_discover(const struct pmu_caps *caps, const struct cpuid_source *src, int misc_rc, u64 misc_enable,
                   struct pebs_caps *out)
{
    *out = (struct pebs_caps){.why_none = ""};
    struct cpuid_regs r;
    if (!pmu_kind_get(caps->kind)->pebs || caps->vendor != VENDOR_INTEL) {
        out->why_none = "PEBS is Intel's (AMD samples with IBS, which pmuboot does not check)";
        return;
    }
    if (!cpuid_query(src, 1, 0, &r) || !(r.edx & BIT(21)) || !(r.ecx & BIT(2))) {
        out->why_none = "no 64-bit Debug Store: CPUID.01H:EDX[21] DS or ECX[2] DTES64 clear";
        return;
    }
    if (!caps->has_perf_capabilities) {
        out->why_none = "IA32_PERF_CAPABILITIES (the PEBS record format) is not readable: CPUID.01H:ECX[15] PDCM clear";
        return;
    }
    if (!misc_rc && (misc_enable & MISC_ENABLE_PEBS_UNAVAIL)) {
        out->why_none = "IA32_MISC_ENABLE[12] PEBS_UNAVAIL is set";
        return;
    }
    const struct pmu_perf_capabilities *pc = &caps->perf_caps;
    out->format = pc->pebs_record_format;
    out->adaptive = pc->pebs_baseline;
    out->trap = pc->pebs_trap;
    out->timing = pc->pebs_timing_info;
    /* Linux intel_ds_init: formats 0-6 are known; 4 without the baseline writes the basic group only. */
    static const u32 fixed_size[] = {0x90, 0xb0, 0xc0, 0xc8};
    if (out->format > 6) {
        out->why_none = "IA32_PERF_CAPABILITIES[11:8] names a PEBS record format above 6";
        return;
    }
    /* From format 4 without the baseline the record is the basic group alone (Linux intel_ds_init). */
    out->basic_size = out->format < 4 ? fixed_size[out->format] : 0x20;
    /* Counters: Core 2's format 0 samples on PMC0 only, Nehalem to Skylake on PMC0-3 ("No PEBS on PMC4-PMC7",
     * SDM), the baseline on every counter, fixed ones included (Linux PMU_FL_PEBS_ALL). */
    if (out->adaptive) {
        out->counters = (u64)caps->gp_mask | (u64)caps->fixed_mask << PMU_FIXED_BIT;
    } else {
        u32 gp = out->format == 0 ? 1 : 4;
        out->counters = caps->gp_mask & ((1u << (gp < caps->num_gp ? gp : caps->num_gp)) - 1);
    }
    /* DS resets: 8 GP then 4 fixed slots up to format 4, 32 GP then 16 fixed from format 5 (Linux 2145e77fecfb). */
    out->reset_fixed = out->format >= 5 ? 0x140 : 0x80;
    out->present = true;
}

u32 pebs_reset_offset(const struct pebs_caps *c, u32 bit)
{
    if (!(c->counters >> bit & 1))
        return 0;
    return PMU_IS_FIXED(bit) ? c->reset_fixed + 8 * (bit - PMU_FIXED_BIT) : DS_PEBS_RESET_GP + 8 * bit;
}

static u32 groups_size(u64 cfg)
{
    u32 n = 0x20;
    n += cfg & PEBS_CFG_MEMINFO ? 0x20 : 0;
    n += cfg & PEBS_CFG_GP ? 0x90 : 0;
    n += cfg & PEBS_CFG_XMMS ? 0x100 : 0;
    n += cfg & PEBS_CFG_LBRS ? 24 * ((u32)(cfg >> PEBS_CFG_LBR_SHIFT & 0xff) + 1) : 0;
    return n;
}

u32 pebs_record_size(const struct pebs_caps *c, u64 data_cfg, bool adaptive)
{
    if (c->format < 4)
        return c->basic_size;
    return c->adaptive && adaptive ? groups_size(data_cfg) : 0x20;
}

static u64 rd64(const u8 *p)
{
    u64 v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

bool pebs_decode(const struct pebs_caps *c, const u8 *p, u64 avail, struct pebs_record *out, const char **why)
{
    *out = (struct pebs_record){0};
    if (c->format < 4) {
        /* Formats 0-3 (SDM; Linux pebs_record_core/nhm/hsw/skl): RFLAGS 0x00, RIP 0x08 (the instruction after the
         * eventing one), RAX 0x10 ...; 0x90 status (1-2) / applicable counters (3); 0xB0 EventingRIP (2+); 0xC0 TSC
         * (3). */
        out->size = c->basic_size;
        if (avail < out->size) {
            *why = "the buffer ends inside the record";
            return false;
        }
        out->ip_after = rd64(p + 0x08);
        out->has_ip_after = true;
        out->rax = rd64(p + 0x10);
        out->has_gprs = true;
        if (c->format >= 1) {
            out->applicable = rd64(p + 0x90);
            out->has_applicable = true;
        }
        if (c->format >= 2) {
            out->eventing_ip = rd64(p + 0xb0);
            out->has_eventing_ip = true;
        }
        if (c->format >= 3) {
            out->tsc = rd64(p + 0xc0);
            out->has_tsc = true;
        }
        return true;
    }
    /* Adaptive (Linux struct pebs_basic): format and size, EventingIP, applicable counters, TSC; then the groups the
     * format field names, in order MemInfo, GPRs, XMMs, LBRs. */
    if (avail < 0x20) {
        *why = "the buffer ends inside the basic group";
        return false;
    }
    u64 fs = rd64(p);
    out->size = (u32)(fs >> 48);
    out->group = fs & (c->timing ? 0xffffffffull : 0xffffffffffffull);
    out->eventing_ip = rd64(p + 0x08);
    out->has_eventing_ip = true;
    out->applicable = rd64(p + 0x10);
    out->has_applicable = true;
    out->tsc = rd64(p + 0x18);
    out->has_tsc = true;
    if (out->size != groups_size(out->group)) {
        *why = "the record's size field disagrees with the groups its format field names";
        return false;
    }
    if (avail < out->size) {
        *why = "the buffer ends inside the record";
        return false;
    }
    u32 off = 0x20;
    if (out->group & PEBS_CFG_MEMINFO)
        off += 0x20;
    if (out->group & PEBS_CFG_GP) {
        /* Linux struct pebs_gprs: flags, ip, ax, cx, dx, bx, sp, bp, si, di, r8-r15; ip is the one after. */
        out->ip_after = rd64(p + off + 0x08);
        out->has_ip_after = true;
        out->rax = rd64(p + off + 0x10);
        out->has_gprs = true;
        off += 0x90;
    }
    if (out->group & PEBS_CFG_XMMS)
        off += 0x100;
    if (out->group & PEBS_CFG_LBRS) {
        out->lbr_entries = (u32)(out->group >> PEBS_CFG_LBR_SHIFT & 0xff) + 1;
        for (u32 i = 0; i < out->lbr_entries; i++, off += 24)
            out->lbr_nonzero += rd64(p + off) || rd64(p + off + 8);
    }
    return true;
}

/* Family-6 models by how they sample (Linux arch/x86/events/intel/core.c intel_pmu_init picks the constraint table). */
static bool model_in(u32 model, const u8 *list, u32 n)
{
    for (u32 i = 0; i < n; i++)
        if (list[i] == model)
            return true;
    return false;
}

static const u8 pdir_models[] = {/* Sandy Bridge .. Skylake/Cascade/Comet Lake: INST_RETIRED.PREC_DIST on PMC1 */
                                 0x2a, 0x2d, 0x3a, 0x3e, 0x3c, 0x3f, 0x45, 0x46, 0x3d, 0x47, 0x4f, 0x56,
                                 0x4e, 0x5e, 0x55, 0x8e, 0x9e, 0xa5, 0xa6};
static const u8 nhm_models[] = {0x1a, 0x1e, 0x1f, 0x2e, 0x25, 0x2c, 0x2f};
static const u8 pmc0_models[] = {/* Silvermont, Airmont, Goldmont, Knights Landing/Mill: every event on PMC0 */
                                 0x37, 0x4a, 0x4c, 0x4d, 0x5a, 0x5d, 0x5c, 0x5f, 0x57, 0x85};
static const u8 glc_models[] = {/* Golden Cove and later big cores: INST_RETIRED.* not on GP 0 */
                                0x8f, 0xcf, 0xad, 0xae, 0x97, 0x9a, 0xb7, 0xba, 0xbf, 0xaa, 0xac, 0xb5, 0xc5, 0xc6, 0xbd};

bool pebs_event_for(const struct pmu_caps *caps, const struct pebs_caps *pc, int generic, struct pebs_event *out,
                    const char **why)
{
    *out = (struct pebs_event){0};
    bool insns = generic == PMU_EV_INSTRUCTIONS;
    u32 m = caps->family == 6 ? caps->model : 0;
    u64 gp = pc->counters & 0xffffffffu;
    if (pc->format == 0) {
        /* Core 2 and the first Atoms: INST_RETIRED.ANY_P on PMC0 (SDM Core PEBS events; Linux core/atom tables). */
        if (!insns) {
            *why = "format 0 (Core 2, Bonnell): branches retired is no PEBS event there";
            return false;
        }
        *out = (struct pebs_event){0xc0, 0x00, 1, false, "INST_RETIRED.ANY_P", "SDM Core 2 PEBS events; Linux "
                                   "intel_core2_pebs_event_constraints"};
        return true;
    }
    if (pc->adaptive) {
        /* Every event on every counter (Linux PMU_FL_PEBS_ALL); instructions precise on fixed 0 of a big core (ICL
         * fixed-0 PDIR, SPR PDIR++: Linux intel_icl/glc_pebs_event_constraints, 0x0100 on fixed 0); Golden Cove
         * and later keep INST_RETIRED.* off GP 0 (intel_glc_pebs_event_constraints 0xc0 on 0xfe). */
        bool big = caps->core_type != 0x20;
        u64 g = insns && big && model_in(m, glc_models, sizeof(glc_models)) ? gp & ~1ull : gp;
        u64 fixed0 = insns ? (pc->counters & BIT(PMU_FIXED_BIT)) : 0;
        *out = (struct pebs_event){insns ? 0xc0 : 0xc4, 0x00, g | fixed0, false,
                                   insns ? "INST_RETIRED.ANY_P" : "BR_INST_RETIRED.ALL_BRANCHES",
                                   "adaptive PEBS: every event (Linux PMU_FL_PEBS_ALL)"};
        return true;
    }
    if (model_in(m, pdir_models, sizeof(pdir_models))) {
        /* intel/perfmon: INST_RETIRED.PREC_DIST C0H/01H "Counter" 1, "PEBS" 2 (precise distribution); and
         * BR_INST_RETIRED.ALL_BRANCHES_PEBS C4H/04H on PMC0-3; C0H/00H and C4H/00H carry no PEBS field. */
        if (insns)
            *out = (struct pebs_event){0xc0, 0x01, gp & 2, true, "INST_RETIRED.PREC_DIST",
                                       "intel/perfmon (PDIR on PMC1); Linux INTEL_PST_HSW_CONSTRAINT(0x01c0, 0x2)"};
        else
            *out = (struct pebs_event){0xc4, 0x04, gp & 0xf, false, "BR_INST_RETIRED.ALL_BRANCHES_PEBS",
                                       "intel/perfmon; Linux *_pebs_event_constraints (0xc4 on 0xf)"};
    } else if (model_in(m, nhm_models, sizeof(nhm_models))) {
        /* Linux intel_nehalem/westmere_pebs_event_constraints: INST_RETIRED.* 0xc0 and BR_INST_RETIRED.* 0xc4 on 0xf;
         * Nehalem's BR_INST_RETIRED.ALL_BRANCHES is C4H/04H (intel/perfmon). */
        *out = (struct pebs_event){0xc0, 0x00, gp & 0xf, false, "INST_RETIRED.ANY_P",
                                   "Linux intel_nehalem_pebs_event_constraints"};
        if (!insns)
            *out = (struct pebs_event){0xc4, 0x04, gp & 0xf, false, "BR_INST_RETIRED.ALL_BRANCHES",
                                       "Linux intel_nehalem_pebs_event_constraints; intel/perfmon"};
    } else if (model_in(m, pmc0_models, sizeof(pmc0_models))) {
        /* Linux intel_slm/glm_pebs_event_constraints: INTEL_ALL_EVENT_CONSTRAINT(0, 0x1). */
        *out = (struct pebs_event){insns ? 0xc0 : 0xc4, 0x00, gp & 1, false,
                                   insns ? "INST_RETIRED.ANY_P" : "BR_INST_RETIRED.ALL_BRANCHES",
                                   "Linux intel_slm/glm_pebs_event_constraints (every event, PMC0)"};
    } else {
        /* Goldmont Plus, Tremont (every event on every counter, Linux PMU_FL_PEBS_ALL) and parts not listed here:
         * the architectural events on the counters the format allows. */
        *out = (struct pebs_event){insns ? 0xc0 : 0xc4, 0x00, gp, false,
                                   insns ? "INST_RETIRED.ANY_P" : "BR_INST_RETIRED.ALL_BRANCHES",
                                   "the architectural event (model not in pmu/pebs.c's PEBS event table)"};
    }
    if (!out->counters) {
        *why = "no counter this part samples the event on";
        return false;
    }
    return true;
}
