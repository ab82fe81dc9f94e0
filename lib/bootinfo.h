/* Boot information from a Multiboot1 or Multiboot2 loader, parsed with bounds checks into one struct.
 * Problems (truncation, bad sizes, pointers outside memory) are collected as messages, never followed. */
#pragma once
#include "lib/phys_window.h"
#include "lib/types.h"

#define MB1_LOADER_MAGIC 0x2BADB002u /* Multiboot 0.6.96 3.2: EAX on entry */
#define MB2_LOADER_MAGIC 0x36D76289u /* Multiboot2 3.3: EAX on entry */

#define BOOT_CMDLINE_MAX 1024
#define BOOT_LOADER_MAX 64
#define BOOT_MMAP_MAX 64
#define BOOT_PROBLEMS_MAX 8
#define BOOT_PROBLEM_LEN 120
#define MB2_INFO_MAX (1u << 20) /* sanity bound on total_size */

enum boot_protocol { BOOT_PROTO_UNKNOWN, BOOT_PROTO_MULTIBOOT1, BOOT_PROTO_MULTIBOOT2 };

enum mem_type { MEM_AVAILABLE = 1, MEM_RESERVED = 2, MEM_ACPI_RECLAIM = 3, MEM_ACPI_NVS = 4, MEM_BAD = 5 };

struct mem_region {
    u64 base;
    u64 length;
    u32 type; /* enum mem_type; other values are kept as given */
};

/* Multiboot2 2.0 3.6.12 framebuffer info (tag type 8). */
enum boot_fb_type { BOOT_FB_INDEXED = 0, BOOT_FB_RGB = 1, BOOT_FB_EGA_TEXT = 2 };
struct boot_fb {
    u64 addr;
    u32 pitch; /* bytes per line */
    u32 width, height; /* pixels (characters for EGA text) */
    u8 bpp;
    u8 type; /* enum boot_fb_type */
    u8 red_pos, red_size, green_pos, green_size, blue_pos, blue_size; /* BOOT_FB_RGB only */
};

struct boot_info {
    enum boot_protocol protocol;
    u64 info_phys;
    u32 info_size; /* bytes of loader information read (mb2 total_size; mb1 fixed part) */

    bool has_loader;
    char loader[BOOT_LOADER_MAX];
    bool has_cmdline;
    char cmdline[BOOT_CMDLINE_MAX];

    bool has_meminfo; /* mem_lower/mem_upper in KiB */
    u32 mem_lower_kb, mem_upper_kb;

    u32 mmap_count;
    bool mmap_truncated; /* more entries than BOOT_MMAP_MAX */
    struct mem_region mmap[BOOT_MMAP_MAX];

    /* Multiboot2 ACPI tags carry a copy of the RSDP; these are the physical addresses of those copies. */
    u64 rsdp_v1_phys; /* tag 14 "ACPI old RSDP", 0 if absent */
    u32 rsdp_v1_len;
    u64 rsdp_v2_phys; /* tag 15 "ACPI new RSDP", 0 if absent */
    u32 rsdp_v2_len;

    bool has_fb; /* multiboot2 framebuffer tag */
    struct boot_fb fb;

    u32 problem_count; /* may exceed BOOT_PROBLEMS_MAX; only the first are kept */
    char problems[BOOT_PROBLEMS_MAX][BOOT_PROBLEM_LEN];
};

/* Parse the information at info_phys for the given loader magic. Returns the number of problems. */
u32 bootinfo_parse(struct boot_info *bi, u32 magic, u64 info_phys, const struct phys_window *mem);

/* NULL when [addr, addr+len) lies inside one region the memory map calls available, ACPI reclaimable or ACPI NVS
 * (RAM: safe to map write-back and read; ACPI 6.5 ch. 15 address range types: the tables lie in AddressRangeACPI
 * or AddressRangeNVS), else why not: not inside one such region, or overlapping a reserved (possibly MMIO) or
 * other region. */
const char *bootinfo_ram_refusal(const struct boot_info *bi, u64 addr, u64 len);

const char *boot_protocol_name(enum boot_protocol p);
const char *mem_type_name(u32 type);
