/* ACPI tables needed to enumerate CPUs: the RSDP (ACPI 6.5 5.2.5), the RSDT/XSDT (5.2.7, 5.2.8) and the
 * MADT (5.2.12). Every read goes through a phys_window and every table is checksummed before use; what is
 * wrong is collected as messages (table name and offset), never followed. See docs/acpi.md. */
#pragma once
#include "lib/bootinfo.h"
#include "lib/format.h"
#include "lib/phys_window.h"
#include "lib/types.h"

/* Little-endian table fields (ACPI is little-endian, as is x86), read without alignment assumptions. */
static inline u16 acpi_get16(const u8 *p)
{
    u16 v;
    __builtin_memcpy(&v, p, sizeof(v));
    return v;
}
static inline u32 acpi_get32(const u8 *p)
{
    u32 v;
    __builtin_memcpy(&v, p, sizeof(v));
    return v;
}
static inline u64 acpi_get64(const u8 *p)
{
    u64 v;
    __builtin_memcpy(&v, p, sizeof(v));
    return v;
}

#define ACPI_PROBLEMS_MAX 16
#define ACPI_PROBLEM_LEN 128
#define ACPI_TABLE_MAX_LEN (1u << 20) /* sanity bound on any table's length */
#define ACPI_RSDP_MAX_LEN 4096u        /* sanity bound on the ACPI 2.0 RSDP length field */
#define ACPI_ROOT_TABLES_MAX 64        /* RSDT/XSDT entries examined; the rest are reported and ignored */
#define ACPI_MAX_CPUS 8192 /* as MAX_CPUS (kernel/percpu.h) */
#define ACPI_MAX_IOAPICS 128 /* as Linux MAX_IO_APICS (arch/x86/include/asm/apicdef.h): one per PCIe root on big servers */
#define ACPI_MAX_ISOS 32
#define ACPI_MAX_NMI_SOURCES 8
#define ACPI_MAX_LAPIC_NMIS 16 /* kept for the record; firmware often lists one per CPU (not a problem) */

struct acpi_problems {
    u32 count; /* may exceed ACPI_PROBLEMS_MAX; only the first are kept */
    char msg[ACPI_PROBLEMS_MAX][ACPI_PROBLEM_LEN];
};

/* Add a message (kept while there is room, always counted). */
PRINTF_LIKE(2, 3) void acpi_problem(struct acpi_problems *pr, const char *fmt, ...);

/* ---- RSDP (ACPI 6.5 5.2.5.3) ---- */
struct acpi_rsdp {
    u64 phys;       /* where the validated RSDP (or the loader's copy of it) lies */
    u8 revision;    /* 0: ACPI 1.0 (20 bytes, RSDT only); >= 2: ACPI 2.0+ (length, XSDT) */
    char oem_id[7]; /* NUL-terminated */
    u32 rsdt_phys;
    u32 length;    /* 20 when the ACPI 2.0 part is not used */
    u64 xsdt_phys; /* 0 when the ACPI 2.0 part is not used */
    bool v1_part_only; /* revision >= 2 but only the 20-byte ACPI 1.0 part was given (a loader's v1 copy) */
};

/* Validate an RSDP at phys: signature "RSD PTR ", checksum of the first 20 bytes, and for revision >= 2
 * the length and the extended checksum over `length` bytes. avail bounds the bytes that belong to it (a
 * multiboot2 tag's payload); 0 means unbounded. A revision >= 2 RSDP with fewer than 36 bytes available
 * (GRUB's "old RSDP" tag copies 20 bytes) is used as ACPI 1.0 and marked v1_part_only. Returns true and
 * fills *out when valid; otherwise reports why and leaves *out untouched. */
bool acpi_rsdp_parse(const struct phys_window *mem, u64 phys, u32 avail, struct acpi_rsdp *out,
                     struct acpi_problems *pr);

/* ACPI 6.5 5.2.5.1: search 16-byte boundaries of the first 1 KiB of the EBDA (segment in the word at
 * 0x40E) and of 0xE0000-0xFFFFF. Candidates with the signature but a bad checksum are reported and skipped.
 * Parts of those ranges outside the window are skipped. Returns true with the first valid RSDP. */
bool acpi_rsdp_scan(const struct phys_window *mem, struct acpi_rsdp *out, struct acpi_problems *pr);

