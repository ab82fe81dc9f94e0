/* Suite timeout's command-line option (docs/options.md): timeout_hang=, which needs suite=timeout. Portable (the
 * host tests parse it), in the one pass of lib/cmdline.c once tests/main.c has added the table. */
#pragma once
#include "lib/cmdline.h"

/* timeout_hang=: how suite timeout's time_limit treats the boot CPU: skips; hangs (an idle AP's NMI stops it);
 * hangs with NMIs blocked (the reset watchdog ends it); bails out (the run ends there, everything put back). */
enum timeout_hang { TIMEOUT_HANG_NONE, TIMEOUT_HANG_BSP, TIMEOUT_HANG_BSP_NMI_BLOCKED, TIMEOUT_HANG_BSP_BAIL_OUT };

struct timeout_options {
    u32 timeout_hang; /* enum timeout_hang */
};

extern const struct opt_table timeout_option_table;
const struct timeout_options *timeout_options(void);
