/* ACPI RSDP, RSDT/XSDT and MADT parsing (ACPI 6.5 5.2.5-5.2.8, 5.2.12); see acpi.h and docs/acpi.md.
 * Nothing here dereferences a physical address: every byte comes through phys_read, after a range check. */
#include "lib/acpi.h"

#include <stdarg.h>
#include <string.h>

typedef unsigned long long ull; /* for %llx */

void acpi_problem(struct acpi_problems *pr, const char *fmt, ...)
{
    if (pr->count < ACPI_PROBLEMS_MAX) {
        va_list ap;
        va_start(ap, fmt);
        k_vsnprintf(pr->msg[pr->count], ACPI_PROBLEM_LEN, fmt, ap);
        va_end(ap);
    }
    pr->count++;
}

/* Sum of len bytes at addr; a valid ACPI checksum makes it 0. False when the range leaves the window or
 * cannot be reached (a window with a reach hook: above 4 GiB and not mappable). */
static bool byte_sum(const struct phys_window *mem, u64 addr, u64 len, u8 *sum)
{
    u8 chunk[64];
    u8 s = 0;
    if (!phys_range_ok(mem, addr, len))
        return false;
    while (len) {
        u64 n = MIN(len, (u64)sizeof(chunk));
        if (!phys_read(mem, addr, chunk, n))
            return false;
        for (u64 i = 0; i < n; i++)
            s = (u8)(s + chunk[i]);
        addr += n;
        len -= n;
    }
    *sum = s;
    return true;
}

static bool printable(char c)
{
    return c >= 0x20 && c <= 0x7E;
}

/* Copy n signature/OEM bytes for messages: NUL-terminated, non-printable bytes shown as '?'. */
static void text_copy(char *dst, const char *src, size_t n)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = printable(src[i]) ? src[i] : '?';
    dst[n] = '\0';
}

/* ---- RSDP ---- */

/* ACPI 6.5 5.2.5.3: the first 20 bytes are the ACPI 1.0 structure; the rest exists from revision 2. */
struct rsdp_raw {
    char signature[8];
    u8 checksum;
    char oem_id[6];
    u8 revision;
    u32 rsdt_address;
    u32 length;
    u64 xsdt_address;
    u8 extended_checksum;
    u8 reserved[3];
} PACKED;
_Static_assert(sizeof(struct rsdp_raw) == 36, "ACPI 6.5 5.2.5.3: RSDP is 36 bytes");
#define RSDP_V1_LEN 20u
#define RSDP_V2_LEN 36u
static const char RSDP_SIG[8] = {'R', 'S', 'D', ' ', 'P', 'T', 'R', ' '};

bool acpi_rsdp_parse(const struct phys_window *mem, u64 phys, u32 avail, struct acpi_rsdp *out,
                     struct acpi_problems *pr)
{
    struct rsdp_raw r;
    u8 sum;
    if (avail && avail < RSDP_V1_LEN) {
        acpi_problem(pr, "RSDP at 0x%llx: only %u bytes given, an RSDP has at least %u", (ull)phys, avail,
                RSDP_V1_LEN);
        return false;
    }
    if (!phys_read(mem, phys, &r, RSDP_V1_LEN)) {
        acpi_problem(pr, "RSDP at 0x%llx lies outside readable memory", (ull)phys);
        return false;
    }
    if (memcmp(r.signature, RSDP_SIG, sizeof(RSDP_SIG)) != 0) {
        char sig[9];
        text_copy(sig, r.signature, 8);
        acpi_problem(pr, "RSDP at 0x%llx: signature \"%s\" is not \"RSD PTR \"", (ull)phys, sig);
        return false;
    }
    byte_sum(mem, phys, RSDP_V1_LEN, &sum);
    if (sum != 0) { /* ACPI 6.5 5.2.5.3: Checksum covers the first 20 bytes */
        acpi_problem(pr, "RSDP at 0x%llx: checksum of the first 20 bytes is 0x%02x, not 0; not used", (ull)phys,
                sum);
        return false;
    }

    struct acpi_rsdp res;
    memset(&res, 0, sizeof(res));
    res.phys = phys;
    res.revision = r.revision;
    text_copy(res.oem_id, r.oem_id, sizeof(r.oem_id));
    res.rsdt_phys = r.rsdt_address;
    res.length = RSDP_V1_LEN;

    if (r.revision >= 2) { /* revision 2 is ACPI 2.0 and later; 1 is not defined, read as 1.0 like Linux */
        if (avail && avail < RSDP_V2_LEN) {
            res.v1_part_only = true;
        } else if (!phys_read(mem, phys, &r, RSDP_V2_LEN)) {
            acpi_problem(pr, "RSDP at 0x%llx: revision %u, but its 36-byte ACPI 2.0 form runs outside memory",
                    (ull)phys, r.revision);
            return false;
        } else if (r.length < RSDP_V2_LEN || r.length > ACPI_RSDP_MAX_LEN) {
            acpi_problem(pr, "RSDP at 0x%llx: revision %u with length %u outside [%u, %u]; not used", (ull)phys,
                    r.revision, r.length, RSDP_V2_LEN, ACPI_RSDP_MAX_LEN);
            return false;
        } else if (avail && r.length > avail) {
            acpi_problem(pr, "RSDP at 0x%llx: length %u exceeds the %u bytes given; not used", (ull)phys, r.length,
                    avail);
            return false;
        } else if (!byte_sum(mem, phys, r.length, &sum)) {
            acpi_problem(pr, "RSDP at 0x%llx: length %u runs outside readable memory", (ull)phys, r.length);
            return false;
        } else if (sum != 0) { /* Extended Checksum covers the whole structure, `length` bytes */
            acpi_problem(pr, "RSDP at 0x%llx: extended checksum over %u bytes is 0x%02x, not 0; not used",
                    (ull)phys, r.length, sum);
            return false;
        } else {
            res.length = r.length;
            res.xsdt_phys = r.xsdt_address;
        }
    }
    *out = res;
    return true;
}

