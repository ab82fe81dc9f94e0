/* Registers named by a Generic Address Structure (ACPI 6.5 5.2.3.2), as ACPI's table-driven interpreters reach them:
 * the WDAT's (lib/wdat.c) and APEI's ERST (lib/erst.c). Both read a field as (register >> Bit Offset) & Mask and write
 * (value & Mask) << Bit Offset, keeping the register's other bits when the entry asks to preserve them (Linux:
 * drivers/watchdog/wdat_wdt.c; drivers/acpi/apei/apei-base.c __apei_exec_read_register, __apei_exec_write_register).
 */
#pragma once
#include "lib/spcr.h" /* struct acpi_gas */
#include "lib/types.h"

/* Bytes of one access: GAS Access Size 1, 2, 3, 4 give 1, 2, 4, 8; 0 for 0 (undefined) and the reserved sizes. */
u32 acpi_gas_access_bytes(const struct acpi_gas *g);

/* What makes the register unusable by an interpreter whose accesses are at most max_bytes wide (4: byte, word or dword;
 * 8: qword too), or NULL: its space (system memory or system I/O only), access size, bit offset, I/O port range, the
 * RTC/CMOS ports pmuboot keeps its records in, a memory register's alignment. */
const char *acpi_gas_register_problem(const struct acpi_gas *g, u32 max_bytes);

/* The field an instruction reads from the register's value. */
static inline u64 acpi_reg_field(u64 reg, const struct acpi_gas *g, u64 mask)
{
    return (reg >> g->bit_offset) & mask;
}

/* The register value an instruction writes for field value v; old is the register as read, used when preserving. */
static inline u64 acpi_reg_merge(u64 v, const struct acpi_gas *g, u64 mask, bool preserve, u64 old)
{
    u64 x = (v & mask) << g->bit_offset;
    return preserve ? x | (old & ~(mask << g->bit_offset)) : x;
}
