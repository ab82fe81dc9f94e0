/* The kernel's command-line options (docs/options.md): exit=, apic=, smp=, screen=, cmos=, restore_skip=, cpus=,
 * init_delay_us=, ap_timeout_ms=. Portable (no hardware: the host tests parse them), parsed in the one pass of
 * lib/cmdline.c once tests/main.c has added the table; read through kernel_options(). */
#pragma once
#include "lib/cmdline.h"

#define OPT_CPUS_MAX 512 /* APIC IDs a cpus= list may name (a command line holds no more) */

struct kernel_options {
    enum exit_mode exit;        /* exit=qemu|halt|reboot */
    u32 apic;                   /* apic=auto|xapic|x2apic: 0, 1, 2 (enum apic_request) */
    u32 smp_serial;             /* smp=parallel|serial: 0, 1 */
    u32 screen_log;             /* screen=grid|log: 0 the final screen with the result's QR codes, 1 the mirror only */
    u32 cmos_first, cmos_last;  /* cmos=FIRST-LAST: CMOS bytes for the records (0: not given) */
    char restore_skip[24];      /* restore_skip=TEXT: ledger entries whose name holds TEXT are left changed (testing) */
    s64 init_delay_us;          /* init_delay_us=N; -1 = chosen by CPU family */
    u32 ap_timeout_ms;          /* ap_timeout_ms=N */
    u32 cpu_count;              /* cpus=ID,ID,...: explicit APIC IDs instead of the MADT; 0 = not given */
    u32 cpus[OPT_CPUS_MAX];
};

extern const struct opt_table kernel_option_table;
const struct kernel_options *kernel_options(void);
