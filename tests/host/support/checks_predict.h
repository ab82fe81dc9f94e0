/* A whole machine's CPUID, predicted: from a CPUID dump of every logical CPU of one machine, the verdicts
 * pmuboot's CPUID-only checks would give there, as a TAP 13 stream with the kernel's check names:
 *   smp/topology               once (global in the kernel): topology_decode() and topology_judge() on every thread
 *   cpu<i>/smp/features        features_read() / features_compare() against the first thread of the same kind
 *   cpu<i>/pmu_enum/discover   pmu_discover(), pmu_init() and pmu_caps_bounds()
 *   cpu<i>/pmu_enum/consistent pmu_caps_compare() against the first thread of the same kind (cpu_ident_kind)
 * The decisions are the kernel's own portable code (tests/smp/portable/topology.c, tests/smp/portable/features_compare.c, pmu/,
 * tests/pmu_enum/portable/pmu_enum_judge.c); what is here only feeds them a dump's threads and prints what they decided, in the
 * kernel's order and YAML. What a dump cannot hold is said, never guessed: IA32_PERF_CAPABILITIES (an MSR),
 * the K7 counter probe of an AMD guest (MSR writes). Used by tools/pmu-decode --checks and
 * tests/host/test_checks_predict.c. Host code: not part of the kernel. */
#pragma once
#include <stddef.h>
#include <stdio.h>

#include "lib/types.h"

struct checks_summary {
    u32 cpus;                          /* logical CPUs in the dump */
    u32 tests, passed, failed, skipped; /* as the kernel counts them: TODO verdicts are passed */
    u32 todo;
};

/* Parse every logical CPU of the dump `text` (len bytes; `name` labels it in the stream) and write the predicted
 * TAP 13 stream to out, ending with the plan and the kernel's "N passed, N failed, N skipped" line. Returns
 * false, with err set ("line N: what" or what), when the dump cannot be parsed; nothing is written then. */
bool checks_predict(const char *name, const char *text, size_t len, FILE *out, struct checks_summary *sum, char *err,
                    size_t err_size);
