/* The Intel LPC bridges whose TCO watchdog pmuboot drives (kernel/watchdog.c): version 2, as Linux's lpc_ich
 * classes them, so PMBASE, RCBA and GCS are where the ICH9 datasheet puts them. Elsewhere an Intel LPC bridge's
 * configuration offset 0xF0 need not be RCBA, and writing "GCS" could hit any memory. The table is generated
 * (tools/gen-tco-ids) from tools/tco/lpc-ich-itco2.txt. */
#pragma once
#include "lib/types.h"

struct tco_lpc_id {
    u16 device;
    const char *name;
};
extern const struct tco_lpc_id tco_lpc_ids[];
extern const unsigned tco_lpc_ids_count;

/* The chipset's name when the device ID (vendor 0x8086) has a version-2 TCO, else NULL. */
const char *tco_lpc_name(u16 device);
