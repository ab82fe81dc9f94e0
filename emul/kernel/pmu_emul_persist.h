/* Keeping the emulated PMU's registers across a machine reset, for pmu_fault=counters-survive-reset only
 * (emul/kernel/pmu_emul_persist.c). */
#pragma once
#include "lib/types.h"
#include "emul/model/pmu_model.h"

void pmu_emul_persist_boot(void); /* find the block (top of the highest available RAM region below 4 GiB) */
/* Counters, selects and fixed control of CPU `cpu` as the last boot left them; false when none verify. */
bool pmu_emul_persist_restore(u32 cpu, struct pmu_model *m, const char *kind);
void pmu_emul_persist_save(u32 cpu, const struct pmu_model *m, const char *kind);
