/* PMU discovery from CPUID only: what kind of performance-monitoring unit this logical CPU has, how many
 * counters of which width, where their MSRs are, and which CPUID quirks were corrected on the way.
 * Discovery is per thread (hybrid parts differ between core types), portable (all input comes through a
 * cpuid_source), and never touches an MSR: IA32_PERF_CAPABILITIES is decoded by a separate function that the
 * kernel feeds after reading the MSR safely. */
#pragma once
#include "lib/cpu_ident.h"
#include "lib/cpuid_source.h"
#include "lib/format.h"
#include "lib/types.h"

/* Which programming model applies: the index of its descriptor in pmu_kinds[] (pmu/kind.h). */
enum pmu_kind {
    PMU_KIND_NONE,           /* nothing usable found: see caps.evidence */
    PMU_KIND_INTEL_ARCH,     /* Intel architectural perfmon v1+ (CPUID.0AH) */
    PMU_KIND_AMD_LEGACY,     /* AMD K7-style: 4 counters at C001_0000.. (no CPUID enumeration) */
    PMU_KIND_AMD_CORE_EXT,   /* AMD PerfCtrExtCore: 6 counters at C001_0200.., select/counter interleaved */
    PMU_KIND_AMD_PERFMON_V2, /* AMD PerfMonV2: core-ext counters + global ctl/status (CPUID 0x80000022) */
    PMU_KIND_KNC,            /* Intel Xeon Phi Knights Corner: 2 x 40-bit counters at 0x20.. */
    PMU_KIND_ZHAOXIN,        /* Zhaoxin/Centaur ZXC, ZXD, ZXE: architectural perfmon v2 (Linux zhaoxin/core.c) */
    PMU_KIND_COUNT
};

/* One of the three AMD kinds (AMD APM Vol.2 13.2: the same select layout and 48-bit counters). */
bool pmu_kind_is_amd(enum pmu_kind k);
/* Predicates over the kind's descriptor (pmu/kind.h, pmu/kinds.c), for code outside the kind files, which never
 * compares kinds. Whether `k` is a PMU at all (kind none is the absence of one): */
bool pmu_kind_present(enum pmu_kind k);
struct pmu_caps;
/* Whether this PMU honours IA32_DEBUGCTL's freeze-on-PMI bits (pmu_kind_desc.freeze_on_pmi_version). */
bool pmu_freezes_on_pmi(const struct pmu_caps *caps);
/* Whether a freeze on PMI shows in the global status and ends through the status reset register
 * (pmu_kind_desc.freeze_in_status_version). */
bool pmu_freeze_in_status(const struct pmu_caps *caps);
/* Whether the kind's counter MSR sign-extends a write from bit 31 (pmu_kind_desc.legacy_write_sign_extends). */
bool pmu_legacy_write_sign_extends(enum pmu_kind k);

#define PMU_INTEL_NEWEST_KNOWN_VERSION 6
#define PMU_MAX_QUIRKS 8
#define PMU_EVIDENCE_LEN 320

/* Architectural events (SDM Vol.3B "Pre-defined Architectural Performance Events", CPUID.0AH.EBX and
 * CPUID.23H.3.EAX bit numbers). */
enum pmu_arch_event {
    PMU_AE_CORE_CYCLES,         /* 0: UnHalted Core Cycles */
    PMU_AE_INSTRUCTIONS,        /* 1: Instructions Retired */
    PMU_AE_REF_CYCLES,          /* 2: UnHalted Reference Cycles */
    PMU_AE_LLC_REFERENCES,      /* 3 */
    PMU_AE_LLC_MISSES,          /* 4 */
    PMU_AE_BRANCHES,            /* 5: Branch Instructions Retired */
    PMU_AE_BRANCH_MISSES,       /* 6: Branch Misses Retired */
    PMU_AE_TOPDOWN_SLOTS,       /* 7 */
    PMU_AE_TOPDOWN_BACKEND,     /* 8 */
    PMU_AE_TOPDOWN_BAD_SPEC,    /* 9 */
    PMU_AE_TOPDOWN_FRONTEND,    /* 10 */
    PMU_AE_TOPDOWN_RETIRING,    /* 11 */
    PMU_AE_LBR_INSERTS,         /* 12 */
    PMU_AE_COUNT
};
const char *pmu_arch_event_name(unsigned bit); /* "unknown" beyond the known ones */

