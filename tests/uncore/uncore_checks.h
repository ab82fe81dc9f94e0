/* Suite "uncore"'s shared parts (docs/uncore.md): the scope plan, the start of every check (the emulated uncore or
 * the recognised part's; SKIP without either or when the kind lacks what the check needs), evidence helpers, and the checks, in
 * uncore_reg_checks.c (enumeration, widths, enable, clock rate) and uncore_pmi_checks.c (the PMI protocol). */
#pragma once
#include "harness/framework.h"
#include "tests/uncore/portable/uncore_plan.h"
#include "tests/uncore/portable/uncore_scope.h"
#include "tests/uncore/uncore_protocol.h"

#define UNCORE_RUN_ON_MS 2000 /* how long a scope's leader may take for its part */

/* Filled by uncore_check_begin: the scopes, each CPU's scope and core rank, the CPUs planned. */
extern struct uncore_scope_plan uncore_plan;
extern u32 uncore_cpu_scope[UNCORE_PROTO_MAX_CPUS], uncore_cpu_core[UNCORE_PROTO_MAX_CPUS];
extern u32 uncore_ncpu;
extern const char *const uncore_scope_prefix[8]; /* "scopeN: " */

/* True while the checks run on the recognised part's own registers (uncore=none on a recognised part, not under a
 * hypervisor); false on the emulated uncore. Set by uncore_check_begin. */
extern bool uncore_on_hw;
/* The emulated uncore's kind, or the recognised part's, with the plan made; NULL after a SKIP (or a FAIL of the
 * plan). On hardware each scope's leader first reads the kind's first register: a fault SKIPs the check with it as
 * evidence (the _fail_on_fault form FAILs instead: enumeration). */
const struct uncore_kind_desc *uncore_check_begin(struct check *c, enum uncore_plan_need need);
const struct uncore_kind_desc *uncore_check_begin_fail_on_fault(struct check *c, enum uncore_plan_need need);
/* On hardware a FAIL must repeat: a check whose verdict involves timing (the enable's windows, the clock's rate, a
 * routed PMI's wait, the freeze's reads) runs its part again, up to UNCORE_HW_ATTEMPTS independent attempts, and FAILs
 * only when every attempt fails (the last shown, with the count). The emulated uncore is deterministic: one attempt,
 * so that each deliberate fault FAILs as it is. */
#define UNCORE_HW_ATTEMPTS 3
u32 uncore_attempts(void);
/* The attempts note of a scope's verdict: "N of M attempts failed" when more than one ran. */
void uncore_note_attempts(struct check *c, u32 ran, bool last_failed);
/* The cores of scope s: the emulated face's, or the plan's from the topology on hardware. */
u32 uncore_scope_cores(const struct uncore_kind_desc *k, u32 s);
/* A verdict's describe lines ("key: value") as notes, and its outcome as an expectation. */
void uncore_check_verdict(struct check *c, const char *what, enum uncore_outcome o, char *evidence);

/* The suite's after_run: each package's registers put back as found before the first check, by its leader, once;
 * IA32_DEBUGCTL's uncore PMI enable cleared where a stopped check left it set. Nothing when no check ran on hardware. */
void uncore_put_back(void);

void uncore_enumeration(struct check *c);
void uncore_register_widths(struct check *c);
void uncore_global_enable(struct check *c);
void uncore_fixed_clock_rate(struct check *c);
void uncore_pmi_routing(struct check *c);
void uncore_pmi_routing_simultaneous(struct check *c);
void uncore_freeze_on_pmi(struct check *c);
void uncore_overflow_status(struct check *c);
void uncore_bounded_event(struct check *c);
