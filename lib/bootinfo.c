/* Multiboot1 (spec 0.6.96 section 3.3) and Multiboot2 (spec 2.0 section 3.6) boot information parsers. */
#include "lib/bootinfo.h"

#include <stdarg.h>
#include <string.h>

#include "lib/format.h"

PRINTF_LIKE(2, 3) static void problem(struct boot_info *bi, const char *fmt, ...)
{
    if (bi->problem_count < BOOT_PROBLEMS_MAX) {
        va_list ap;
        va_start(ap, fmt);
        k_vsnprintf(bi->problems[bi->problem_count], BOOT_PROBLEM_LEN, fmt, ap);
        va_end(ap);
    }
    bi->problem_count++;
}

static void add_region(struct boot_info *bi, u64 base, u64 length, u32 type)
{
    if (bi->mmap_count >= BOOT_MMAP_MAX) {
        if (!bi->mmap_truncated)
            problem(bi, "memory map has more than %d entries; the rest are ignored", BOOT_MMAP_MAX);
        bi->mmap_truncated = true;
        return;
    }
    bi->mmap[bi->mmap_count++] = (struct mem_region){base, length, type};
}

/* What a string read came to: present (perhaps truncated, which is a problem), or absent with `outside` said. */
static void string_read(struct boot_info *bi, enum phys_str_status st, char *dst, size_t dst_size, bool *has,
                        const char *what, const char *outside)
{
    if (st == PHYS_STR_OUTSIDE) {
        dst[0] = '\0';
        problem(bi, "%s %s", what, outside);
        return;
    }
    *has = true;
    if (st == PHYS_STR_TOO_LONG)
        problem(bi, "%s longer than %zu bytes; truncated", what, dst_size - 1);
}

/* Copy a string that must end inside [addr, addr+len) (Multiboot2 tags). */
static void tag_string(struct boot_info *bi, const struct phys_window *mem, u64 addr, u64 len, char *dst,
                       size_t dst_size, bool *has, const char *what)
{
    if (len == 0) {
        problem(bi, "%s tag is empty", what);
        return;
    }
    struct phys_window tag = *mem;
    /* Narrow the window to the tag so the string cannot run past it. */
    tag.ptr = mem->ptr + (addr - mem->base);
    tag.base = addr;
    tag.size = len;
    char outside[64];
    k_snprintf(outside, sizeof(outside), "tag is not NUL-terminated within its %llu bytes", (unsigned long long)len);
    string_read(bi, phys_read_str(&tag, addr, dst, dst_size), dst, dst_size, has, what, outside);
}

/* Copy a string at a Multiboot1 physical pointer. */
static void mb1_string(struct boot_info *bi, const struct phys_window *mem, u32 addr, char *dst,
                       size_t dst_size, bool *has, const char *what)
{
    char outside[64];
    k_snprintf(outside, sizeof(outside), "at 0x%x is outside memory or unterminated", addr);
    string_read(bi, phys_read_str(mem, addr, dst, dst_size), dst, dst_size, has, what, outside);
}

/* Multiboot 0.6.96 3.3: the fixed part we use ends with boot_loader_name at offset 64. */
struct mb1_info {
    u32 flags, mem_lower, mem_upper, boot_device, cmdline, mods_count, mods_addr;
    u32 syms[4];
    u32 mmap_length, mmap_addr, drives_length, drives_addr, config_table, boot_loader_name;
} PACKED;

#define MB1_FLAG_MEM BIT(0)
#define MB1_FLAG_CMDLINE BIT(2)
#define MB1_FLAG_MMAP BIT(6)
#define MB1_FLAG_LOADER BIT(9)
#define MB1_MMAP_MAX_BYTES (64u * 1024)