/* Where the counters live. A field of 0 means "this register does not exist on this PMU" (MSR 0 is never a
 * PMU register). GP counter i: select at evtsel0 + i*stride, count at ctr0 + i*stride (Intel: for i < legacy_gp).
 * Fixed counter i: fixed_ctr0 + i. */
struct pmu_msrs {
    u32 evtsel0, ctr0, stride;
    /* Intel: GP counters 0 .. legacy_gp-1 are programmed at IA32_PERFEVTSELi / IA32_PMCi / IA32_A_PMCi (evtsel0,
     * ctr0, ctr0_full_width + i), the others through the v6 aliases. min(num_gp, 10) below v6 (pmu_msr.h
     * MSR_IA32_ARCH_GP_MAX), min(num_gp, 8) on v6, whose counters Linux reaches through the aliases. Other kinds:
     * 0 (their blocks cover every counter). */
    u32 legacy_gp;
    u32 ctr0_full_width;     /* Intel IA32_A_PMC0: set only after pmu_caps_apply_perf_capabilities() saw FW_WRITE */
    u32 fixed_ctr0, fixed_ctr_ctrl;
    u32 global_ctrl, global_status;
    u32 global_status_reset; /* Intel GLOBAL_OVF_CTRL/STATUS_RESET, AMD STATUS_CLR, KNC OVF_CTRL (write-only) */
    u32 global_status_set;   /* Intel v4+, AMD PerfMonV2 */
    u32 global_inuse;        /* Intel v4+ */
    u32 perf_capabilities;   /* Intel, when PDCM */
    u32 spflt_ctrl;          /* KNC PERF_SPFLT_CONTROL */
    /* Intel arch perfmon v6 aliases: counter i at v6_gp_ctr0 + i*v6_stride (select: v6_gp_cfg_a0 + ...);
     * used for GP counters from legacy_gp on. Zero below v6. */
    u32 v6_gp_ctr0, v6_gp_cfg_a0, v6_fixed_ctr0, v6_stride;
};

/* IA32_PERF_CAPABILITIES (MSR 0x345), SDM Vol.3B "IA32_PERF_CAPABILITIES" figure; Linux events/perf_event.h
 * union perf_capabilities. */
struct pmu_perf_capabilities {
    u64 raw;
    u8 lbr_format;           /* [5:0] */
    bool pebs_trap;          /* [6] */
    bool pebs_arch_regs;     /* [7] PEBS saves architectural registers */
    u8 pebs_record_format;   /* [11:8] */
    bool smm_freeze;         /* [12] FREEZE_WHILE_SMM supported */
    bool full_width_write;   /* [13] FW_WRITE: IA32_A_PMCx writable at full width */
    bool pebs_baseline;      /* [14] adaptive PEBS */
    bool perf_metrics;       /* [15] PERF_METRICS available */
    bool pebs_output_pt;     /* [16] PEBS output to Intel PT available */
    bool pebs_timing_info;   /* [17] */
    bool rdpmc_metrics_clear;/* [19] */
};

struct pmu_caps {
    enum pmu_kind kind;
    /* Identity the decision was made from (copied from cpu_ident). */
    enum cpu_vendor vendor;
    u32 family, model, stepping;
    bool hypervisor;

    /* Counters, after quirks. Masks: bit i = counter i exists (holes possible with v5+ fixed bitmaps and
     * leaf 0x23); num_* = highest index + 1, the range the MSR map spans. */
    u32 num_gp, gp_mask, gp_width;
    u32 num_fixed, fixed_mask, fixed_width;