/* ACPI 6.5 5.2.5.1: where an IA-PC BIOS puts the RSDP. */
#define BDA_EBDA_SEGMENT 0x40Eu /* word: EBDA real-mode segment */
#define EBDA_SEARCH_LEN 1024u
#define BIOS_AREA_START 0xE0000u
#define BIOS_AREA_END 0x100000u
#define RSDP_ALIGN 16u

static bool scan_range(const struct phys_window *mem, u64 start, u64 end, struct acpi_rsdp *out,
                       struct acpi_problems *pr)
{
    for (u64 a = start; a < end; a += RSDP_ALIGN) {
        char sig[sizeof(RSDP_SIG)];
        if (!phys_read(mem, a, sig, sizeof(sig)) || memcmp(sig, RSDP_SIG, sizeof(sig)) != 0)
            continue;
        if (acpi_rsdp_parse(mem, a, 0, out, pr)) /* a bad candidate is reported and skipped */
            return true;
    }
    return false;
}

bool acpi_rsdp_scan(const struct phys_window *mem, struct acpi_rsdp *out, struct acpi_problems *pr)
{
    u16 seg = 0;
    u64 ebda = 0;
    if (phys_read(mem, BDA_EBDA_SEGMENT, &seg, sizeof(seg)) && seg != 0) {
        ebda = (u64)seg << 4;
        if (scan_range(mem, ebda, ebda + EBDA_SEARCH_LEN, out, pr))
            return true;
    }
    if (scan_range(mem, BIOS_AREA_START, BIOS_AREA_END, out, pr))
        return true;
    const char *partly = phys_range_ok(mem, BIOS_AREA_START, BIOS_AREA_END - BIOS_AREA_START)
                             ? ""
                             : " (not all inside readable memory)";
    if (ebda)
        acpi_problem(pr, "no valid RSDP in the EBDA (0x%llx, first 1 KiB) or in 0xE0000-0xFFFFF%s", (ull)ebda,
                partly);
    else
        acpi_problem(pr, "no valid RSDP in 0xE0000-0xFFFFF%s (no EBDA segment at 0x40E)", partly);
    return false;
}

/* ---- System description tables ---- */

/* ACPI 6.5 5.2.6 */
struct sdt_header {
    char signature[4];
    u32 length;
    u8 revision;
    u8 checksum;
    char oem_id[6];
    char oem_table_id[8];
    u32 oem_revision;
    u32 creator_id;
    u32 creator_revision;
} PACKED;
_Static_assert(sizeof(struct sdt_header) == 36, "ACPI 6.5 5.2.6: header is 36 bytes");

/* Check a table before trusting it: header readable, signature (expect, or any printable 4 characters),
 * length in [min_len, ACPI_TABLE_MAX_LEN] and inside memory, checksum over `length` bytes 0.
 * *h is zeroed first and holds whatever header could be read. */
static bool sdt_check(const struct phys_window *mem, u64 phys, const char *expect, const char *what, u32 min_len,
                      struct sdt_header *h, struct acpi_problems *pr)
{
    char sig[5], where[64];
    u8 sum;
    memset(h, 0, sizeof(*h));
    if (!phys_read(mem, phys, h, sizeof(*h))) {
        acpi_problem(pr, "%s at 0x%llx: header lies outside readable memory", what, (ull)phys);
        return false;
    }
    text_copy(sig, h->signature, 4);
    if (expect) {
        if (memcmp(h->signature, expect, 4) != 0) {
            acpi_problem(pr, "%s at 0x%llx: signature \"%s\", expected \"%s\"", what, (ull)phys, sig, expect);
            return false;
        }
        k_snprintf(where, sizeof(where), "%s at 0x%llx", what, (ull)phys);
    } else {
        if (!printable(h->signature[0]) || !printable(h->signature[1]) || !printable(h->signature[2]) ||
            !printable(h->signature[3])) {
            const u8 *b = (const u8 *)h->signature;
            acpi_problem(pr, "%s at 0x%llx: signature bytes %02x %02x %02x %02x are not ASCII; not used", what,
                    (ull)phys, b[0], b[1], b[2], b[3]);
            return false;
        }
        k_snprintf(where, sizeof(where), "%s (\"%s\" at 0x%llx)", what, sig, (ull)phys);
    }
    if (h->length < min_len) {
        acpi_problem(pr, "%s: length %u is shorter than the %u bytes of its fixed fields; not used", where,
                h->length, min_len);
        return false;
    }
    if (h->length > ACPI_TABLE_MAX_LEN) {
        acpi_problem(pr, "%s: length %u exceeds the %u-byte sanity bound; not used", where, h->length,
                ACPI_TABLE_MAX_LEN);
        return false;
    }
    if (!byte_sum(mem, phys, h->length, &sum)) {
        acpi_problem(pr, "%s: its %u bytes run outside readable memory; not used", where, h->length);
        return false;
    }
    if (sum != 0) { /* ACPI 6.5 5.2.6: the entire table, including the checksum field, sums to 0 */
        acpi_problem(pr, "%s: checksum over %u bytes is 0x%02x, not 0; not used", where, h->length, sum);
        return false;
    }
    return true;
}

bool acpi_table_check(const struct phys_window *mem, u64 phys, const char *signature, const char *what, u32 min_len,
                      struct acpi_problems *pr)
{
    struct sdt_header h;
    return sdt_check(mem, phys, signature, what, min_len, &h, pr);
}