/* ---- RSDT / XSDT (ACPI 6.5 5.2.6-5.2.8) ---- */
struct acpi_table_ref {
    u64 phys;
    u32 length;
    char signature[5]; /* NUL-terminated; non-printable bytes shown as '?' */
    u8 revision;
    bool valid; /* header inside memory, length in [36, ACPI_TABLE_MAX_LEN], checksum 0: safe to use */
};

struct acpi_root {
    bool is_xsdt;
    u64 phys;
    u32 length;
    u32 entry_count; /* entries the root table lists */
    u32 table_count; /* entries examined and kept in tables[] (<= ACPI_ROOT_TABLES_MAX) */
    struct acpi_table_ref tables[ACPI_ROOT_TABLES_MAX];
};

/* Walk the XSDT (revision >= 2 and XsdtAddress != 0), falling back to the RSDT if the XSDT is unusable, and
 * check every listed table's header and checksum. Returns false when no root table could be trusted. */
bool acpi_root_parse(const struct phys_window *mem, const struct acpi_rsdp *rsdp, struct acpi_root *root,
                     struct acpi_problems *pr);

/* First valid table with this 4-character signature, or NULL. */
const struct acpi_table_ref *acpi_root_find(const struct acpi_root *root, const char *signature);
/* Whether the root table lists this signature at all, valid or not (a listed table that acpi_root_find does not
 * return failed its header or checksum checks). */
bool acpi_root_listed(const struct acpi_root *root, const char *signature);

/* Any other table: header readable, this signature, length in [min_len, ACPI_TABLE_MAX_LEN] and inside
 * memory, checksum 0. Reports what is wrong under the name `what`. */
bool acpi_table_check(const struct phys_window *mem, u64 phys, const char *signature, const char *what, u32 min_len,
                      struct acpi_problems *pr);

/* ---- MADT (ACPI 6.5 5.2.12) ---- */
enum acpi_madt_type {
    ACPI_MADT_LAPIC = 0,          /* 5.2.12.2 Processor Local APIC */
    ACPI_MADT_IOAPIC = 1,         /* 5.2.12.3 */
    ACPI_MADT_ISO = 2,            /* 5.2.12.5 Interrupt Source Override */
    ACPI_MADT_NMI_SOURCE = 3,     /* 5.2.12.6 */
    ACPI_MADT_LAPIC_NMI = 4,      /* 5.2.12.7 */
    ACPI_MADT_LAPIC_OVERRIDE = 5, /* 5.2.12.8 Local APIC Address Override */
    ACPI_MADT_X2APIC = 9,         /* 5.2.12.12 Processor Local x2APIC */
    ACPI_MADT_X2APIC_NMI = 10,    /* 5.2.12.13 Local x2APIC NMI */
};

#define ACPI_MADT_PCAT_COMPAT BIT(0)        /* MADT Flags: dual 8259s present */
#define ACPI_LAPIC_FLAG_ENABLED BIT(0)      /* Local APIC Flags (ACPI 6.5 5.2.12.2) */
#define ACPI_LAPIC_FLAG_ONLINE_CAPABLE BIT(1) /* meaningful from MADT revision 5; reserved before */
#define ACPI_MADT_ONLINE_CAPABLE_REV 5

struct acpi_cpu {
    u32 apic_id;  /* xAPIC ID (type 0) or x2APIC ID (type 9) */
    u32 uid;      /* ACPI processor UID */
    u32 flags;    /* raw Local APIC Flags */
    u32 offset;   /* byte offset of the entry in the MADT */
    u8 type;      /* ACPI_MADT_LAPIC or ACPI_MADT_X2APIC */
    bool enabled;        /* flags bit 0: usable now; the only CPUs to start */
    bool online_capable; /* flags bit 1 with MADT revision >= 5: may be enabled at run time */
    bool duplicate;      /* another enabled/online-capable entry of this APIC ID is the one kept: skip it */
    bool invalid_id;     /* enabled/online-capable with an ID no CPU can have (0xFF type 0, ~0 type 9): skip */
};

/* ACPI 6.5 5.2.12.2 / 5.2.12.12: IDs that name no CPU. 0xFF is the xAPIC broadcast destination (SDM
 * Vol.3A 11.6.2.1): INIT/SIPI sent to it would reach every CPU. 0xFFFFFFFF is the x2APIC broadcast. */
