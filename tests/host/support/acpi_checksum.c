/* See acpi_checksum.h. */
#include "tests/host/support/acpi_checksum.h"

void acpi_test_checksum(u8 *p, u32 n, u32 at)
{
    u8 s = 0;
    p[at] = 0;
    for (u32 i = 0; i < n; i++)
        s = (u8)(s + p[i]);
    p[at] = (u8)(0 - s);
}