static void parse_mb1(struct boot_info *bi, u64 info, const struct phys_window *mem)
{
    struct mb1_info mi;
    if (!phys_read(mem, info, &mi, sizeof(mi))) {
        problem(bi, "multiboot1 information at 0x%llx (%zu bytes) lies outside memory",
                (unsigned long long)info, sizeof(mi));
        return;
    }
    bi->info_size = sizeof(mi);
    if (mi.flags & MB1_FLAG_MEM) {
        bi->has_meminfo = true;
        bi->mem_lower_kb = mi.mem_lower;
        bi->mem_upper_kb = mi.mem_upper;
    }
    if (mi.flags & MB1_FLAG_CMDLINE)
        mb1_string(bi, mem, mi.cmdline, bi->cmdline, sizeof(bi->cmdline), &bi->has_cmdline,
                   "command line");
    if (mi.flags & MB1_FLAG_LOADER)
        mb1_string(bi, mem, mi.boot_loader_name, bi->loader, sizeof(bi->loader), &bi->has_loader,
                   "boot loader name");
    if (mi.flags & MB1_FLAG_MMAP) {
        if (mi.mmap_length > MB1_MMAP_MAX_BYTES) {
            problem(bi, "memory map length %u exceeds %u bytes; ignored", mi.mmap_length,
                    MB1_MMAP_MAX_BYTES);
            return;
        }
        if (!phys_range_ok(mem, mi.mmap_addr, mi.mmap_length)) {
            problem(bi, "memory map at 0x%x+%u lies outside memory", mi.mmap_addr, mi.mmap_length);
            return;
        }
        /* Entries: u32 size (not counting itself), u64 base, u64 length, u32 type. */
        u64 p = mi.mmap_addr, end = (u64)mi.mmap_addr + mi.mmap_length;
        while (p < end) {
            struct {
                u32 size;
                u64 base, length;
                u32 type;
            } PACKED e;
            if (end - p < sizeof(e)) {
                problem(bi, "memory map entry at 0x%llx truncated (%llu bytes left, need %zu)",
                        (unsigned long long)p, (unsigned long long)(end - p), sizeof(e));
                break;
            }
            phys_read(mem, p, &e, sizeof(e));
            if (e.size < 20) {
                problem(bi, "memory map entry at 0x%llx has size %u (< 20); map ignored from here",
                        (unsigned long long)p, e.size);
                break;
            }
            if ((u64)e.size + 4 > end - p) {
                problem(bi, "memory map entry at 0x%llx truncated (size %u runs past mmap_length)",
                        (unsigned long long)p, e.size);
                break;
            }
            add_region(bi, e.base, e.length, e.type);
            p += (u64)e.size + 4;
        }
    }
}

/* Multiboot2 2.0 3.6: u32 total_size, u32 reserved, then 8-byte aligned tags {u32 type, u32 size}. */
enum {
    MB2_TAG_END = 0,
    MB2_TAG_CMDLINE = 1,
    MB2_TAG_LOADER = 2,
    MB2_TAG_MEMINFO = 4,
    MB2_TAG_MMAP = 6,
    MB2_TAG_FRAMEBUFFER = 8,
    MB2_TAG_ACPI_OLD = 14,
    MB2_TAG_ACPI_NEW = 15,
};

static void parse_mb2_mmap(struct boot_info *bi, const struct phys_window *mem, u64 tag, u32 size)
{
    struct {
        u32 type, size, entry_size, entry_version;
    } h;
    if (size < sizeof(h)) {
        problem(bi, "memory map tag of %u bytes is shorter than its 16-byte header", size);
        return;
    }
    phys_read(mem, tag, &h, sizeof(h));
    if (h.entry_size < 24 || h.entry_size % 8) {
        problem(bi, "memory map entry size %u is invalid (must be >= 24, multiple of 8)", h.entry_size);
        return;
    }
    u64 n = (size - sizeof(h)) / h.entry_size;
    if ((size - sizeof(h)) % h.entry_size)
        problem(bi, "memory map tag size %u is not a whole number of %u-byte entries", size, h.entry_size);
    for (u64 i = 0; i < n; i++) {
        struct {
            u64 base, length;
            u32 type, reserved;
        } e;
        phys_read(mem, tag + sizeof(h) + i * h.entry_size, &e, sizeof(e));
        add_region(bi, e.base, e.length, e.type);
    }
}

