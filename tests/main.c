/* kmain: from the long-mode entry to the end of the run. */
#include "apic/apic.h"
#include "kernel/console.h"
#include "kernel/console_setup.h"
#include "kernel/fbcon.h"
#include "kernel/enumerate.h"
#include "kernel/record_store.h"
#include "kernel/singlestep.h"
#include "kernel/smp.h"
#include "harness/hang_guard.h"
#include "kernel/serial.h"
#include "kernel/timing.h"
#include "kernel/cpuid_hw.h"
#include "kernel/globals.h"
#include "kernel/ledger.h"
#include "kernel/memory.h"
#include "kernel/paging.h"
#include "kernel/percpu.h"
#include "kernel/percpu_array.h"
#include "pmu/kernel/pmi_kernel.h"
#include "pmu/kernel/pmu_cpu.h"
#include "emul/kernel/pmu_emul.h"
#include "harness/report.h"
#include "kernel/traps.h"
#include "kernel/x86.h"
#include "emul/options.h"
#include "pmu/options.h"
#include "harness/catch.h"
#include "harness/framework.h"
#include "harness/tap_report.h"
#include "tests/boot/boot_early.h"

extern const struct suite suite_machine; /* tests/machine: last, always */

struct boot_info g_boot;
struct options g_options;
struct cpu_ident g_ident;
char apic_mode_error[160];
char g_cmdline_error[CMDLINE_ERROR_MAX];

/* Legacy 8259 PICs: mask every line before interrupts are ever enabled. SeaBIOS leaves IRQ0 unmasked on
 * vector 8, which would look like a double fault (SeaBIOS pic_setup, clock_setup; Intel 8259A datasheet OCW1). */
static void pic_mask_all(void)
{
    outb(0x21, 0xFF);
    outb(0xA1, 0xFF);
}

static void help_row(const char *syntax, const char *help, void *ctx)
{
    (void)ctx;
    report_comment("  %-26s %s", syntax, help);
}


void kmain(u32 magic, u32 info_phys);
void kmain(u32 magic, u32 info_phys)
{
    idt_init();
    trap_add_claim(1, singlestep_trap); /* the single-step oracle's #DB (kernel/singlestep.h) */
    catch_install(); /* a fault or stop NMI inside a check, and a fatal error, go to the harness (harness/catch.h) */
    cpu_local_init(0, 0);
    ledger_snapshot_cmos(); /* before anything writes CMOS: suite machine compares the end with it */
    pic_mask_all();
    struct uart_desc com1;
    uart_com(&com1, 0, 115200);
    console_init(&com1); /* until the command line and ACPI say otherwise */

    const struct phys_window low4g = {0, 1ull << 32, (const u8 *)0, NULL};
    bootinfo_parse(&g_boot, magic, info_phys, &low4g);
    memory_init(&g_boot); /* before anything maps above 4 GiB: page tables come from early_alloc */
    fbcon_init(&g_boot);  /* the screen mirrors the console from the first line on */
    options_default(&g_options);
    cmdline_add_options(&pmu_options); /* the options of the layers above lib/ */
    cmdline_add_options(&emul_options);
    bool cmdline_ok = cmdline_parse(g_boot.cmdline, &g_options, g_cmdline_error, sizeof(g_cmdline_error)) &&
                      suites_validate(g_options.suites, g_options.exclude, g_cmdline_error, sizeof(g_cmdline_error));
    /* Early: the SPCR may name the console; the clocks need the FADT and HPET tables, enumeration the MADT. */
    acpi_discover(&g_acpi, &phys_all, &g_boot); /* tables above 4 GiB are mapped as they are read */
    console_setup(&g_options, &g_acpi, &phys_all);
    cpu_ident_decode(&g_ident, &cpuid_hw);
    check_deviations_strict = g_options.deviations_strict;
    ledger_set_skip(g_options.restore_skip);
    if (cmdline_ok)
        pmu_emul_boot();

    report_begin(g_options.verbose, g_options.exit);
    tap_report_header(&g_boot, &g_options, &g_ident);
    console_report();
    fbcon_report();
    paging_report();
    if (!cmdline_ok) {
        report_comment("command line rejected: %s", g_cmdline_error);
        report_comment("valid options:");
        cmdline_help(help_row, NULL);
        suites_list();
        suites_run_one(&boot_cmdline_suite);
        tap_report_finish();
    }
    suites_run_one(&boot_cmdline_suite);

    timing_init(&g_acpi);
    record_store_init(); /* before the APs start: the ERST may need mappings (kernel/erst_store.h) */
    /* monitor=lava: the serial line at its baud rate even where the UART is emulated (kernel/serial.h). */
    if (g_options.monitor && timing.tsc_hz)
        serial_pace(timing.tsc_hz * 10 / serial_baud());
    apic_choose_mode((enum apic_request)g_options.apic, apic_mode_error, sizeof(apic_mode_error));
    suites_run_one(&boot_apic_mode_suite);
    smp_init_bsp();
    pmi_kernel_init();
    enumerate_cpus(&g_options);
    smp_bring_up(g_options.smp_serial ? SMP_SERIAL : SMP_PARALLEL, g_options.init_delay_us,
                 g_options.ap_timeout_ms);
    report_comment("apic: %s; tsc: %llu kHz from %s%s", apic_mode_name(apic_mode()),
                   (unsigned long long)(timing.tsc_hz / 1000), timing.choice.summary,
                   timing.choice.trusted ? "" : " NOT TRUSTED (boot/clocks)");
    report_comment("smp: %u of %u CPUs online (%s), %s bring-up %llu us from the first INIT", smp_online_count(),
                   smp.count, smp.enumeration, smp.mode == SMP_SERIAL ? "serial" : "parallel",
                   (unsigned long long)(smp.count > 1 ? tsc_to_us(smp.all_online_tsc - smp.first_init_tsc) : 0));
    report_comment("memory: %llu KiB taken from the memory map (per-CPU state %llu bytes and stacks %u bytes a CPU)",
                   (unsigned long long)(memory_allocated() / 1024), (unsigned long long)percpu_bytes_per_cpu(),
                   CPU_STACKS_BYTES);
    if (!g_acpi.has_rsdp && !g_options.cpu_count) /* the one place a reader of the header sees why one CPU */
        report_comment("%s", g_acpi.no_rsdp);

    smp_run_on_each(pmu_cpu_discover, NULL); /* before any check writes a PMU register */
    pmu_emul_report_cores();
    report_comment("persist: %s", g_records.erst);
    hang_guard_boot(); /* the watchdog around the boot CPU's checks, and what an earlier boot left (hang_guard.h) */

    suites_run(g_options.suites, g_options.exclude);
    suites_after_run();
    hang_guard_finish();
    /* Every change put back, then read back by suite machine: each thread's PMU as the firmware left it, on the thread
     * itself; then the ledger's. */
    if (!ledger_skips("PMU registers"))
        smp_run_on_each(pmu_cpu_restore_entry, NULL);
    ledger_restore_all();
    suites_run_one(&suite_machine);
    tap_report_finish();
}