/* ACPI 6.5 5.2.7 (RSDT: 32-bit entries), 5.2.8 (XSDT: 64-bit entries), both after the 36-byte header. */
static bool parse_root_table(const struct phys_window *mem, u64 phys, bool xsdt, struct acpi_root *root,
                             struct acpi_problems *pr)
{
    const char *name = xsdt ? "XSDT" : "RSDT";
    const u32 esize = xsdt ? 8 : 4;
    struct sdt_header h;
    if (!sdt_check(mem, phys, name, name, sizeof(h), &h, pr))
        return false;
    memset(root, 0, sizeof(*root));
    root->is_xsdt = xsdt;
    root->phys = phys;
    root->length = h.length;
    u32 body = h.length - (u32)sizeof(h);
    if (body % esize)
        acpi_problem(pr, "%s at 0x%llx: length %u is not 36 + %u*n; the last %u bytes are ignored", name, (ull)phys,
                h.length, esize, body % esize);
    root->entry_count = body / esize;
    if (root->entry_count > ACPI_ROOT_TABLES_MAX)
        acpi_problem(pr, "%s at 0x%llx lists %u tables; only the first %u are examined", name, (ull)phys,
                root->entry_count, ACPI_ROOT_TABLES_MAX);
    u32 n = MIN(root->entry_count, (u32)ACPI_ROOT_TABLES_MAX);
    for (u32 i = 0; i < n; i++) {
        u8 e[8] = {0};
        phys_read(mem, phys + sizeof(h) + (u64)i * esize, e, esize); /* inside the checked table */
        struct acpi_table_ref *t = &root->tables[root->table_count++];
        t->phys = xsdt ? acpi_get64(e) : acpi_get32(e);
        if (t->phys == 0) {
            text_copy(t->signature, "\0\0\0\0", 4);
            acpi_problem(pr, "%s at 0x%llx: entry %u is a null pointer; skipped", name, (ull)phys, i);
            continue;
        }
        char what[24];
        struct sdt_header th;
        k_snprintf(what, sizeof(what), "%s entry %u", name, i);
        t->valid = sdt_check(mem, t->phys, NULL, what, sizeof(th), &th, pr);
        text_copy(t->signature, th.signature, 4);
        t->length = th.length;
        t->revision = th.revision;
    }
    return true;
}

bool acpi_root_parse(const struct phys_window *mem, const struct acpi_rsdp *rsdp, struct acpi_root *root,
                     struct acpi_problems *pr)
{
    memset(root, 0, sizeof(*root));
    /* ACPI 6.5 5.2.5.3: from revision 2 the XSDT is the one to use when present. */
    if (rsdp->revision >= 2 && rsdp->xsdt_phys != 0) {
        if (parse_root_table(mem, rsdp->xsdt_phys, true, root, pr))
            return true;
        if (rsdp->rsdt_phys == 0)
            return false;
        acpi_problem(pr, "XSDT unusable; falling back to the RSDT at 0x%x", rsdp->rsdt_phys);
    }
    if (rsdp->rsdt_phys == 0) {
        acpi_problem(pr, "RSDP at 0x%llx (revision %u) gives no RSDT (address 0)%s", (ull)rsdp->phys, rsdp->revision,
                rsdp->revision >= 2 ? " and no XSDT" : "");
        return false;
    }
    return parse_root_table(mem, rsdp->rsdt_phys, false, root, pr);
}

const struct acpi_table_ref *acpi_root_find(const struct acpi_root *root, const char *signature)
{
    for (u32 i = 0; i < root->table_count; i++)
        if (root->tables[i].valid && memcmp(root->tables[i].signature, signature, 4) == 0)
            return &root->tables[i];
    return NULL;
}

bool acpi_root_listed(const struct acpi_root *root, const char *signature)
{
    for (u32 i = 0; i < root->table_count; i++)
        if (memcmp(root->tables[i].signature, signature, 5) == 0)
            return true;
    return false;
}

/* ---- MADT ---- */

#define MADT_FIXED_LEN 44u /* ACPI 6.5 5.2.12: header, Local Interrupt Controller Address, Flags */

/* Minimum length of each decoded entry type (ACPI 6.5 5.2.12.2-5.2.12.13); others need only type+length. */
static u32 entry_min_len(u8 type)
{
    switch (type) {
    case ACPI_MADT_LAPIC:
        return 8;
    case ACPI_MADT_IOAPIC:
        return 12;
    case ACPI_MADT_ISO:
        return 10;
    case ACPI_MADT_NMI_SOURCE:
        return 8;
    case ACPI_MADT_LAPIC_NMI:
        return 6;
    case ACPI_MADT_LAPIC_OVERRIDE:
        return 12;
    case ACPI_MADT_X2APIC:
        return 16;
    case ACPI_MADT_X2APIC_NMI:
        return 12;
    default:
        return 2;
    }
}

static const char *entry_name(u8 type)
{
    switch (type) {
    case ACPI_MADT_LAPIC:
        return "Local APIC";
    case ACPI_MADT_IOAPIC:
        return "I/O APIC";
    case ACPI_MADT_ISO:
        return "Interrupt Source Override";
    case ACPI_MADT_NMI_SOURCE:
        return "NMI Source";
    case ACPI_MADT_LAPIC_NMI:
        return "Local APIC NMI";
    case ACPI_MADT_LAPIC_OVERRIDE:
        return "Local APIC Address Override";
    case ACPI_MADT_X2APIC:
        return "Local x2APIC";
    case ACPI_MADT_X2APIC_NMI:
        return "Local x2APIC NMI";
    default:
        return "other";
    }
}

static bool id_is_broadcast(u8 type, u32 apic_id)
{
    return type == ACPI_MADT_LAPIC ? apic_id == ACPI_XAPIC_BROADCAST_ID : apic_id == ACPI_X2APIC_BROADCAST_ID;
}

/* Record one processor entry. Which entry of a repeated ID is kept is decided after the walk
 * (resolve_duplicates), so that the result does not depend on entry order. */
