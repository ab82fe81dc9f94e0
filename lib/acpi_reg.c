/* Generic Address Structure registers of the table-driven interpreters (see acpi_reg.h). */
#include "lib/acpi_reg.h"

u32 acpi_gas_access_bytes(const struct acpi_gas *g)
{
    return g->access_size >= 1 && g->access_size <= 4 ? 1u << (g->access_size - 1) : 0;
}

const char *acpi_gas_register_problem(const struct acpi_gas *g, u32 max_bytes)
{
    u32 bytes = acpi_gas_access_bytes(g);
    if (g->space_id != ACPI_GAS_SYSTEM_MEMORY && g->space_id != ACPI_GAS_SYSTEM_IO)
        return "a register neither in system memory nor in system I/O";
    if (!bytes || bytes > max_bytes) /* as Linux's interpreters: nothing wider than they read */
        return max_bytes == 4 ? "a register access size that is not byte, word or dword"
                              : "a register access size that is not byte, word, dword or qword";
    if (g->bit_offset >= bytes * 8)
        return "a bit offset outside the register";
    if (g->space_id == ACPI_GAS_SYSTEM_IO && bytes == 8) /* IN and OUT move at most 32 bits (SDM Vol.2) */
        return "an I/O register with 64-bit access";
    if (g->space_id == ACPI_GAS_SYSTEM_IO && g->address > 0x10000 - bytes) /* no wrap-around: address is 64 bits */
        return "an I/O port past 0xffff";
    /* Linux's drivers/acpi/acpi_watchdog.c leaves these out of a WDAT's resources too. */
    if (g->space_id == ACPI_GAS_SYSTEM_IO && g->address <= 0x77 && g->address + bytes > 0x70)
        return "the RTC/CMOS ports 0x70..0x77, where pmuboot keeps its record of where the boot CPU is";
    if (g->space_id == ACPI_GAS_SYSTEM_MEMORY && g->address % bytes)
        return "a memory register not aligned to its access size";
    return NULL;
}
