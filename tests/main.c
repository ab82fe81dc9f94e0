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
#include "kernel/boot_state.h"
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
#include "tests/main_boot_early.h"
#include "tests/reset/portable/reset_options.h"
#include "tests/suites.h"
#include "tests/timeout/portable/timeout_options.h"
#include "harness/portable/harness_options.h"
#include "kernel/portable/kernel_options.h"

extern const struct suite suite_machine; /* tests/machine: last, always */

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
    struct boot_state *bs = boot_state_fill(); /* filled here, before any AP starts; read only after */
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
    bootinfo_parse(&bs->info, magic, info_phys, &low4g);
    memory_init(&bs->info); /* before anything maps above 4 GiB: page tables come from early_alloc */
    fbcon_init(&bs->info);  /* the screen mirrors the console from the first line on */
    /* Each layer's options (a table and the struct it fills, owned by that layer), parsed in one pass. */
    cmdline_add_options(&kernel_option_table);
    cmdline_add_options(&harness_option_table);
    cmdline_add_options(&pmu_option_table);
    cmdline_add_options(&emul_option_table);
    cmdline_add_options(&timeout_option_table);
    cmdline_add_options(&reset_option_table);
    options_default(&bs->options);
    suites_register(all_suites, all_suites_count);
    bool cmdline_ok = cmdline_parse(bs->info.cmdline, &bs->options, bs->cmdline_error, sizeof(bs->cmdline_error)) &&
                      suites_validate(harness_options()->suites, harness_options()->exclude, bs->cmdline_error, sizeof(bs->cmdline_error));
    /* Early: the SPCR may name the console; the clocks need the FADT and HPET tables, enumeration the MADT. */
    acpi_discover(&g_acpi, &phys_all, &bs->info); /* tables above 4 GiB are mapped as they are read */
    console_setup(&bs->options, &g_acpi, &phys_all);
    cpu_ident_decode(&bs->ident, &cpuid_hw);
    check_deviations_strict = harness_options()->deviations_strict;
    ledger_set_skip(kernel_options()->restore_skip);
    if (cmdline_ok)
        pmu_emul_boot();

    report_begin(harness_options()->verbose, kernel_options()->exit);
    tap_report_header(&bs->info, &bs->options, &bs->ident);
    console_report();
    fbcon_report();
    paging_report();
    if (!cmdline_ok) {
        report_comment("command line rejected: %s", bs->cmdline_error);
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
    if (harness_options()->monitor && timing.tsc_hz)
        serial_pace(timing.tsc_hz * 10 / serial_baud());
    apic_choose_mode((enum apic_request)kernel_options()->apic, bs->apic_mode_error, sizeof(bs->apic_mode_error));
    suites_run_one(&boot_apic_mode_suite);
    smp_init_bsp();
    pmi_kernel_init();
    enumerate_cpus(kernel_options());
    smp_bring_up(kernel_options()->smp_serial ? SMP_SERIAL : SMP_PARALLEL, kernel_options()->init_delay_us,
                 kernel_options()->ap_timeout_ms);
    report_comment("apic: %s; tsc: %llu kHz from %s%s", apic_mode_name(apic_mode()),
                   (unsigned long long)(timing.tsc_hz / 1000), timing.choice.summary,
                   timing.choice.trusted ? "" : " NOT TRUSTED (boot/clocks)");
    report_comment("smp: %u of %u CPUs online (%s), %s bring-up %llu us from the first INIT", smp_online_count(),
                   smp.count, smp.enumeration, smp.mode == SMP_SERIAL ? "serial" : "parallel",
                   (unsigned long long)(smp.count > 1 ? tsc_to_us(smp.all_online_tsc - smp.first_init_tsc) : 0));
    report_comment("memory: %llu KiB taken from the memory map (per-CPU state %llu bytes and stacks %u bytes a CPU)",
                   (unsigned long long)(memory_allocated() / 1024), (unsigned long long)percpu_bytes_per_cpu(),
                   CPU_STACKS_BYTES);
    if (!g_acpi.has_rsdp && !kernel_options()->cpu_count) /* the one place a reader of the header sees why one CPU */
        report_comment("%s", g_acpi.no_rsdp);

    smp_run_on_each(pmu_cpu_discover, NULL); /* before any check writes a PMU register */
    pmu_emul_report_cores();
    report_comment("persist: %s", g_records.erst);
    hang_guard_boot(); /* the watchdog around the boot CPU's checks, and what an earlier boot left (hang_guard.h) */

    suites_run(harness_options()->suites, harness_options()->exclude);
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
