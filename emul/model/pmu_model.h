/* Register-level model of one logical CPU's core PMU and the PMI path to its local APIC, for host tests of
 * pmu/ and the kernel's emulated PMU (no machine here has a PMU: QEMU TCG answers CPUID.0AH with 0, QEMU
 * target/i386/cpu.c cpu_x86_cpuid). It implements the struct hw_ops contract of pmu/access.h, configured from
 * a struct pmu_caps, so pmu/ code runs unchanged against it. Every rule it
 * encodes cites its source in pmu_model.c / apic_model.c; docs/model.md lists what is and is not modelled.
 *
 * Typical use:
 *     struct pmu_caps caps;  fixture_caps_intel(&caps, 4, 4, 48, 3, 48, true);
 *     struct pmu_model m;    pmu_model_init(&m, &caps, MODEL_APIC_STRICT_EDGE);
 *     struct hw_access hw;   pmu_model_access(&m, &hw);
 *     ... program through hw (or struct pmu) ...
 *     pmu_model_count(&m, 0xc0, 0x00, 1000);      // 1000 instructions retire
 *     while (pmu_model_take_pmi(&m, &irq)) { run the handler on hw; pmu_model_pmi_done(&m); }
 *
 * Counters are named by their unified status bit (pmu/pmu.h): GP i = bit i, fixed i = bit 32 + i.
 * Freestanding: the host tests use it as the PMU under test, and the kernel's pmu=emulated:KIND uses one
 * instance per CPU (emul/kernel/pmu_emul.c), with the APIC part delivering through the real local APIC. */
#pragma once
#include "pmu/access.h"
#include "pmu/emul_face.h"
#include "pmu/pmu_caps.h"
#include "emul/model/apic_model.h"
#include "emul/model/lbr_model.h"
#include "emul/model/pebs_model.h"

#define PMU_MODEL_MAX_GP 32     /* unified bits 0..31 */
#define PMU_MODEL_MAX_FIXED 16  /* unified bits 32..47 */
#define PMU_MODEL_FIXED_BIT 32
#ifdef PMUBOOT_KERNEL
#define PMU_MODEL_LOG_LEN 8     /* one instance per CPU in the kernel: keep it small */
#else
#define PMU_MODEL_LOG_LEN 256   /* register accesses remembered (a ring: older ones are dropped) */
#endif

/* The events the Intel fixed counters count, as (event, umask) of the matching architectural event (SDM Vol.3B
 * "Pre-defined Architectural Performance Events" and the fixed-counter table): feeding one of these through
 * pmu_model_count() advances both the fixed counter and any GP counter selecting it. */
#define PMU_MODEL_EV_INSTRUCTIONS 0xc0, 0x00 /* fixed 0: INST_RETIRED.ANY */
#define PMU_MODEL_EV_CORE_CYCLES 0x3c, 0x00  /* fixed 1: CPU_CLK_UNHALTED.CORE */
#define PMU_MODEL_EV_REF_CYCLES 0x3c, 0x01   /* fixed 2: CPU_CLK_UNHALTED.REF (one rate for both, see model.md) */
#define PMU_MODEL_EV_TOPDOWN_SLOTS 0xa4, 0x01 /* fixed 3: TOPDOWN.SLOTS */

enum pmu_model_op {
    PMU_MODEL_OP_RDMSR,
    PMU_MODEL_OP_WRMSR,
    PMU_MODEL_OP_RDPMC,
    PMU_MODEL_OP_APIC_READ,
    PMU_MODEL_OP_APIC_WRITE,
};

/* One access through the hw_ops, as the access hook and the log see it. */
struct pmu_model_access {
    u64 index;            /* 0, 1, 2, ...: order of the access since pmu_model_init (m->access_index) */
    enum pmu_model_op op;
    u32 reg;              /* MSR number, RDPMC ECX, or xAPIC offset */
    u64 value;            /* written value; for reads the value returned (valid in the "after" call) */
    int result;           /* 0 or HW_FAULT | vector (valid in the "after" call) */
};

