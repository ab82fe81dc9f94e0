/* The uncore PMI protocol on one scope (docs/uncore.md): every online CPU takes the PMI through its LVT
 * performance-counter entry (fixed delivery of the PMI vector, or NMI) with a local handler that counts what it takes
 * and when; the scope's leader arms one or two counters a few clocks below overflow with their PMI bits, the routing
 * field selecting `selected` cores and the freeze bit set, and starts them with one global control write. The first
 * handler to run reads the counters and the status at the PMI, waits, reads them again (frozen), clears the status
 * with the kind's clear write and sets the global control again (the release), waits and reads them once more; when
 * no PMI comes within the wait, the leader does that part itself (said in the evidence). Every register is put back
 * as found, and every CPU's LVT entry and handlers. Counting events are the uncore clock (the fixed counter, and
 * event 0xFF of a general counter). */
#pragma once
#include "pmu/uncore_verdict.h"
#include "tests/uncore/portable/uncore_regs.h"

#define UNCORE_PROTO_MAX_CPUS 64
#define UNCORE_PROTO_FROZEN_WAIT_US 50 /* a frozen counter must not move over this (the clock moves ~10^5) */

struct uncore_proto_result {
    bool armed;                /* false: why_not says why nothing was armed */
    const char *why_not;
    u32 narmed;
    u64 armed_bits;            /* the status bits of the armed counters */
    u8 width[2];
    u64 ctrl_before;           /* the global control that started them */
    u64 overflow_tsc;          /* the leader's TSC before the read that made them overflow */
    volatile bool handled;     /* the release ran (in a handler, or by the leader) */
    bool released_by_leader;   /* no PMI came within the wait: the leader ran the handler's part */
    u64 ctrl_at_pmi, status_at_pmi, status_after_clear;
    u64 at_pmi[2], later[2], released[2];
    u32 cpu_pmis[UNCORE_PROTO_MAX_CPUS];
    u32 wrong_mode;            /* interrupts taken in the other delivery mode than the LVT entries', every CPU */
    u64 cpu_first_tsc[UNCORE_PROTO_MAX_CPUS];
};

/* The calling CPU's access to the uncore's registers (pmu/access.h backed by the safe accessors: the emulated uncore
 * under uncore=emulated, the part's own otherwise), for the portable register list and probe. */
struct hw_access *uncore_access(void);

/* Run the protocol on the scope whose leader is the calling CPU. */
void uncore_proto_run(const struct uncore_kind_desc *k, struct uncore_regs *regs, u32 selected, u32 ncounters,
                      struct uncore_proto_result *res);
/* On every online CPU: take the PMI with the counting handler, its LVT entry delivering the PMI vector or (nmi) an
 * NMI (arm), or put its LVT and handlers back. debugctl: the IA32_DEBUGCTL bit a core sets to take the uncore PMI
 * (0: none touched), set on the CPUs whose routed_cpus[index] is true (hardware only), put back by disarm. */
void uncore_proto_arm_cpus(bool nmi, u64 debugctl, const bool *routed_cpus);
void uncore_proto_disarm_cpus(struct uncore_proto_result *res);
/* On every online CPU: the IA32_DEBUGCTL bit an arm set and no disarm cleared (a check stopped in between), cleared.
 * Returns on how many CPUs. */
u32 uncore_proto_put_back_debugctl(void);
