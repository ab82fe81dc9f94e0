/* Whether INIT of the boot CPU comes back (see fw_resume.h). Everything is read through phys_window. */
#include "lib/fw_resume.h"

#include <string.h>

#include "lib/format.h"

typedef unsigned long long ull;

/* coreboot's table header, struct lb_header in src/commonlib/include/commonlib/coreboot_tables.h: "LBIO",
 * header_bytes, header_checksum, table_bytes, table_checksum, table_entries (24 bytes, little-endian). coreboot
 * writes it (a forwarding entry to the full table in CBMEM) at 0x500 (src/arch/x86/tables.c
 * FORWARDING_TABLE_ADDR); payloads look for it on 16-byte boundaries of 0x0-0xFFF, then of the F segment
 * (libpayload arch/x86/coreboot.c get_coreboot_info; SeaBIOS src/fw/coreboot.c find_cb_header). */
#define LB_HEADER_BYTES 24u
#define LB_ALIGN 16u
static const char LB_SIG[4] = {'L', 'B', 'I', 'O'};
static const char SEABIOS_SIG[7] = {'S', 'e', 'a', 'B', 'I', 'O', 'S'};

/* SeaBIOS's reset vector, src/romlayout.S at 0xfff0: "ljmpw $SEG_BIOS, $entry_post", EA off16 seg16 with
 * SEG_BIOS = 0xF000: into the F segment, where a SeaBIOS that already ran POST goes to its resume code. */
#define FAR_JMP 0xEA
#define SEG_BIOS 0xF000u

/* First offset in [start, end) on a step boundary where pat lies inside the window; false when none. */
static bool find_bytes(const struct phys_window *w, u64 start, u64 end, u64 step, const void *pat, u32 len, u64 *at)
{
    for (u64 a = start; a + len <= end; a += step) {
        u8 buf[8];
        if (phys_read(w, a, buf, len) && memcmp(buf, pat, len) == 0) {
            *at = a;
            return true;
        }
    }
    return false;
}

/* compute_ip_checksum (coreboot src/lib/ip_checksum.c, RFC 1071): the one's-complement sum of 16-bit
 * little-endian words; over a header whose checksum field is filled in, the result is 0. */
static u16 ip_checksum(const u8 *p, u32 len)
{
    u32 sum = 0;
    for (u32 i = 0; i < len; i++) {
        sum += (i & 1) ? (u32)p[i] << 8 : p[i];
        if (sum > 0xFFFF)
            sum = (sum + (sum >> 16)) & 0xFFFF;
    }
    return (u16)~sum;
}

static bool lb_header_valid(const struct phys_window *w, u64 at)
{
    u8 h[LB_HEADER_BYTES];
    if (!phys_read(w, at, h, sizeof(h)))
        return false;
    u32 header_bytes = (u32)h[4] | (u32)h[5] << 8 | (u32)h[6] << 16 | (u32)h[7] << 24;
    return header_bytes == LB_HEADER_BYTES && ip_checksum(h, sizeof(h)) == 0;
}

static void find_coreboot(struct fw_resume *r, const struct phys_window *low)
{
    r->coreboot = find_bytes(low, 0, 0x1000, LB_ALIGN, LB_SIG, sizeof(LB_SIG), &r->coreboot_at) ||
                  find_bytes(low, 0xF0000, 0x100000, LB_ALIGN, LB_SIG, sizeof(LB_SIG), &r->coreboot_at);
    if (r->coreboot)
        r->coreboot_valid = lb_header_valid(low, r->coreboot_at);
}

static bool vector_is_seabios_jump(const struct fw_resume *r)
{
    const u8 *v = r->reset_vector;
    return r->vector_read && v[0] == FAR_JMP && (u32)(v[3] | v[4] << 8) == SEG_BIOS;
}

static void vector_describe(const struct fw_resume *r, char *buf, size_t size)
{
    const u8 *v = r->reset_vector;
    if (!r->vector_read)
        k_snprintf(buf, size, "unreadable");
    else if (vector_is_seabios_jump(r))
        k_snprintf(buf, size, "EA %02X %02X 00 F0 (jmp far F000:%04X)", v[1], v[2], v[1] | v[2] << 8);
    else
        k_snprintf(buf, size, "%02X %02X %02X %02X %02X%s", v[0], v[1], v[2], v[3], v[4],
                   v[0] == 0xE9 ? " (jmp near)" : "");
}

void fw_resume_decide(struct fw_resume *r, const struct phys_window *low, const struct phys_window *top)
{
    memset(r, 0, sizeof(*r));
    r->vector_read = phys_read(top, FW_RESET_VECTOR, r->reset_vector, sizeof(r->reset_vector));
    r->seabios = find_bytes(low, FW_SEABIOS_LO, FW_SEABIOS_HI, 1, SEABIOS_SIG, sizeof(SEABIOS_SIG), &r->seabios_at);
    find_coreboot(r, low);
    char vec[64];
    vector_describe(r, vec, sizeof(vec));
    if (r->coreboot) /* conservative: a signature whose header does not verify still refuses */
        k_snprintf(r->evidence, sizeof(r->evidence),
                   "coreboot table header \"LBIO\" at 0x%llx (%s): coreboot's bootblock owns the reset vector "
                   "(0xFFFFFFF0: %s) and does not resume through CMOS shutdown code 0x0A%s",
                   (ull)r->coreboot_at, r->coreboot_valid ? "valid lb_header" : "header does not verify", vec,
                   r->seabios ? "; SeaBIOS is only its payload" : "");
    else if (!r->seabios)
        k_snprintf(r->evidence, sizeof(r->evidence),
                   "no 'SeaBIOS' in 0xE0000-0xFFFFF, the only firmware known here to resume through CMOS shutdown "
                   "code 0x0A and 40:67 (reset vector 0xFFFFFFF0: %s)", vec);
    else if (!vector_is_seabios_jump(r))
        k_snprintf(r->evidence, sizeof(r->evidence),
                   "'SeaBIOS' at 0x%llx, but the reset vector 0xFFFFFFF0 holds %s, not SeaBIOS's jmp far into "
                   "F000: the code INIT would run is unknown", (ull)r->seabios_at, vec);
    else {
        r->allowed = true;
        k_snprintf(r->evidence, sizeof(r->evidence),
                   "SeaBIOS is the firmware: 'SeaBIOS' at 0x%llx, reset vector 0xFFFFFFF0: %s, no coreboot table "
                   "header in 0x0-0xFFF or 0xF0000-0xFFFFF", (ull)r->seabios_at, vec);
    }
}
