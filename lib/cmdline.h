/* The kernel command line: "key=value" words separated by blanks; documented in docs/options.md.
 * A table defines each option, its values and its help text: the base options in cmdline.c, the PMU's
 * (pmu/options.c) and the emulated PMU's (emul/options.c) in their layers, added by cmdline_add_options.
 * Unknown words and malformed values are errors that name the offending word: never a silent default. */
#pragma once
#include "lib/types.h"
#include "lib/uart.h"

#define OPT_LIST_MAX 256
#define OPT_CPUS_MAX 512       /* APIC IDs a cpus= list may name (a command line holds no more) */
#define OPT_RUN_CPUS_MAX 8192  /* as MAX_CPUS (kernel/percpu.h) */
/* An option's message (opt_desc.set's return, a layer's static buffer) fits OPT_WHY_MAX bytes with its list of valid
 * values whole (pmu_fault='s lists 24 faults); cmdline_parse's err fits CMDLINE_ERROR_MAX with the word before it. */
#define OPT_WHY_MAX 640
#define CMDLINE_ERROR_MAX 1024

enum exit_mode { EXIT_HALT, EXIT_QEMU, EXIT_REBOOT };
enum console_kind { CONSOLE_AUTO, CONSOLE_TTYS, CONSOLE_UART };
/* timeout_hang=: how suite timeout's time_limit treats the boot CPU: skips; hangs (an idle AP's NMI stops it);
 * hangs with NMIs blocked (the reset watchdog ends it); bails out (the run ends there, everything put back). */
enum timeout_hang { TIMEOUT_HANG_NONE, TIMEOUT_HANG_BSP, TIMEOUT_HANG_BSP_NMI_BLOCKED, TIMEOUT_HANG_BSP_BAIL_OUT };

struct options {
    char image[128];            /* a leading image path (QEMU -kernel passes it), if any */
    char suites[OPT_LIST_MAX];  /* suite=LIST, comma-separated; empty = the default suites */
    char exclude[OPT_LIST_MAX]; /* exclude=LIST */
    u32 verbose;                /* 0: YAML only for failures/skips, 1: for every measured check, 2: debug */
    enum exit_mode exit;        /* exit=qemu|halt|reboot */
    enum console_kind console_kind; /* console=auto (default) | ttyS<N>[,BAUD] | uart[8250],... */
    char console[64];           /* the console= value as given ("auto" by default) */
    u32 console_port;           /* console=ttyS<N>[,baud]: N in 0..3 */
    u32 console_baud;
    struct uart_desc console_uart; /* console=uart[8250],io|mmio|mmio16|mmio32,ADDR[,BAUD] */
    u32 apic;                   /* apic=auto|xapic|x2apic: 0, 1, 2 (enum apic_request) */
    u32 smp_serial;             /* smp=parallel|serial: 0, 1 */
    u32 run_serial;             /* run=parallel|serial: per-CPU checks on every CPU at once (0) or in turn (1) */
    u32 fold;                   /* fold=on|off: agreeing threads' verdicts share one line (1, lib/tap_fold.h) */
    u32 screen_log;             /* screen=grid|log: 0 the final screen with the result's QR codes, 1 the mirror only */
    u32 monitor;                /* monitor=none|lava: 1 = a result line per check and thread for LAVA's monitors */
    u32 run_cpus;               /* run_cpus=auto|N: at most N CPUs run checks at once (0 = auto) */
    u32 check_timeout_ms;       /* check_timeout_ms=N: a check still running after N is stopped (NMI) */
    u32 watchdog_s;             /* watchdog_s=N: the boot CPU's checks under a hardware watchdog of N s (0: off) */
    u32 watchdog_erst;          /* watchdog_erst=on|off: the reset watchdog may keep its record in an ERST (flash) */
    bool watchdog_auto;         /* watchdog_s=auto (default): armed only where it is safe, for options_watchdog_s() */
    u32 cmos_first, cmos_last;  /* cmos=FIRST-LAST: CMOS bytes for the records (0: not given) */
    char restore_skip[24];      /* restore_skip=TEXT: ledger entries whose name holds TEXT are left changed (testing) */
    u32 timeout_hang;           /* timeout_hang=: enum timeout_hang (suite timeout's time_limit on the boot CPU) */
    s64 init_delay_us;          /* init_delay_us=N; -1 = chosen by CPU family */
    u32 ap_timeout_ms;          /* ap_timeout_ms=N */
    u32 pmi_variant;            /* pmi=unmask-stopped|late|early: enum pmi_variant (0 = unmask-stopped) */
    u32 pmi_delivery;           /* pmi_delivery=fixed|nmi|both: enum pmi_delivery (pmu/options.h); both by default */
    char pmu_emulated[24];      /* pmu=emulated:KIND: the kind's name (emul/emul.h); empty = the real PMU */
    u32 pmu_emulated_kvm;       /* pmu=emulated:KIND@kvm: presented as a KVM guest's vPMU (hypervisor bit) */
    char pmu_part[32];          /* pmu_part=NAME: the emulated kind presents this part of the event catalog */
    u32 pmu_faults;             /* pmu_fault=NAME[,NAME]: enum pmu_model_fault bits (needs pmu=emulated) */
    u32 pmu_skid;               /* pmu_skid=N: the emulated PMU's PMI comes N instructions after the overflow */
    char pmu_lbr[16];           /* pmu_lbr=none|arch|amd|legacy:N: the emulated PMU's LBR; empty = the kind's own */
    char pmu_pebs[8];           /* pmu_pebs=none|N|Na: the emulated PMU's PEBS format; empty = the kind's own */
    u32 reset_types;            /* reset=cf9|kbc|triple|all: bit mask (enum reset_type); 0 = not given */
    u32 deviations_strict;      /* deviations=todo|strict: 0, 1 (known platform deviations FAIL) */
    u32 cpu_count;              /* cpus=ID,ID,...: explicit APIC IDs instead of the MADT; 0 = not given */
    u32 cpus[OPT_CPUS_MAX];
};

