/* CRC-32 as zlib, PNG and Perl's Compress::Zlib::crc32 compute it (the reflected polynomial 0xedb88320, initial
 * and final inversion): the checksums of a run's result codes. Portable, table-free. */
#pragma once
#include "lib/types.h"

/* The CRC of p[0..len) continued from crc (0 to start). */
u32 crc32_update(u32 crc, const u8 *p, u32 len);
