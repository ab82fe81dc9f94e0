/* Names of the model's deliberate misbehaviours (enum pmu_model_fault), as pmu_fault= takes them. */
#include "emul/model/pmu_model.h"

#include <string.h>

#include "lib/cmdline.h"

static const char *const fault_names[PMU_MODEL_FAULT_COUNT] = {
    "lvtpc-no-mask",          "duplicate-pmi",          "lost-pmi", "status-sticky", "width",
    "global-ctrl-reset-zero", "counters-survive-reset", "reset-on-init", "no-freeze", "overcount",
    "rdpmc-gp0-only",         "held-by-host",           "firmware-left-enabled", "catalog-all-branches",
    "early-pmi",              "skid-beyond-bound",      "lbr-out-of-order", "lbr-missing-record",
    "lbr-filter-leak",        "lbr-no-freeze",          "pebs-eventing-ip", "pebs-missing-record",
    "pebs-pmi-every-record",  "pebs-lbr-leak",          "status-extra-bit", "nmi-as-fixed",
    "freeze-keeps-counting",  "freeze-not-released",
};

const char *pmu_model_fault_name(u32 fault_bit)
{
    for (u32 i = 0; i < PMU_MODEL_FAULT_COUNT; i++)
        if (fault_bit == 1u << i)
            return fault_names[i];
    return NULL;
}

const char *pmu_model_fault_list(void)
{
    static char list[1024];
    return opt_names_join(fault_names, PMU_MODEL_FAULT_COUNT, list, sizeof(list));
}

bool pmu_model_faults_parse(const char *list, u32 *mask, char *bad, size_t bad_size)
{
    return opt_names_mask(list, fault_names, PMU_MODEL_FAULT_COUNT, mask, bad, bad_size);
}
