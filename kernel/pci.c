/* PCI configuration mechanism #1 (see pci.h). Callers are the boot CPU at boot: no lock. */
#include "kernel/pci.h"

#include "kernel/x86.h"

static u32 address(u8 bus, u8 dev, u8 fn, u8 off)
{
    return 0x80000000u | (u32)bus << 16 | (u32)(dev & 0x1f) << 11 | (u32)(fn & 7) << 8 | (off & 0xfc);
}

u32 pci_cfg_read32(u8 bus, u8 dev, u8 fn, u8 off)
{
    outl(0xcf8, address(bus, dev, fn, off));
    return inl(0xcfc);
}

void pci_cfg_write32(u8 bus, u8 dev, u8 fn, u8 off, u32 v)
{
    outl(0xcf8, address(bus, dev, fn, off));
    outl(0xcfc, v);
}
