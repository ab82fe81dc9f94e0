/* The PMU's command-line options: pmi=, pmi_delivery= (docs/options.md). */
#pragma once
#include "lib/cmdline.h"

extern const struct opt_table pmu_options;

/* pmi_delivery=: the delivery modes the pmi checks use. BOTH (0, the default) runs each delivery-dependent check once
 * with the fixed vector and once in NMI mode, so a PMI delivered in the wrong mode is caught on every machine. */
enum pmi_delivery { PMI_DELIVERY_BOTH, PMI_DELIVERY_FIXED, PMI_DELIVERY_NMI };
/* Whether that option value runs mode `nmi`. */
static inline bool pmi_delivery_runs(u32 delivery, bool nmi)
{
    return delivery == PMI_DELIVERY_BOTH || delivery == (nmi ? PMI_DELIVERY_NMI : PMI_DELIVERY_FIXED);
}