/* Deliberate misbehaviours (pmu_fault=NAME in the kernel; host tests set m.faults), each one a bug that shipped
 * in a real virtual PMU or that a manual forbids, so the checks can be seen to catch it (docs/emulated-pmu.md).
 * Names and parsing: pmu_model_faults.c. */
enum pmu_model_fault {
    PMU_FAULT_LVTPC_NO_MASK = 1u << 0,      /* Intel/KNC: the LVT PC mask is not set on delivery (KVM < a16eb25b09c0) */
    PMU_FAULT_DUPLICATE_PMI = 1u << 1,      /* every accepted PMI is delivered twice (KVM 73554b29bd70) */
    PMU_FAULT_LOST_PMI = 1u << 2,           /* the overflow sets the status but raises no PMI */
    PMU_FAULT_STATUS_STICKY = 1u << 3,      /* OVF_CTRL / STATUS_RESET / STATUS_CLR clears nothing */
    PMU_FAULT_WIDTH = 1u << 4,              /* counters one bit narrower than CPUID says; Intel legacy writes
                                             * zero-extended (KVM b29a2acd36dd) */
    PMU_FAULT_GLOBAL_CTRL_RESET_ZERO = 1u << 5, /* GLOBAL_CTRL resets to 0 (KVM de120e1d692d) */
    PMU_FAULT_COUNTERS_SURVIVE_RESET = 1u << 6, /* reset keeps counters and selects (QEMU 4c7f05232cd1) */
    PMU_FAULT_RESET_ON_INIT = 1u << 7,      /* INIT clears the PMU (KNC PMU 1.4.4 says it must not) */
    PMU_FAULT_NO_FREEZE = 1u << 8,          /* DEBUGCTL.Freeze_PerfMon_On_PMI ignored */
    PMU_FAULT_OVERCOUNT = 1u << 9,          /* instructions retired: one more per PMU_MODEL_OVERCOUNT_N
                                             * since the last counter write (so every run alike) */
    PMU_FAULT_RDPMC_GP0_ONLY = 1u << 10,    /* RDPMC #GP(0) on every counter but GP 0 (a vPMU that passes or
                                             * emulates RDPMC for the first counter only) */
    PMU_FAULT_HELD_BY_HOST = 1u << 11,      /* the last GP counter never counts (its host perf event could not
                                             * get a hardware counter: the host's NMI watchdog holds one) */
    PMU_FAULT_FIRMWARE_LEFT_ENABLED = 1u << 12, /* firmware leaves counters enabled after the reset (real BIOSes;
                                                 * QEMU's system_reset kept AMD selects): the kernel applies it with
                                                 * pmu_model_firmware_left_enabled() */
    PMU_FAULT_CATALOG_ALL_BRANCHES = 1u << 13, /* every event of the vendor's catalog counts all branches, whatever
                                                * its class: a wrong row in a vPMU's or a tool's event table */
    PMU_FAULT_EARLY_PMI = 1u << 14,         /* an overflow is signalled (status, PMI) one event before the counter
                                             * wraps: the PMI interrupts the overflowing instruction itself */
    PMU_FAULT_SKID_BEYOND_BOUND = 1u << 15, /* the kernel's emulated PMU sends each PMI PMU_EMUL_SKID_EXCESS
                                             * instructions later than the skid it declares (pmu_skid=) */
    PMU_FAULT_LBR_OUT_OF_ORDER = 1u << 16,  /* the two youngest LBR records trade places */
    PMU_FAULT_LBR_MISSING_RECORD = 1u << 17,/* every 16th branch the LBR should record is lost */
    PMU_FAULT_LBR_FILTER_LEAK = 1u << 18,   /* the LBR's CPL filter lets branches that end at CPL 0 through */
    PMU_FAULT_LBR_NO_FREEZE = 1u << 19,     /* IA32_DEBUGCTL.FREEZE_LBRS_ON_PMI ignored */
    PMU_FAULT_PEBS_EVENTING_IP = 1u << 20,  /* a PEBS record's eventing IP is the next instruction's */
    PMU_FAULT_PEBS_MISSING_RECORD = 1u << 21, /* every third PEBS record is not written (the counter reloads) */
    PMU_FAULT_PEBS_PMI_EVERY_RECORD = 1u << 22, /* a PEBS buffer PMI after every record, below the threshold too */
    PMU_FAULT_PEBS_LBR_LEAK = 1u << 23,     /* a PEBS record's LBR group holds another context's branches */
    PMU_FAULT_STATUS_EXTRA_BIT = 1u << 24,  /* an overflow also sets the status bit of the next existing counter,
                                             * which did not overflow (no PMI request of its own) */
    PMU_FAULT_NMI_AS_FIXED = 1u << 25,      /* an NMI-mode LVT performance-counter entry is delivered as a fixed
                                             * interrupt (the kernel's emulated PMU: pmu_emul.c send()) */
    PMU_FAULT_FREEZE_KEEPS_COUNTING = 1u << 26, /* freeze on PMI is reported (v4+ CTR_Frz set; v2/v3 GLOBAL_CTRL
                                                 * reads 0) but the counters keep counting */
    PMU_FAULT_FREEZE_NOT_RELEASED = 1u << 27, /* STATUS_RESET / STATUS_CLR of CTR_Frz and LBR_Frz is ignored: the
                                               * freeze stays until a reset */
};
#define PMU_MODEL_FAULT_COUNT 28
#define PMU_MODEL_OVERCOUNT_N 100
/* "lvtpc-no-mask" etc.; NULL for a bit that names no fault. */
const char *pmu_model_fault_name(u32 fault_bit);
/* Parse "NAME[,NAME...]" into a mask; false (and *bad = the first unknown item, copied) on an unknown name. */
bool pmu_model_faults_parse(const char *list, u32 *mask, char *bad, size_t bad_size);
/* "lvtpc-no-mask, duplicate-pmi, ...": every name, for error messages. */
const char *pmu_model_fault_list(void);

