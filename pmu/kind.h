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

    /* Event table (pmu/events.c) and the names of its events Linux maps the generic events to. */
    const struct pmu_event *events;
    size_t events_len;
    const char *generic[PMU_EV_COUNT];
    /* Whether an event of the table is there on this CPU; NULL: always. *why: a static reason when not. */
    bool (*event_available)(const struct pmu_caps *caps, const struct pmu_event *e, const char **why);

    /* What each PMU register reads after a reset (pmu/reset_values.h). */
    void (*reset_expect)(const struct pmu_caps *caps, const struct pmu_state_entry *e, struct pmu_reset_expect *out);

    /* --- Emulated face (pmu/emul_face.h) --- */
    /* What pmu=emulated presents for this kind (CPUID, events, MSR map, register model), defined beside the
     * descriptor; NULL: the kind cannot be emulated. */
    const struct pmu_emul_face *emul;
};

/* Indexed by enum pmu_kind; every entry non-NULL. */
extern const struct pmu_kind_desc *const pmu_kinds[PMU_KIND_COUNT];
/* The descriptor of `k`; kind none's for a value outside the enum. */
const struct pmu_kind_desc *pmu_kind_get(enum pmu_kind k);
