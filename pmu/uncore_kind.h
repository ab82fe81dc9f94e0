/* Uncore PMU kinds as descriptors, the way pmu/kind.h holds the core PMU kinds. An uncore PMU is shared: by every
 * thread of a package (Intel) or of the threads sharing one L3 (AMD); its counters count package-level events and,
 * on Intel, its overflow interrupt goes to the cores its global control names. Each descriptor holds the register
 * map, the counter groups, the control and status layout, the PMI routing field, the freeze bit, the package-level
 * events it offers, how it is recognised, and the face an emulated machine of it presents. Nothing outside the
 * uncore_kind_*.c files compares kinds: code asks the descriptor's fields.
 *
 * Files: uncore_kind_nhm.c (Nehalem/Westmere), uncore_kind_snb.c (the client uncore, Sandy Bridge to Arrow Lake),
 * uncore_kind_amd_l3.c (AMD's L3 PMU, Zen 1-5), uncore_kinds.c (the table and recognition).
 * tests/host/test_uncore_kinds.c fails a descriptor that is incomplete. Portable: no hardware access. */
#pragma once
#include "lib/cpu_ident.h"
#include "lib/cpuid_source.h"
#include "lib/types.h"

struct strbuf;

/* Who shares one uncore PMU. */
enum uncore_scope {
    UNCORE_SCOPE_PACKAGE, /* every thread of a package (Intel) */
    UNCORE_SCOPE_L3,      /* the threads sharing one L3, a CCX (Linux amd/uncore.c: get_llc_id) */
};

/* How a machine's uncore kind is found. */
enum uncore_enumeration {
    UNCORE_ENUM_MODEL_LIST, /* GenuineIntel family 6 and a model of `models` (Linux intel/uncore.c intel_uncore_match) */
    UNCORE_ENUM_CPUID,      /* CPUID feature bits, asked through `claims` (AMD: PerfCtrExtLLC) */
    /* The uncore discovery table (server parts from Sapphire Rapids on, Linux intel/uncore_discovery.c): the boxes
     * are read from the table at run time into a box array the descriptor then points to. No descriptor uses it
     * yet; recognition names such a machine as one whose uncore is known to Linux but not built here. */
    UNCORE_ENUM_DISCOVERY,
};

/* How an overflow status bit is cleared. */
enum uncore_status_clear {
    UNCORE_CLEAR_NONE,        /* no status register */
    UNCORE_CLEAR_OVF_CTRL_W1, /* write 1 to the bit in a separate write-only register (Nehalem GLOBAL_OVF_CTRL) */
    UNCORE_CLEAR_STATUS_W0,   /* write the status register with the bit 0 (the client's read/write status bits) */
};

/* What the freeze bit does when a counter with its PMI bit set overflows. */
enum uncore_freeze {
    UNCORE_FREEZE_NONE,           /* no freeze bit */
    UNCORE_FREEZE_CLEARS_ENABLES, /* every counter stops; software sets the enable bits again (Nehalem PMI_FRZ) */
    UNCORE_FREEZE_CLEARS_EN,      /* the global EN bit is cleared, stopping every counter (client FREEZE) */
};

/* A group of counters programmed alike: Nehalem's eight PerfCntr, a client's C-Boxes or ARB, AMD's L3 counters.
 * Counter c of box b: select MSR ctl0 + b * box_stride + c * counter_stride, counter ctr0 + the same offset. */
struct uncore_box_desc {
    const char *name;          /* "pc", "cbox", "arb", "l3" */
    u32 boxes;                 /* boxes per scope, or their most when boxes_msr says or cores cap it */
    bool boxes_capped_by_cores; /* no more boxes than cores per package (Linux snb/skl_uncore_cpu_init) */
    u32 boxes_msr;             /* MSR whose boxes_mask bits give the box count (MSR_UNC_CBO_CONFIG); 0: none */
    u64 boxes_mask;
    u32 counters;              /* per box */
    u8 width;                  /* counter bits */
    u32 ctl0, ctr0;
    u32 counter_stride, box_stride;
    u64 sel_enable;            /* select bit enabling the counter locally */
    u64 sel_pmi;               /* select bit making its overflow raise the uncore PMI; 0: none */
    u64 sel_event_mask;        /* event, umask, edge, invert, threshold bits */
    u64 sel_count_all;         /* bits that make one counter count every slice and thread (AMD L3); 0: none */
    u32 status_shift;          /* global status bit of counter 0 (per counter) or of the group */
    bool status_per_counter;   /* a status bit per counter (Nehalem), else one bit for the whole group (client) */
    /* The global control has an enable bit per counter, at its status bit (Nehalem EN_PCn); else ctrl_enable
     * covers the whole group. */
    bool global_enable_per_counter;
};

/* The fixed counter (the uncore clock). ctl == 0: none. */
struct uncore_fixed_desc {
    u32 ctl, ctr;
    u8 width;
    u64 ctl_enable, ctl_pmi;
    u64 status_bit;            /* its bit in the global status */
    u64 enable_bit;            /* its bit in the global control (Nehalem EN_FC0); 0: the global EN covers it */
    const char *counts;        /* what it counts */
};