struct pmu_model;
/* Called before (after = false) and after (after = true) every access through the hw_ops. It may change the
 * model, e.g. pmu_model_tick() to make an overflow happen exactly between access k-1 and k. Accesses made from
 * inside a hook are logged but do not call hooks again. */
typedef void (*pmu_model_access_hook)(struct pmu_model *m, const struct pmu_model_access *a, bool after,
                                      void *arg);
/* Called once per counter overflow, right after its status bit and the PMI line were updated. */
typedef void (*pmu_model_overflow_hook)(struct pmu_model *m, u32 bit, void *arg);

struct pmu_model_stats {
    u64 overflows[64];    /* wraps produced, per unified bit */
    u64 overflows_total;
    u64 pmi_requests;     /* overflows of a counter whose INT (select bit 20) / PMI (fixed field bit 3) was set */
    u64 events_counted;   /* counter increments made by pmu_model_count/tick (summed over counters) */
    u64 accesses;         /* hw_ops calls */
    u64 faults;           /* hw_ops calls answered with HW_FAULT | vector */
};

struct pmu_model {
    struct pmu_caps caps;     /* copy of the configuration */
    const char *config_error; /* NULL, or why caps cannot be modelled (the model then faults everything) */

    /* The environment of the code making the accesses (tests may change these at any time). */
    u8 cpl;                   /* 0 (default) .. 3: RDMSR/WRMSR need 0; counting honours OS/USR */
    bool cr4_pce;             /* CR4.PCE: RDPMC allowed at CPL > 0 */
    bool reset_condchgd;      /* pmu_model_reset() leaves GLOBAL_STATUS.CondChgd (bit 63) set (Linux b292d7a10487) */

