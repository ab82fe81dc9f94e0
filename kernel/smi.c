#include "kernel/smi.h"

#include "kernel/boot_state.h"
#include "kernel/percpu.h"
#include "kernel/safe.h"
#include "kernel/percpu_array.h"

/* Per CPU: unknown until the first read, then whether the MSR reads (a part cpu_has_smi_count() names may still
 * fault, e.g. under a hypervisor that does not offer it). */
enum smi_state { SMI_UNKNOWN, SMI_COUNTABLE, SMI_FAULTS };
PER_CPU_ARRAY(u8, smi_state);

static bool smi_read(u32 *count)
{
    u8 *st = &smi_state[this_cpu()->index];
    if (*st == SMI_FAULTS || !cpu_has_smi_count(&boot_state()->ident))
        return false;
    u64 v = 0;
    if (rdmsr_safe(MSR_SMI_COUNT, &v)) {
        *st = SMI_FAULTS;
        return false;
    }
    *st = SMI_COUNTABLE;
    *count = (u32)v;
    return true;
}

bool smi_countable(const char **why)
{
    u32 v;
    if (smi_read(&v))
        return true;
    if (boot_state()->ident.vendor != VENDOR_INTEL)
        *why = "no MSR_SMI_COUNT: not an Intel CPU";
    else if (!cpu_has_smi_count(&boot_state()->ident))
        *why = "no MSR_SMI_COUNT before Nehalem / Silvermont";
    else
        *why = "MSR_SMI_COUNT (34H) read faulted";
    return false;
}

void smi_window_begin(struct smi_window *w)
{
    w->counted = smi_read(&w->start);
}

u32 smi_window_end(const struct smi_window *w)
{
    u32 now;
    if (!w->counted || !smi_read(&now))
        return 0;
    return now - w->start; /* modulo 2^32: the count is 32 bits */
}
