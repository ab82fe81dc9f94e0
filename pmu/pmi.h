/* The PMU overflow interrupt (PMI) handler protocol, portable: it runs against the real PMU and local APIC in
 * the kernel and against the register model on the host, from the same source. docs/pmi-protocol.md has the
 * timeline and the reasons for each step.
 *
 * The PMU has one interrupt line to the thread's local APIC; which counters overflowed is only in the sticky
 * status register; the APIC masks the LVT performance-counter entry when it delivers a PMI (Intel; not AMD
 * PerfMonV2). A new PMI needs the line to go 0 -> 1 while the entry is unmasked (KNC PMU 1.4.3.9). */
#pragma once
#include "pmu/pmu.h"

enum pmi_variant {
    /* Default. Stop, read, service, clear exactly what was read, re-read until clear, UNMASK with counting
     * still stopped and the line low, then restart, then EOI. Safe under the strictest APIC (edges while
     * masked are dropped): nothing can raise the line between the last status read and the unmask, and any
     * overflow after the restart is a fresh edge seen by an unmasked entry. */
    PMI_UNMASK_STOPPED,
    /* Linux's order on big cores since Haswell: stop, read, ack, service, re-read, restart, unmask last.
     * An overflow between restart and unmask raises the line while masked: lost on a strictly edge-triggered
     * APIC, delivered at unmask on one that re-samples the line. */
    PMI_LATE,
    /* Unmask first (Linux on older parts), then stop, read, service, clear, re-read, restart, EOI. Loses
     * nothing; on an APIC that re-samples the line at unmask it may take one extra, empty PMI. */
    PMI_EARLY,
    /* NEGATIVE CONTROL, never offered: does not stop counting in step 2 (KNC 1.4.3.9 predicts lost PMIs). */
    PMI_NO_STOP,
    PMI_VARIANTS
};

#define PMI_MAX_LOOPS 8 /* re-reads of the status before declaring it stuck */
#define PMI_MAX_COUNTERS 64

struct pmi_state {
    struct pmu *pmu;
    enum pmi_variant variant;
    u32 lvt;          /* the LVT performance-counter entry to restore, unmasked: vector | delivery mode */
    bool nmi_mode;    /* NMI delivery: no EOI */
    u64 running;      /* counters to restart (global enable bits) */
    u64 armed;        /* counters whose overflow is expected (for PMUs without a status register) */
    u64 period[PMI_MAX_COUNTERS]; /* reload period per counter bit; 0 = the longest (pmu_max_period): always reloaded */
    /* Exact reload: read the counter before reloading and carry the events counted since the wrap (the PMI's
     * skid) into the new value, so sampling loses no event. One more register read per serviced counter;
     * off by default, which keeps a single-counter PMI at 8 accesses. */
    bool exact_reload;
    /* Judge every status bit by the counter's value (pmi_counter_wrapped): one more register read per serviced
     * counter that has a period, unless exact_reload reads it anyway; off by default. */
    bool check_wrap;

    /* Accounting. */
    u64 pmis;                            /* handler invocations */
    u64 empty_pmis;                      /* invocations that found nothing to service */
    u64 serviced[PMI_MAX_COUNTERS];      /* overflows serviced per counter */
    u64 serviced_total;
    u32 max_loops_seen;                  /* most status re-reads needed in one invocation */
    u64 stuck;                           /* times the status never cleared: PMU reset and reported */
    int last_error;                      /* first access error seen (0 if none) */
    /* NMI mode: invocations in which an access faulted. The fault handler's IRET unblocks NMIs before this
     * NMI handler returns (SDM Vol.3A "Handling Multiple NMIs": NMIs are blocked "until the next execution of
     * the IRET instruction"), and a second PMI would then nest on the same IST stack; so such an invocation
     * leaves counting stopped and the LVT entry masked (no PMI source left), and is counted here. */
    u64 nmi_fault_stops;
    bool faulted_now;                    /* an access faulted in the current invocation */
    /* What the status said, for the checks to judge exactly (tests/pmi/portable/pmi_checks.c): the counter bits of
     * every status read (without a status register: the overflows the counters' top bits showed), and, with
     * check_wrap, the bits read for a counter whose value showed it had not wrapped since its reload. */
    u64 status_seen;
    u64 phantom;
};

void pmi_init(struct pmi_state *s, struct pmu *p, enum pmi_variant v, u32 lvt_unmasked, bool nmi_mode);
/* The handler body: call from the PMI interrupt or NMI handler on the thread whose PMU interrupted. */
void pmi_handle(struct pmi_state *s);

/* The value pmu_preload() loads for `period`, 2^w - period; and whether a counter loaded with it and found at
 * `value` (counting stopped) has wrapped since: value below the reload value. */
u64 pmi_reload_value(const struct pmu *p, u32 bit, u64 period);
bool pmi_counter_wrapped(u64 value, u64 reload);

const char *pmi_variant_name(enum pmi_variant v);
/* Parse "unmask-stopped" (also "knc", its first name), "late", "early" (the offered variants). */
bool pmi_variant_parse(const char *name, enum pmi_variant *v);

/* A backend with no counters: lets the PMI vector path (handler, LVT unmask, EOI) run where there is no PMU. */
extern const struct pmu_backend pmu_backend_null;
void pmu_init_null(struct pmu *p, const struct pmu_caps *caps, struct hw_access *hw);