    /* Architectural state. Counters hold only their width's bits. */
    u64 gp_ctr[PMU_MODEL_MAX_GP];
    u64 gp_sel[PMU_MODEL_MAX_GP];
    u64 fx_ctr[PMU_MODEL_MAX_FIXED];
    u64 fixed_ctrl;           /* IA32_FIXED_CTR_CTRL */
    u64 global_ctrl;          /* IA32_PERF_GLOBAL_CTRL / PerfCntrGlobalCtl / KNC 0x2F */
    u64 global_status;        /* IA32_PERF_GLOBAL_STATUS / PerfCntrGlobalStatus / KNC 0x2D */
    u64 spflt;                /* KNC PERF_SPFLT_CONTROL */
    u64 debugctl;             /* Intel IA32_DEBUGCTL (0x1D9): only the freeze-on-PMI bits act (pmu_model.c) */
    u64 freeze_ignored;       /* PMU_FAULT_FREEZE_KEEPS_COUNTING on v2/v3: GLOBAL_CTRL bits a legacy freeze cleared
                               * in the register but not in effect (until the next GLOBAL_CTRL write or reset) */
    /* Status bits whose overflow requested a PMI (INT/PMI set when it wrapped); the PMI line is high while any
     * is left. On PMUs without a status register every request is a pulse. */
    u64 pmi_req;
    /* Overflows seen on PMUs that have no status register (not architecturally visible). */
    u64 ovf_seen;
    u32 faults;                    /* enum pmu_model_fault bits */
    u64 overcount_acc;             /* instructions fed since the last extra one (PMU_FAULT_OVERCOUNT) */

    /* Derived from caps at init. */
    const struct pmu_emul_face *face; /* caps.kind's emulated face (pmu/emul_face.h): its register model */
    u64 gp_val_mask, fx_val_mask;  /* value bits of one counter */
    u64 gp_bits, fx_bits;          /* existing counters as unified bits */
    u32 a_pmc0;                    /* IA32_A_PMC0 when full-width writes exist, else 0 */

    struct apic_model apic;
    struct lbr_model lbr;          /* kind LBR_NONE until pmu_model_set_lbr() */
    struct pebs_model pebs;        /* absent until pmu_model_set_pebs() */
    struct pmu_model_stats st;

    pmu_model_access_hook access_hook;
    void *access_hook_arg;
    pmu_model_overflow_hook overflow_hook;
    void *overflow_hook_arg;
    int hook_depth;

    u64 access_index;              /* index the next access will get */
    struct pmu_model_access log[PMU_MODEL_LOG_LEN];
};

/* Configure from `caps` (copied), apply the reset state, and start the APIC with behaviour `b`. The LVT mask
 * is set on PMI delivery except on AMD PMU kinds (m->apic.mask_on_delivery may be changed afterwards). */
void pmu_model_init(struct pmu_model *m, const struct pmu_caps *caps, enum model_apic_behaviour b);
/* What a firmware that leaves counters enabled does after the reset (PMU_FAULT_FIRMWARE_LEFT_ENABLED), with values
 * Linux reported as "the BIOS has corrupted hw-PMU resources" on real machines: GP select 0 enabled (AMD 0x530076,
 * a KVM guest after a QEMU system_reset; Intel 0x43003C, UnHalted Core Cycles at OS+USR; KNC 0x430016, instructions
 * executed at OS+USR) and, with three fixed counters or more, IA32_FIXED_CTR_CTRL 0x330 (a Core i3-3240). Written
 * through the model's own MSR path at CPL 0. */
void pmu_model_firmware_left_enabled(struct pmu_model *m);