/* The global control and status. ctrl == 0: no global control. */
struct uncore_global_desc {
    u32 ctrl;
    u64 ctrl_enable;           /* bits that start counting: Nehalem EN_PC0-7 and EN_FC0; client EN */
    u64 ctrl_route_mask;       /* the PMI routing field, one bit per core; 0: the kind routes no PMI */
    u32 ctrl_route_shift;      /* bit of core 0 */
    u64 ctrl_freeze;           /* 0: none */
    u64 ctrl_wake;             /* wake a halted core before its PMI (client WakePMI); 0: none */
    enum uncore_freeze freeze;
    u32 status;                /* 0: none */
    u64 status_ovf_pmi;        /* "an overflow raised the PMI" (Nehalem OVF_PMI); 0: none */
    u64 status_chg;            /* condition changed (Nehalem CHG); 0: none */
    u32 ovf_ctrl;              /* the clear register for UNCORE_CLEAR_OVF_CTRL_W1; else 0 */
    enum uncore_status_clear clear;
    u64 debugctl_pmi;          /* IA32_DEBUGCTL bit a core sets to take the uncore PMI; 0: none */
};

/* What an event's count is bounded by, for the per-package checks. */
enum uncore_bound {
    UNCORE_BOUND_NONE,
    UNCORE_BOUND_CLOCK,        /* counts the uncore clock: a rate against the TSC */
    UNCORE_BOUND_AT_LEAST_LINES, /* at least N for a workload reading N distinct lines that miss the core's caches */
};

struct uncore_event_desc {
    const char *name;
    const char *box;           /* the group that counts it ("pc", "cbox", "fixed", "l3") */
    u8 event, umask;
    enum uncore_bound bound;
};

/* What an emulated machine of this kind presents (pmu=emulated and the host tests' register model,
 * emul/model/uncore_model.c). The register model takes the registers from the descriptor above; these fields say
 * what it adds: the CPU it presents, how many packages and who shares a register file, and the rates it counts at. */
struct uncore_emul_face {
    const char *name;          /* the emulated kind's name ("wsm-ep") */
    const char *vendor;        /* CPUID leaf 0 vendor string */
    u32 family, model, stepping;
    u32 packages;
    u32 scopes_per_package;    /* uncore PMUs per package: 1 on Intel, the L3 complexes on AMD */
    u32 cores_per_scope;       /* cores sharing one uncore PMU: the routing field names them 0.. */
    u32 threads_per_core;
    u64 tsc_hz;
    u64 uncore_clock_hz;       /* the fixed counter's rate; 0 without a fixed counter */
    u32 boxes_msr_value;       /* what boxes_msr reads (the client's C-Box count) */
};

struct uncore_kind_desc {
    const char *name;          /* "nhm", "snb", ..., "amd_l3_zen3" */
    const char *title;         /* for the header and pmu-decode */
    const char *source;        /* the manual section and Linux files its facts come from */
    enum uncore_enumeration enumeration;
    enum uncore_scope scope;
    /* UNCORE_ENUM_MODEL_LIST: family 6 models (GenuineIntel). */
    const u8 *models;
    size_t models_len;
    /* UNCORE_ENUM_CPUID: whether this kind is the CPU's; when not, appends what it probed to `why`. */
    bool (*claims)(const struct cpu_ident *id, const struct cpuid_source *src, struct strbuf *why);
    const struct uncore_box_desc *boxes;
    size_t boxes_len;
    struct uncore_fixed_desc fixed;
    struct uncore_global_desc global;
    const struct uncore_event_desc *events;
    size_t events_len;
    const struct uncore_emul_face *emul; /* NULL: no emulated machine of this kind */
};

/* Every kind, NULL-terminated. */
extern const struct uncore_kind_desc *const uncore_kinds[];
/* The kind named `name`, or NULL. */
const struct uncore_kind_desc *uncore_kind_by_name(const char *name);
/* The kind whose emulated face is named `name`, or NULL. */
const struct uncore_kind_desc *uncore_kind_by_emul_name(const char *name);

/* Recognition from CPUID: the kind, or NULL with `why` naming the vendor, family, model and what was probed (the
 * SKIP reason of every uncore check on that machine). When found, `why` says which list or bits matched. */
struct uncore_recognition {
    const struct uncore_kind_desc *kind;
    struct cpu_ident id;
    char why[320];
};
void uncore_recognise(const struct cpuid_source *src, struct uncore_recognition *r);
/* One line, as the kernel's header and pmu-decode print it: "uncore: NAME (TITLE): WHY" for a recognised kind,
 * "uncore: none: WHY" otherwise (WHY names vendor, family, model and what was probed, or the hypervisor). */
void uncore_recognition_describe(const struct uncore_recognition *r, struct strbuf *sb);

/* Register helpers from the descriptor. */
u32 uncore_box_ctl(const struct uncore_box_desc *b, u32 box, u32 counter);
u32 uncore_box_ctr(const struct uncore_box_desc *b, u32 box, u32 counter);
/* The global status bit(s) of counter `counter` of group `b`. */
u64 uncore_box_status_bit(const struct uncore_box_desc *b, u32 counter);
/* Every overflow bit the global status can hold (counters and fixed), without OVF_PMI and CHG. */
u64 uncore_status_overflow_bits(const struct uncore_kind_desc *k);
/* The routing field's value selecting the cores of `core_mask` (bit n: core n of the scope). */
u64 uncore_route_bits(const struct uncore_kind_desc *k, u32 core_mask);
/* The cores the routing field selects in a global control value (bit n: core n). */
u32 uncore_route_cores(const struct uncore_kind_desc *k, u64 ctrl);
/* How many cores the routing field can name (its width); 0: no routing. */
u32 uncore_route_width(const struct uncore_kind_desc *k);
