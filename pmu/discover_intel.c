/* Intel architectural performance monitoring v1..v6 from CPUID leaves 0AH and 23H.
 * SDM Vol.2A CPUID "Architectural Performance Monitoring Leaf (EAX = 0AH)" and "Architectural Performance
 * Monitoring Extended Leaf (EAX = 23H)"; SDM Vol.3B ch.21 "Performance Monitoring" (architectural
 * performance monitoring versions 1-6). Quirks follow Linux arch/x86/events/intel/core.c intel_pmu_init(). */
#include "pmu/discover_internal.h"

#include "pmu/pmu_msr.h"

/* Linux intel-family.h: the hybrid parts whose CPUID.0AH enumerates only what both core types share and
 * whose P-core PMU Linux widens by 2 GP + 1 fixed counter (intel_pmu_init, "hybrid_big_small" cases without
 * leaf 23H). */
static bool is_adl_style_hybrid(u32 family, u32 model)
{
    return family == 6 && (model == 0x97 || model == 0x9a || model == 0xb7 || model == 0xba || model == 0xbf);
}

/* Linux intel_pmu_init installs intel_nehalem_quirk for NEHALEM, NEHALEM_EP, NEHALEM_EX. */
static bool is_nehalem(u32 family, u32 model)
{
    return family == 6 && (model == 0x1a || model == 0x1e || model == 0x2e);
}

void pmu_arch_perfmon_decode(struct pmu_caps *caps, const struct cpuid_regs *r)
{
    u32 gp = (r->eax >> 8) & 0xff, len = r->eax >> 24;

    caps->version = r->eax & 0xff;
    if (caps->version > PMU_INTEL_NEWEST_KNOWN_VERSION) {
        caps->version_beyond_known = true;
        pmu_note_quirk(caps, "CPUID.0AH reports a perfmon version newer than 6: decoded with the v6 rules");
    }
    if (gp > 32) {
        pmu_note_quirk(caps, "CPUID.0AH reports more than 32 GP counters: only the first 32 are described");
        gp = 32;
    }
    caps->num_gp = gp;
    caps->gp_mask = pmu_low_mask(gp);
    caps->gp_width = (r->eax >> 16) & 0xff;
    if (caps->gp_width == 0) {
        /* WRMSR to IA32_PMCx always writes bits 31:0 (sign-extending upward): 32 bits is the part that is
         * certain to exist. */
        caps->gp_width = 32;
        pmu_note_quirk(caps, "CPUID.0AH reports GP counter width 0: assumed 32 bits");
    }

    /* EBX bit i = 1: architectural event i NOT available; only the first `len` bits mean anything. */
    caps->arch_events_len = len;
    caps->arch_events = ~r->ebx & pmu_low_mask(len);
    if (len < 7)
        pmu_note_quirk(caps, "CPUID.0AH EBX vector length < 7: events beyond it unavailable (Linux then refuses "
                             "architectural perfmon)");

    if (caps->version == 1) {
        caps->num_fixed = 0; /* v1 has no fixed counters; EDX is reserved */
    } else if (caps->version <= 4) {
        u32 n = r->edx & 0x1f;
        if (n == 0 && !caps->hypervisor) {
            n = 3;
            pmu_note_quirk(caps, "CPUID.0AH.EDX reports 0 fixed counters on perfmon v2-v4: assumed 3 (Linux "
                                 "intel_pmu_init: max(edx.num_counters_fixed, 3))");
        } else if (n == 0) {
            pmu_note_quirk(caps, "CPUID.0AH.EDX reports 0 fixed counters under a hypervisor: kept 0 (Linux assumes "
                                 "3 only on bare metal)");
        }
        caps->fixed_mask = pmu_low_mask(n);
        caps->fixed_width = (r->edx >> 5) & 0xff;
    } else {
        /* v5+: fixed counter i exists if ECX[i] or EDX[4:0] > i (SDM CPUID leaf 0AH, ECX description). */
        caps->fixed_mask = r->ecx | pmu_low_mask(r->edx & 0x1f);
        caps->fixed_width = (r->edx >> 5) & 0xff;
        caps->anythread_deprecated = (r->edx >> 15) & 1;
    }
    caps->num_fixed = pmu_fls(caps->fixed_mask);
    if (caps->num_fixed && caps->fixed_width == 0) {
        caps->fixed_width = caps->gp_width;
        pmu_note_quirk(caps, "CPUID.0AH.EDX reports fixed counter width 0: using the GP width (Linux uses one "
                             "counter width for all)");
    }
}