static void add_cpu(struct acpi_madt *m, u8 type, u32 apic_id, u32 uid, u32 flags, u32 off,
                    struct acpi_problems *pr)
{
    m->cpu_total++;
    if (m->cpu_count >= ACPI_MAX_CPUS)
        return; /* reported once after the walk */
    struct acpi_cpu *c = &m->cpus[m->cpu_count++];
    memset(c, 0, sizeof(*c));
    c->apic_id = apic_id;
    c->uid = uid;
    c->flags = flags;
    c->offset = off;
    c->type = type;
    /* ACPI 6.5 5.2.12.2 Local APIC Flags: bit 0 Enabled (start it); bit 1 Online Capable (may be enabled at
     * run time), reserved (zero) before MADT revision 5, so ignored there. 5.2.12.12 uses the same flags. */
    c->enabled = flags & ACPI_LAPIC_FLAG_ENABLED;
    c->online_capable = m->revision >= ACPI_MADT_ONLINE_CAPABLE_REV && (flags & ACPI_LAPIC_FLAG_ONLINE_CAPABLE);
    if (acpi_cpu_absent(c)) {
        m->cpu_absent++; /* firmware often lists absent CPUs with a shared placeholder ID: not a clash */
        return;
    }
    if (id_is_broadcast(type, apic_id)) { /* Linux skips these too (acpi_parse_lapic/acpi_parse_x2apic) */
        c->invalid_id = true;
        m->cpu_invalid++;
        acpi_problem(pr, "MADT entry at offset 0x%x (%s): %s with APIC ID 0x%x, the broadcast ID; ignored", off,
                entry_name(type), c->enabled ? "enabled" : "online-capable", apic_id);
    }
}

static bool cpu_usable(const struct acpi_cpu *c)
{
    return !acpi_cpu_absent(c) && !c->invalid_id;
}

/* Of the usable entries with c's APIC ID, the one to keep: the first enabled one, else the first. */
static const struct acpi_cpu *keeper_of(const struct acpi_madt *m, const struct acpi_cpu *c)
{
    const struct acpi_cpu *first = NULL;
    for (u32 j = 0; j < m->cpu_count; j++) {
        const struct acpi_cpu *o = &m->cpus[j];
        if (!cpu_usable(o) || o->apic_id != c->apic_id)
            continue;
        if (o->enabled)
            return o;
        if (!first)
            first = o;
    }
    return first;
}

/* One APIC ID is one CPU. Firmware repeats IDs (X299 boards list every CPU as both a Local APIC and a
 * Local x2APIC entry, although ACPI 6.5 5.2.12.12 reserves type 9 for IDs >= 255): keep one entry per ID,
 * preferring an enabled one over an online-capable one, and report all repeats in one line. */
static void resolve_duplicates(struct acpi_madt *m, struct acpi_problems *pr)
{
    u32 pairs = 0, shown = 0;
    char eg[64] = "";
    for (u32 i = 0; i < m->cpu_count; i++) {
        struct acpi_cpu *c = &m->cpus[i];
        if (!cpu_usable(c))
            continue;
        const struct acpi_cpu *k = keeper_of(m, c);
        if (k != c) {
            c->duplicate = true;
            m->cpu_duplicates++;
            pairs += k->type != c->type;
            if (shown < 2) {
                size_t n = strlen(eg);
                k_snprintf(eg + n, sizeof(eg) - n, "%sID 0x%x at 0x%x+0x%x", shown ? ", " : "", c->apic_id,
                           MIN(k->offset, c->offset), MAX(k->offset, c->offset));
                shown++;
            }
        } else if (c->enabled) {
            m->cpu_enabled++;
        } else {
            m->cpu_online_capable++;
        }
    }
    if (m->cpu_duplicates)
        acpi_problem(pr, "MADT: %u repeated APIC IDs ignored (%u Local APIC + x2APIC pairs), e.g. %s", m->cpu_duplicates,
                pairs, eg);
}

/* Decode one entry whose length (elen >= entry_min_len(type)) lies inside the table. */
static void decode_entry(struct acpi_madt *m, const u8 *e, u32 off, struct acpi_problems *pr)
{
    switch (e[0]) {
    case ACPI_MADT_LAPIC: /* 5.2.12.2: UID u8 @2, APIC ID u8 @3, flags u32 @4 */
        add_cpu(m, ACPI_MADT_LAPIC, e[3], e[2], acpi_get32(e + 4), off, pr);
        break;
    case ACPI_MADT_X2APIC: /* 5.2.12.12: reserved u16 @2, x2APIC ID u32 @4, flags u32 @8, UID u32 @12 */
        add_cpu(m, ACPI_MADT_X2APIC, acpi_get32(e + 4), acpi_get32(e + 12), acpi_get32(e + 8), off, pr);
        break;
    case ACPI_MADT_IOAPIC: /* 5.2.12.3: ID u8 @2, reserved @3, address u32 @4, GSI base u32 @8 */
        if (m->ioapic_total++ < ACPI_MAX_IOAPICS)
            m->ioapics[m->ioapic_count++] = (struct acpi_ioapic){e[2], acpi_get32(e + 4), acpi_get32(e + 8)};
        break;
    case ACPI_MADT_ISO: /* 5.2.12.5: bus u8 @2, source u8 @3, GSI u32 @4, flags u16 @8 */
        if (m->iso_total++ < ACPI_MAX_ISOS)
            m->isos[m->iso_count++] = (struct acpi_iso){e[2], e[3], acpi_get32(e + 4), acpi_get16(e + 8)};
        break;
    case ACPI_MADT_NMI_SOURCE: /* 5.2.12.6: flags u16 @2, GSI u32 @4 */
        if (m->nmi_source_total++ < ACPI_MAX_NMI_SOURCES)
            m->nmi_sources[m->nmi_source_count++] = (struct acpi_nmi_source){acpi_get32(e + 4), acpi_get16(e + 2)};
        break;
    case ACPI_MADT_LAPIC_NMI: /* 5.2.12.7: UID u8 @2 (0xFF = all), flags u16 @3, LINT# u8 @5 */
        if (m->lapic_nmi_total++ < ACPI_MAX_LAPIC_NMIS)
            m->lapic_nmis[m->lapic_nmi_count++] =
                (struct acpi_lapic_nmi){e[2], acpi_get16(e + 3), e[5], ACPI_MADT_LAPIC_NMI};
        break;
    case ACPI_MADT_X2APIC_NMI: /* 5.2.12.13: flags u16 @2, UID u32 @4 (0xFFFFFFFF = all), LINT# u8 @8 */
        if (m->lapic_nmi_total++ < ACPI_MAX_LAPIC_NMIS)
            m->lapic_nmis[m->lapic_nmi_count++] =
                (struct acpi_lapic_nmi){acpi_get32(e + 4), acpi_get16(e + 2), e[8], ACPI_MADT_X2APIC_NMI};
        break;
    case ACPI_MADT_LAPIC_OVERRIDE: /* 5.2.12.8: reserved u16 @2, 64-bit address @4; at most one */
        if (m->lapic_override) {
            acpi_problem(pr, "MADT entry at offset 0x%x: a second Local APIC Address Override (0x%llx); ignored",
                    off, (ull)acpi_get64(e + 4));
            break;
        }
        m->lapic_override = true;
        m->lapic_addr = acpi_get64(e + 4);
        break;
    default:
        m->other_entries++;
        break;
    }
}

