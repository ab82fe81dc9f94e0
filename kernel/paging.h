/* The kernel's side of lib/pt_map.h: physical addresses above 4 GiB mapped into the boot page tables
 * (boot_pml4, shared by every CPU) on demand. Called on the boot CPU before the APs start (early_alloc is not
 * safe to share), by the ACPI parser through phys_all and by the framebuffer mirror. */
#pragma once
#include "lib/phys_window.h"
#include "lib/types.h"

/* Physical memory below 2^47 through the identity map: a read above 4 GiB first maps its range write-back
 * (ACPI tables lie in RAM); one that cannot be mapped fails like a read outside the window, and is recorded. */
extern const struct phys_window phys_all;

/* Map [addr, addr+len) for a device (a framebuffer): uncached-minus, so an MTRR's write-combining still applies
 * and nothing is cached. NULL when mapped (below 4 GiB: already), else why not, also recorded. */
const char *paging_map_device(u64 addr, u64 len);

/* One comment line per range above 4 GiB mapped or refused so far. */
void paging_report(void);
