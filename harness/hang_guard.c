/* The boot CPU's checks under the watchdog (see hang_guard.h). */
#include "harness/hang_guard.h"

#include <string.h>

#include "apic/apic.h"
#include "kernel/boot_state.h"
#include "kernel/record_store.h"
#include "harness/report.h"
#include "kernel/watchdog.h"
#include "lib/hang_record.h"
#include "harness/portable/harness_options.h"

static struct {
    bool active;    /* a slot, and a record to keep */
    bool armed;     /* the watchdog runs around the checks */
    struct hang_record rec;
    struct hang_place hung_now; /* the place the previous boot stopped in (skipped on this boot as well) */
    bool has_hung_now;
} hg;

static bool write_record(void)
{
    u8 b[HANG_RECORD_BYTES];
    hang_record_encode(&hg.rec, b);
    return record_store_write(RECORD_HANG, b);
}

static const char *place_name(struct hang_place p, char *buf, size_t n)
{
    const struct suite *s = suites_at(p.suite);
    if (s && p.check < s->count)
        k_snprintf(buf, n, "%s/%s", s->name, s->checks[p.check].name);
    else
        k_snprintf(buf, n, "suite %u check %u (not in this image)", p.suite, p.check);
    return buf;
}

static enum hang_wd_status wd_status(void)
{
    return !g_watchdog.status_known ? HANG_WD_UNKNOWN : g_watchdog.reset_was_ours ? HANG_WD_OURS : HANG_WD_NOT_OURS;
}

static void report_previous(enum hang_boot b, const struct hang_record *before)
{
    char name[96];
    const char *why = "";
    switch (b) {
    case HANG_BOOT_FIRST:
    case HANG_BOOT_CONTINUE:
        return;
    case HANG_BOOT_LOST:
        report_comment("hang: the watchdog's status says it reset the machine, but no record of this run says where "
                       "(CMOS did not keep it, or another program's watchdog): the watchdog is not armed on this boot, "
                       "so a hang that repeats cannot loop");
        return;
    case HANG_BOOT_STALE:
        report_comment("hang: a record of an earlier boot %s: a new run",
                       before->run_id != hg.rec.run_id ? "of another run (another image or command line)"
                                                       : "between checks (it stopped outside a check: a power cycle, "
                                                         "or a hang while it supervised)");
        return;
    case HANG_BOOT_GIVE_UP:
        why = "; the watchdog is not armed again (a hang in a place already skipped, more places than the record "
              "holds, or too many boots)";
        break;
    case HANG_BOOT_HUNG:
        break;
    }
    if (before->state != HANG_IN_CHECK) {
        report_comment("hang: boot %u of this run: too many boots%s", hg.rec.boots, why);
        return;
    }
    enum hang_wd_status wd = wd_status();
    report_comment("hang: boot %u of this run: the previous boot stopped in %s on the boot CPU (APIC ID 0x%x): %s: "
                   "reported failed and skipped%s",
                   hg.rec.boots, place_name(before->at, name, sizeof(name)), before->cpu_apic_id,
                   wd == HANG_WD_NOT_OURS ? "the machine was reset, but not by the watchdog (its status says so: a "
                                            "reset or power cycle from outside, or a crash)"
                   : wd == HANG_WD_OURS   ? "the watchdog reset the machine (its status agrees)"
                                          : "the watchdog reset the machine",
                   why);
}

