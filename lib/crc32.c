/* CRC-32 (see crc32.h): bit by bit, as the codes hold a few KB and are made once. */
#include "lib/crc32.h"

u32 crc32_update(u32 crc, const u8 *p, u32 len)
{
    crc = ~crc;
    for (u32 i = 0; i < len; i++) {
        crc ^= p[i];
        for (u32 b = 0; b < 8; b++)
            crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
    }
    return ~crc;
}
