/* What differs between PMU kinds on the hardware path, in one descriptor per kind. Each kind (or family of
 * kinds sharing a programming model) defines its descriptors in its own file, the way Linux gives each PMU one
 * file with one struct x86_pmu (arch/x86/events/intel/knc.c, amd/core.c, intel/core.c); pmu/kinds.c indexes
 * them by enum pmu_kind. Every field is required unless it says otherwise: tests/host/test_pmu_kinds.c fails a
 * kind whose descriptor is missing or incomplete. Portable. */
#pragma once
#include "pmu/events.h"
#include "pmu/pmu.h"
#include "pmu/reset_values.h"

struct cpu_ident;
struct cpuid_source;
struct pmu_emul_face;
struct pmu_metric_guide;
struct pmu_kind_deviation;

struct pmu_kind_desc {
    const char *name;  /* pmu_kind_name(): "intel_arch", ... */
    const char *title; /* pmu_caps_describe()'s first line */
    /* Discovery: whether this kind's discover() is to be asked about a CPU of this identity, and the discovery
     * itself (true when it identified the PMU and set caps->kind; false leaves evidence for the SKIP reason).
     * Kinds of one family share one discover(), which pmu_discover() then asks once. */
    bool (*claims)(const struct cpu_ident *id);
    bool (*discover)(struct pmu_caps *caps, const struct cpu_ident *id, const struct cpuid_source *src);

    const struct pmu_backend *backend;
    u64 (*evsel_reserved)(const struct pmu *p); /* pmu_evsel_reserved() */
    /* The overflow-status bits status_clear/status_set accept, from p->counters; NULL: no status register. */
    u64 (*status_bits)(const struct pmu *p);
    bool reserved_faults;            /* writing a reserved select bit faults (pmu_reserved_faults) */
    bool reserved_faults_documented; /* ... and a manual says so (pmu_reserved_faults_documented) */
    /* Intel architectural perfmon programming model (SDM Vol.3B 21.2): fixed counters from v2, AnyThread from
     * v3, 32-bit sign-extended GP writes without FW_WRITE, DEBUGCTL freeze bits, version in the title. */
    bool arch_perfmon;
    /* AMD core counters (AMD APM Vol.2 13.2.1): EventSelect[11:8] in select bits 35:32 from family 10h, no
     * AnyThread, RDPMC indices of the uncore blocks after the core counters. */
    bool amd_core;
    const char *status_reset_label;  /* what describe calls msrs.global_status_reset ("reset") */
    /* Kind-specific lines of pmu_caps_describe() after the counters; NULL: none. */
    void (*describe)(const struct pmu_caps *c, struct strbuf *sb);

    /* Event table (in the kind file; looked up by pmu/events.c) and the names of its events Linux maps the generic
     * events to. */
    const struct pmu_event *events;
    size_t events_len;
    const char *generic[PMU_EV_COUNT];
    /* Whether an event of the table is there on this CPU; NULL: always. *why: a static reason when not. */
    bool (*event_available)(const struct pmu_caps *caps, const struct pmu_event *e, const char **why);
    /* The GP counters event `event` (12 bits on AMD) with unit mask `umask` is wired to on this CPU's family, in
     * *counters, and the source of that wiring; NULL (or a NULL return): every GP counter (pmu_event_gp_constraint,
     * after the vendor catalog's Counter field). */
    const char *(*gp_constraint)(const struct pmu_caps *caps, u16 event, u8 umask, u32 *counters);

    /* What each PMU register reads after a reset (pmu/reset_values.h). */
    void (*reset_expect)(const struct pmu_caps *caps, const struct pmu_state_entry *e, struct pmu_reset_expect *out);

    /* --- Emulated face (pmu/emul_face.h) --- */
    /* What pmu=emulated presents for this kind (CPUID, events, MSR map, register model), defined beside the
     * descriptor; NULL: the kind cannot be emulated. */
    const struct pmu_emul_face *emul;
    /* The facts below are optional: 0 / false / NULL says the kind does not have the feature. */
    /* IA32_DEBUGCTL.Freeze_PerfMon_On_PMI and Freeze_LBRs_On_PMI (bits 12 and 11) work from this version of the
     * programming model on (SDM Vol.3B 18.4.7, 21.2.2): pmu_freezes_on_pmi(). */
    u8 freeze_on_pmi_version;
    /* From this version on a freeze on PMI is reported in the global status (LBR_Frz, CTR_Frz) and ended by
     * writing it to the status reset register (SDM Vol.3B 21.2.4): pmu_freeze_in_status(). AMD's LbrExtV2 freeze
     * is enumerated instead (pmu/lbr.h). */
    u8 freeze_in_status_version;
    /* A write to the counter MSR itself takes bits 31:0 and sign-extends bit 31 (SDM Vol.3B 21.2.6); the full
     * width goes only through an alias (caps->msrs.ctr0_full_width). */
    bool legacy_write_sign_extends;
    /* The first full-width counter alias, enabled by IA32_PERF_CAPABILITIES.FW_WRITE (SDM Vol.3B 21.2.6:
     * IA32_A_PMC0): pmu_caps_apply_perf_capabilities(). */
    u32 full_width_alias0;
    /* Processor event-based sampling may be there (SDM Vol.3B 21.6): discovery reads IA32_MISC_ENABLE's
     * PEBS_UNAVAIL for it (pmu/pebs.h). */
    bool pebs;
    /* The vendor publishes per-model event files for this kind's parts (pmu/event_catalog.h). */
    bool vendor_catalog;
    /* The published deviations of counts this kind's CPUs may have (pmu/deviations.h), each with the CPUs it
     * applies to, in the order they are reported; ended by an entry whose deviation is NULL. NULL: none published
     * (KNC, Zhaoxin). */
    const struct pmu_kind_deviation *deviations;
    /* The derived metrics this kind's event table serves in full (pmu/knc_metrics.h); NULL: CPI only, from the
     * generic cycles and instructions events. */
    const struct pmu_metric_guide *metrics;
};

/* Indexed by enum pmu_kind; every entry non-NULL. */
extern const struct pmu_kind_desc *const pmu_kinds[PMU_KIND_COUNT];
/* The descriptor of `k`; kind none's for a value outside the enum. */
const struct pmu_kind_desc *pmu_kind_get(enum pmu_kind k);