static void report_overflow(struct acpi_problems *pr, u32 total, u32 max, const char *what)
{
    if (total > max)
        acpi_problem(pr, "MADT lists %u %s; only the first %u are kept", total, what, max);
}

bool acpi_madt_parse(const struct phys_window *mem, u64 phys, struct acpi_madt *madt, struct acpi_problems *pr)
{
    struct sdt_header h;
    if (!sdt_check(mem, phys, "APIC", "MADT", MADT_FIXED_LEN, &h, pr))
        return false;
    u8 fixed[8];
    phys_read(mem, phys + sizeof(h), fixed, sizeof(fixed));
    memset(madt, 0, sizeof(*madt));
    madt->phys = phys;
    madt->length = h.length;
    madt->revision = h.revision;
    madt->lapic_addr32 = acpi_get32(fixed);
    madt->lapic_addr = madt->lapic_addr32;
    madt->pcat_compat = acpi_get32(fixed + 4) & ACPI_MADT_PCAT_COMPAT;
    madt->entries_complete = true;

    /* ACPI 6.5 5.2.12: a list of {u8 type, u8 length, ...} structures up to the table's length. */
    const u32 len = h.length;
    u32 off = MADT_FIXED_LEN;
    while (off < len) {
        u8 e[256];
        if (len - off < 2) {
            acpi_problem(pr, "MADT entry at offset 0x%x: 1 stray byte before the table end; ignored", off);
            madt->entries_complete = false;
            break;
        }
        phys_read(mem, phys + off, e, 2);
        const u8 type = e[0], elen = e[1];
        const u32 need = entry_min_len(type);
        if (elen < need || elen > len - off) {
            if (elen < 2)
                acpi_problem(pr, "MADT entry at offset 0x%x (type %u): length %u cannot be; rest of table ignored",
                        off, type, elen);
            else if (elen < need)
                acpi_problem(pr, "MADT entry at offset 0x%x (%s): length %u < its %u bytes; rest of table ignored",
                        off, entry_name(type), elen, need);
            else
                acpi_problem(pr, "MADT entry at offset 0x%x (type %u): length %u runs past the table end (%u); "
                            "rest ignored",
                        off, type, elen, len);
            madt->entries_complete = false;
            break;
        }
        phys_read(mem, phys + off, e, elen);
        decode_entry(madt, e, off, pr);
        off += elen;
    }

    resolve_duplicates(madt, pr);
    report_overflow(pr, madt->cpu_total, ACPI_MAX_CPUS, "processors");
    report_overflow(pr, madt->ioapic_total, ACPI_MAX_IOAPICS, "I/O APICs");
    report_overflow(pr, madt->iso_total, ACPI_MAX_ISOS, "interrupt source overrides");
    report_overflow(pr, madt->nmi_source_total, ACPI_MAX_NMI_SOURCES, "NMI sources");
    if (madt->cpu_total == 0)
        acpi_problem(pr, "MADT at 0x%llx lists no processor (no Local APIC or x2APIC entry)", (ull)phys);
    else if (madt->cpu_enabled == 0)
        acpi_problem(pr, "MADT at 0x%llx: none of its %u processors is enabled", (ull)phys, madt->cpu_total);
    return true;
}

/* ---- FADT and HPET ---- */

#define FADT_V1_LEN 116u         /* ACPI 1.0 FADT: up to and including Flags */
#define FADT_PM_TMR_BLK 76u      /* ACPI 6.5 Table 5.9: u32 I/O port */
#define FADT_PM_TMR_LEN 91u      /* u8: 4 when the PM timer is supported, else 0 */
#define FADT_CENTURY 108u        /* u8: the RTC CMOS index of the century, 0 when there is none (ACPI 6.5 Table 5.9) */
#define FADT_FLAGS 112u          /* u32 */
#define FADT_X_PM_TMR_BLK 208u   /* GAS, ACPI 2.0+ */
#define GAS_LEN 12u              /* ACPI 6.5 5.2.3.2: space, bit width, bit offset, access size, u64 address */

static const char *gas_space_name(u8 space)
{
    return space == ACPI_GAS_SYSTEM_MEMORY ? "system memory" : space == ACPI_GAS_SYSTEM_IO ? "system I/O" : "other";
}