/* Leaf 23H: per-core-type counter bitmaps and event bitmap (Linux update_pmu_cap(), asm/perf_event.h
 * union cpuid35_eax/ebx). */
static void decode_leaf_23(struct pmu_caps *caps, const struct cpu_ident *id, const struct cpuid_source *src)
{
    struct cpuid_regs r;
    bool ext_bit = false;
    /* CPUID.(EAX=07H,ECX=1):EAX[8] ArchPerfmonExt; subleaf 1 exists when CPUID.(7,0).EAX >= 1. */
    if (id->max_leaf >= 7 && cpuid_query(src, 7, 0, &r) && r.eax >= 1 && cpuid_query(src, 7, 1, &r))
        ext_bit = (r.eax >> 8) & 1;
    if (!ext_bit)
        return;
    if (id->max_leaf < 0x23) {
        pmu_note_quirk(caps, "CPUID.(7,1):EAX[8] ArchPerfmonExt set but max leaf < 0x23: leaf 0x23 ignored");
        return;
    }
    if (!cpuid_query(src, 0x23, 0, &r)) {
        pmu_evidence(caps, "CPUID.23H.0 missing from the source");
        return;
    }
    caps->ext_leaf = true;
    caps->ext_subleaves = r.eax;
    caps->umask2 = r.ebx & 1;
    caps->eq_bit = (r.ebx >> 1) & 1;
    caps->rdpmc_user_disable = (r.ebx >> 2) & 1;
    pmu_evidence(caps, "CPUID.23H.0 EAX=0x%08x EBX=0x%08x", r.eax, r.ebx);

    if ((caps->ext_subleaves & BIT(1)) && cpuid_query(src, 0x23, 1, &r)) {
        /* Counter bitmaps: bit i = GP (EAX) / fixed (EBX) counter i exists; they replace CPUID.0AH counts. */
        caps->gp_mask = r.eax;
        caps->num_gp = pmu_fls(r.eax);
        caps->fixed_mask = r.ebx;
        caps->num_fixed = pmu_fls(r.ebx);
        if (caps->num_fixed && caps->fixed_width == 0)
            caps->fixed_width = caps->gp_width;
        pmu_evidence(caps, "CPUID.23H.1 EAX=0x%08x EBX=0x%08x", r.eax, r.ebx);
    }
    if ((caps->ext_subleaves & BIT(3)) && cpuid_query(src, 0x23, 3, &r)) {
        caps->arch_events = r.eax; /* positive sense: bit i = event i supported */
        pmu_evidence(caps, "CPUID.23H.3 EAX=0x%08x", r.eax);
    }
}

static void adl_hybrid_quirk(struct pmu_caps *caps)
{
    if (caps->ext_leaf || !caps->hybrid || caps->core_type != 0x40 || !is_adl_style_hybrid(caps->family, caps->model))
        return;
    u32 gp = caps->num_gp + 2, fixed = caps->num_fixed + 1;
    if (gp > 8 || fixed > 4) {
        pmu_note_quirk(caps, "hybrid Alder/Raptor Lake P-core: CPUID.0AH already lists all P-core counters (E-cores "
                             "disabled), not widened (Linux intel_pmu_init quirk)");
        return;
    }
    caps->num_gp = gp;
    caps->gp_mask = pmu_low_mask(gp);
    caps->num_fixed = fixed;
    caps->fixed_mask = pmu_low_mask(fixed);
    pmu_note_quirk(caps, "hybrid Alder/Raptor Lake P-core: CPUID.0AH lists the counters both core types share; "
                         "P-core has 2 more GP and 1 more fixed counter (Linux intel_pmu_init)");
}

/* Below v6 a GP counter is reachable only at IA32_PERFEVTSELi / IA32_PMCi / IA32_A_PMCi, which exist for i < 10
 * (pmu_msr.h MSR_IA32_ARCH_GP_MAX: Linux programs Arrow Lake-H's ten Lion Cove counters there). A counter CPUID
 * enumerates beyond them would have no address: left out, and said so, rather than programmed at whatever MSR
 * follows. */
static void gp_reach_quirk(struct pmu_caps *caps)
{
    if (caps->version >= 6 || caps->num_gp <= MSR_IA32_ARCH_GP_MAX)
        return;
    caps->gp_mask &= pmu_low_mask(MSR_IA32_ARCH_GP_MAX);
    caps->num_gp = pmu_fls(caps->gp_mask);
    pmu_note_quirk(caps, "GP counters beyond 10 enumerated below perfmon v6: no MSR addresses them (IA32_PMC0-9 "
                         "only, no v6 aliases), left out");
}

