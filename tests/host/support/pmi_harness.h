/* A rig that runs the PMI handler (pmu/pmi.c, unchanged) against the register-level PMU/APIC model the way the
 * interrupt would: counters armed with a sampling period and INT/PMI, the LVT entry programmed (fixed vector or
 * NMI), PMIs taken from the model's APIC and the handler run for each until none is pending. It can make an
 * overflow happen at an exact point of the handler (between two of its register accesses), feed events while
 * the handler runs, and check the invariants of docs/pmi-protocol.md afterwards. Used by tests/pmi/host/test_pmi.c
 * and tools/bench-pmi.c. Host-test code: not part of the kernel. */
#pragma once
#include "pmu/pmi.h"
#include "emul/model/pmu_model.h"

#define PMI_RIG_VECTOR 0xe8 /* the kernel's PMI vector (VECTOR_PMI, pmu/kernel/pmi_kernel.h) */
#define PMI_RIG_MAX_PMIS 64 /* more PMIs than this in one drain is a storm (a handler that never settles) */
#define PMI_RIG_TRACE_LEN 6144

/* A PMU to run the handler on: capabilities plus the counters the scenarios arm. */
struct pmi_rig_pmu {
    const char *name;
    struct pmu_caps caps;
    u64 used; /* unified status bits (pmu/pmu.h): GP i = bit i, fixed i = bit 32 + i */
};

/* The capability sets of the PMI tests: Intel v1 (no status register), v2, v4, v5, AMD legacy (no status),
 * PerfMonV2 with 4 and 6 counters, KNC; at most 4 counters used each. Returns how many were written. */
size_t pmi_rig_pmus(struct pmi_rig_pmu *out, size_t max);

struct pmi_rig_opts {
    enum pmi_variant variant;
    enum model_apic_behaviour apic;
    bool nmi;            /* LVT delivery mode NMI (no EOI) instead of fixed vector PMI_RIG_VECTOR */
    u64 used;            /* counters to arm; 0 = the PMU's `used` */
    u64 period[64];      /* per counter; 0 = default_period */
    u64 default_period;  /* 0 = 1000 */
    bool exact_reload;   /* pmi_state.exact_reload: carry the events counted since the wrap into the reload */
};

struct pmi_rig {
    struct pmu_model m;
    struct hw_access hw;
    struct pmu pmu;
    struct pmi_state s;
    const char *pmu_name;
    u64 used;
    bool nmi;
    u32 lvt;              /* the unmasked LVT value the handler restores */

    /* Driving. */
    u64 pmis_taken;       /* handler runs by pmi_rig_drain */
    bool storm;           /* a drain hit PMI_RIG_MAX_PMIS */
    bool wrong_delivery;  /* a PMI came as NMI when fixed was programmed, or the reverse */
    bool in_handler;

    /* Injected overflows: at point `at`, the counters `bits` wrap. Points count register accesses from `base`
     * (the access index when the rig was armed): point 0 is just before access `base`, point k > 0 just after
     * access base + k - 1 (nothing happens between "after access j" and "before access j + 1", so these are all
     * the distinct places). A counter that is not counting there cannot overflow, and one whose last overflow
     * the handler has not serviced yet is not made to wrap again: both are left out of `injected`. */
    struct pmi_rig_injection {
        u64 at, bits, injected;
        u64 outstanding; /* left out: the handler had not serviced their last overflow yet */
        bool done;
    } inj[8];
    u32 n_inj;
    u64 base;
    /* If set, points[k] receives, for point k < points_len, the armed counters counting there (as the model's own
     * gating decides: a copy of the model is ticked) and those with an overflow the handler has not serviced. */
    struct pmi_rig_point {
        u64 running, outstanding;
    } *points;
    u64 points_len;

    /* Events fed while the handler runs (the handler's own instructions): before each of its accesses, every
     * armed counter is offered 0..feed_max events (pseudo-random). 0 = none. */
    u32 feed_max;
    u64 lcg;
    u64 fed[64];          /* events the counters really counted (test feeds + handler feeds) */
    u64 discarded[64];    /* counts a reload by the handler overwrote (events between a wrap and the reload) */

    /* A test's own hook, called after the rig's (same arguments). */
    pmu_model_access_hook extra_hook;
    void *extra_arg;

    /* Trace of accesses, injections and PMIs (only when `tracing`; for failure reports). */
    bool tracing;
    size_t trace_len;
    char trace[PMI_RIG_TRACE_LEN];
};

/* Build the model, bind pmu/ to it, reset the PMU, arm the counters (select/fixed field with INT/PMI, preload
 * with the period), set up pmi_state (period, armed, running), enable counting, program the LVT unmasked.
 * Returns NULL, or why it could not (a static string). Access counts in r->hw start at 0 afterwards. */
const char *pmi_rig_setup(struct pmi_rig *r, const struct pmi_rig_pmu *pmu, const struct pmi_rig_opts *o);

/* Make the counters in `bits` overflow now (each advanced by exactly the events left to its wrap; those that
 * are not counting do not move). Returns the bits that wrapped. */
u64 pmi_rig_overflow(struct pmi_rig *r, u64 bits);
/* Feed `n` events to every armed counter (ticks); returns nothing, r->fed records what counted. */
void pmi_rig_feed(struct pmi_rig *r, u64 n);
/* Take and handle PMIs until none is pending (at most PMI_RIG_MAX_PMIS, else r->storm). Returns how many. */
u32 pmi_rig_drain(struct pmi_rig *r);
/* Add an injection (see struct pmi_rig); false when the list is full. */
bool pmi_rig_inject(struct pmi_rig *r, u64 bits, u64 at);
/* Counters that injections really made wrap; whether every injection point was reached; the counters left out
 * because their last overflow was still outstanding (each out-parameter may be NULL). */
u64 pmi_rig_injected(const struct pmi_rig *r, bool *all_reached, u64 *outstanding);

/* The invariants after a drain (docs/pmi-protocol.md "Host tests"): nothing pending or in service, no error,
 * not stuck, every overflow serviced exactly once, no status or line left high, LVT unmasked, no storm.
 * Returns NULL when they hold, else a description (in `buf`). */
const char *pmi_rig_check(struct pmi_rig *r, char *buf, size_t len);
/* Liveness: make every armed counter overflow once more; a PMI must come, and after its drain the invariants
 * must hold again (catches counters left stopped, an LVT left masked, a line left high). */
const char *pmi_rig_probe(struct pmi_rig *r, char *buf, size_t len);

/* Counter bit that MSR `msr` reads/writes as a counter, or -1. */
int pmi_rig_counter_of_msr(const struct pmi_rig *r, u32 msr);
/* A short name for a register access ("WRMSR GLOBAL_CTRL=0x3", "APIC LVT_PC=0xe8", ...) into buf. */
const char *pmi_rig_describe_access(const struct pmi_rig *r, const struct pmu_model_access *a, char *buf,
                                    size_t len);
/* "GP0+FX1" for a set of counter bits. */
const char *pmi_rig_bits_name(u64 bits, char *buf, size_t len);