void options_default(struct options *o);

/* The reset watchdog outlasts the boot CPU's check limit by this much (watchdog_s= is refused otherwise). */
#define WATCHDOG_MARGIN_MS 3000
#define WATCHDOG_AUTO_S 120
/* The watchdog's seconds: watchdog_s=N, or with auto the longer of 120 s and the check limit + the margin. */
u32 options_watchdog_s(const struct options *o);

/* For an option with a fixed set of values: *out = the index of v in names (a NULL-terminated list) and NULL, or
 * `why` ("expects a, b or c") when v is none of them. */
const char *opt_choice(const char *v, const char *const *names, u32 *out, const char *why);
/* A decimal number in [min, max] (no sign, no trailing text). */
bool opt_u32(const char *s, u32 *out, u32 min, u32 max);

struct opt_desc {
    const char *name;
    const char *syntax;
    const char *help;
    /* Returns NULL on success or a message describing what is wrong with value. */
    const char *(*set)(struct options *o, const char *value);
};
struct opt_table {
    const struct opt_desc *opts;
    u32 count;
    /* Rules between options, checked once every word is read (NULL: none): false with err filled. */
    bool (*consistent)(const struct options *o, char *err, size_t err_size);
};
/* Options of a layer above: parsed and listed (after the base ones) from then on. Adding a table twice is
 * harmless. The composition adds them before the first cmdline_parse (tests/main.c; the host tests too). */
void cmdline_add_options(const struct opt_table *t);

/* Parse cmdline into *o (which must hold defaults). Returns true on success; on failure err holds one line
 * naming the offending word and what was wrong: whole in CMDLINE_ERROR_MAX bytes; in a smaller err it ends with
 * "..." where it was cut. */
bool cmdline_parse(const char *cmdline, struct options *o, char *err, size_t err_size);

/* The help table: call emit once per option with its syntax and description. */
void cmdline_help(void (*emit)(const char *syntax, const char *help, void *ctx), void *ctx);

/* Iterate a comma-separated list: copies the next item into item, returns false at the end. */
bool list_next(const char **cursor, char *item, size_t item_size);
bool list_contains(const char *list, const char *name);