void pmu_arch_perfmon_msrs(struct pmu_caps *caps)
{
    struct pmu_msrs *m = &caps->msrs;
    m->evtsel0 = MSR_IA32_PERFEVTSEL0;
    m->ctr0 = MSR_IA32_PMC0;
    m->stride = 1;
    /* GP 0-9 at the architectural addresses (x86_pmu_config_addr/event_addr = base + i below v6, Linux
     * events/perf_event.h); on v6 Linux uses the aliases for every counter, pmuboot from GP 8 on. */
    m->legacy_gp = MIN(caps->num_gp, caps->version >= 6 ? 8u : (u32)MSR_IA32_ARCH_GP_MAX);
    if (caps->pdcm)
        m->perf_capabilities = MSR_IA32_PERF_CAPABILITIES;
    if (caps->version >= 2) {
        if (caps->num_fixed) {
            m->fixed_ctr0 = MSR_IA32_FIXED_CTR0;
            m->fixed_ctr_ctrl = MSR_IA32_FIXED_CTR_CTRL;
        }
        m->global_ctrl = MSR_IA32_PERF_GLOBAL_CTRL;
        m->global_status = MSR_IA32_PERF_GLOBAL_STATUS;
        m->global_status_reset = MSR_IA32_PERF_GLOBAL_OVF_CTRL;
    }
    if (caps->version >= 4) {
        m->global_status_set = MSR_IA32_PERF_GLOBAL_STATUS_SET;
        m->global_inuse = MSR_IA32_PERF_GLOBAL_INUSE;
    }
    if (caps->version >= 6) {
        m->v6_gp_ctr0 = MSR_IA32_PMC_V6_GP0_CTR;
        m->v6_gp_cfg_a0 = MSR_IA32_PMC_V6_GP0_CFG_A;
        m->v6_fixed_ctr0 = MSR_IA32_PMC_V6_FX0_CTR;
        m->v6_stride = MSR_IA32_PMC_V6_STEP;
    }
}

bool pmu_discover_intel(struct pmu_caps *caps, const struct cpu_ident *id, const struct cpuid_source *src)
{
    struct cpuid_regs r;
    if (id->max_leaf >= 1 && cpuid_query(src, 1, 0, &r))
        caps->pdcm = (r.ecx >> 15) & 1; /* SDM CPUID.01H:ECX[15] PDCM: IA32_PERF_CAPABILITIES exists */
    /* SDM Vol.2A CPUID.(EAX=07H,ECX=0):EBX[4] HLE, EBX[11] RTM: TSX, and with it event-select IN_TX/IN_TXCP. */
    if (id->max_leaf >= 7 && cpuid_query(src, 7, 0, &r))
        caps->tsx = ((r.ebx >> 4) & 1) || ((r.ebx >> 11) & 1);
    if (id->max_leaf < 0x0a) {
        pmu_evidence(caps, "max basic CPUID leaf 0x%x < 0x0A: no architectural perfmon leaf", id->max_leaf);
        return false;
    }
    if (!cpuid_query(src, 0x0a, 0, &r)) {
        pmu_evidence(caps, "CPUID leaf 0x0A missing from the source");
        return false;
    }
    pmu_evidence(caps, "CPUID.0AH EAX=0x%08x EBX=0x%08x ECX=0x%08x EDX=0x%08x", r.eax, r.ebx, r.ecx, r.edx);
    if ((r.eax & 0xff) == 0 || ((r.eax >> 8) & 0xff) == 0) {
        pmu_evidence(caps, "version %u with %u GP counters: no architectural perfmon; CPUID.1:ECX.PDCM=%u",
                     r.eax & 0xff, (r.eax >> 8) & 0xff, caps->pdcm);
        return false;
    }
    caps->kind = PMU_KIND_INTEL_ARCH;
    pmu_arch_perfmon_decode(caps, &r);
    if (is_nehalem(caps->family, caps->model) && !(caps->arch_events & BIT(PMU_AE_BRANCH_MISSES)))
        pmu_note_quirk(caps, "Nehalem erratum AAJ80: CPUID marks Branch Misses Retired unavailable; Linux counts "
                             "BR_MISP_EXEC.ANY (event 0x89 umask 0x7f) instead");
    if (caps->family == 6 && caps->model == 0x0f)
        pmu_note_quirk(caps, "Core 2 Merom: PEBS unreliable (errata AJ67/AJ68/AJ69/AJ106), Linux disables PEBS "
                             "(intel_clovertown_quirk)");
    decode_leaf_23(caps, id, src);
    adl_hybrid_quirk(caps);
    gp_reach_quirk(caps);
    pmu_arch_perfmon_msrs(caps);
    return true;
}