/* The PM timer at an I/O address from one of the two fields; false (reported) when it cannot be used. */
static bool pm_timer_port(struct acpi_fadt *f, u64 port, const char *field, struct acpi_problems *pr)
{
    if (port > 0xFFFF) {
        acpi_problem(pr, "FADT %s: I/O port 0x%llx above 0xFFFF; PM timer not used", field, (ull)port);
        return false;
    }
    f->pm_timer = true;
    f->pm_timer_port = (u16)port;
    f->pm_timer_field = field;
    return true;
}

bool acpi_fadt_parse(const struct phys_window *mem, u64 phys, struct acpi_fadt *fadt, struct acpi_problems *pr)
{
    struct sdt_header h;
    if (!sdt_check(mem, phys, "FACP", "FADT", FADT_V1_LEN, &h, pr))
        return false;
    u8 b[FADT_X_PM_TMR_BLK + GAS_LEN];
    const u32 have = MIN(h.length, (u32)sizeof(b));
    phys_read(mem, phys, b, have); /* inside the checked table */
    struct acpi_fadt f;
    memset(&f, 0, sizeof(f));
    f.phys = phys;
    f.length = h.length;
    f.revision = h.revision;
    f.flags = acpi_get32(b + FADT_FLAGS);
    f.century = b[FADT_CENTURY];
    memcpy(f.oem_id, b + 10, 6); /* the SDT header's OEM ID (ACPI 6.5 Table 5.4) */
    f.pm_timer_bits = (f.flags & ACPI_FADT_TMR_VAL_EXT) ? 32 : 24; /* ACPI 6.5 4.8.3.3 */
    const u32 legacy = acpi_get32(b + FADT_PM_TMR_BLK);
    const u8 legacy_len = b[FADT_PM_TMR_LEN];
    if (f.flags & ACPI_FADT_HW_REDUCED) { /* ACPI 6.5 4.1: no fixed hardware; the PM timer fields are ignored */
        k_snprintf(f.no_pm_timer, sizeof(f.no_pm_timer), "HW-reduced ACPI (FADT flag HW_REDUCED_ACPI): no PM timer");
        *fadt = f;
        return true;
    }
    if (have >= FADT_X_PM_TMR_BLK + GAS_LEN && acpi_get64(b + FADT_X_PM_TMR_BLK + 4) != 0) {
        const u8 *g = b + FADT_X_PM_TMR_BLK;
        const u64 addr = acpi_get64(g + 4);
        if (g[0] != ACPI_GAS_SYSTEM_IO) {
            acpi_problem(pr, "FADT X_PM_TMR_BLK at 0x%llx is in %s space (ID %u), not system I/O; PM timer not used",
                    (ull)addr, gas_space_name(g[0]), g[0]);
            k_snprintf(f.no_pm_timer, sizeof(f.no_pm_timer), "X_PM_TMR_BLK not in system I/O space");
        } else if (pm_timer_port(&f, addr, "X_PM_TMR_BLK", pr) && legacy && legacy != addr) {
            /* ACPI 6.5 Table 5.9: X_PM_TMR_BLK supersedes PM_TMR_BLK when not zero */
            acpi_problem(pr, "FADT: X_PM_TMR_BLK 0x%llx and PM_TMR_BLK 0x%x differ; X_PM_TMR_BLK used", (ull)addr,
                    legacy);
        }
    } else if (legacy == 0 || legacy_len == 0) {
        k_snprintf(f.no_pm_timer, sizeof(f.no_pm_timer), "FADT PM_TMR_BLK 0x%x, PM_TMR_LEN %u: no PM timer", legacy,
                   legacy_len);
    } else if (legacy_len != 4) { /* Table 5.9: "If the PM Timer is supported, this field's value must be 4" */
        acpi_problem(pr, "FADT PM_TMR_BLK 0x%x with PM_TMR_LEN %u, not 4; PM timer not used", legacy, legacy_len);
        k_snprintf(f.no_pm_timer, sizeof(f.no_pm_timer), "PM_TMR_LEN %u, not 4", legacy_len);
    } else {
        pm_timer_port(&f, legacy, "PM_TMR_BLK", pr);
    }
    if (!f.pm_timer && !f.no_pm_timer[0])
        k_snprintf(f.no_pm_timer, sizeof(f.no_pm_timer), "FADT PM timer field unusable (see problems)");
    *fadt = f;
    return true;
}

#define HPET_TABLE_LEN 56u /* IA-PC HPET 1.0a Table 3: header, Block ID, GAS, number, min tick, attribute */
#define HPET_BLOCK_ALIGN 1024u

bool acpi_hpet_parse(const struct phys_window *mem, u64 phys, struct acpi_hpet *hpet, struct acpi_problems *pr)
{
    struct sdt_header h;
    if (!sdt_check(mem, phys, "HPET", "HPET table", HPET_TABLE_LEN, &h, pr))
        return false;
    u8 b[HPET_TABLE_LEN];
    phys_read(mem, phys, b, sizeof(b));
    const u8 *g = b + 40; /* Base Address: GAS */
    const u64 addr = acpi_get64(g + 4);
    if (g[0] != ACPI_GAS_SYSTEM_MEMORY) {
        acpi_problem(pr, "HPET table at 0x%llx: base address 0x%llx in %s space (ID %u), not system memory; not used",
                (ull)phys, (ull)addr, gas_space_name(g[0]), g[0]);
        return false;
    }
    if (addr == 0 || addr % HPET_BLOCK_ALIGN) {
        acpi_problem(pr, "HPET table at 0x%llx: base address 0x%llx is %s; not used", (ull)phys, (ull)addr,
                addr ? "not 1 KiB aligned" : "0");
        return false;
    }
    memset(hpet, 0, sizeof(*hpet));
    hpet->phys = phys;
    hpet->length = h.length;
    hpet->block_id = acpi_get32(b + 36);
    hpet->address = addr;
    hpet->number = b[52];
    hpet->min_tick = acpi_get16(b + 53);
    return true;
}