/* Multiboot2 2.0 3.6.12: u64 addr, u32 pitch, width, height, u8 bpp, u8 type, u16 reserved, then color_info
 * (RGB: red position, red mask size, green ..., blue ...: six bytes). */
static void parse_mb2_fb(struct boot_info *bi, const struct phys_window *mem, u64 tag, u32 size)
{
    u8 t[38];
    if (size < 32) {
        problem(bi, "framebuffer tag of %u bytes is shorter than its 32-byte fixed part", size);
        return;
    }
    memset(t, 0, sizeof(t));
    phys_read(mem, tag, t, MIN(size, (u32)sizeof(t)));
    struct boot_fb *fb = &bi->fb;
    memcpy(&fb->addr, t + 8, 8);
    memcpy(&fb->pitch, t + 16, 4);
    memcpy(&fb->width, t + 20, 4);
    memcpy(&fb->height, t + 24, 4);
    fb->bpp = t[28];
    fb->type = t[29];
    if (fb->type == BOOT_FB_RGB) {
        if (size < 38) {
            problem(bi, "RGB framebuffer tag of %u bytes lacks its 6-byte colour layout", size);
            return;
        }
        fb->red_pos = t[32];
        fb->red_size = t[33];
        fb->green_pos = t[34];
        fb->green_size = t[35];
        fb->blue_pos = t[36];
        fb->blue_size = t[37];
    }
    bi->has_fb = true;
}

static void parse_mb2(struct boot_info *bi, u64 info, const struct phys_window *mem)
{
    u32 hdr[2];
    if (!phys_read(mem, info, hdr, sizeof(hdr))) {
        problem(bi, "multiboot2 information at 0x%llx lies outside memory", (unsigned long long)info);
        return;
    }
    u32 total = hdr[0];
    if (info % 8)
        problem(bi, "multiboot2 information at 0x%llx is not 8-byte aligned", (unsigned long long)info);
    if (total < 16 || total > MB2_INFO_MAX) {
        problem(bi, "multiboot2 total_size %u is out of range [16, %u]", total, MB2_INFO_MAX);
        return;
    }
    if (!phys_range_ok(mem, info, total)) {
        problem(bi, "multiboot2 information 0x%llx+%u runs outside memory", (unsigned long long)info, total);
        return;
    }
    bi->info_size = total;
    u64 end = info + total;
    u64 p = info + 8;
    bool seen_end = false;
    while (p < end) {
        u32 th[2];
        if (end - p < 8) {
            problem(bi, "tag header at offset %llu truncated by total_size %u",
                    (unsigned long long)(p - info), total);
            break;
        }
        phys_read(mem, p, th, sizeof(th));
        u32 type = th[0], size = th[1];
        if (size < 8 || size > end - p) {
            problem(bi, "tag type %u at offset %llu has size %u (must be 8..%llu)", type,
                    (unsigned long long)(p - info), size, (unsigned long long)(end - p));
            break;
        }
        if (type == MB2_TAG_END) {
            seen_end = true;
            break;
        }
        switch (type) {
        case MB2_TAG_CMDLINE:
            tag_string(bi, mem, p + 8, size - 8, bi->cmdline, sizeof(bi->cmdline), &bi->has_cmdline,
                       "command line");
            break;
        case MB2_TAG_LOADER:
            tag_string(bi, mem, p + 8, size - 8, bi->loader, sizeof(bi->loader), &bi->has_loader,
                       "boot loader name");
            break;
        case MB2_TAG_MEMINFO:
            if (size < 16) {
                problem(bi, "basic memory tag of %u bytes is shorter than 16", size);
                break;
            }
            phys_read(mem, p + 8, &bi->mem_lower_kb, 4);
            phys_read(mem, p + 12, &bi->mem_upper_kb, 4);
            bi->has_meminfo = true;
            break;
        case MB2_TAG_MMAP:
            parse_mb2_mmap(bi, mem, p, size);
            break;
        case MB2_TAG_FRAMEBUFFER:
            parse_mb2_fb(bi, mem, p, size);
            break;
        case MB2_TAG_ACPI_OLD:
        case MB2_TAG_ACPI_NEW: {
            u32 need = type == MB2_TAG_ACPI_OLD ? 20 : 36; /* ACPI 6.5 5.2.5.3 RSDP sizes */
            if (size - 8 < need) {
                problem(bi, "ACPI %s RSDP tag holds %u bytes, needs %u", type == MB2_TAG_ACPI_OLD ? "old" : "new",
                        size - 8, need);
                break;
            }
            if (type == MB2_TAG_ACPI_OLD) {
                bi->rsdp_v1_phys = p + 8;
                bi->rsdp_v1_len = size - 8;
            } else {
                bi->rsdp_v2_phys = p + 8;
                bi->rsdp_v2_len = size - 8;
            }
            break;
        }
        default:
            break; /* modules, EFI tables...: not needed */
        }
        p += (size + 7u) & ~7u;
    }
    if (!seen_end)
        problem(bi, "multiboot2 information has no end tag within total_size %u", total);
}