#define ACPI_XAPIC_BROADCAST_ID 0xFFu
#define ACPI_X2APIC_BROADCAST_ID 0xFFFFFFFFu

/* Neither enabled nor online-capable: firmware lists it but it is not there (QEMU -smp n,maxcpus=m). */
static inline bool acpi_cpu_absent(const struct acpi_cpu *c)
{
    return !c->enabled && !c->online_capable;
}

struct acpi_ioapic {
    u8 id;
    u32 address;
    u32 gsi_base;
};

struct acpi_iso {
    u8 bus;    /* 0 = ISA */
    u8 source; /* bus-relative IRQ */
    u32 gsi;
    u16 flags; /* MPS INTI flags: bits 1:0 polarity, 3:2 trigger mode (ACPI 6.5 5.2.12.5) */
};

struct acpi_nmi_source {
    u32 gsi;
    u16 flags; /* MPS INTI flags */
};

struct acpi_lapic_nmi {
    u32 uid;   /* ACPI processor UID; 0xFF (type 4) / 0xFFFFFFFF (type 10) = all processors */
    u16 flags; /* MPS INTI flags */
    u8 lint;   /* LINT0 or LINT1 */
    u8 type;   /* ACPI_MADT_LAPIC_NMI or ACPI_MADT_X2APIC_NMI */
};

struct acpi_madt {
    u64 phys;
    u32 length;
    u8 revision;
    u32 lapic_addr32;     /* Local Interrupt Controller Address field */
    u64 lapic_addr;       /* the address to use: the type 5 override if present, else lapic_addr32 */
    bool lapic_override;  /* a Local APIC Address Override entry was present */
    bool pcat_compat;     /* MADT flags bit 0 */
    bool entries_complete; /* false when a malformed entry stopped the walk (reported) */

    u32 cpu_count; /* kept in cpus[], in table order */
    u32 cpu_total; /* listed; > cpu_count when more than ACPI_MAX_CPUS (reported) */
    u32 cpu_enabled, cpu_online_capable, cpu_absent, cpu_duplicates, cpu_invalid; /* over cpus[] */
    struct acpi_cpu cpus[ACPI_MAX_CPUS];

    u32 ioapic_count, ioapic_total;
    struct acpi_ioapic ioapics[ACPI_MAX_IOAPICS];
    u32 iso_count, iso_total;
    struct acpi_iso isos[ACPI_MAX_ISOS];
    u32 nmi_source_count, nmi_source_total;
    struct acpi_nmi_source nmi_sources[ACPI_MAX_NMI_SOURCES];
    u32 lapic_nmi_count, lapic_nmi_total;
    struct acpi_lapic_nmi lapic_nmis[ACPI_MAX_LAPIC_NMIS];
    u32 other_entries; /* entries of types not decoded here (SAPIC, GIC, OEM, ...) */
};

/* Parse the MADT at phys. Returns false (table not used) when its header is unreadable, its signature is
 * not "APIC", its length is < 44 or past memory or over ACPI_TABLE_MAX_LEN, or its checksum is wrong.
 * A malformed entry (length 0, below its type's size, past the table end) is reported and stops the walk;
 * what was parsed before it is kept and the call still returns true with entries_complete false. */
bool acpi_madt_parse(const struct phys_window *mem, u64 phys, struct acpi_madt *madt, struct acpi_problems *pr);

/* A few '\n'-terminated lines describing the MADT: header, CPUs (ID ranges), I/O APICs, overrides, NMIs. */
void acpi_madt_format(const struct acpi_madt *madt, struct strbuf *sb);

/* ---- Clock sources: FADT PM timer (ACPI 6.5 5.2.9, 4.8.3.3) and the HPET table (IA-PC HPET 1.0a 3.2.4) ---- */
#define ACPI_FADT_TMR_VAL_EXT BIT(8)     /* FADT Flags: the PM timer counts 32 bits, not 24 (Table 5.10) */
#define ACPI_FADT_HW_REDUCED BIT(20)     /* FADT Flags: HW-reduced ACPI, no fixed hardware (PM timer) */
#define ACPI_GAS_SYSTEM_MEMORY 0         /* Generic Address Structure space IDs (ACPI 6.5 5.2.3.2) */
#define ACPI_GAS_SYSTEM_IO 1

