/* Which hardware threads exist: an explicit cpus= list, else the ACPI MADT, else the boot CPU alone. */
#pragma once
#include "lib/acpi.h"
#include "kernel/portable/kernel_options.h"
#include "lib/cpu_list.h"

extern struct acpi_info g_acpi; /* what ACPI discovery found, for the report */
extern struct cpu_list g_cpu_list; /* what enumeration decided, for the report */

void enumerate_cpus(const struct kernel_options *o);
