/* The hang record (see hang_record.h). */
#include "lib/hang_record.h"

#include <string.h>

#include "lib/cmos_slot.h"

#define MAGIC0 'P'
#define MAGIC1 'H'
#define VERSION 2
#define STATE_MASK 0x0f
#define NOT_WATCHDOG_SHIFT 4 /* bits 4-5 of byte 3: skip_not_watchdog[0..1] */

/* Bytes: 0-1 magic "PH", 2 version, 3 state (bits 0-3) and the skips' not-the-watchdog flags (bits 4-5), 4 boots,
 * 5-6 the place, 7 APIC ID, 8 seconds, 9 skips, 10-13 the skipped places, 14 the run's id, 15 a checksum that makes
 * the 16 bytes sum to 0 (as the reset record's). */
void hang_record_encode(const struct hang_record *r, u8 out[HANG_RECORD_BYTES])
{
    memset(out, 0, HANG_RECORD_BYTES);
    out[0] = MAGIC0;
    out[1] = MAGIC1;
    out[2] = VERSION;
    out[3] = r->state & STATE_MASK;
    for (u32 i = 0; i < HANG_MAX_SKIPS; i++)
        if (r->skip_not_watchdog[i])
            out[3] |= (u8)(1u << (NOT_WATCHDOG_SHIFT + i));
    out[4] = r->boots;
    out[5] = r->at.suite;
    out[6] = r->at.check;
    out[7] = r->cpu_apic_id;
    out[8] = r->seconds;
    out[9] = r->nskip;
    for (u32 i = 0; i < HANG_MAX_SKIPS; i++) {
        out[10 + 2 * i] = r->skip[i].suite;
        out[11 + 2 * i] = r->skip[i].check;
    }
    out[14] = r->run_id;
    cmos_record_seal(out);
}

bool hang_record_decode(const u8 in[HANG_RECORD_BYTES], struct hang_record *r)
{
    memset(r, 0, sizeof(*r));
    if (in[0] != MAGIC0 || in[1] != MAGIC1 || in[2] != VERSION || !cmos_record_sealed(in))
        return false;
    if ((in[3] & STATE_MASK) > HANG_RESETTING || in[3] >> (NOT_WATCHDOG_SHIFT + HANG_MAX_SKIPS) ||
        (in[3] & 0x0c) || in[9] > HANG_MAX_SKIPS || !in[4])
        return false;
    r->state = in[3] & STATE_MASK;
    for (u32 i = 0; i < HANG_MAX_SKIPS; i++)
        r->skip_not_watchdog[i] = in[3] >> (NOT_WATCHDOG_SHIFT + i) & 1;
    r->run_id = in[14];
    r->boots = in[4];
    r->at = (struct hang_place){in[5], in[6]};
    r->cpu_apic_id = in[7];
    r->seconds = in[8];
    r->nskip = in[9];
    for (u32 i = 0; i < HANG_MAX_SKIPS; i++)
        r->skip[i] = (struct hang_place){in[10 + 2 * i], in[11 + 2 * i]};
    return true;
}

bool hang_record_valid(const u8 b[HANG_RECORD_BYTES])
{
    struct hang_record r;
    return hang_record_decode(b, &r);
}

int hang_skip_index(const struct hang_record *r, u8 suite, u8 check)
{
    for (u32 i = 0; i < r->nskip && i < HANG_MAX_SKIPS; i++)
        if (r->skip[i].suite == suite && r->skip[i].check == check)
            return (int)i;
    return -1;
}

u8 hang_run_id(const char *version, const char *cmdline)
{
    u32 h = 2166136261u;
    for (const char *p = version; p && *p; p++)
        h = (h ^ (u8)*p) * 16777619u;
    h = (h ^ 0) * 16777619u; /* a separator: "ab"+"c" and "a"+"bc" differ */
    for (const char *p = cmdline; p && *p; p++)
        h = (h ^ (u8)*p) * 16777619u;
    return (u8)(h ^ h >> 8 ^ h >> 16 ^ h >> 24);
}

static enum hang_boot new_run(struct hang_record *r, u8 run_id, enum hang_boot b)
{
    memset(r, 0, sizeof(*r));
    r->boots = 1;
    r->run_id = run_id;
    return b;
}

enum hang_boot hang_plan_boot(struct hang_record *r, bool valid, u8 run_id, enum hang_wd_status wd)
{
    if (!valid)
        return new_run(r, run_id, wd == HANG_WD_OURS ? HANG_BOOT_LOST : HANG_BOOT_FIRST);
    if (r->run_id != run_id || r->state == HANG_IDLE)
        return new_run(r, run_id, HANG_BOOT_STALE);
    if (r->boots < 255)
        r->boots++;
    if (r->state == HANG_RESETTING) {
        r->state = HANG_IDLE;
        return r->boots > HANG_MAX_BOOTS ? HANG_BOOT_GIVE_UP : HANG_BOOT_CONTINUE;
    }
    r->state = HANG_IDLE;
    bool again = hang_skip_index(r, r->at.suite, r->at.check) >= 0; /* it hung although it was to be skipped */
    bool full = !again && r->nskip >= HANG_MAX_SKIPS;
    if (!again && !full) {
        r->skip_not_watchdog[r->nskip] = wd == HANG_WD_NOT_OURS;
        r->skip[r->nskip++] = r->at;
    }
    return again || full || r->boots > HANG_MAX_BOOTS ? HANG_BOOT_GIVE_UP : HANG_BOOT_HUNG;
}
