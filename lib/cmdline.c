/* Command-line parser (see cmdline.h). Options follow Linux's "last one wins" for repeated keys. */
#include "lib/cmdline.h"

#include <string.h>

#include "lib/format.h"
#include "lib/reset_plan.h"

#define WORD_MAX 256


/* Suite names: lower-case letters, digits, '_' and '-', comma-separated, no empty items. */
static const char *check_list(const char *v)
{
    if (!*v)
        return "expects a comma-separated list of suite names";
    if (strlen(v) >= OPT_LIST_MAX)
        return "list is too long";
    bool item_empty = true;
    for (const char *p = v;; p++) {
        if (*p == ',' || !*p) {
            if (item_empty)
                return "has an empty list item";
            if (!*p)
                return NULL;
            item_empty = true;
            continue;
        }
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
            return "suite names use only a-z, 0-9, '_' and '-'";
        item_empty = false;
    }
}

static const char *set_suites(struct options *o, const char *v)
{
    const char *e = check_list(v);
    if (!e)
        memcpy(o->suites, v, strlen(v) + 1);
    return e;
}

static const char *set_exclude(struct options *o, const char *v)
{
    const char *e = check_list(v);
    if (!e)
        memcpy(o->exclude, v, strlen(v) + 1);
    return e;
}

static const char *set_verbose(struct options *o, const char *v)
{
    return opt_u32(v, &o->verbose, 0, 2) ? NULL : "expects 0, 1 or 2";
}

