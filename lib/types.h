/* Fixed-width types and small helpers shared by kernel and host builds. */
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define BIT(n) (1ull << (n))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define PACKED __attribute__((packed))
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#define NORETURN __attribute__((noreturn))

/* Set bits in v (no libgcc in the kernel, so not __builtin_popcountll). */
static inline u32 popcount64(u64 v)
{
    u32 n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}
