/* pmuboot's records in a persistent store, as UEFI CPER records (UEFI 2.10 Appendix N "Common Platform Error Record"):
 * a record header, one section descriptor and the payload as the section, the way Linux's pstore wraps its data for
 * the ACPI ERST (drivers/acpi/apei/erst.c, struct cper_pstore_record) with a creator GUID of its own. A store's other
 * records (an OS's, the firmware's) are never taken for pmuboot's: the creator and section type GUIDs and the record
 * identifier must all be pmuboot's. Portable; see docs/persist.md. */
#pragma once
#include "lib/types.h"

#define CPER_HEADER_LEN 128  /* N.2.1 Record Header */
#define CPER_SECTION_LEN 72  /* N.2.2 Section Descriptor */
#define CPER_PMUBOOT_OFFSET (CPER_HEADER_LEN + CPER_SECTION_LEN) /* where the payload starts */
#define CPER_PMUBOOT_MAX_PAYLOAD 256
#define CPER_PMUBOOT_MAX_LEN (CPER_PMUBOOT_OFFSET + CPER_PMUBOOT_MAX_PAYLOAD)

/* An EFI_GUID as stored: Data1, Data2, Data3 little-endian, then Data4's 8 bytes. */
struct efi_guid {
    u32 d1;
    u16 d2, d3;
    u8 d4[8];
};

/* Made up once, at random, for pmuboot (docs/persist.md):
 * creator 63930c0d-3832-42d8-9b6c-d2731d2f7a0b, section type 73a14cc0-e94d-474b-9883-967d11abc226. */
extern const struct efi_guid cper_pmuboot_creator, cper_pmuboot_section;

/* Record identifiers: bit 63 set and bits 62..55 clear, "pmub" in 54..24, the kind in the low bits. Linux's
 * cper_next_record_id never makes one (before 2038 bit 63 is clear; after, bit 63 is set and the seconds since 1970,
 * at least 2^31, shifted left by 24, set one of bits 55..62), nor does the firmware's "none" (all ones). */
#define CPER_PMUBOOT_ID_BASE 0x80706d7562000000ull
#define CPER_PMUBOOT_ID_MASK 0xffffffffff000000ull
enum cper_pmuboot_kind {
    CPER_PMUBOOT_HANG = 1,  /* lib/hang_record.h */
    CPER_PMUBOOT_RESET = 2, /* lib/reset_record.h */
};
#define CPER_PMUBOOT_ID(kind) (CPER_PMUBOOT_ID_BASE | (u64)(kind))
static inline bool cper_pmuboot_id(u64 id)
{
    return (id & CPER_PMUBOOT_ID_MASK) == CPER_PMUBOOT_ID_BASE;
}

/* Bytes of the record holding len bytes of payload. */
static inline u32 cper_pmuboot_len(u32 len)
{
    return CPER_PMUBOOT_OFFSET + len;
}

/* The record for payload (len <= CPER_PMUBOOT_MAX_PAYLOAD) under identifier id, into out (cper_pmuboot_len(len)
 * bytes): severity informational, flagged simulated (no hardware error), no timestamp, platform or partition. */
void cper_pmuboot_encode(u64 id, const u8 *payload, u32 len, u8 *out);

/* NULL with the payload copied when rec (n bytes) is pmuboot's record `id` holding exactly len bytes; else why not
 * (written into why, n_why bytes, and returned). */
const char *cper_pmuboot_decode(const u8 *rec, u32 n, u64 id, u8 *payload, u32 len, char *why, size_t n_why);

/* "63930c0d-3832-42d8-9b6c-d2731d2f7a0b" (37 bytes with the NUL). */
void efi_guid_format(const struct efi_guid *g, char *buf, size_t n);
