/* PCI configuration space through the legacy I/O mechanism (CONFIG_ADDRESS 0CF8H, CONFIG_DATA 0CFCH: PCI Local Bus
 * Specification 3.0, 3.2.2.3.2 "Configuration Mechanism #1"), enough to find a chipset function by its fixed
 * location (the watchdog, kernel/watchdog.c). Offsets are dword-aligned for the 32-bit accessors. */
#pragma once
#include "lib/types.h"

u32 pci_cfg_read32(u8 bus, u8 dev, u8 fn, u8 off);
void pci_cfg_write32(u8 bus, u8 dev, u8 fn, u8 off, u32 v);
