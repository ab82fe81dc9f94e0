/* CPUID dump parser (formats in cpuid_dump.h). Strict about lines that claim to be CPUID data, silent about
 * everything else: real dumps carry pages of commentary (AIDA64 adds motherboard, MSR and cache sections). */
#include "pmu/cpuid_dump.h"

#include <string.h>
#include "lib/format.h"

struct cursor {
    const char *p, *end;
};

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t';
}

static void skip_blanks(struct cursor *c)
{
    while (c->p < c->end && is_blank(*c->p))
        c->p++;
}

static bool at_end_or_blank(const struct cursor *c)
{
    return c->p == c->end || is_blank(*c->p);
}

static bool take(struct cursor *c, const char *s)
{
    size_t n = strlen(s);
    if ((size_t)(c->end - c->p) < n || memcmp(c->p, s, n) != 0)
        return false;
    c->p += n;
    return true;
}

/* Hex number of min..max digits; the digit run must end there (a 9th digit is an error, not ignored). */
static bool take_hex(struct cursor *c, unsigned min, unsigned max, u32 *out)
{
    unsigned n = 0;
    u32 v = 0;
    while (c->p < c->end && hexval(*c->p) >= 0) {
        if (n == max)
            return false;
        v = (v << 4) | (u32)hexval(*c->p);
        c->p++;
        n++;
    }
    *out = v;
    return n >= min;
}

static void fail(struct cpuid_dump *d, u32 line, const char *msg)
{
    d->err_line = line;
    k_snprintf(d->err, sizeof(d->err), "%s", msg);
}

void cpuid_dump_init(struct cpuid_dump *d)
{
    memset(d, 0, sizeof(*d));
}

static struct cpuid_dump_entry *find(const struct cpuid_dump *d, u32 leaf, u32 subleaf)
{
    for (u32 i = 0; i < d->count; i++)
        if (d->entries[i].leaf == leaf && d->entries[i].subleaf == subleaf)
            return (struct cpuid_dump_entry *)&d->entries[i];
    return NULL;
}

bool cpuid_dump_set(struct cpuid_dump *d, u32 leaf, u32 subleaf, u32 eax, u32 ebx, u32 ecx, u32 edx)
{
    struct cpuid_dump_entry *e = find(d, leaf, subleaf);
    if (!e) {
        if (d->count == CPUID_DUMP_MAX_ENTRIES)
            return false;
        e = &d->entries[d->count++];
        e->leaf = leaf;
        e->subleaf = subleaf;
    }
    e->r = (struct cpuid_regs){eax, ebx, ecx, edx};
    return true;
}

bool cpuid_dump_lookup(const struct cpuid_dump *d, u32 leaf, u32 subleaf, struct cpuid_regs *r)
{
    const struct cpuid_dump_entry *e = find(d, leaf, subleaf);
    if (!e)
        return false;
    *r = e->r;
    return true;
}

static bool dump_query(void *ctx, u32 leaf, u32 subleaf, struct cpuid_regs *r)
{
    return cpuid_dump_lookup(ctx, leaf, subleaf, r);
}

void cpuid_dump_source(const struct cpuid_dump *d, struct cpuid_source *src)
{
    src->query = dump_query;
    src->ctx = (void *)d;
}

/* One decoded data line. has_subleaf is false for AIDA lines without an [SL nn] tag. */
struct data_line {
    u32 leaf, subleaf;
    bool has_subleaf;
    u32 regs[4];
};

enum line_kind { LINE_OTHER, LINE_DATA, LINE_BAD };

/* `cpuid -r`: "0x0000000a 0x00: eax=0x07300404 ebx=0x00000000 ecx=0x00000000 edx=0x00000603" */
static enum line_kind parse_raw(struct cursor *c, struct data_line *dl, const char **why)
{
    static const char *const names[4] = {"eax=0x", "ebx=0x", "ecx=0x", "edx=0x"};
    *why = "expected `0xLLLLLLLL 0xSS: eax=0x........ ebx=0x........ ecx=0x........ edx=0x........`";
    if (!take(c, "0x") || !take_hex(c, 8, 8, &dl->leaf) || !at_end_or_blank(c))
        return LINE_BAD;
    skip_blanks(c);
    if (!take(c, "0x") || !take_hex(c, 1, 8, &dl->subleaf) || !take(c, ":"))
        return LINE_BAD;
    dl->has_subleaf = true;
    for (int i = 0; i < 4; i++) {
        skip_blanks(c);
        if (!take(c, names[i]) || !take_hex(c, 8, 8, &dl->regs[i]) || !at_end_or_blank(c)) {
            *why = i == 0 ? "missing or malformed eax=0x........ (8 hex digits)"
                 : i == 1 ? "missing or malformed ebx=0x........ (8 hex digits)"
                 : i == 2 ? "missing or malformed ecx=0x........ (8 hex digits)"
                          : "missing or malformed edx=0x........ (8 hex digits)";
            return LINE_BAD;
        }
    }
    skip_blanks(c);
    if (c->p != c->end) {
        *why = "unexpected text after edx";
        return LINE_BAD;
    }
    return LINE_DATA;
}