/* ---- Formatting ---- */

enum cpu_class { CPU_ENABLED, CPU_ONLINE_CAPABLE, CPU_ABSENT };

static bool cpu_in_class(const struct acpi_cpu *c, enum cpu_class k)
{
    switch (k) {
    case CPU_ENABLED:
        return c->enabled && !c->duplicate && !c->invalid_id;
    case CPU_ONLINE_CAPABLE:
        return !c->enabled && c->online_capable && !c->duplicate && !c->invalid_id;
    default:
        return acpi_cpu_absent(c);
    }
}

static bool seen_before(const struct acpi_madt *m, u32 i, enum cpu_class k)
{
    for (u32 j = 0; j < i; j++)
        if (m->cpus[j].apic_id == m->cpus[i].apic_id && cpu_in_class(&m->cpus[j], k))
            return true;
    return false;
}

/* APIC IDs of one class in table order, consecutive runs folded: "0-3,8,10-11". An ID listed by several
 * entries (placeholders: 36 absent entries of ID 255 on X299 boards) appears once, with its count. */
static void format_ids(struct strbuf *sb, const struct acpi_madt *m, enum cpu_class k)
{
    bool first = true;
    for (u32 i = 0; i < m->cpu_count;) {
        if (!cpu_in_class(&m->cpus[i], k) || seen_before(m, i, k)) {
            i++;
            continue;
        }
        u32 times = 0;
        for (u32 j = i; j < m->cpu_count; j++)
            times += m->cpus[j].apic_id == m->cpus[i].apic_id && cpu_in_class(&m->cpus[j], k);
        if (times > 1) {
            sb_printf(sb, "%s%u (%u entries)", first ? "" : ",", m->cpus[i].apic_id, times);
            first = false;
            i++;
            continue;
        }
        u32 lo = m->cpus[i].apic_id, hi = lo, j = i + 1;
        while (j < m->cpu_count && cpu_in_class(&m->cpus[j], k) && hi != 0xFFFFFFFFu &&
               m->cpus[j].apic_id == hi + 1)
            hi = m->cpus[j++].apic_id;
        if (lo == hi)
            sb_printf(sb, "%s%u", first ? "" : ",", lo);
        else
            sb_printf(sb, "%s%u-%u", first ? "" : ",", lo, hi);
        first = false;
        i = j;
    }
}

static const char *polarity_name(u16 flags)
{
    static const char *const names[] = {"", "high", "pol?", "low"}; /* 5.2.12.5 MPS INTI flags 1:0 */
    return names[flags & 3];
}

static const char *trigger_name(u16 flags)
{
    static const char *const names[] = {"", "edge", "trig?", "level"}; /* bits 3:2 */
    return names[(flags >> 2) & 3];
}

void acpi_madt_format(const struct acpi_madt *m, struct strbuf *sb)
{
    sb_printf(sb, "MADT rev %u at 0x%llx (%u bytes): local APIC 0x%llx%s, %s\n", m->revision, (ull)m->phys,
              m->length, (ull)m->lapic_addr, m->lapic_override ? " (override entry)" : "",
              m->pcat_compat ? "PCAT_COMPAT (8259s present)" : "no 8259s");

    u32 x2 = 0;
    for (u32 i = 0; i < m->cpu_count; i++)
        x2 += m->cpus[i].type == ACPI_MADT_X2APIC;
    sb_printf(sb, "CPUs: %u listed (%u x2APIC entries); enabled %u: IDs ", m->cpu_total, x2, m->cpu_enabled);
    format_ids(sb, m, CPU_ENABLED);
    if (m->cpu_online_capable) {
        sb_printf(sb, "; online-capable %u: IDs ", m->cpu_online_capable);
        format_ids(sb, m, CPU_ONLINE_CAPABLE);
    }
    if (m->cpu_absent) {
        sb_printf(sb, "; absent %u: IDs ", m->cpu_absent);
        format_ids(sb, m, CPU_ABSENT);
    }
    if (m->cpu_duplicates)
        sb_printf(sb, "; %u duplicate IDs ignored", m->cpu_duplicates);
    if (m->cpu_invalid)
        sb_printf(sb, "; %u invalid IDs ignored", m->cpu_invalid);
    if (m->cpu_total > m->cpu_count)
        sb_printf(sb, "; %u not kept", m->cpu_total - m->cpu_count);
    sb_printf(sb, "\n");

    sb_printf(sb, "I/O APICs: %u", m->ioapic_total);
    for (u32 i = 0; i < m->ioapic_count; i++)
        sb_printf(sb, "%s id %u at 0x%x GSI %u", i ? "," : ":", m->ioapics[i].id, m->ioapics[i].address,
                  m->ioapics[i].gsi_base);
    sb_printf(sb, "; overrides: %u", m->iso_total);
    for (u32 i = 0; i < m->iso_count; i++) {
        const struct acpi_iso *o = &m->isos[i];
        sb_printf(sb, "%s %sIRQ%u->GSI%u", i ? "," : ":", o->bus ? "bus? " : "", o->source, o->gsi);
        if (o->flags & 0xF)
            sb_printf(sb, " %s%s%s", polarity_name(o->flags), (o->flags & 3) && (o->flags & 0xC) ? " " : "",
                      trigger_name(o->flags));
    }
    sb_printf(sb, "\n");

    sb_printf(sb, "NMIs: %u local APIC", m->lapic_nmi_total);
    for (u32 i = 0; i < m->lapic_nmi_count; i++) {
        const struct acpi_lapic_nmi *n = &m->lapic_nmis[i];
        bool all = n->type == ACPI_MADT_LAPIC_NMI ? n->uid == 0xFF : n->uid == 0xFFFFFFFFu;
        if (all)
            sb_printf(sb, "%s all CPUs LINT%u", i ? "," : ":", n->lint);
        else
            sb_printf(sb, "%s UID %u LINT%u", i ? "," : ":", n->uid, n->lint);
    }
    sb_printf(sb, "; %u NMI sources", m->nmi_source_total);
    for (u32 i = 0; i < m->nmi_source_count; i++)
        sb_printf(sb, "%s GSI %u", i ? "," : ":", m->nmi_sources[i].gsi);
    sb_printf(sb, "; %u other entries%s\n", m->other_entries,
              m->entries_complete ? "" : "; walk stopped at a malformed entry");
}

