/* pmuboot's records in an ACPI ERST store (see erst_records.h). */
#include "lib/erst_records.h"

#include <stdarg.h>
#include <string.h>

typedef unsigned long long ull; /* for %llx */

PRINTF_LIKE(2, 3) static bool error(struct erst_records *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    k_vsnprintf(s->error, sizeof(s->error), fmt, ap);
    va_end(ap);
    return false;
}

/* The store failed (the reason in dev.why): said now and by every later call. */
static bool broke(struct erst_records *s)
{
    s->failed = true;
    k_snprintf(s->failure, sizeof(s->failure), "%s", s->dev.why);
    return error(s, "ACPI ERST: %s; the store is not used again", s->failure);
}

bool erst_records_open(struct erst_records *s, const struct acpi_erst *t, const struct erst_io *io,
                       const struct boot_info *bi, erst_map_fn *map)
{
    memset(s, 0, sizeof(*s));
    s->dev.table = t;
    s->dev.io = io;
    if (!erst_get_range(&s->dev, &s->range))
        return broke(s);
    const char *no = erst_range_problem(&s->range, CPER_PMUBOOT_MAX_LEN, bi);
    if (!no && !(s->range_mem = map(io->ctx, s->range.base, s->range.size, &no)) && !no)
        no = "its Error Log Address Range cannot be reached";
    if (no) {
        k_snprintf(s->dev.why, sizeof(s->dev.why), "%s (0x%llx, %llu bytes, attributes 0x%x)", no,
                   (ull)s->range.base, (ull)s->range.size, s->range.attributes);
        return broke(s);
    }
    return true;
}

bool erst_records_describe(struct erst_records *s, struct strbuf *sb)
{
    u64 count = 0, id, first = ERST_ID_NONE, prev = ERST_ID_NONE;
    if (s->failed)
        return error(s, "ACPI ERST failed earlier (%s)", s->failure);
    if (!erst_record_count(&s->dev, &count)) {
        sb_printf(sb, "record count unknown (%s)", s->dev.why);
        return true;
    }
    sb_printf(sb, "%llu record%s in the store", (ull)count, count == 1 ? "" : "s");
    u32 ours = 0, ends = 0;
    char ids[100] = "";
    struct strbuf ib;
    sb_init(&ib, ids, sizeof(ids));
    /* The walk may start where an earlier one stopped: on past its end ("none", after which it starts again) once,
     * until it has given `count` identifiers or comes back to the first (1024: Linux's ERST_RECORD_ID_CACHE_SIZE_MAX).
     */
    for (u64 seen = 0, i = 0; seen < count && i < 2 * 1024; i++) {
        if (!erst_next_record_id(&s->dev, &id))
            return broke(s);
        if (id == ERST_ID_NONE) {
            if (++ends == 2)
                break;
            continue;
        }
        if (id == first || id == prev)
            break;
        if (first == ERST_ID_NONE)
            first = id;
        prev = id;
        seen++;
        if (cper_pmuboot_id(id))
            sb_printf(&ib, "%s0x%llx", ours++ ? ", " : "", (ull)id);
    }
    if (ours)
        sb_printf(sb, ", %u of them pmuboot's (%s)", ours, ids);
    else
        sb_printf(sb, ", none of them pmuboot's");
    return true;
}

static bool ready(struct erst_records *s, u64 id, u32 len)
{
    if (s->failed)
        return error(s, "ACPI ERST failed earlier (%s): not used again", s->failure);
    if (!cper_pmuboot_id(id))
        return error(s, "record 0x%llx is not one of pmuboot's identifiers (lib/cper.h)", (ull)id);
    if (len > CPER_PMUBOOT_MAX_PAYLOAD)
        return error(s, "a payload of %u bytes, at most %u", len, CPER_PMUBOOT_MAX_PAYLOAD);
    return true;
}

/* The stored record id: 1 with its payload, 0 when none is stored, -1 when it is not pmuboot's layout or the store
 * failed (s->failed says which); the reason in s->error. */
static int fetch(struct erst_records *s, u64 id, u8 *payload, u32 len)
{
    u32 got = 0;
    switch (erst_get_record(&s->dev, &s->range, s->range_mem, id, s->rec, sizeof(s->rec), &got)) {
    case ERST_NO_RECORD:
        error(s, "ACPI ERST: no record 0x%llx (%s)", (ull)id, s->dev.why);
        return 0;
    case ERST_FAILED:
        broke(s);
        return -1;
    case ERST_DONE:
        break;
    }
    char why[ERST_WHY_LEN];
    if (cper_pmuboot_decode(s->rec, got, id, payload, len, why, sizeof(why))) {
        error(s, "ACPI ERST: %s", why);
        return -1;
    }
    return 1;
}

bool erst_records_read(struct erst_records *s, u64 id, u8 *payload, u32 len)
{
    return ready(s, id, len) && fetch(s, id, payload, len) == 1;
}

bool erst_records_write(struct erst_records *s, u64 id, const u8 *payload, u32 len)
{
    u8 back[CPER_PMUBOOT_MAX_PAYLOAD];
    if (!ready(s, id, len))
        return false;
    int had = fetch(s, id, back, len);
    if (s->failed)
        return false;
    if (had == 1 && !memcmp(back, payload, len))
        return true;
    if (had != 0 && erst_clear(&s->dev, id) == ERST_FAILED)
        return broke(s);
    cper_pmuboot_encode(id, payload, len, s->rec);
    if (erst_put_record(&s->dev, &s->range, s->range_mem, s->rec, cper_pmuboot_len(len)) != ERST_DONE)
        return broke(s);
    int now = fetch(s, id, back, len);
    if (now == 1 && !memcmp(back, payload, len))
        return true;
    if (s->failed)
        return false;
    k_snprintf(s->dev.why, sizeof(s->dev.why), "record 0x%llx read back %s after its write%s%s", (ull)id,
               now == 0 ? "absent" : now == 1 ? "different" : "unusable", now < 0 ? ": " : "",
               now < 0 ? s->error : "");
    return broke(s);
}

bool erst_records_clear(struct erst_records *s, u64 id)
{
    if (!ready(s, id, 0))
        return false;
    return erst_clear(&s->dev, id) != ERST_FAILED || broke(s);
}
