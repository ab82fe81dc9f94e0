/* Host tests: ACPI tables built by hand need their checksum byte set (ACPI 6.5 5.2.6: all bytes sum to 0). */
#pragma once
#include "lib/types.h"

/* Set p[at] so that the n bytes at p sum to 0. */
void acpi_test_checksum(u8 *p, u32 n, u32 at);