/* ---- Everything at once ---- */

/* Why there is no RSDP, by how the kernel was loaded: the advice differs. GRUB's multiboot1 under BIOS finds the
 * RSDP by the BIOS-area scan on any ACPI machine, so GRUB without one is GRUB under UEFI; the other multiboot1
 * loaders (QEMU -kernel, iPXE) are BIOS-only, so there the machine has no ACPI tables in the BIOS area. */
static const char *no_rsdp_reason(const struct boot_info *bi)
{
    if (bi && bi->protocol == BOOT_PROTO_MULTIBOOT1)
        return bi->has_loader && !strncmp(bi->loader, "GRUB", 4)
                   ? ACPI_NO_RSDP_MB1
                   : "no ACPI RSDP: the multiboot1 loader passes none and the BIOS area holds none (no ACPI tables)";
    if (bi && (bi->rsdp_v1_phys || bi->rsdp_v2_phys))
        return "no ACPI RSDP: the multiboot2 ACPI tags hold no valid one (smp/acpi_tables), none in the BIOS area";
    if (bi && bi->protocol == BOOT_PROTO_MULTIBOOT2)
        return "no ACPI RSDP: the multiboot2 loader passed no ACPI tag and none is in the BIOS area";
    return "no ACPI RSDP: none in the BIOS area";
}

u32 acpi_discover(struct acpi_info *ai, const struct phys_window *mem, const struct boot_info *bi)
{
    struct acpi_problems *pr = &ai->problems;
    memset(ai, 0, sizeof(*ai));
    if (bi && bi->rsdp_v2_phys && acpi_rsdp_parse(mem, bi->rsdp_v2_phys, bi->rsdp_v2_len, &ai->rsdp, pr)) {
        ai->has_rsdp = true;
        ai->rsdp_source = "multiboot2 new RSDP tag";
    }
    if (!ai->has_rsdp && bi && bi->rsdp_v1_phys &&
        acpi_rsdp_parse(mem, bi->rsdp_v1_phys, bi->rsdp_v1_len, &ai->rsdp, pr)) {
        ai->has_rsdp = true;
        ai->rsdp_source = "multiboot2 old RSDP tag";
    }
    if (!ai->has_rsdp && acpi_rsdp_scan(mem, &ai->rsdp, pr)) {
        ai->has_rsdp = true;
        ai->rsdp_source = "BIOS area scan";
    }
    if (!ai->has_rsdp) {
        ai->no_rsdp = no_rsdp_reason(bi);
        return pr->count;
    }

    ai->has_root = acpi_root_parse(mem, &ai->rsdp, &ai->root, pr);
    if (!ai->has_root)
        return pr->count;

    const struct acpi_table_ref *t = acpi_root_find(&ai->root, "APIC");
    if (!t) {
        acpi_problem(pr, "no valid MADT (\"APIC\") listed in the %s at 0x%llx", ai->root.is_xsdt ? "XSDT" : "RSDT",
                (ull)ai->root.phys);
        return pr->count;
    }
    ai->has_madt = acpi_madt_parse(mem, t->phys, &ai->madt, pr);
    return pr->count;
}

void acpi_format(const struct acpi_info *ai, struct strbuf *sb)
{
    if (!ai->has_rsdp) {
        sb_printf(sb, "ACPI: no RSDP\n");
        return;
    }
    const struct acpi_rsdp *r = &ai->rsdp;
    sb_printf(sb, "RSDP rev %u \"%s\" at 0x%llx via %s: RSDT 0x%x", r->revision, r->oem_id, (ull)r->phys,
              ai->rsdp_source ? ai->rsdp_source : "caller", r->rsdt_phys);
    if (r->revision >= 2)
    {
        if (r->v1_part_only)
            sb_printf(sb, ", XSDT unknown (20-byte copy)");
        else
            sb_printf(sb, ", XSDT 0x%llx", (ull)r->xsdt_phys);
    }
    sb_printf(sb, "\n");
    if (!ai->has_root)
        return;
    const struct acpi_root *rt = &ai->root;
    sb_printf(sb, "%s at 0x%llx (%u bytes), %u tables:", rt->is_xsdt ? "XSDT" : "RSDT", (ull)rt->phys, rt->length,
              rt->entry_count);
    for (u32 i = 0; i < rt->table_count; i++)
        sb_printf(sb, " %s%s", rt->tables[i].signature, rt->tables[i].valid ? "" : "(bad)");
    sb_printf(sb, "\n");
    if (ai->has_madt)
        acpi_madt_format(&ai->madt, sb);
}

enum acpi_lookup acpi_table_lookup(const struct acpi_info *ai, const char *signature, u64 *phys,
                                   struct acpi_problems *pr)
{
    if (!ai->has_rsdp || !ai->has_root)
        return ACPI_LOOKUP_NO_ACPI;
    const struct acpi_table_ref *t = acpi_root_find(&ai->root, signature);
    if (!t) {
        if (!acpi_root_listed(&ai->root, signature))
            return ACPI_LOOKUP_ABSENT;
        acpi_problem(pr, "%s: listed, but its header or checksum is wrong", signature);
        return ACPI_LOOKUP_BAD;
    }
    *phys = t->phys;
    return ACPI_LOOKUP_FOUND;
}
