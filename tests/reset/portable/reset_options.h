/* Suite reset's command-line option (docs/options.md): reset=, which needs suite=reset. Portable (the host tests
 * parse it), in the one pass of lib/cmdline.c once tests/main.c has added the table. */
#pragma once
#include "lib/cmdline.h"

struct reset_options {
    u32 reset_types; /* reset=cf9|kbc|triple|all: bit mask (enum reset_type, lib/reset_record.h); 0 = not given */
};

extern const struct opt_table reset_option_table;
const struct reset_options *reset_options(void);