    /* Intel architectural perfmon */
    u32 version;                 /* CPUID.0AH.EAX[7:0] as reported */
    bool version_beyond_known;   /* > PMU_INTEL_NEWEST_KNOWN_VERSION: decoded with the newest known rules */
    u32 arch_events_len;         /* CPUID.0AH.EAX[31:24]: bits of EBX that mean something */
    u32 arch_events;             /* bit i = architectural event i available (positive sense, after length) */
    bool anythread_deprecated;   /* CPUID.0AH.EDX[15], v5+ */
    bool pdcm;                   /* CPUID.1:ECX[15]: IA32_PERF_CAPABILITIES exists */
    bool has_perf_capabilities;  /* pmu_caps_apply_perf_capabilities() was given the MSR value */
    struct pmu_perf_capabilities perf_caps;
    bool ext_leaf;               /* CPUID.23H used (CPUID.(7,1):EAX[8] and max leaf >= 0x23) */
    u32 ext_subleaves;           /* CPUID.23H.0.EAX: bit n = subleaf n valid */
    bool umask2, eq_bit, rdpmc_user_disable; /* CPUID.23H.0.EBX[0], [1], [2] */
    bool hybrid;                 /* CPUID.(7,0):EDX[15] */
    bool tsx;                    /* CPUID.(7,0):EBX HLE[4] or RTM[11]: event-select IN_TX/IN_TXCP (32, 33) exist */
    u8 core_type;                /* CPUID.1AH.EAX[31:24]: 0x20 Atom, 0x40 Core, 0 if none */
    u32 native_model_id;         /* CPUID.1AH.EAX[23:0] */

    /* AMD */
    bool amd_perfctr_core, amd_perfctr_nb, amd_perfctr_llc; /* CPUID 0x80000001 ECX[23], [24], [28] */
    bool amd_lbr_v2, amd_lbr_pmc_freeze;                    /* CPUID 0x80000022 EAX[1], [2] */
    u32 amd_lbr_depth, amd_num_df, amd_num_umc;             /* CPUID 0x80000022 EBX[9:4], [15:10], [21:16] */

    struct pmu_msrs msrs;

    /* CPUID quirks that were applied (or deliberately not applied): static one-line explanations. */
    u32 num_quirks;
    const char *quirks[PMU_MAX_QUIRKS];
    /* One line of raw CPUID facts behind the decision; for kind NONE it is the SKIP reason. */
    char evidence[PMU_EVIDENCE_LEN];
};

/* Discover the PMU of the logical CPU that `src` answers for. `id` must come from cpu_ident_decode() on the
 * same source. Never fails: an unknown or absent PMU is kind NONE with evidence. */
void pmu_discover(struct pmu_caps *caps, const struct cpu_ident *id, const struct cpuid_source *src);

/* AMD (or Hygon) under a hypervisor without PerfCtrExtCore: discovery leaves kind NONE, because the four K7
 * counters (PerfEvtSel0-3 C001_0000-3, PerfCtr0-3 C001_0004-7; AMD APM Vol.2 13.2.1) are not enumerated and a
 * hypervisor may not back them. KVM does back them, and Linux uses them. This probes them through `hw`: an
 * event select written and read back, a counter written and read back, then a count. Returns true and sets
 * kind PMU_KIND_AMD_LEGACY when all three hold; either way appends what it saw to caps->evidence. Does
 * nothing (false) for any other caps. Leaves the registers it touched as it found them (the state at entry is
 * recorded after it, pmu/kernel/pmu_cpu.c). */
struct hw_access;
bool pmu_probe_amd_legacy(struct pmu_caps *caps, struct hw_access *hw);

/* Decode an IA32_PERF_CAPABILITIES value (no MSR access here). */
void pmu_perf_capabilities_decode(u64 value, struct pmu_perf_capabilities *out);
/* Record a PERF_CAPABILITIES value the kernel read (only meaningful when caps->pdcm): fills perf_caps and,
 * with FW_WRITE, msrs.ctr0_full_width. */
void pmu_caps_apply_perf_capabilities(struct pmu_caps *caps, u64 value);

/* Human/TAP-comment summary: several lines, each ending in '\n', no "# " prefix (the kernel adds its own). */
void pmu_caps_describe(const struct pmu_caps *caps, struct strbuf *sb);
void pmu_perf_capabilities_describe(const struct pmu_perf_capabilities *pc, struct strbuf *sb);

const char *pmu_kind_name(enum pmu_kind kind); /* "none", "intel_arch", ... */

/* The Knights Corner PMU's counters and MSR map, fixed by its document (Intel Xeon Phi Coprocessor PMU, doc
 * 327357-001, 1.4 and Table 1-2), not enumerated: discovery (pmu/discover_knc.c) and the register model share it. */
void pmu_knc_fill(struct pmu_caps *caps);