/* AIDA64 tail after "CPUID LLLLLLLL:": " EAX-EBX-ECX-EDX [SL nn] [comments]" */
static enum line_kind parse_aida(struct cursor *c, struct data_line *dl, const char **why)
{
    skip_blanks(c);
    for (int i = 0; i < 4; i++) {
        if ((i > 0 && !take(c, "-")) || !take_hex(c, 8, 8, &dl->regs[i])) {
            *why = "expected four 8-digit hex registers EAX-EBX-ECX-EDX";
            return LINE_BAD;
        }
    }
    if (!at_end_or_blank(c)) {
        *why = "garbage right after EDX";
        return LINE_BAD;
    }
    dl->has_subleaf = false;
    /* The subleaf tag, wherever it stands among the bracketed comments. */
    while (c->p < c->end) {
        skip_blanks(c);
        if (take(c, "[SL")) {
            skip_blanks(c);
            if (!take_hex(c, 1, 8, &dl->subleaf) || !take(c, "]")) {
                *why = "malformed subleaf tag (expected [SL hh])";
                return LINE_BAD;
            }
            dl->has_subleaf = true;
        } else if (c->p < c->end) {
            c->p++;
        }
    }
    return LINE_DATA;
}

/* "CPUID LLLLLLLL:SS = EAX EBX ECX EDX | ascii" */
static enum line_kind parse_colon(struct cursor *c, struct data_line *dl, const char **why)
{
    *why = "expected `CPUID LLLLLLLL:SS = EAX EBX ECX EDX` with 8-digit hex registers";
    if (!take_hex(c, 1, 8, &dl->subleaf))
        return LINE_BAD;
    dl->has_subleaf = true;
    skip_blanks(c);
    if (!take(c, "="))
        return LINE_BAD;
    for (int i = 0; i < 4; i++) {
        skip_blanks(c);
        if (!take_hex(c, 8, 8, &dl->regs[i]) || !at_end_or_blank(c))
            return LINE_BAD;
    }
    skip_blanks(c);
    if (c->p != c->end && *c->p != '|') {
        *why = "unexpected text after EDX";
        return LINE_BAD;
    }
    return LINE_DATA;
}

static enum line_kind classify(const char *p, const char *end, struct data_line *dl, const char **why)
{
    struct cursor c = {p, end};
    skip_blanks(&c);
    if (c.end - c.p >= 2 && c.p[0] == '0' && c.p[1] == 'x')
        return parse_raw(&c, dl, why);
    if (!take(&c, "CPUID") || !at_end_or_blank(&c))
        return LINE_OTHER;
    skip_blanks(&c);
    /* Only "CPUID <hex>:" is data; "CPUID Manufacturer:" or "CPUID CPU Name :" are AIDA labels. */
    struct cursor probe = c;
    while (probe.p < probe.end && hexval(*probe.p) >= 0)
        probe.p++;
    if (probe.p == c.p || probe.p == probe.end || *probe.p != ':')
        return LINE_OTHER;
    *why = "leaf must be 8 hex digits";
    if (!take_hex(&c, 8, 8, &dl->leaf) || !take(&c, ":"))
        return LINE_BAD;
    if (c.p < c.end && hexval(*c.p) >= 0)
        return parse_colon(&c, dl, why);
    return parse_aida(&c, dl, why);
}

bool cpuid_dump_parse(struct cpuid_dump *d, const char *text, size_t len, u32 cpu)
{
    cpuid_dump_init(d);
    d->cpu = cpu;
    const char *p = text, *end = text + len;
    u32 line_no = 0, cur_cpu = 0, lines_in_cpu = 0, data_lines = 0;
    u32 prev_leaf = 0, prev_subleaf = 0;
    bool have_prev = false;

    while (p < end) {
        const char *nl = p;
        while (nl < end && *nl != '\n')
            nl++;
        const char *stop = nl;
        line_no++;
        while (stop > p && (stop[-1] == '\r' || is_blank(stop[-1])))
            stop--;
        struct data_line dl = {0};
        const char *why = "";
        enum line_kind k = classify(p, stop, &dl, &why);
        p = nl < end ? nl + 1 : end;
        if (k == LINE_OTHER)
            continue;
        if (k == LINE_BAD) {
            fail(d, line_no, why);
            return false;
        }
        data_lines++;
        if (dl.leaf == 0 && (!dl.has_subleaf || dl.subleaf == 0) && lines_in_cpu > 0) {
            cur_cpu++; /* every dump starts a logical CPU with leaf 0 */
            lines_in_cpu = 0;
            have_prev = false;
        }
        if (!dl.has_subleaf)
            dl.subleaf = (have_prev && prev_leaf == dl.leaf) ? prev_subleaf + 1 : 0;
        lines_in_cpu++;
        prev_leaf = dl.leaf;
        prev_subleaf = dl.subleaf;
        have_prev = true;
        if (cur_cpu != cpu)
            continue;
        if (find(d, dl.leaf, dl.subleaf)) {
            char msg[96];
            k_snprintf(msg, sizeof(msg), "CPUID 0x%08x subleaf 0x%x appears twice for logical CPU %u", dl.leaf,
                       dl.subleaf, cpu);
            fail(d, line_no, msg);
            return false;
        }
        if (!cpuid_dump_set(d, dl.leaf, dl.subleaf, dl.regs[0], dl.regs[1], dl.regs[2], dl.regs[3])) {
            fail(d, line_no, "too many CPUID lines for one logical CPU (limit CPUID_DUMP_MAX_ENTRIES)");
            return false;
        }
    }
    if (data_lines == 0) {
        fail(d, 0, "no CPUID data lines found (expected `cpuid -r` lines \"0x0000000a 0x00: eax=...\" or "
                   "AIDA64 lines \"CPUID 0000000A: ...\")");
        return false;
    }
    d->cpus_seen = cur_cpu + 1;
    if (cpu >= d->cpus_seen) {
        char msg[96];
        k_snprintf(msg, sizeof(msg), "logical CPU %u requested but the dump holds %u", cpu, d->cpus_seen);
        fail(d, 0, msg);
        return false;
    }
    return true;
}
