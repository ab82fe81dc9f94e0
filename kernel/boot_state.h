/* Run-wide state decided at boot. */
#pragma once
#include "lib/bootinfo.h"
#include "lib/cmdline.h"
#include "lib/cpu_ident.h"

extern struct boot_info g_boot;
extern struct options g_options;
extern struct cpu_ident g_ident;    /* of the boot CPU */
extern char __image_start[], __image_end[];
extern char g_cmdline_error[CMDLINE_ERROR_MAX]; /* why the command line was rejected; empty if it was not */
extern char apic_mode_error[160]; /* why apic= could not be honoured; empty if it was */
