/* The boot CPU's checks under the watchdog (see hang_guard.h). */
#include "harness/hang_guard.h"

#include <string.h>

#include "apic/apic.h"
#include "kernel/cmos.h"
#include "kernel/globals.h"
#include "kernel/report.h"
#include "kernel/watchdog.h"
#include "lib/hang_record.h"
#include "lib/cmos_slot.h"

static struct {
    bool active;    /* a slot, and a record to keep */
    bool armed;     /* the watchdog runs around the checks */
    u8 slot;
    struct hang_record rec;
    u8 written[HANG_RECORD_BYTES];
    struct hang_place hung_now; /* the place the previous boot hung in (skipped on this boot as well) */
    bool has_hung_now;
} hg;

static void write_record(void)
{
    u8 b[HANG_RECORD_BYTES];
    hang_record_encode(&hg.rec, b);
    for (u32 i = 0; i < HANG_RECORD_BYTES; i++)
        if (b[i] != hg.written[i])
            cmos_write((u8)(hg.slot + i), b[i]);
    memcpy(hg.written, b, sizeof(b));
}

static const char *place_name(struct hang_place p, char *buf, size_t n)
{
    const struct suite *s = p.suite < all_suites_count ? all_suites[p.suite] : NULL;
    if (s && p.check < s->count)
        k_snprintf(buf, n, "%s/%s", s->name, s->checks[p.check].name);
    else
        k_snprintf(buf, n, "suite %u check %u (not in this image)", p.suite, p.check);
    return buf;
}

void hang_guard_boot(void)
{
    watchdog_init(g_options.watchdog_s);
    report_comment("watchdog: %s", g_watchdog.evidence);
    if (g_watchdog.problems[0])
        report_comment("watchdog: %s", g_watchdog.problems);
    if (!g_watchdog.present)
        return;
    u8 cmos[RESET_CMOS_END - RESET_CMOS_FIRST];
    for (u32 i = 0; i < sizeof(cmos); i++)
        cmos[i] = cmos_read((u8)(RESET_CMOS_FIRST + i));
    bool found = false;
    int slot = hang_cmos_slot(cmos, &found);
    if (slot < 0) {
        report_comment("watchdog: not armed: no 16 unused CMOS bytes in 0x40..0x7F for the record of where the boot "
                       "CPU is (a hang would not be attributed)");
        return;
    }
    hg.slot = (u8)slot;
    hg.active = true;
    memcpy(hg.written, &cmos[slot - RESET_CMOS_FIRST], sizeof(hg.written));
    hang_record_decode(hg.written, &hg.rec);
    struct hang_record before = hg.rec;
    enum hang_boot b = hang_plan_boot(&hg.rec, found);
    char name[96];
    switch (b) {
    case HANG_BOOT_FIRST:
        if (g_watchdog.reset_was_ours)
            report_comment("hang: the watchdog's status says the last reset was its own, but no record says where: "
                           "an earlier run's, or another program's watchdog");
        break;
    case HANG_BOOT_STALE:
        report_comment("hang: a record of an earlier boot between checks (it stopped outside a check: a power cycle, "
                       "or a hang while it supervised): a new run");
        break;
    case HANG_BOOT_HUNG:
    case HANG_BOOT_GIVE_UP:
        hg.hung_now = before.at;
        hg.has_hung_now = true;
        report_comment("hang: boot %u of this run: the previous boot hung in %s on the boot CPU (APIC ID 0x%x) and the "
                       "watchdog (%s) reset the machine after at least %u s%s: reported failed and skipped%s",
                       hg.rec.boots, place_name(before.at, name, sizeof(name)), before.cpu_apic_id, watchdog_kind_name(),
                       before.seconds,
                       !g_watchdog.status_known  ? ""
                       : g_watchdog.reset_was_ours ? " (the watchdog's status agrees: the last reset was its own)"
                                                   : " (but the watchdog's status says the last reset was not its "
                                                     "own: a reset or power cycle from outside, as a lab's timeout)",
                       b == HANG_BOOT_GIVE_UP ? "; the watchdog is not armed again (a hang in a place already "
                                                "skipped, more places than the record holds, or too many boots)"
                                              : "");
        break;
    }
    hg.rec.cpu_apic_id = (u8)apic_id();
    u32 secs = g_watchdog.reset_ms / 1000; /* "no return within N s": rounded down, it stays a lower bound */
    hg.rec.seconds = (u8)(secs > 255 ? 255 : secs);
    hg.armed = b != HANG_BOOT_GIVE_UP;
    write_record();
}

static bool guarded(const struct suite *s)
{
    return hg.active && hg.armed && strcmp(s->name, "reset"); /* suite reset resets the machine on purpose */
}

static u8 suite_index(const struct suite *s)
{
    for (u32 i = 0; i < all_suites_count; i++)
        if (all_suites[i] == s)
            return (u8)i;
    return 0xff;
}

bool hang_guard_hung(const struct suite *s, u32 slot, struct check *c)
{
    if (!hg.active)
        return false;
    u8 si = suite_index(s);
    bool now = hg.has_hung_now && hg.hung_now.suite == si && hg.hung_now.check == slot;
    if (!now && !hang_skipped(&hg.rec, si, (u8)slot))
        return false;
    c->hung = true;
    check_fail(c, "hung: no return within %u s on this thread, watchdog reset (%s, an earlier boot of this run); not "
               "run again", hg.rec.seconds, watchdog_kind_name());
    return true;
}

void hang_guard_enter(const struct suite *s, u32 slot)
{
    if (!guarded(s))
        return;
    hg.rec.state = HANG_IN_CHECK;
    hg.rec.at = (struct hang_place){suite_index(s), (u8)slot};
    write_record();
    watchdog_arm();
}

void hang_guard_leave(void)
{
    if (!hg.active || hg.rec.state != HANG_IN_CHECK)
        return;
    watchdog_stop();
    hg.rec.state = HANG_IDLE;
    write_record();
}

void hang_guard_finish(void)
{
    watchdog_stop();
    if (!hg.active)
        return;
    for (u32 i = 0; i < HANG_RECORD_BYTES; i++)
        cmos_write((u8)(hg.slot + i), 0);
    hg.active = false;
}
