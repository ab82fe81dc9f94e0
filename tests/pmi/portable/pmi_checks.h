/* The arithmetic and the verdicts of the with-PMU checks of suite "pmi" (tests/pmi/suite_pmi.c), portable so that the
 * host tests can hold them against the register model (tests/host/test_pmu_against_manuals.c). The suite cannot run
 * where there is no PMU; these functions are what it decides with. docs/pmi-protocol.md says what each check
 * can and cannot show. */
#pragma once
#include "pmu/pmu.h"
#include "pmu/pmi.h"

/* The ring-3 workload: `1: dec; jnz 1b`, two retired instructions per iteration (plus a few for call and return). */
#define PMI_LOOP_INSNS_PER_ITER 2

/* pmi/simultaneous: every instruction-counting counter with this period, the loop run this many times. */
#define PMI_SIMUL_PERIOD 1000
u64 pmi_simultaneous_iterations(void);
/* One counter's verdict: serviced must equal the wraps of the events it saw (none pending, none invented). */
bool pmi_simultaneous_ok(u64 seen, u64 period, u64 serviced);

enum pmi_verdict { PMI_VERDICT_PASS, PMI_VERDICT_FAIL, PMI_VERDICT_KNOWN_DEVIATION };

/* pmi/sampling: events seen with sampling (serviced periods + the remainder) against the same work counted
 * without PMIs (ref), given the PMIs taken. *why: a static explanation. */
enum pmi_verdict pmi_sampling_verdict(u64 ref, u64 seen, u64 pmis, bool hypervisor, const char **why);

/* pmi/lvt_mask_on_delivery: the LVT mask bit seen at handler entry. */
enum pmi_verdict pmi_lvt_mask_verdict(bool amd, bool hypervisor, bool masked, const char **why);

/* Program counter `bit` to count retired instructions with PMI on overflow, at CPL 3 only (os = false: the
 * handler's instructions never count) or at every CPL (os = true). PMU_ENOTSUP when it cannot count them. */
int pmi_program_instructions(struct pmu *p, u32 bit, bool os, const char **why);
/* How pmi/during_handler programs its counters (see pmi_checks.c). */
int pmi_during_handler_program(struct pmu *p, u32 bit);

/* The status judged exactly after a run with PMIs (every pmi check that reads the status): the counter bits the
 * handler read must be exactly `expected`, the counters that overflowed by construction (which counters were armed,
 * with which periods, over which workload); no bit may be read for a counter whose value showed no wrap; no counter
 * outside `armed` may be serviced. */
struct pmi_status_judgement {
    u64 extra;            /* read, not expected: a status bit for a counter that did not overflow */
    u64 missing;          /* expected, never read: an overflow the status did not show */
    u64 phantom;          /* read for a counter whose value had not wrapped (pmi_state.phantom) */
    u64 unarmed_serviced; /* counters outside `armed` with a serviced count */
};
bool pmi_status_judge(const struct pmi_state *s, u64 armed, u64 expected, struct pmi_status_judgement *j);

/* The GLOBAL_STATUS bits a check that produced overflows in `overflowed` with freeze on PMI (IA32_DEBUGCTL bit 12 and
 * bit 11 as `freeze_lbr`) must find, among the bits it judges (pmi_freeze_status_judged): the counter bits exactly,
 * CTR_Frz on v4+ (SDM Vol.3B 21.2.4.1), LBR_Frz on v4+ only when the LBR freeze was asked. */
u64 pmi_freeze_status_expected(u32 version, u64 overflowed, bool freeze_lbr);
/* The bits judged: every counter bit, CTR_Frz and LBR_Frz on v4+. The others (OvfBuf, Ovf_Uncore, ASCI, Trace_ToPA,
 * CondChgd) belong to agents the check does not drive (PEBS, uncore, PT, the reset) and are noted, not judged. */
u64 pmi_freeze_status_judged(u32 version, u64 counters);

/* pmi/freeze_on_pmi by its effect: `reference` events of a workload counted unfrozen, `frozen` counted by the same
 * workload while frozen, `released` after the documented release. PASS: the workload counts at all, nothing while
 * frozen, exactly the reference after the release. *why: a static explanation. */
enum pmi_verdict pmi_freeze_effect_verdict(u64 reference, u64 frozen, u64 released, const char **why);
