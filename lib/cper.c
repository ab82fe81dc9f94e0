/* pmuboot's CPER records (see cper.h). Offsets from UEFI 2.10 N.2.1 (Record Header) and N.2.2 (Section
 * Descriptor); the constant fields as Linux's erst_writer fills them for pstore. */
#include "lib/cper.h"

#include <stdarg.h>
#include <string.h>

#include "lib/acpi.h" /* little-endian field readers */
#include "lib/format.h"

typedef unsigned long long ull; /* for %llx */

const struct efi_guid cper_pmuboot_creator = {0x63930c0d, 0x3832, 0x42d8,
                                              {0x9b, 0x6c, 0xd2, 0x73, 0x1d, 0x2f, 0x7a, 0x0b}};
const struct efi_guid cper_pmuboot_section = {0x73a14cc0, 0xe94d, 0x474b,
                                              {0x98, 0x83, 0x96, 0x7d, 0x11, 0xab, 0xc2, 0x26}};

#define CPER_REVISION 0x0100         /* Linux CPER_RECORD_REV */
#define CPER_SECTION_REVISION 0x0100 /* Linux CPER_SEC_REV */
#define CPER_SEV_INFORMATIONAL 3     /* N.2.1 Error Severity */
#define CPER_FLAGS_SIMULATED 0x4     /* N.2.1 Flags: HW_ERROR_FLAGS_SIMULATED, not a hardware error */
#define CPER_SECTION_PRIMARY 0x1     /* N.2.2 Flags */

/* Record header fields. */
enum {
    H_SIGNATURE = 0,
    H_REVISION = 4,
    H_SIGNATURE_END = 6,
    H_SECTION_COUNT = 10,
    H_SEVERITY = 12,
    H_VALIDATION = 16,
    H_LENGTH = 20,
    H_CREATOR = 64,
    H_RECORD_ID = 96,
    H_FLAGS = 104,
};
/* Section descriptor fields, from its start. */
enum { S_OFFSET = 0, S_LENGTH = 4, S_REVISION = 8, S_FLAGS = 12, S_TYPE = 16, S_SEVERITY = 48 };

static void put16(u8 *p, u16 v) { memcpy(p, &v, 2); }
static void put32(u8 *p, u32 v) { memcpy(p, &v, 4); }
static void put64(u8 *p, u64 v) { memcpy(p, &v, 8); }

static void put_guid(u8 *p, const struct efi_guid *g)
{
    put32(p, g->d1);
    put16(p + 4, g->d2);
    put16(p + 6, g->d3);
    memcpy(p + 8, g->d4, 8);
}

static struct efi_guid get_guid(const u8 *p)
{
    struct efi_guid g = {acpi_get32(p), acpi_get16(p + 4), acpi_get16(p + 6), {0}};
    memcpy(g.d4, p + 8, 8);
    return g;
}

static bool guid_equal(const struct efi_guid *a, const struct efi_guid *b)
{
    return a->d1 == b->d1 && a->d2 == b->d2 && a->d3 == b->d3 && !memcmp(a->d4, b->d4, 8);
}

void efi_guid_format(const struct efi_guid *g, char *buf, size_t n)
{
    k_snprintf(buf, n, "%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x", g->d1, g->d2, g->d3, g->d4[0], g->d4[1],
               g->d4[2], g->d4[3], g->d4[4], g->d4[5], g->d4[6], g->d4[7]);
}

void cper_pmuboot_encode(u64 id, const u8 *payload, u32 len, u8 *out)
{
    u32 total = cper_pmuboot_len(len);
    memset(out, 0, CPER_PMUBOOT_OFFSET);
    memcpy(out + H_SIGNATURE, "CPER", 4);
    put16(out + H_REVISION, CPER_REVISION);
    put32(out + H_SIGNATURE_END, 0xffffffffu);
    put16(out + H_SECTION_COUNT, 1);
    put32(out + H_SEVERITY, CPER_SEV_INFORMATIONAL);
    put32(out + H_VALIDATION, 0); /* no platform ID, timestamp or partition ID */
    put32(out + H_LENGTH, total);
    put_guid(out + H_CREATOR, &cper_pmuboot_creator);
    put64(out + H_RECORD_ID, id);
    put32(out + H_FLAGS, CPER_FLAGS_SIMULATED);
    u8 *s = out + CPER_HEADER_LEN;
    put32(s + S_OFFSET, CPER_PMUBOOT_OFFSET);
    put32(s + S_LENGTH, len);
    put16(s + S_REVISION, CPER_SECTION_REVISION);
    put32(s + S_FLAGS, CPER_SECTION_PRIMARY);
    put_guid(s + S_TYPE, &cper_pmuboot_section);
    put32(s + S_SEVERITY, CPER_SEV_INFORMATIONAL);
    memcpy(out + CPER_PMUBOOT_OFFSET, payload, len);
}

PRINTF_LIKE(3, 4) static const char *refuse(char *why, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    k_vsnprintf(why, n, fmt, ap);
    va_end(ap);
    return why;
}

const char *cper_pmuboot_decode(const u8 *rec, u32 n, u64 id, u8 *payload, u32 len, char *why, size_t n_why)
{
    char guid[40];
    if (n < CPER_PMUBOOT_OFFSET || memcmp(rec + H_SIGNATURE, "CPER", 4) ||
        acpi_get32(rec + H_SIGNATURE_END) != 0xffffffffu)
        return refuse(why, n_why, "record 0x%llx: not a CPER record (%u bytes, no CPER signature and end)", (ull)id, n);
    struct efi_guid creator = get_guid(rec + H_CREATOR);
    if (!guid_equal(&creator, &cper_pmuboot_creator)) {
        efi_guid_format(&creator, guid, sizeof(guid));
        return refuse(why, n_why, "record 0x%llx: another creator's (%s), not pmuboot's", (ull)id, guid);
    }
    u64 rid = acpi_get64(rec + H_RECORD_ID);
    if (rid != id)
        return refuse(why, n_why, "record 0x%llx: its header says record 0x%llx", (ull)id, (ull)rid);
    const u8 *s = rec + CPER_HEADER_LEN;
    struct efi_guid type = get_guid(s + S_TYPE);
    u32 length = acpi_get32(rec + H_LENGTH), sections = acpi_get16(rec + H_SECTION_COUNT);
    u32 s_offset = acpi_get32(s + S_OFFSET), s_length = acpi_get32(s + S_LENGTH);
    if (sections != 1 || !guid_equal(&type, &cper_pmuboot_section) || s_offset != CPER_PMUBOOT_OFFSET ||
        length != n || s_length != n - CPER_PMUBOOT_OFFSET)
        return refuse(why, n_why,
                      "record 0x%llx: pmuboot's creator, but not the layout pmuboot writes (%u sections, record %u "
                      "bytes of %u, section at %u, %u bytes)",
                      (ull)id, sections, length, n, s_offset, s_length);
    if (s_length != len)
        return refuse(why, n_why, "record 0x%llx: %u bytes of payload, %u expected (another pmuboot version's?)",
                      (ull)id, s_length, len);
    memcpy(payload, rec + CPER_PMUBOOT_OFFSET, len);
    return NULL;
}
