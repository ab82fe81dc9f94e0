/* The kernel's command-line options (kernel_options.h, docs/options.md). */
#include "kernel/portable/kernel_options.h"

#include <string.h>

#include "lib/format.h"

static struct kernel_options opts;

const struct kernel_options *kernel_options(void)
{
    return &opts;
}

static void defaults(void *values)
{
    struct kernel_options *o = values;
    o->exit = EXIT_HALT;
    o->init_delay_us = -1;
    o->ap_timeout_ms = 100;
}

/* An APIC ID in decimal or 0x-hex. */
static bool parse_id(const char *s, u32 *out)
{
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        u64 v = 0;
        if (!s[2])
            return false;
        for (s += 2; *s; s++) {
            int d = (*s >= '0' && *s <= '9') ? *s - '0' : (*s >= 'a' && *s <= 'f') ? *s - 'a' + 10
                    : (*s >= 'A' && *s <= 'F') ? *s - 'A' + 10 : -1;
            if (d < 0 || (v = v * 16 + (u64)d) > 0xFFFFFFFFull)
                return false;
        }
        *out = (u32)v;
        return true;
    }
    return opt_u32(s, out, 0, 0xFFFFFFFFu);
}

static const char *set_exit(void *values, const char *v)
{
    struct kernel_options *o = values;
    if (!strcmp(v, "qemu"))
        o->exit = EXIT_QEMU;
    else if (!strcmp(v, "halt"))
        o->exit = EXIT_HALT;
    else if (!strcmp(v, "reboot"))
        o->exit = EXIT_REBOOT;
    else
        return "expects qemu, halt or reboot";
    return NULL;
}

static const char *set_apic(void *values, const char *v)
{
    struct kernel_options *o = values;
    static const char *const names[] = {"auto", "xapic", "x2apic", NULL};
    return opt_choice(v, names, &o->apic, "expects auto, xapic or x2apic");
}

static const char *set_smp(void *values, const char *v)
{
    struct kernel_options *o = values;
    static const char *const names[] = {"parallel", "serial", NULL};
    return opt_choice(v, names, &o->smp_serial, "expects parallel or serial");
}

static const char *set_screen(void *values, const char *v)
{
    struct kernel_options *o = values;
    static const char *const names[] = {"grid", "log", NULL};
    return opt_choice(v, names, &o->screen_log, "expects grid or log");
}

/* cmos=FIRST-LAST: CMOS bytes the user gives pmuboot's records (lib/cmos_slot.h says which are allowed, once the
 * FADT's century byte is known). */
static const char *set_cmos(void *values, const char *v)
{
    struct kernel_options *o = values;
    const char *dash = strchr(v, '-');
    char first[8];
    u32 a, b;
    if (!dash || dash == v || (size_t)(dash - v) >= sizeof(first))
        return "expects FIRST-LAST, CMOS indexes in decimal or 0x-hex, e.g. 0x70-0x7f";
    memcpy(first, v, (size_t)(dash - v));
    first[dash - v] = '\0';
    if (!parse_id(first, &a) || !parse_id(dash + 1, &b) || a > 0x7f || b > 0x7f)
        return "expects FIRST-LAST, CMOS indexes 0..0x7f in decimal or 0x-hex, e.g. 0x70-0x7f";
    if (a < 0x40 || b < a || b - a + 1 < 16)
        return "expects at least 16 bytes inside 0x40..0x7f (0x00..0x3f hold the RTC, the AT configuration and "
               "its checksum)";
    o->cmos_first = a;
    o->cmos_last = b;
    return NULL;
}

static const char *set_restore_skip(void *values, const char *v)
{
    struct kernel_options *o = values;
    if (!*v || strlen(v) >= sizeof(o->restore_skip))
        return "expects a word of the ledger entry's name (machine/restored lists them), up to 23 characters";
    memcpy(o->restore_skip, v, strlen(v) + 1);
    return NULL;
}

static const char *set_init_delay(void *values, const char *v)
{
    struct kernel_options *o = values;
    u32 us;
    if (!opt_u32(v, &us, 0, 1000000))
        return "expects microseconds, 0..1000000";
    o->init_delay_us = us;
    return NULL;
}

static const char *set_ap_timeout(void *values, const char *v)
{
    struct kernel_options *o = values;
    return opt_u32(v, &o->ap_timeout_ms, 1, 60000) ? NULL : "expects milliseconds, 1..60000";
}

static const char *set_cpus(void *values, const char *v)
{
    struct kernel_options *o = values;
    char item[24];
    const char *cur = v;
    u32 n = 0;
    if (!*v)
        return "expects a comma-separated list of APIC IDs";
    while (list_next(&cur, item, sizeof(item))) {
        if (strlen(item) == sizeof(item) - 1)
            return "has an APIC ID that is too long";
        if (n == OPT_CPUS_MAX)
            return "lists more APIC IDs than the 512 supported";
        if (!parse_id(item, &o->cpus[n]))
            return "expects APIC IDs in decimal or 0x-hex, comma-separated";
        for (u32 k = 0; k < n; k++)
            if (o->cpus[k] == o->cpus[n])
                return "lists an APIC ID twice";
        n++;
    }
    if (v[strlen(v) - 1] == ',')
        return "has an empty list item";
    o->cpu_count = n;
    return NULL;
}

static const struct opt_desc rows[] = {
    {"exit", "exit=qemu|halt|reboot",
     "at the end: write the verdict to QEMU's isa-debug-exit (port 0xf4); halt (default); or reboot",
     set_exit},
    {"apic", "apic=auto|xapic|x2apic", "local APIC mode; auto (default) = x2APIC when CPUID offers it", set_apic},
    {"smp", "smp=parallel|serial", "AP bring-up: all at once (default) or one at a time", set_smp},
    {"screen", "screen=grid|log",
     "a framebuffer's screen: the checklist mirrored while the run goes, then a final screen with the totals, every "
     "FAIL and the whole result as QR codes for tools/pmuboot-report --from-images (grid, default); or the mirror to "
     "the end (log)", set_screen},
    {"cmos", "cmos=FIRST-LAST",
     "CMOS bytes (inside 0x40..0x7f, at least 16) that are free on this board, for the records that survive a reset "
     "(watchdog, suite reset); without it, CMOS is used only on QEMU", set_cmos},
    {"restore_skip", "restore_skip=TEXT",
     "testing: the ledger's changes whose name holds TEXT (e.g. record) are not put back, so that machine/restored "
     "must fail", set_restore_skip},
    {"cpus", "cpus=ID,ID,...", "APIC IDs to bring up instead of the ACPI MADT's (decimal or 0x-hex)", set_cpus},
    {"init_delay_us", "init_delay_us=N",
     "wait after INIT before the SIPIs; default 0 on modern CPUs, 10000 on older ones (as Linux)", set_init_delay},
    {"ap_timeout_ms", "ap_timeout_ms=N", "how long to wait for each AP to arrive (default 100)", set_ap_timeout},
};

const struct opt_table kernel_option_table = {rows, ARRAY_SIZE(rows), &opts, sizeof(opts), defaults, NULL};
