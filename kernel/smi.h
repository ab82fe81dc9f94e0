/* System Management Interrupts inside a measurement window, from MSR_SMI_COUNT (34H; cpu_has_smi_count()). An SMI
 * stops the core for the time SMM runs, invisible to the OS, so a timing window it hits measured SMM, and a count
 * at OS level may include SMM's work: such an attempt is not evidence. Kernel only (rdmsr_safe). */
#pragma once
#include "lib/types.h"

#define MSR_SMI_COUNT 0x34 /* SDM Vol.4; Linux msr-index.h MSR_SMI_COUNT */

struct smi_window {
    bool counted; /* the count could be read at the start */
    u32 start;    /* bits 31:0 of MSR_SMI_COUNT (63:32 reserved) */
};

/* Whether SMIs can be counted on this CPU; if not, *why says why ("not Intel", "MSR_SMI_COUNT read #GP", ...). */
bool smi_countable(const char **why);
void smi_window_begin(struct smi_window *w);
/* SMIs taken since smi_window_begin (0 when they cannot be counted). */
u32 smi_window_end(const struct smi_window *w);