struct acpi_fadt {
    u64 phys;
    u32 length;
    u8 revision;
    u32 flags;
    u8 century;           /* CENTURY: the RTC's century byte in CMOS, 0 when none */
    char oem_id[7];       /* the table header's OEM ID, NUL-terminated */
    bool pm_timer;        /* a usable PM timer: an I/O port */
    u16 pm_timer_port;
    u8 pm_timer_bits;     /* 24, or 32 with TMR_VAL_EXT */
    const char *pm_timer_field; /* "X_PM_TMR_BLK" or "PM_TMR_BLK" */
    char no_pm_timer[96]; /* why there is none (pm_timer false) */
};

/* Parse the FADT ("FACP") at phys and find its PM timer: X_PM_TMR_BLK when the table is long enough to hold it
 * and its address is not 0, else PM_TMR_BLK with PM_TMR_LEN 4. Returns false (table not used) when the header,
 * length (< 116, the ACPI 1.0 FADT) or checksum is bad. A PM timer this kernel cannot use (memory space, a
 * port above 0xFFFF, PM_TMR_LEN not 4) is a problem and leaves pm_timer false. */
bool acpi_fadt_parse(const struct phys_window *mem, u64 phys, struct acpi_fadt *fadt, struct acpi_problems *pr);

struct acpi_hpet {
    u64 phys;
    u32 length;
    u32 block_id;     /* Event Timer Block ID: PCI vendor 31:16, counter size 13, comparators 12:8, rev 7:0 */
    u64 address;      /* register block, system memory */
    u8 number;        /* HPET sequence number */
    u16 min_tick;     /* Main Counter Minimum Clock_tick in Periodic Mode */
};

/* Parse the HPET table at phys (56 bytes). False (reported) for a bad header, length or checksum, a base address
 * not in system memory, 0, or not 1 KiB aligned (the register block is 1 KiB, HPET 1.0a 2.3.1). */
bool acpi_hpet_parse(const struct phys_window *mem, u64 phys, struct acpi_hpet *hpet, struct acpi_problems *pr);

/* ---- Everything at once ---- */

/* GRUB's `multiboot` command (Multiboot 0.6.96 has no ACPI field) passes no RSDP; under UEFI the legacy BIOS
 * area usually holds none either (the firmware publishes it in the EFI system table: ACPI 6.5 5.2.5.2, UEFI 2.10
 * 4.6), so only the boot CPU can be found. multiboot2 carries it in its "ACPI old/new RSDP" tags (types 14, 15). */
#define ACPI_NO_RSDP_MB1 "no ACPI RSDP: multiboot1 under UEFI passes none; boot with multiboot2 to test every CPU"

struct acpi_info {
    bool has_rsdp;
    const char *no_rsdp; /* !has_rsdp: why, in words for the person at the console */
    const char *rsdp_source; /* "multiboot2 new RSDP tag", "multiboot2 old RSDP tag", "BIOS area scan" */
    struct acpi_rsdp rsdp;
    bool has_root;
    struct acpi_root root;
    bool has_madt;
    struct acpi_madt madt;
    struct acpi_problems problems;
};

/* Find the RSDP (the loader's ACPI 2.0 copy, then its 1.0 copy, then the BIOS area scan), walk the root
 * table and parse the MADT. bi may be NULL (no loader information). Returns the number of problems. */
u32 acpi_discover(struct acpi_info *ai, const struct phys_window *mem, const struct boot_info *bi);

/* A table looked up by its signature in what acpi_discover found: nothing to look in (no RSDP or no usable root
 * table), not listed, listed but unusable (its header or checksum, or the table's own checks: said in pr), or found. */
enum acpi_lookup { ACPI_LOOKUP_NO_ACPI, ACPI_LOOKUP_ABSENT, ACPI_LOOKUP_BAD, ACPI_LOOKUP_FOUND };
/* The lookup itself: ACPI_LOOKUP_FOUND with *phys set when the root table lists a valid table with this signature; a
 * listed one whose header or checksum is wrong is ACPI_LOOKUP_BAD, said in pr under the signature. */
enum acpi_lookup acpi_table_lookup(const struct acpi_info *ai, const char *signature, u64 *phys,
                                   struct acpi_problems *pr);

/* One line each for the RSDP and the root table (its table signatures), then acpi_madt_format. */
void acpi_format(const struct acpi_info *ai, struct strbuf *sb);