void hang_guard_boot(void)
{
    record_store_init();
    report_comment("records: %s", g_records.evidence);
    if (g_records.kind == STORE_NONE && harness_watchdog_s()) {
        /* Nothing is touched, on request too: no watchdog register is even read, so no firmware setting (a WDAT's
         * SET_REBOOT, GCS.NO_REBOOT) changes for a watchdog that could not be armed. */
        report_comment("watchdog: not armed: no record store to say where a hang was (cmos=FIRST-LAST names free CMOS "
                       "bytes; another CPU's NMI still ends a hang of the boot CPU where one can)");
        return;
    }
    if (g_records.kind == STORE_ERST && !harness_options()->watchdog_erst && harness_watchdog_s()) {
        /* The record changes twice around every check of the boot CPU: in an ERST each change is a flash program
         * through the firmware's SMI handler, hundreds a run, and a lab's nightly runs would wear the flash (and put
         * an SMI inside every check's window). Only when asked. */
        report_comment("watchdog: not armed with an ERST record store: the record would be written to the firmware's "
                       "flash, through an SMI, twice around every check of the boot CPU (watchdog_erst=on allows it; "
                       "another CPU's NMI still ends a hang of the boot CPU where one can)");
        return;
    }
    watchdog_init(harness_watchdog_s(), !harness_options()->watchdog_auto);
    report_comment("watchdog: %s%s", g_watchdog.evidence,
                   g_watchdog.present ? "" : harness_options()->watchdog_auto ? "; not armed" : "");
    if (g_watchdog.problems[0])
        report_comment("watchdog: %s", g_watchdog.problems);
    u8 b[HANG_RECORD_BYTES];
    bool found = false;
    char why[200];
    if (!g_watchdog.present) {
        if (record_store_holds(RECORD_HANG) && record_store_open(RECORD_HANG, b, &found, why, sizeof(why))) {
            /* an earlier run's, with the watchdog on */
            record_store_clear(RECORD_HANG);
            report_comment("hang: an earlier run's record cleared from %s (no watchdog on this boot)",
                           record_store_where(RECORD_HANG));
        }
        return;
    }
    if (!record_store_open(RECORD_HANG, b, &found, why, sizeof(why))) {
        report_comment("watchdog: not armed: %s (a hang would not be attributed, and the next boot would hang again)",
                       why);
        return;
    }
    hg.active = true;
    hang_record_decode(b, &hg.rec);
    struct hang_record before = hg.rec;
    enum hang_boot bt = hang_plan_boot(&hg.rec, found, hang_run_id(PMUBOOT_VERSION, boot_state()->info.cmdline), wd_status());
    if (bt == HANG_BOOT_HUNG || bt == HANG_BOOT_GIVE_UP) {
        hg.hung_now = before.at;
        hg.has_hung_now = before.state == HANG_IN_CHECK;
    }
    report_previous(bt, &before);
    hg.rec.cpu_apic_id = (u8)apic_id();
    u32 secs = g_watchdog.least_ms / 1000; /* "no return within N s": the least time to the reset */
    hg.rec.seconds = (u8)(secs > 255 ? 255 : secs);
    /* Never arm without a record that survives: the next boot could not skip a hang, and would hang again. */
    if (!write_record()) {
        report_comment("watchdog: not armed: %s did not keep what was written (the record of where the boot CPU is "
                       "would not survive a reset)", record_store_where(RECORD_HANG));
        return;
    }
    hg.armed = bt != HANG_BOOT_GIVE_UP && bt != HANG_BOOT_LOST;
    report_comment("watchdog: %s around each of the boot CPU's checks; the record of where it is: %s",
                   hg.armed ? "armed" : "not armed", record_store_where(RECORD_HANG));
}

static bool guarded(const struct suite *s)
{
    return hg.active && hg.armed && !s->resets_machine; /* suite reset resets it on purpose */
}

static u8 suite_index(const struct suite *s)
{
    for (u32 i = 0; i < suites_count(); i++)
        if (suites_at(i) == s)
            return (u8)i;
    return 0xff;
}

bool hang_guard_hung(const struct suite *s, u32 slot, struct check *c)
{
    if (!hg.active)
        return false;
    u8 si = suite_index(s);
    int k = hang_skip_index(&hg.rec, si, (u8)slot);
    if (k < 0)
        return false;
    bool now = hg.has_hung_now && hg.hung_now.suite == si && hg.hung_now.check == slot;
    c->hung = true;
    if (hg.rec.skip_not_watchdog[k])
        check_fail(c, "stopped: the machine was reset while this check ran on this thread, not by the watchdog (%s "
                   "boot of this run); not run again", now ? "the previous" : "an earlier");
    else
        check_fail(c, "hung: no return within %u s on this thread, watchdog reset (%s, %s boot of this run); not run "
                   "again", hg.rec.seconds, watchdog_kind_name(), now ? "the previous" : "an earlier");
    return true;
}

bool hang_guard_previous_stop(char *name, size_t n)
{
    if (!hg.active || !hg.has_hung_now)
        return false;
    place_name(hg.hung_now, name, n);
    return true;
}

void hang_guard_enter(const struct suite *s, u32 slot)
{
    if (!guarded(s))
        return;
    hg.rec.state = HANG_IN_CHECK;
    hg.rec.at = (struct hang_place){suite_index(s), (u8)slot};
    if (!write_record()) { /* never arm without a record that says where: a hang would be blamed elsewhere */
        hg.armed = false;
        hg.rec.state = HANG_IDLE;
        report_comment("watchdog: %s did not keep the record of where the boot CPU is: not armed from here on",
                       record_store_where(RECORD_HANG));
        return;
    }
    if (!watchdog_arm()) {
        watchdog_stop();
        hg.armed = false;
        hg.rec.state = HANG_IDLE;
        write_record();
        report_comment("watchdog: did not start (%s reads back halted): not armed from here on",
                       watchdog_kind_name());
    }
}

void hang_guard_leave(void)
{
    if (!hg.active || hg.rec.state != HANG_IN_CHECK)
        return;
    watchdog_stop();
    hg.rec.state = HANG_IDLE;
    if (!write_record()) { /* a record left at IN_CHECK would blame this check for a later reset */
        hg.armed = false;
        report_comment("watchdog: %s did not keep the record of where the boot CPU is: not armed from here on",
                       record_store_where(RECORD_HANG));
    }
}

void hang_guard_before_reset(void)
{
    watchdog_stop();
    if (!hg.active)
        return;
    hg.rec.state = HANG_RESETTING;
    write_record();
}

void hang_guard_finish(void)
{
    watchdog_stop(); /* the record goes with the ledger's restore (kernel/ledger.h), the last step of every run */
    hg.active = false;
}