u32 bootinfo_parse(struct boot_info *bi, u32 magic, u64 info_phys, const struct phys_window *mem)
{
    memset(bi, 0, sizeof(*bi));
    bi->info_phys = info_phys;
    if (magic == MB1_LOADER_MAGIC) {
        bi->protocol = BOOT_PROTO_MULTIBOOT1;
        parse_mb1(bi, info_phys, mem);
    } else if (magic == MB2_LOADER_MAGIC) {
        bi->protocol = BOOT_PROTO_MULTIBOOT2;
        parse_mb2(bi, info_phys, mem);
    } else {
        problem(bi, "unknown loader magic 0x%08x (expected multiboot1 0x%08x or multiboot2 0x%08x)", magic,
                MB1_LOADER_MAGIC, MB2_LOADER_MAGIC);
    }
    return bi->problem_count;
}

static bool ram_type(u32 type)
{
    return type == MEM_AVAILABLE || type == MEM_ACPI_RECLAIM || type == MEM_ACPI_NVS;
}

const char *bootinfo_ram_refusal(const struct boot_info *bi, u64 addr, u64 len)
{
    bool inside = false;
    for (u32 i = 0; i < bi->mmap_count; i++) {
        const struct mem_region *r = &bi->mmap[i];
        bool overlaps = addr < r->base + r->length && r->base < addr + len;
        if (overlaps && !ram_type(r->type))
            return r->type == MEM_RESERVED ? "reserved in the loader's memory map (possibly MMIO)"
                                           : "not RAM in the loader's memory map";
        if (ram_type(r->type) && addr >= r->base && addr + len <= r->base + r->length)
            inside = true;
    }
    return inside ? NULL : "not inside one RAM or ACPI region of the loader's memory map";
}

const char *boot_protocol_name(enum boot_protocol p)
{
    switch (p) {
    case BOOT_PROTO_MULTIBOOT1:
        return "multiboot1";
    case BOOT_PROTO_MULTIBOOT2:
        return "multiboot2";
    default:
        return "unknown";
    }
}

const char *mem_type_name(u32 type)
{
    switch (type) {
    case MEM_AVAILABLE:
        return "available";
    case MEM_RESERVED:
        return "reserved";
    case MEM_ACPI_RECLAIM:
        return "acpi-reclaimable";
    case MEM_ACPI_NVS:
        return "acpi-nvs";
    case MEM_BAD:
        return "bad";
    default:
        return "other";
    }
}
