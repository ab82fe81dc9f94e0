/* uncore=emulated:FACE in the kernel (docs/uncore.md): the uncore register model (emul/model/uncore_model.h) of an
 * uncore kind's emulated face stands behind the emulated PMU's MSR route, one register file per scope (a package on
 * Intel, an L3 complex on AMD) shared by the CPUs placed in it. QEMU's -smp gives CPUs, not packages, so the CPUs
 * are placed onto the face's scopes by index, in consecutive blocks (as the face numbers its threads package-major):
 * CPU i is in scope floor(i x scopes / CPUs), and its core is its rank in that block (CPUs sharing a core when the
 * block has more CPUs than the scope has cores). An uncore PMI the model routes to a core is taken by the lowest CPU
 * of that core, through that CPU's own LVT performance-counter entry, as on Nehalem: the routing core gets a doorbell
 * IPI, and its handler delivers the PMI as its LVT entry says (masked: lost; Intel sets the mask; fixed vector or
 * NMI). Needs pmu=emulated:KIND (the options check it). */
#pragma once
#include "pmu/uncore_kind.h"
#include "lib/types.h"

#define VECTOR_UNCORE_DOORBELL 0xE9 /* the emulated uncore's doorbell to a routed core (below the PMI's class) */

void uncore_emul_boot(void);   /* from pmu_emul_boot, on the boot CPU before any AP starts */
/* The emulated uncore's kind, or NULL when uncore=emulated is not given. */
const struct uncore_kind_desc *uncore_emul_kind(void);
/* Where CPU `index` is placed: its scope and core; false when it is in none (more scopes than CPUs is fine, fewer
 * CPUs than scopes leaves scopes empty). */
bool uncore_emul_place(u32 index, u32 *scope, u32 *core);
u32 uncore_emul_scopes(void);
/* The rate the emulated fixed counter and clock events count at (the face's; the fault uncore-clock-rate changes
 * what the model does, not this). */
u64 uncore_emul_clock_hz(void);

/* The MSR route (emul/kernel/pmu_emul.c puts it before the core PMU's): 0 or HW_GP. */
bool uncore_emul_msr_routed(u32 msr);
int uncore_emul_rdmsr(u32 msr, u64 *val);
int uncore_emul_wrmsr(u32 msr, u64 val);

/* The header's lines: the emulated uncore and its faults (nothing without uncore=emulated). */
void uncore_emul_report(void);

/* Run fn(arg) at CPL 0 single-stepped (kernel/singlestep.h), the emulated uncore observing it: the first load of a
 * line after a CLFLUSH of that line (their addresses from the instructions and the registers, lib/insn_addr.h) is one
 * line fetched past the core's caches, counted by every non-clock event the counters of this CPU's scope select (the
 * model tells events apart no further), in a group of several boxes by one box of it (emul/model/uncore_model.h
 * uncore_model_lines). *lines (may be NULL): the line fetches it observed. Returns fn's value. */
u64 uncore_emul_run_observed(u64 (*fn)(u64), u64 arg, u64 *lines);

struct uncore_emul_stats {
    u64 pmis_delivered, lost_masked, lost_no_cpu, msr_routed, lines_observed;
    u64 unknown_address; /* a CLFLUSH or load whose address lib/insn_addr.c could not tell */
};
const struct uncore_emul_stats *uncore_emul_stats(u32 index);
