/* The emulated uncore PMU's register model: one register file per scope (a package on Intel, an L3 complex on AMD),
 * shared by every thread of the scope, its layout from the kind's descriptor (pmu/uncore_kind.h) and its emulated
 * face (packages, cores, the rates it counts at). Like emul/model/pmu_model.c it keeps its own reading of the
 * manuals for behaviour (what counts when, overflow, the PMI to the routed cores, freeze, status and its clear), so
 * that the uncore verdicts (pmu/uncore_verdict.h) are tested against an independent side, and it has deliberate
 * faults, each a way real hardware or a hypervisor could get the protocol wrong. Portable. */
#pragma once
#include "pmu/uncore_kind.h"

#define UNCORE_MODEL_MAX_COUNTERS 64
#define UNCORE_MODEL_MAX_CORES 32
#define UNCORE_MODEL_MAX_SCOPES 8

/* Deliberate misbehaviours (uncore_fault=NAME with uncore=emulated:FACE, names below; host tests set them
 * directly). */
enum uncore_model_fault {
    UNCORE_FAULT_PMI_WRONG_CORE = 1u << 0, /* "uncore-pmi-wrong-core": the PMI goes to the next core of each one
                                            * selected, not to it */
    UNCORE_FAULT_NO_FREEZE = 1u << 1,      /* "uncore-no-freeze": the freeze bit set, the counters keep counting */
    UNCORE_FAULT_OVF_NOT_CLEARED = 1u << 2, /* "uncore-ovf-not-cleared": the clear write leaves the status */
    UNCORE_FAULT_CLOCK_RATE = 1u << 3,     /* "uncore-clock-rate": the fixed counter at the TSC's rate */
    UNCORE_FAULT_EVENT_UNDERCOUNT = 1u << 4, /* "uncore-event-undercount": every 16th event is dropped (a workload of
                                              * N line fetches counts N - N/16) */
    UNCORE_FAULT_COUNT = 5,
};
/* "uncore-no-freeze" etc.; NULL for a bit that names no fault. */
const char *uncore_model_fault_name(u32 fault_bit);
/* Parse a comma-separated list into *mask; false with the offending name in bad. */
/* The faults' names, ", "-separated, for a message. */
const char *uncore_model_fault_list(void);
bool uncore_model_faults_parse(const char *list, u32 *mask, char *bad, size_t bad_size);

struct uncore_model_counter {
    const struct uncore_box_desc *box;
    u32 index;                 /* counter index within its box */
    u32 box_index, boxes;      /* its box, of the boxes of its group in this scope */
    u32 ctl, ctr;              /* MSRs */
    u64 sel, value;
};

/* One uncore PMU: the register file a scope's threads share. */
struct uncore_model {
    const struct uncore_kind_desc *kind;
    u32 faults;
    u32 cores;                 /* cores the routing field can reach in this scope */
    u64 tsc_hz, clock_hz;
    u32 boxes_msr_value;
    u32 ncounters;
    struct uncore_model_counter c[UNCORE_MODEL_MAX_COUNTERS];
    u64 fixed_ctl, fixed_value;
    u64 global_ctrl, status;
    u64 clock_rem;             /* TSC ticks times clock_hz not yet a whole clock */
    u32 pmis[UNCORE_MODEL_MAX_CORES]; /* uncore PMIs delivered to each core, not yet taken */
    u32 interrupts;            /* interrupt requests raised (one per tick that overflowed a PMI-enabled counter) */
    u64 events_seen;           /* non-clock events ticked so far (uncore-event-undercount drops every 16th) */
    u64 lines_seen;            /* line fetches so far (uncore_model_lines) */
};

/* The emulated machine: its scopes, package-major. A thread is numbered package-major too: thread t is core
 * (t / threads_per_core) % cores_per_scope of scope t / (cores_per_scope * threads_per_core). */
struct uncore_machine {
    const struct uncore_kind_desc *kind;
    u32 nscopes;
    struct uncore_model scope[UNCORE_MODEL_MAX_SCOPES];
};

/* false (with *why) when the kind has no emulated face or the face does not fit the model's limits. */
bool uncore_machine_init(struct uncore_machine *m, const struct uncore_kind_desc *k, u32 faults, const char **why);
u32 uncore_machine_threads(const struct uncore_machine *m);
struct uncore_model *uncore_machine_scope_of(struct uncore_machine *m, u32 thread);
u32 uncore_machine_core_of(const struct uncore_machine *m, u32 thread);

/* RDMSR/WRMSR of one scope's registers: 0, or -1 for a #GP (an MSR outside the map, a write to a read-only register,
 * a read of a write-only one). */
int uncore_model_rdmsr(struct uncore_model *u, u32 msr, u64 *v);
int uncore_model_wrmsr(struct uncore_model *u, u32 msr, u64 v);
/* Whether `msr` is one of this uncore's registers (readable, writable or both), changing nothing. */
bool uncore_model_has_msr(const struct uncore_model *u, u32 msr);
/* Time passes: tsc_ticks of the TSC, and `events` occurrences of every non-clock event the counters select (the
 * model does not tell events apart: in the kernel they are the line fetches past the core's caches the single-step
 * oracle saw a workload make, emul/kernel/uncore_emul.c). */
void uncore_model_tick(struct uncore_model *u, u64 tsc_ticks, u64 events);
/* `lines` line fetches past the core's caches: each one event for every non-clock event the counters select, counted
 * in a group of several boxes (the client's C-Boxes, one per LLC slice) by one box only, the boxes in turn (the
 * model has no addresses to hash to a slice), so that a group's boxes sum to the lines. */
void uncore_model_lines(struct uncore_model *u, u64 lines);
/* The PMIs delivered to `core` since the last call, and none left. */
u32 uncore_model_take_pmis(struct uncore_model *u, u32 core);