/* Give the model the LBR `c` describes (pmu/lbr.c lbr_discover on the kind's CPUID), after pmu_model_init. */
void pmu_model_set_lbr(struct pmu_model *m, const struct lbr_caps *c);
/* One retired instruction, for the LBR: a taken branch is recorded when the LBR is enabled, not frozen, and its filter
 * keeps it (emul/model/lbr_model.c); call it before feeding the instruction's events, so the branch whose event
 * overflows a counter is recorded before a freeze on that PMI. */
void pmu_model_retire_branch(struct pmu_model *m, const struct lbr_model_branch *b);

/* Give the model PEBS as `c` describes it (pmu/pebs.c pebs_discover on the kind's CPUID), writing its records through
 * `mem`, after pmu_model_init. */
void pmu_model_set_pebs(struct pmu_model *m, const struct pebs_caps *c, const struct pebs_model_mem *mem);
/* The instruction whose events pmu_model_count() is about to feed, as a PEBS record would hold it. */
void pmu_model_set_insn(struct pmu_model *m, const struct pebs_model_insn *in);

/* Switch deliberate misbehaviours on (enum pmu_model_fault bits; 0: none), after pmu_model_init. */
void pmu_model_set_faults(struct pmu_model *m, u32 faults);
/* Fill `out` with the model's hw_ops (counts zeroed). */
void pmu_model_access(struct pmu_model *m, struct hw_access *out);

/* Power-up / warm reset of the PMU (reset values per kind, see pmu_model.c) and of the modelled APIC part. */
void pmu_model_reset(struct pmu_model *m);
/* INIT: PMU registers and counters keep their values (KNC PMU 1.4.4; SDM Vol.3A "Initialization Overview":
 * "during an INIT, the internal caches, MSRs, MTRRs, and x87 FPU state are left unchanged"); the local APIC
 * takes its INIT state (LVT masked). */
void pmu_model_init_signal(struct pmu_model *m);

/* `n` occurrences of (event, umask) at the current CPL, one at a time: every counter that selects that event
 * and is enabled (select EN / fixed field OS-USR for the CPL, and the GLOBAL_CTRL bit where the PMU has one)
 * advances; a wrap sets the status bit at the exact event, raises the PMI line if requested, and calls the
 * overflow hook. AMD 12-bit events: event[11:8] is select bits 35:32. */
void pmu_model_count(struct pmu_model *m, u16 event, u8 umask, u64 n);
/* `n` events for one counter only (its own event, whatever it is), gated like pmu_model_count. Returns how
 * many it counted (0 when the counter does not exist or is not enabled). */
u64 pmu_model_tick(struct pmu_model *m, u32 bit, u64 n);

/* PMIs: the APIC queues what it accepts; the test runs the handler. */
bool pmu_model_pending_pmi(const struct pmu_model *m);
bool pmu_model_take_pmi(struct pmu_model *m, struct apic_model_irq *out);
void pmu_model_pmi_done(struct pmu_model *m); /* the handler's IRET (fixed-mode PMIs end at the EOI write) */
/* Take and handle pending PMIs until none is left or `max` were handled; returns how many. `handler` runs
 * the code under test (which must EOI fixed-mode PMIs itself); pmu_model_pmi_done() follows each call. */
u32 pmu_model_service(struct pmu_model *m, void (*handler)(struct pmu_model *m, const struct apic_model_irq *irq,
                                                          void *arg),
                      void *arg, u32 max);

void pmu_model_set_access_hook(struct pmu_model *m, pmu_model_access_hook fn, void *arg);
void pmu_model_set_overflow_hook(struct pmu_model *m, pmu_model_overflow_hook fn, void *arg);
/* Access number `index` (the index the hook saw), or NULL if it never happened or left the ring. */
const struct pmu_model_access *pmu_model_log_entry(const struct pmu_model *m, u64 index);

/* Inspection without going through the hw_ops (no log, no hooks, no faults). */
u64 pmu_model_counter(const struct pmu_model *m, u32 bit); /* 0 for a counter that does not exist */
bool pmu_model_pmi_line(const struct pmu_model *m);