static const char *set_exit(struct options *o, const char *v)
{
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

/* Linux syntax: console=ttyS<N>[,<baud>] (Documentation/admin-guide/serial-console.rst), or an explicit UART
 * in earlycon syntax (lib/uart.h); auto = the ACPI SPCR table's port, else COM1. */
static const char *set_console(struct options *o, const char *v)
{
    if (strlen(v) >= sizeof(o->console))
        return "value is too long";
    if (!strcmp(v, "auto")) {
        o->console_kind = CONSOLE_AUTO;
    } else if (!strncmp(v, "ttyS", 4)) {
        if (v[4] < '0' || v[4] > '3' || (v[5] && v[5] != ','))
            return "expects ttyS0..ttyS3, optionally followed by ,BAUD";
        u32 baud = 115200;
        if (v[5] == ',') {
            if (!opt_u32(v + 6, &baud, 50, 115200) || 115200 % baud)
                return "baud rate must divide 115200 (e.g. 115200, 57600, 38400, 19200, 9600)";
        }
        o->console_kind = CONSOLE_TTYS;
        o->console_port = (u32)(v[4] - '0');
        o->console_baud = baud;
    } else {
        struct uart_desc u;
        const char *why = uart_parse_earlycon(v, &u);
        if (why)
            return why;
        o->console_kind = CONSOLE_UART;
        o->console_uart = u;
    }
    memcpy(o->console, v, strlen(v) + 1);
    return NULL;
}

static const char *set_apic(struct options *o, const char *v)
{
    static const char *const names[] = {"auto", "xapic", "x2apic", NULL};
    return opt_choice(v, names, &o->apic, "expects auto, xapic or x2apic");
}

static const char *set_smp(struct options *o, const char *v)
{
    static const char *const names[] = {"parallel", "serial", NULL};
    return opt_choice(v, names, &o->smp_serial, "expects parallel or serial");
}

static const char *set_fold(struct options *o, const char *v)
{
    static const char *const names[] = {"off", "on", NULL};
    return opt_choice(v, names, &o->fold, "expects on or off");
}

static const char *set_screen(struct options *o, const char *v)
{
    static const char *const names[] = {"grid", "log", NULL};
    return opt_choice(v, names, &o->screen_log, "expects grid or log");
}

/* monitor=lava: every check on every thread also prints one line LAVA's test monitors match (docs/running.md "In a
 * lab"); folding is off, since a folded line would hide the threads. */
static const char *set_monitor(struct options *o, const char *v)
{
    static const char *const names[] = {"none", "lava", NULL};
    const char *why = opt_choice(v, names, &o->monitor, "expects none or lava");
    if (!why && o->monitor)
        o->fold = 0;
    return why;
}

static const char *set_run(struct options *o, const char *v)
{
    static const char *const names[] = {"parallel", "serial", NULL};
    return opt_choice(v, names, &o->run_serial, "expects parallel or serial");
}

static const char *set_run_cpus(struct options *o, const char *v)
{
    if (!strcmp(v, "auto")) {
        o->run_cpus = 0;
        return NULL;
    }
    return opt_u32(v, &o->run_cpus, 1, OPT_RUN_CPUS_MAX) ? NULL : "expects auto or a number of CPUs, 1..8192";
}

static const char *set_check_timeout(struct options *o, const char *v)
{
    return opt_u32(v, &o->check_timeout_ms, 100, 600000) ? NULL : "expects milliseconds, 100..600000";
}

static const char *set_watchdog(struct options *o, const char *v)
{
    o->watchdog_auto = !strcmp(v, "auto");
    if (o->watchdog_auto) {
        o->watchdog_s = 0;
        return NULL;
    }
    return opt_u32(v, &o->watchdog_s, 0, 1200) ? NULL : "expects auto, 0 (off) or seconds, 4..1200";
}

static bool parse_id(const char *s, u32 *out);

static const char *set_watchdog_erst(struct options *o, const char *v)
{
    static const char *const names[] = {"off", "on", NULL};
    return opt_choice(v, names, &o->watchdog_erst, "expects off or on");
}

/* cmos=FIRST-LAST: CMOS bytes the user gives pmuboot's records (lib/cmos_slot.h says which are allowed, once the
 * FADT's century byte is known). */
static const char *set_cmos(struct options *o, const char *v)
{
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

static const char *set_restore_skip(struct options *o, const char *v)
{
    if (!*v || strlen(v) >= sizeof(o->restore_skip))
        return "expects a word of the ledger entry's name (machine/restored lists them), up to 23 characters";
    memcpy(o->restore_skip, v, strlen(v) + 1);
    return NULL;
}

static const char *set_timeout_hang(struct options *o, const char *v)
{
    static const char *const names[] = {"none", "bsp", "bsp-nmi-blocked", "bsp-bail-out", NULL};
    return opt_choice(v, names, &o->timeout_hang, "expects none, bsp, bsp-nmi-blocked or bsp-bail-out");
}

static const char *set_init_delay(struct options *o, const char *v)
{
    u32 us;
    if (!opt_u32(v, &us, 0, 1000000))
        return "expects microseconds, 0..1000000";
    o->init_delay_us = us;
    return NULL;
}

static const char *set_ap_timeout(struct options *o, const char *v)
{
    return opt_u32(v, &o->ap_timeout_ms, 1, 60000) ? NULL : "expects milliseconds, 1..60000";
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

static const char *set_cpus(struct options *o, const char *v)
{
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

/* Bits as enum reset_type (lib/reset_plan.h). */
static const char *set_reset(struct options *o, const char *v)
{
    for (int t = 0; t < RESET_TYPES; t++)
        if (!strcmp(v, reset_type_name(t))) {
            o->reset_types = 1u << t;
            return NULL;
        }
    if (!strcmp(v, "all")) {
        o->reset_types = RESET_ALL;
        return NULL;
    }
    return "expects cf9, kbc, triple or all";
}

static const char *set_deviations(struct options *o, const char *v)
{
    static const char *const names[] = {"todo", "strict", NULL};
    return opt_choice(v, names, &o->deviations_strict, "expects todo or strict");
}

static const struct opt_desc base_options[] = {
    {"suite", "suite=LIST", "run only these suites (comma-separated); default: the default suites", set_suites},
    {"exclude", "exclude=LIST", "skip these suites", set_exclude},
    {"verbose", "verbose=0|1|2",
     "0: diagnostics only for failures and skips; 1 (default): for every measured check; 2: debug lines",
     set_verbose},
    {"exit", "exit=qemu|halt|reboot",
     "at the end: write the verdict to QEMU's isa-debug-exit (port 0xf4); halt (default); or reboot",
     set_exit},
    {"console", "console=auto|ttyS0..3[,BAUD]|uart,io|mmio|mmio32,ADDR[,BAUD]",
     "serial console: auto (default) = the ACPI SPCR port, else COM1 (ttyS0) at 115200", set_console},
    {"apic", "apic=auto|xapic|x2apic", "local APIC mode; auto (default) = x2APIC when CPUID offers it", set_apic},
    {"deviations", "deviations=todo|strict",
     "known deviations of this platform (an emulator, a hypervisor): TODO naming their source (default), or FAIL "
     "(strict: for testing one's own hypervisor or emulator)", set_deviations},
    {"smp", "smp=parallel|serial", "AP bring-up: all at once (default) or one at a time", set_smp},
    {"run", "run=parallel|serial",
     "per-CPU checks: on every CPU at once (default), or one CPU after the other (the order of the stream is the "
     "same)", set_run},
    {"fold", "fold=on|off",
     "per-CPU checks: the threads whose verdicts agree apart from their numbers share one line, cpu[LIST]/suite/check, "
     "each differing number as its range (on, default); or one line per thread (off)", set_fold},
    {"screen", "screen=grid|log",
     "a framebuffer's screen: the checklist mirrored while the run goes, then a final screen with the totals, every "
     "FAIL and the whole result as QR codes for tools/pmuboot-report --from-images (grid, default); or the mirror to "
     "the end (log)", set_screen},
    {"monitor", "monitor=none|lava",
     "lava: after each verdict, one line 'pmuboot-result: ID RESULT [VALUE UNIT]' per check and thread, for LAVA's "
     "test monitors (docs/running.md, In a lab); implies fold=off",
     set_monitor},
    {"watchdog_s", "watchdog_s=auto|0|N",
     "the boot CPU's checks run under the hardware reset watchdog (ACPI WDAT or Intel TCO): a check that does not "
     "return within N s resets the machine, and the next boot reports it failed and skips it; auto (default): armed "
     "only where a record store exists (QEMU, cmos=) and the watchdog needs no setting changed, for 120 s or the "
     "check limit + 3 s; N arms it on request (docs/running.md)",
     set_watchdog},
    {"watchdog_erst", "watchdog_erst=off|on",
     "on: the reset watchdog may keep its record in the firmware's ACPI ERST, a flash write through an SMI twice around "
     "every check of the boot CPU (off, default: not armed with an ERST store)", set_watchdog_erst},
    {"cmos", "cmos=FIRST-LAST",
     "CMOS bytes (inside 0x40..0x7f, at least 16) that are free on this board, for the records that survive a reset "
     "(watchdog, suite reset); without it, CMOS is used only on QEMU", set_cmos},
    {"restore_skip", "restore_skip=TEXT",
     "testing: the ledger's changes whose name holds TEXT (e.g. record) are not put back, so that machine/restored "
     "must fail", set_restore_skip},
    {"timeout_hang", "timeout_hang=none|bsp|bsp-nmi-blocked|bsp-bail-out",
     "suite timeout: bsp makes time_limit hang the boot CPU too, for an idle AP's NMI to stop; bsp-nmi-blocked hangs "
     "it with NMIs blocked, which only the reset watchdog ends; bsp-bail-out ends the run there with a bail-out, which "
     "must still put every change back (needs suite=timeout)",
     set_timeout_hang},
    {"run_cpus", "run_cpus=auto|N",
     "with run=parallel: at most N CPUs run checks at once; auto (default): all, 8 under QEMU TCG", set_run_cpus},
    {"check_timeout_ms", "check_timeout_ms=N",
     "a check still running after N ms (default 20000) is stopped with an NMI (the boot CPU's, or an idle AP's for "
     "the boot CPU) and failed", set_check_timeout},
    {"cpus", "cpus=ID,ID,...", "APIC IDs to bring up instead of the ACPI MADT's (decimal or 0x-hex)", set_cpus},
    {"init_delay_us", "init_delay_us=N",
     "wait after INIT before the SIPIs; default 0 on modern CPUs, 10000 on older ones (as Linux)", set_init_delay},
    {"ap_timeout_ms", "ap_timeout_ms=N", "how long to wait for each AP to arrive (default 100)", set_ap_timeout},
    {"reset", "reset=cf9|kbc|triple|all",
     "suite reset: which machine resets to go through (default all); needs suite=reset", set_reset},
};

/* The option tables of the layers above (cmdline_add_options), after the base table. */
#define OPT_TABLES_MAX 4
static const struct opt_table *tables[OPT_TABLES_MAX];
static u32 table_count;

void cmdline_add_options(const struct opt_table *t)
{
    for (u32 i = 0; i < table_count; i++)
        if (tables[i] == t)
            return;
    if (table_count < OPT_TABLES_MAX)
        tables[table_count++] = t;
}

static const struct opt_desc *find_option(const char *name)
{
    for (size_t i = 0; i < ARRAY_SIZE(base_options); i++)
        if (!strcmp(base_options[i].name, name))
            return &base_options[i];
    for (u32 t = 0; t < table_count; t++)
        for (u32 i = 0; i < tables[t]->count; i++)
            if (!strcmp(tables[t]->opts[i].name, name))
                return &tables[t]->opts[i];
    return NULL;
}

void options_default(struct options *o)
{
    memset(o, 0, sizeof(*o));
    o->verbose = 1;
    o->fold = 1;
    o->exit = EXIT_HALT;
    o->console_kind = CONSOLE_AUTO;
    memcpy(o->console, "auto", 5);
    o->console_port = 0;
    o->console_baud = 115200;
    o->init_delay_us = -1;
    o->ap_timeout_ms = 100;
    o->check_timeout_ms = 20000;
    o->watchdog_auto = true;
}

u32 options_watchdog_s(const struct options *o)
{
    if (!o->watchdog_auto)
        return o->watchdog_s;
    u32 s = (o->check_timeout_ms + WATCHDOG_MARGIN_MS + 999) / 1000;
    return s > WATCHDOG_AUTO_S ? s : WATCHDOG_AUTO_S;
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* A first word without '=' that looks like a path is the image name QEMU -kernel passes (load_multiboot). */
static bool looks_like_image(const char *w)
{
    return !strchr(w, '=') && (strchr(w, '/') || strchr(w, '.'));
}

/* Rules between options, checked once every word is read (order does not matter). */
static bool options_consistent(const struct options *o, char *err, size_t err_size)
{
    for (u32 t = 0; t < table_count; t++)
        if (tables[t]->consistent && !tables[t]->consistent(o, err, err_size))
            return false;
    if (o->run_serial && o->run_cpus) {
        k_snprintf(err, err_size, "run_cpus=%u limits run=parallel; run=serial runs one CPU at a time (drop one)",
                   o->run_cpus);
        return false;
    }
    if (o->watchdog_s && o->watchdog_s < 4) {
        k_snprintf(err, err_size, "watchdog_s=%u: the watchdog's 0.6 s ticks make 4 s the shortest (0 turns it off)",
                   o->watchdog_s);
        return false;
    }
    if (o->watchdog_s && (u64)o->watchdog_s * 1000 < (u64)o->check_timeout_ms + WATCHDOG_MARGIN_MS) {
        k_snprintf(err, err_size, "watchdog_s=%u: the reset watchdog must outlast the boot CPU's check limit "
                   "(check_timeout_ms=%u) by %u s, so that another CPU's NMI ends a hung check first (raise watchdog_s "
                   "to %u, or lower check_timeout_ms)", o->watchdog_s, o->check_timeout_ms, WATCHDOG_MARGIN_MS / 1000,
                   (o->check_timeout_ms + WATCHDOG_MARGIN_MS + 999) / 1000);
        return false;
    }
    if (o->timeout_hang && !list_contains(o->suites, "timeout")) {
        k_snprintf(err, err_size, "timeout_hang= concerns suite timeout, which is not selected (add suite=timeout)");
        return false;
    }
    if (o->monitor && o->fold) {
        k_snprintf(err, err_size, "monitor=lava prints every thread's verdict, which a folded line would hide (drop "
                                  "fold=on)");
        return false;
    }
    if (o->reset_types && !list_contains(o->suites, "reset")) {
        k_snprintf(err, err_size, "reset= selects the resets of suite reset, which is not selected (add suite=reset)");
        return false;
    }
    return true;
}

bool cmdline_parse(const char *cmdline, struct options *o, char *err, size_t err_size)
{
    const char *p = cmdline ? cmdline : "";
    bool first = true;
    if (err_size)
        err[0] = '\0';
    for (;;) {
        while (is_blank(*p))
            p++;
        if (!*p)
            break;
        char word[WORD_MAX];
        size_t n = 0;
        while (p[n] && !is_blank(p[n]))
            n++;
        if (n >= sizeof(word)) {
            k_snprintf(err, err_size, "option '%.40s...' is longer than %d characters", p, WORD_MAX - 1);
            return false;
        }
        memcpy(word, p, n);
        word[n] = '\0';
        p += n;

        if (first && looks_like_image(word)) {
            first = false;
            k_snprintf(o->image, sizeof(o->image), "%s", word);
            continue;
        }
        first = false;

        char *eq = strchr(word, '=');
        if (!eq) {
            k_snprintf(err, err_size, "unknown option '%s' (options are key=value)", word);
            return false;
        }
        *eq = '\0';
        const struct opt_desc *d = find_option(word);
        if (!d) {
            *eq = '=';
            k_snprintf(err, err_size, "unknown option '%s'", word);
            return false;
        }
        const char *why = d->set(o, eq + 1);
        if (why) {
            *eq = '=';
            if ((size_t)k_snprintf(err, err_size, "bad value in '%s': %s %s", word, d->name, why) >= err_size &&
                err_size >= 4)
                memcpy(err + err_size - 4, "...", 4); /* never a list cut without a sign */
            return false;
        }
    }
    return options_consistent(o, err, err_size);
}

void cmdline_help(void (*emit)(const char *syntax, const char *help, void *ctx), void *ctx)
{
    for (size_t i = 0; i < ARRAY_SIZE(base_options); i++)
        emit(base_options[i].syntax, base_options[i].help, ctx);
    for (u32 t = 0; t < table_count; t++)
        for (u32 i = 0; i < tables[t]->count; i++)
            emit(tables[t]->opts[i].syntax, tables[t]->opts[i].help, ctx);
}

bool list_next(const char **cursor, char *item, size_t item_size)
{
    const char *c = *cursor;
    if (!c || !*c)
        return false;
    size_t n = 0;
    while (c[n] && c[n] != ',')
        n++;
    size_t k = n < item_size ? n : item_size - 1;
    memcpy(item, c, k);
    item[k] = '\0';
    *cursor = c[n] ? c + n + 1 : c + n;
    return true;
}

/* Compares items in place: copying them into a bounded buffer would let a long item match its prefix. */
bool list_contains(const char *list, const char *name)
{
    size_t len = strlen(name);
    for (const char *c = list; c && *c;) {
        const char *comma = strchr(c, ',');
        size_t n = comma ? (size_t)(comma - c) : strlen(c);
        if (n == len && !strncmp(c, name, n))
            return true;
        if (!comma)
            break;
        c = comma + 1;
    }
    return false;
}
