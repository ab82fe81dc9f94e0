/* The kernel command line (lib/cmdline.c): defaults, every option's values, the image path QEMU -kernel
 * puts first (QEMU hw/i386/multiboot.c load_multiboot), and one clear error naming the offending word for every
 * bad input. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cmdline.h"
#include "lib/yaml_lines.h"
#include "emul/emul.h"
#include "emul/model/pmu_model.h"
#include "emul/options.h"
#include "harness/portable/harness_options.h"
#include "kernel/portable/kernel_options.h"
#include "pmu/options.h"
#include "pmu/pmi.h"
#include "tests/reset/portable/reset_options.h"
#include "tests/timeout/portable/timeout_options.h"

/* Every option cmdline.h documents; each must be accepted and appear in the help table. */
static const char *const option_names[] = {"suite", "exclude", "verbose", "exit", "console", "reset", "pmu",
                                           "pmu_fault", "deviations"};

/* Every layer's table, as tests/main.c adds them. */
static void add_tables(void)
{
    cmdline_add_options(&kernel_option_table);
    cmdline_add_options(&harness_option_table);
    cmdline_add_options(&pmu_option_table);
    cmdline_add_options(&emul_option_table);
    cmdline_add_options(&timeout_option_table);
    cmdline_add_options(&reset_option_table);
}

static bool parse(const char *line, struct options *o, char *err, size_t err_size)
{
    add_tables();
    options_default(o);
    return cmdline_parse(line, o, err, err_size);
}

static void expect_ok(const char *line, struct options *o)
{
    char err[200];
    if (!parse(line, o, err, sizeof(err)))
        fail_msg("\"%s\" rejected: %s", line, err);
    assert_string_equal(err, "");
}

/* The command line must be refused with a message naming `word` (and `extra`, when given). */
static void expect_error(const char *line, const char *word, const char *extra)
{
    struct options o;
    char err[200];
    memset(err, 'x', sizeof(err));
    if (parse(line, &o, err, sizeof(err)))
        fail_msg("\"%s\" was accepted; expected an error naming '%s'", line, word);
    assert_true(strnlen(err, sizeof(err)) < sizeof(err));
    if (!strstr(err, word))
        fail_msg("error for \"%s\" does not name '%s': %s", line, word, err);
    if (extra && !strstr(err, extra))
        fail_msg("error for \"%s\" does not say '%s': %s", line, extra, err);
}

static void test_defaults(void **state)
{
    (void)state;
    struct options o;
    memset(&o, 0xa5, sizeof(o));
    add_tables();
    options_default(&o);
    assert_int_equal(harness_options()->verbose, 1);
    assert_int_equal(kernel_options()->exit, EXIT_HALT);
    assert_int_equal(o.console_port, 0);
    assert_int_equal(o.console_baud, 115200);
    assert_string_equal(o.image, "");
    assert_string_equal(harness_options()->suites, "");
    assert_string_equal(harness_options()->exclude, "");
}

static void test_null_and_empty(void **state)
{
    (void)state;
    struct options o, d;
    options_default(&d);
    static const char *const lines[] = {"", " ", "\t\n\r  \t", NULL};
    for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
        char err[64];
        memset(err, 'x', sizeof(err));
        assert_true(parse(lines[i], &o, err, sizeof(err)));
        assert_string_equal(err, "");
        assert_memory_equal(&o, &d, sizeof(o)); /* nothing changed */
    }
    options_default(&o);
    assert_true(cmdline_parse(NULL, &o, NULL, 0)); /* no error buffer at all */
    assert_false(cmdline_parse("bogus=1", &o, NULL, 0));
}

static void test_verbose_values(void **state)
{
    (void)state;
    struct options o;
    expect_ok("verbose=0", &o);
    assert_int_equal(harness_options()->verbose, 0);
    expect_ok("verbose=1", &o);
    assert_int_equal(harness_options()->verbose, 1);
    expect_ok("verbose=2", &o);
    assert_int_equal(harness_options()->verbose, 2);
}

static void test_exit_values(void **state)
{
    (void)state;
    struct options o;
    expect_ok("exit=qemu", &o);
    assert_int_equal(kernel_options()->exit, EXIT_QEMU);
    expect_ok("exit=reboot", &o);
    assert_int_equal(kernel_options()->exit, EXIT_REBOOT);
    expect_ok("exit=qemu exit=halt", &o);
    assert_int_equal(kernel_options()->exit, EXIT_HALT);
}

static void test_console_values(void **state)
{
    (void)state;
    struct options o;
    for (u32 port = 0; port <= 3; port++) {
        char line[32];
        snprintf(line, sizeof(line), "console=ttyS%u", port);
        expect_ok(line, &o);
        assert_int_equal(o.console_port, port);
        assert_int_equal(o.console_baud, 115200);
    }
    /* Every standard rate the 16550's 115200/divisor can produce. */
    static const u32 bauds[] = {115200, 57600, 38400, 19200, 9600, 4800, 2400, 1200, 600, 300, 150};
    for (size_t i = 0; i < sizeof(bauds) / sizeof(bauds[0]); i++) {
        char line[32];
        snprintf(line, sizeof(line), "console=ttyS2,%u", bauds[i]);
        expect_ok(line, &o);
        assert_int_equal(o.console_port, 2);
        assert_int_equal(o.console_baud, bauds[i]);
    }
}

/* console=auto and the explicit UARTs in Linux's earlycon syntax (lib/uart.h). */
static void test_console_uart_values(void **state)
{
    (void)state;
    struct options o;
    options_default(&o);
    assert_int_equal(o.console_kind, CONSOLE_AUTO);
    assert_string_equal(o.console, "auto");
    expect_ok("console=ttyS1 console=auto", &o);
    assert_int_equal(o.console_kind, CONSOLE_AUTO);
    expect_ok("console=ttyS1,9600", &o);
    assert_int_equal(o.console_kind, CONSOLE_TTYS);
    assert_string_equal(o.console, "ttyS1,9600");

    expect_ok("console=uart,io,0x2f8,115200", &o);
    assert_int_equal(o.console_kind, CONSOLE_UART);
    assert_int_equal(o.console_uart.space, UART_SPACE_IO);
    assert_int_equal(o.console_uart.base, 0x2f8);
    assert_int_equal(o.console_uart.reg_shift, 0);
    assert_int_equal(o.console_uart.access_bytes, 1);
    assert_int_equal(o.console_uart.baud, 115200);
    assert_string_equal(o.console, "uart,io,0x2f8,115200");

    expect_ok("console=uart8250,mmio32,0xfe030000,115200n8", &o);
    assert_int_equal(o.console_uart.space, UART_SPACE_MMIO);
    assert_int_equal(o.console_uart.base, 0xfe030000u);
    assert_int_equal(o.console_uart.reg_shift, 2);
    assert_int_equal(o.console_uart.access_bytes, 4);
    assert_int_equal(o.console_uart.baud, 115200);

    expect_ok("console=uart,mmio,0xfedc9000", &o); /* no options: the firmware's settings are kept */
    assert_int_equal(o.console_uart.reg_shift, 0);
    assert_int_equal(o.console_uart.access_bytes, 1);
    assert_int_equal(o.console_uart.baud, 0);
    expect_ok("console=uart,mmio16,0xfedc9000,57600", &o);
    assert_int_equal(o.console_uart.reg_shift, 1);
    assert_int_equal(o.console_uart.access_bytes, 2);
    expect_ok("console=uart8250,0xfedc9000,9600", &o); /* a bare address means mmio */
    assert_int_equal(o.console_uart.space, UART_SPACE_MMIO);
    assert_int_equal(o.console_uart.baud, 9600);
    expect_ok("console=uart,io,760", &o); /* decimal 0x2f8 */
    assert_int_equal(o.console_uart.base, 0x2f8);

    expect_error("console=uart", "console=uart", "uart[8250]");
    expect_error("console=uart,io", "console=uart,io", "address");
    expect_error("console=uart,io,", "console=uart,io,", "number");
    expect_error("console=uart,io,0x10000", "0x10000", "0xfff8");
    expect_error("console=uart,mmio32,0x100000000", "0x100000000", "4 GiB");
    expect_error("console=uart,mmio32,0xfffffffc", "0xfffffffc", "4 GiB");
    expect_error("console=uart,mmio32,0xfe030002", "0xfe030002", "aligned");
    expect_error("console=uart,mmio,0", "mmio,0", "non-zero");
    expect_error("console=uart,mmio32be,0xfe030000", "mmio32be", "big-endian");
    expect_error("console=uart,pio,0x3f8", "pio", "I/O type");
    expect_error("console=uart,io,0x3f8,fast", "fast", "baud");
    expect_error("console=uart,io,0x3f8,115200e7", "115200e7", "baud");
    expect_error("console=uart,io,0x3f8,10", "0x3f8,10", "baud");
    expect_error("console=uart,io,0xfffffffffffffffff", "0xfffffffffffffffff", "number");
    expect_error("console=ttyS9", "ttyS9", "ttyS0..ttyS3");
    expect_error("console=serial0", "serial0", "auto");
}

static void test_suite_and_exclude_values(void **state)
{
    (void)state;
    struct options o;
    expect_ok("suite=pmu", &o);
    assert_string_equal(harness_options()->suites, "pmu");
    expect_ok("suite=pmu,apic-timer,fixed_ctr0,x2", &o);
    assert_string_equal(harness_options()->suites, "pmu,apic-timer,fixed_ctr0,x2");
    assert_string_equal(harness_options()->exclude, "");
    expect_ok("exclude=nmi,lvt", &o);
    assert_string_equal(harness_options()->exclude, "nmi,lvt");
    assert_string_equal(harness_options()->suites, "");
    expect_ok("suite=a exclude=b", &o);
    assert_string_equal(harness_options()->suites, "a");
    assert_string_equal(harness_options()->exclude, "b");
}

static void test_qemu_image_path_skipped(void **state)
{
    (void)state;
    struct options o;
    expect_ok("/x/build/pmuboot.elf exit=qemu", &o);
    assert_string_equal(o.image, "/x/build/pmuboot.elf");
    assert_int_equal(kernel_options()->exit, EXIT_QEMU);

    expect_ok("pmuboot.elf verbose=2", &o);
    assert_string_equal(o.image, "pmuboot.elf");
    assert_int_equal(harness_options()->verbose, 2);

    expect_ok("build/pmuboot.elf", &o); /* -kernel without -append */
    assert_string_equal(o.image, "build/pmuboot.elf");

    expect_ok("  /boot/pmuboot  console=ttyS1 ", &o);
    assert_string_equal(o.image, "/boot/pmuboot");
    assert_int_equal(o.console_port, 1);

    /* Only the first word can be the image: a path later on is an unknown option. */
    expect_error("exit=qemu /x/pmuboot.elf", "/x/pmuboot.elf", NULL);
    expect_error("/x/pmuboot.elf /y/other.elf", "/y/other.elf", NULL);
}

static void test_grub_style_args(void **state)
{
    (void)state;
    struct options o;
    expect_ok("exit=qemu verbose=0 console=ttyS0,9600 suite=pmu", &o); /* GRUB passes the args only */
    assert_string_equal(o.image, "");
    assert_int_equal(kernel_options()->exit, EXIT_QEMU);
    assert_int_equal(harness_options()->verbose, 0);
    assert_int_equal(o.console_port, 0);
    assert_int_equal(o.console_baud, 9600);
    assert_string_equal(harness_options()->suites, "pmu");
}

static void test_blanks(void **state)
{
    (void)state;
    struct options o;
    expect_ok(" \t exit=reboot\n\tverbose=2 \r\n  console=ttyS3,57600\t", &o);
    assert_int_equal(kernel_options()->exit, EXIT_REBOOT);
    assert_int_equal(harness_options()->verbose, 2);
    assert_int_equal(o.console_port, 3);
    assert_int_equal(o.console_baud, 57600);
}

static void test_last_one_wins(void **state)
{
    (void)state;
    struct options o;
    expect_ok("verbose=0 verbose=2", &o);
    assert_int_equal(harness_options()->verbose, 2);
    expect_ok("verbose=2 verbose=0", &o);
    assert_int_equal(harness_options()->verbose, 0);
    expect_ok("suite=a,b suite=c", &o);
    assert_string_equal(harness_options()->suites, "c");
    expect_ok("exclude=abcdef exclude=x", &o); /* a shorter value replaces a longer one entirely */
    assert_string_equal(harness_options()->exclude, "x");
    expect_ok("console=ttyS1,9600 console=ttyS2", &o); /* the whole option is replaced, baud included */
    assert_int_equal(o.console_port, 2);
    assert_int_equal(o.console_baud, 115200);
}

static void test_unknown_words(void **state)
{
    (void)state;
    expect_error("nonsense=1", "nonsense", NULL);
    expect_error("exit=qemu nonsense=1", "nonsense", NULL);
    expect_error("foo", "foo", NULL);
    expect_error("verbose=1 foo", "foo", NULL);
    expect_error("verbose", "verbose", NULL); /* a known name without '=' */
    expect_error("=1", "=1", NULL);
    expect_error("Verbose=1", "Verbose", NULL); /* names are case-sensitive */
}

static void test_bad_values(void **state)
{
    (void)state;
    expect_error("verbose=3", "verbose=3", NULL);
    expect_error("verbose=", "verbose=", NULL);
    expect_error("verbose=1x", "verbose=1x", NULL);
    expect_error("verbose=-1", "verbose=-1", NULL);
    expect_error("verbose=99999999999999999999", "verbose=99999999999999999999", NULL);
    expect_error("exit=maybe", "exit=maybe", NULL);
    expect_error("exit=", "exit=", NULL);
    expect_error("exit=QEMU", "exit=QEMU", NULL);
    expect_error("console=ttyS4", "console=ttyS4", NULL);
    expect_error("console=ttyS10", "console=ttyS10", NULL);
    expect_error("console=ttyS0,123", "console=ttyS0,123", NULL);
    expect_error("console=ttyS0,", "console=ttyS0,", NULL);
    expect_error("console=ttyS0,0", "console=ttyS0,0", NULL);
    expect_error("console=ttyS0,230400", "console=ttyS0,230400", NULL);
    expect_error("console=ttyS0,9600x", "console=ttyS0,9600x", NULL);
    expect_error("console=ttyS0,1X", "console=ttyS0,1X", NULL); /* a digit check by range: "1X" is not 50 */
    expect_error("verbose=0x1", "verbose=0x1", NULL);
    expect_error("console=ttyUSB0", "console=ttyUSB0", NULL);
    expect_error("console=", "console=", NULL);
    expect_error("console=ttyS", "console=ttyS", NULL);
    expect_error("suite=", "suite=", NULL);
    expect_error("suite=a,,b", "suite=a,,b", NULL);
    expect_error("suite=a,", "suite=a,", NULL);
    expect_error("suite=,a", "suite=,a", NULL);
    expect_error("suite=A", "suite=A", NULL);
    expect_error("suite=pmu;apic", "suite=pmu;apic", NULL);
    expect_error("exclude=a,,b", "exclude=a,,b", NULL);
    /* An error after good words still names the bad one. */
    expect_error("pmuboot.elf exit=qemu verbose=7", "verbose=7", NULL);
}

/* run=, run_cpus= and check_timeout_ms= (harness/runner.c): values, defaults, and refusals naming the word. */
static void test_run_options(void **state)
{
    (void)state;
    struct options o;
    expect_ok("", &o);
    assert_int_equal(harness_options()->run_serial, 0);
    assert_int_equal(harness_options()->run_cpus, 0);
    assert_int_equal(harness_options()->check_timeout_ms, 20000);
    expect_ok("run=serial check_timeout_ms=500", &o);
    assert_int_equal(harness_options()->run_serial, 1);
    assert_int_equal(harness_options()->check_timeout_ms, 500);
    expect_ok("run_cpus=8", &o);
    assert_int_equal(harness_options()->run_cpus, 8);
    /* run_cpus= limits the parallel runner: with run=serial it would be ignored in silence. */
    expect_error("run=serial run_cpus=8", "run_cpus=8", "run=serial");
    expect_ok("run=serial run_cpus=auto", &o);
    /* fold=on (default) | off */
    assert_int_equal(harness_options()->fold, 1);
    expect_ok("fold=off", &o);
    assert_int_equal(harness_options()->fold, 0);
    expect_error("fold=no", "fold=no", "on or off");
    expect_ok("run=parallel run_cpus=auto", &o);
    assert_int_equal(harness_options()->run_serial, 0);
    assert_int_equal(harness_options()->run_cpus, 0);
    expect_error("run=both", "run=both", "parallel or serial");
    expect_error("run=", "run=", NULL);
    expect_error("run_cpus=0", "run_cpus=0", "auto");
    expect_error("run_cpus=8193", "run_cpus=8193", NULL);
    expect_error("check_timeout_ms=99", "check_timeout_ms=99", "100..600000");
    expect_error("check_timeout_ms=10s", "check_timeout_ms=10s", NULL);
}

static void test_long_words(void **state)
{
    (void)state;
    char line[400];
    /* 256 characters: one more than a word may have. */
    memset(line, 'x', sizeof(line));
    memcpy(line, "verbose=", 8);
    line[256] = '\0';
    expect_error(line, "verbose=xxxx", "longer than 255");

    /* 255 characters is still a word: a 249-character suite list is accepted in full. */
    memcpy(line, "suite=", 6);
    memset(line + 6, 'a', 249);
    line[255] = '\0';
    struct options o;
    expect_ok(line, &o);
    assert_int_equal(strlen(harness_options()->suites), 249);

    /* A long word after the image path, and an overlong error buffer that is too small to hold it all. */
    char err[16];
    memset(line, 'y', sizeof(line));
    memcpy(line, "pmuboot.elf ", 12);
    line[sizeof(line) - 1] = '\0';
    assert_false(parse(line, &o, err, sizeof(err)));
    assert_int_equal(strlen(err), sizeof(err) - 1);
}

static void test_list_next(void **state)
{
    (void)state;
    const char *c = "pmu,apic-timer,x";
    char item[16];
    assert_true(list_next(&c, item, sizeof(item)));
    assert_string_equal(item, "pmu");
    assert_true(list_next(&c, item, sizeof(item)));
    assert_string_equal(item, "apic-timer");
    assert_true(list_next(&c, item, sizeof(item)));
    assert_string_equal(item, "x");
    assert_false(list_next(&c, item, sizeof(item)));
    assert_false(list_next(&c, item, sizeof(item))); /* stays at the end */

    c = "";
    assert_false(list_next(&c, item, sizeof(item)));
    c = NULL;
    assert_false(list_next(&c, item, sizeof(item)));

    c = "abcdefgh,z"; /* item longer than the buffer: bounded copy, then the next item */
    char small[4];
    assert_true(list_next(&c, small, sizeof(small)));
    assert_string_equal(small, "abc");
    assert_true(list_next(&c, small, sizeof(small)));
    assert_string_equal(small, "z");
}

static void test_list_contains(void **state)
{
    (void)state;
    assert_true(list_contains("pmu,apic,nmi", "pmu"));
    assert_true(list_contains("pmu,apic,nmi", "apic"));
    assert_true(list_contains("pmu,apic,nmi", "nmi"));
    assert_false(list_contains("pmu,apic,nmi", "pm"));   /* whole items only */
    assert_false(list_contains("pmu,apic,nmi", "pmu,")); /* whole items only */
    assert_false(list_contains("pmu,apic,nmi", "apic,nmi"));
    assert_false(list_contains("pmu,apic,nmi", "nmix"));
    assert_false(list_contains("", "pmu"));
    assert_false(list_contains("pmu", ""));
    assert_true(list_contains("x", "x"));

    /* An item longer than any internal buffer must not match a name that is only its prefix. */
    char list[OPT_LIST_MAX], prefix[OPT_LIST_MAX];
    memset(list, 'q', 200);
    list[200] = '\0';
    memcpy(prefix, list, 63);
    prefix[63] = '\0';
    assert_false(list_contains(list, prefix));
    memcpy(prefix, list, 64);
    prefix[64] = '\0';
    assert_false(list_contains(list, prefix));
    assert_true(list_contains(list, list));
    strcat(list, ",tail");
    assert_true(list_contains(list, "tail"));
}

struct help_rows {
    int count;
    char syntax[64][64];
};

static void collect(const char *syntax, const char *help, void *ctx)
{
    struct help_rows *h = ctx;
    assert_non_null(syntax);
    assert_non_null(help);
    assert_true(strlen(help) > 0);
    assert_in_range(h->count, 0, (int)(sizeof(h->syntax) / sizeof(h->syntax[0])) - 1);
    snprintf(h->syntax[h->count], sizeof(h->syntax[0]), "%s", syntax);
    h->count++;
}

/* pmu=emulated:KIND and pmu_fault= (docs/emulated-pmu.md): kinds and faults by name, faults only with an
 * emulated PMU, whatever the order of the words. */
static void test_pmu_emulated(void **state)
{
    (void)state;
    struct options o;
    expect_ok("", &o);
    assert_string_equal(emul_options()->pmu_emulated, "");
    expect_ok("pmu=emulated:intel-v4", &o);
    assert_string_equal(emul_options()->pmu_emulated, "intel-v4");
    assert_int_equal(emul_options()->pmu_faults, 0);
    expect_ok("pmu_fault=lost-pmi,width pmu=emulated:knc", &o);
    assert_string_equal(emul_options()->pmu_emulated, "knc");
    assert_int_equal(emul_options()->pmu_faults, PMU_FAULT_LOST_PMI | PMU_FAULT_WIDTH);
    expect_ok("pmu=emulated:amd-v2 pmu=hardware", &o);
    assert_string_equal(emul_options()->pmu_emulated, "");
    assert_int_equal(emul_options()->pmu_emulated_kvm, 0);
    expect_ok("pmu=emulated:intel-v4@kvm", &o); /* presented as a KVM guest's vPMU */
    assert_string_equal(emul_options()->pmu_emulated, "intel-v4");
    assert_int_equal(emul_options()->pmu_emulated_kvm, 1);
    expect_ok("pmu=emulated:intel-v4@kvm pmu=emulated:knc", &o);
    assert_int_equal(emul_options()->pmu_emulated_kvm, 0);
    expect_error("pmu=emulated:intel-v4@xen", "pmu=emulated:intel-v4@xen", "[@kvm]");
    expect_error("pmu=emulated:@kvm", "pmu=emulated:@kvm", "intel-v1");
    expect_error("pmu=emulated:intel-v9", "pmu=emulated:intel-v9", "amd-core-ext");
    expect_error("pmu=emulated", "pmu=emulated", "intel-v1");
    expect_error("pmu=on", "pmu=on", "emulated:KIND");
    expect_error("pmu=emulated:knc pmu_fault=lost-pmi,nope", "nope", "lvtpc-no-mask");
    expect_error("pmu=emulated:knc pmu_fault=", "pmu_fault", NULL);
    expect_error("pmu_fault=lost-pmi", "pmu_fault", "pmu=emulated:KIND");
    /* pmu_skid=: 0..64 instructions, emulated PMU only. */
    expect_ok("pmu=emulated:intel-v4 pmu_skid=3", &o);
    assert_int_equal(emul_options()->pmu_skid, 3);
    expect_error("pmu=emulated:intel-v4 pmu_skid=65", "pmu_skid", "0..64");
    expect_error("pmu=emulated:intel-v4 pmu_skid=-1", "pmu_skid", "0..64");
    expect_error("pmu_skid=2", "pmu_skid", "pmu=emulated:KIND");
    /* pmu_lbr=: a kind of LBR that fits the kind. */
    expect_ok("pmu=emulated:intel-v4 pmu_lbr=legacy:6", &o);
    expect_ok("pmu=emulated:amd-v2 pmu_lbr=amd", &o);
    expect_ok("pmu=emulated:knc pmu_lbr=none", &o);
    expect_error("pmu=emulated:intel-v4 pmu_lbr=legacy:9", "pmu_lbr", "legacy:N");
    expect_error("pmu=emulated:amd-legacy pmu_lbr=amd", "pmu_lbr", "PerfMonV2");
    expect_error("pmu=emulated:intel-v1 pmu_lbr=legacy:3", "pmu_lbr", "PERF_CAPABILITIES");
    expect_error("pmu_lbr=arch", "pmu_lbr", "pmu=emulated:KIND");
    /* pmu_pebs=: a record format 0..5, adaptive from 4, Intel v2+ kinds. */
    expect_ok("pmu=emulated:intel-v4 pmu_pebs=2", &o);
    expect_ok("pmu=emulated:intel-v2 pmu_pebs=5a", &o);
    expect_error("pmu=emulated:intel-v4 pmu_pebs=3a", "pmu_pebs", "format 4");
    expect_error("pmu=emulated:intel-v4 pmu_pebs=6", "pmu_pebs", "0..5");
    expect_error("pmu=emulated:amd-v2 pmu_pebs=3", "pmu_pebs", "Intel");
    expect_error("pmu_pebs=3", "pmu_pebs", "pmu=emulated:KIND");
}

/* The boot/cmdline verdict's YAML line for err, as harness/framework.c's expect_true writes it into a check's 4 KiB
 * diagnostics (harness/framework.h diag_buf). */
static void verdict_line(struct strbuf *sb, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void verdict_line(struct strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    yaml_exact_v(sb, "parse", "every word a known option with a valid value", fmt, ap);
    va_end(ap);
}

/* A rejected value's message lists every valid value, whole: in the kernel's error buffer (CMDLINE_ERROR_MAX, as
 * the boot state's cmdline_error, kernel/boot_state.h) and in the check's YAML line; no buffer on the way cuts the list. */
static void test_error_lists_whole(void **state)
{
    (void)state;
    static const char *const lines[] = {"pmu=emulated:bogus", "pmu_fault=bogus", "pmu=emulated:knc pmu_fault=width,bogus",
                                        "pmu_fault=a-fault-name-longer-than-the-thirty-one-bytes-kept-of-it"};
    for (size_t l = 0; l < sizeof(lines) / sizeof(lines[0]); l++) {
        struct options o;
        char err[CMDLINE_ERROR_MAX];
        assert_false(parse(lines[l], &o, err, sizeof(err)));
        assert_true(strlen(err) < sizeof(err) - 1);
        /* Every name the option accepts, the last one included. */
        if (strstr(lines[l], "pmu_fault=")) {
            for (u32 i = 0; i < PMU_MODEL_FAULT_COUNT; i++)
                if (!strstr(err, pmu_model_fault_name(1u << i)))
                    fail_msg("\"%s\": the message lacks fault '%s': %s", lines[l], pmu_model_fault_name(1u << i), err);
        } else {
            const char *list = pmu_emul_kind_list();
            if (!strstr(err, list))
                fail_msg("\"%s\": the message lacks the whole list of kinds '%s': %s", lines[l], list, err);
        }
        char diag[4096];
        struct strbuf sb;
        sb_init(&sb, diag, sizeof(diag));
        verdict_line(&sb, "%s", err); /* as kmain's early cmdline check (tests/main_boot_early.c) */
        assert_false(sb.truncated);
        char want[CMDLINE_ERROR_MAX + 128];
        snprintf(want, sizeof(want), "\"parse\": {expected: \"every word a known option with a valid value\", observed: "
                                     "\"%s\", tolerance: exact}\n", err);
        assert_string_equal(diag, want);
    }
    /* A smaller buffer still says where the message was cut. */
    struct options o;
    char small[64];
    assert_false(parse("pmu_fault=bogus", &o, small, sizeof(small)));
    assert_int_equal(strlen(small), sizeof(small) - 1);
    assert_string_equal(small + sizeof(small) - 4, "...");
}

/* The YAML writers escape a formatted value in place: quotes, backslashes and newlines, and a value that outgrows
 * the buffer marks it truncated instead of being cut in silence. */
static void yaml_note_f(struct strbuf *sb, const char *key, const char *fmt, ...) PRINTF_LIKE(3, 4);
static void yaml_note_f(struct strbuf *sb, const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    yaml_note_v(sb, key, fmt, ap);
    va_end(ap);
}

static void test_yaml_formatted_values(void **state)
{
    (void)state;
    char buf[128];
    struct strbuf sb;
    sb_init(&sb, buf, sizeof(buf));
    yaml_note_f(&sb, "k", "a \"%s\" \\ %d\nend", "q", 7);
    assert_string_equal(buf, "\"k\": \"a \\\"q\\\" \\\\ 7\\nend\"\n");
    sb_init(&sb, buf, 24);
    yaml_note_f(&sb, "k", "%s", "0123456789\"\"\"\"\"\"");
    assert_true(sb.truncated);
    assert_true(strlen(buf) < 24);
    sb_init(&sb, buf, 16);
    yaml_note_f(&sb, "k", "%s", "a value longer than the buffer");
    assert_true(sb.truncated);
}

/* monitor=lava: a result line per check and thread, so no folding; fold=on after it is refused. */
static void test_monitor_values(void **state)
{
    (void)state;
    struct options o;
    expect_ok("monitor=lava", &o);
    assert_int_equal(harness_options()->monitor, 1);
    assert_int_equal(harness_options()->fold, 0);
    expect_ok("monitor=none", &o);
    assert_int_equal(harness_options()->fold, 1);
    expect_error("monitor=lava fold=on", "monitor=lava", "fold=on");
    expect_error("monitor=jenkins", "monitor", "none or lava");
}

/* watchdog_s= (auto, 0 off, else 4..1200, and longer than the check limit), cmos= and timeout_hang= (suite timeout
 * only). */
static void test_watchdog_values(void **state)
{
    (void)state;
    struct options o;
    expect_ok("watchdog_s=0", &o);
    assert_int_equal(harness_watchdog_s(), 0);
    expect_ok("", &o);
    assert_true(harness_options()->watchdog_auto);
    assert_int_equal(harness_watchdog_s(), 120);
    expect_ok("check_timeout_ms=300000", &o); /* auto outlasts the check limit */
    assert_int_equal(harness_watchdog_s(), 303);
    expect_ok("watchdog_s=auto check_timeout_ms=500", &o);
    assert_int_equal(harness_watchdog_s(), 120);
    expect_ok("watchdog_s=4 check_timeout_ms=500", &o);
    assert_false(harness_options()->watchdog_auto);
    assert_int_equal(harness_watchdog_s(), 4);
    expect_error("watchdog_s=2", "watchdog_s=2", "4 s");
    expect_error("watchdog_s=5000", "watchdog_s", "4..1200");
    /* The reset watchdog never ends a check that the other CPUs' NMI would end: 20 s limit, 3 s margin. */
    expect_error("watchdog_s=22", "watchdog_s=22", "check_timeout_ms=20000");
    expect_ok("watchdog_s=23", &o);
    expect_error("watchdog_s=100 check_timeout_ms=600000", "watchdog_s=100", "raise watchdog_s to 603");
    expect_ok("cmos=0x70-0x7f", &o);
    assert_int_equal(kernel_options()->cmos_first, 0x70);
    assert_int_equal(kernel_options()->cmos_last, 0x7f);
    expect_ok("cmos=64-127", &o);
    assert_int_equal(kernel_options()->cmos_first, 0x40);
    expect_error("cmos=0x0e-0x1f", "cmos=", "0x40..0x7f");
    expect_error("cmos=0x2e-0x4f", "cmos=", "checksum");
    expect_error("cmos=0x70-0x7e", "cmos=", "at least 16 bytes");
    expect_error("cmos=0x70-0x80", "cmos=", "0..0x7f");
    expect_error("cmos=0x70", "cmos=", "FIRST-LAST");
    expect_error("cmos=-0x7f", "cmos=", "FIRST-LAST");
    expect_ok("suite=timeout timeout_hang=bsp", &o);
    assert_int_equal(timeout_options()->timeout_hang, TIMEOUT_HANG_BSP);
    expect_ok("suite=timeout timeout_hang=bsp-bail-out", &o);
    assert_int_equal(timeout_options()->timeout_hang, TIMEOUT_HANG_BSP_BAIL_OUT);
    expect_ok("suite=timeout timeout_hang=bsp-nmi-blocked", &o);
    assert_int_equal(timeout_options()->timeout_hang, TIMEOUT_HANG_BSP_NMI_BLOCKED);
    expect_ok("suite=timeout timeout_hang=none", &o);
    assert_int_equal(timeout_options()->timeout_hang, TIMEOUT_HANG_NONE);
    expect_error("timeout_hang=bsp", "timeout_hang", "suite=timeout");
    expect_error("timeout_hang=bsp-nmi-blocked", "timeout_hang", "suite=timeout");
    expect_error("suite=timeout timeout_hang=all", "timeout_hang", "none, bsp, bsp-nmi-blocked or bsp-bail-out");
}

/* reset=: one reset type or all, as a bit mask in enum reset_type order; only with suite reset selected. */
static void test_reset_values(void **state)
{
    (void)state;
    struct options o;
    expect_ok("suite=reset", &o);
    assert_int_equal(reset_options()->reset_types, 0);
    expect_ok("suite=reset reset=cf9", &o);
    assert_int_equal(reset_options()->reset_types, 1);
    expect_ok("suite=init,reset reset=kbc", &o);
    assert_int_equal(reset_options()->reset_types, 2);
    expect_ok("reset=triple suite=reset", &o);
    assert_int_equal(reset_options()->reset_types, 4);
    expect_ok("suite=reset reset=all", &o);
    assert_int_equal(reset_options()->reset_types, 7);
    expect_error("suite=reset reset=acpi", "reset=acpi", "cf9, kbc, triple or all");
    expect_error("reset=all", "reset=", "suite=reset");
    expect_error("suite=init reset=cf9", "reset=", "suite=reset");
}

/* deviations=: known platform deviations as TODO (default) or FAIL. */
static void test_deviations_values(void **state)
{
    (void)state;
    struct options o;
    expect_ok("verbose=1", &o);
    assert_int_equal(harness_options()->deviations_strict, 0);
    expect_ok("deviations=strict", &o);
    assert_int_equal(harness_options()->deviations_strict, 1);
    expect_ok("deviations=strict deviations=todo", &o);
    assert_int_equal(harness_options()->deviations_strict, 0);
    expect_error("deviations=fail", "deviations=fail", "todo or strict");
}

/* pmi= (pmu/options.c): the handler orders by name, "knc" as the first name of unmask-stopped; pmi_delivery=. */
static void test_pmi_options(void **state)
{
    (void)state;
    struct options o;
    expect_ok("verbose=1", &o);
    assert_int_equal(pmu_options()->pmi_variant, PMI_UNMASK_STOPPED);
    expect_ok("pmi=late", &o);
    assert_int_equal(pmu_options()->pmi_variant, PMI_LATE);
    expect_ok("pmi=early pmi=unmask-stopped", &o);
    assert_int_equal(pmu_options()->pmi_variant, PMI_UNMASK_STOPPED);
    expect_ok("pmi=late pmi=knc", &o);
    assert_int_equal(pmu_options()->pmi_variant, PMI_UNMASK_STOPPED);
    expect_error("pmi=no-stop", "pmi=no-stop", "unmask-stopped, late or early"); /* the negative control */
    expect_ok("", &o);
    assert_int_equal(pmu_options()->pmi_delivery, PMI_DELIVERY_BOTH);
    assert_true(pmi_delivery_runs(pmu_options()->pmi_delivery, false) && pmi_delivery_runs(pmu_options()->pmi_delivery, true));
    expect_ok("pmi_delivery=nmi", &o);
    assert_int_equal(pmu_options()->pmi_delivery, PMI_DELIVERY_NMI);
    assert_true(!pmi_delivery_runs(pmu_options()->pmi_delivery, false) && pmi_delivery_runs(pmu_options()->pmi_delivery, true));
    expect_ok("pmi_delivery=fixed", &o);
    assert_true(pmi_delivery_runs(pmu_options()->pmi_delivery, false) && !pmi_delivery_runs(pmu_options()->pmi_delivery, true));
    expect_error("pmi_delivery=smi", "pmi_delivery=smi", "both, fixed or nmi");
}

static void test_help_one_row_per_option(void **state)
{
    (void)state;
    struct help_rows h = {0};
    add_tables();
    cmdline_help(collect, &h);
    /* Every documented option has exactly one row, whose syntax starts "name=". */
    for (size_t i = 0; i < sizeof(option_names) / sizeof(option_names[0]); i++) {
        size_t len = strlen(option_names[i]);
        int rows = 0;
        for (int r = 0; r < h.count; r++)
            if (!strncmp(h.syntax[r], option_names[i], len) && h.syntax[r][len] == '=')
                rows++;
        if (rows != 1)
            fail_msg("option '%s' has %d help rows", option_names[i], rows);
    }
    /* Every row names an option the parser knows (the table may grow; no row without an option). */
    for (int r = 0; r < h.count; r++) {
        char name[64], line[80], err[160];
        const char *eq = strchr(h.syntax[r], '=');
        assert_non_null(eq);
        snprintf(name, sizeof(name), "%.*s", (int)(eq - h.syntax[r]), h.syntax[r]);
        snprintf(line, sizeof(line), "%s=", name); /* an empty value: any error must be a bad value */
        struct options o;
        if (!parse(line, &o, err, sizeof(err)) && strstr(err, "unknown"))
            fail_msg("help row '%s' names an option the parser rejects: %s", h.syntax[r], err);
        for (int s = 0; s < r; s++)
            if (!strncmp(h.syntax[s], name, strlen(name)) && h.syntax[s][strlen(name)] == '=')
                fail_msg("option '%s' has two help rows", name);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_null_and_empty),
        cmocka_unit_test(test_verbose_values),
        cmocka_unit_test(test_exit_values),
        cmocka_unit_test(test_console_values),
        cmocka_unit_test(test_console_uart_values),
        cmocka_unit_test(test_suite_and_exclude_values),
        cmocka_unit_test(test_qemu_image_path_skipped),
        cmocka_unit_test(test_grub_style_args),
        cmocka_unit_test(test_blanks),
        cmocka_unit_test(test_last_one_wins),
        cmocka_unit_test(test_unknown_words),
        cmocka_unit_test(test_bad_values),
        cmocka_unit_test(test_run_options),
        cmocka_unit_test(test_long_words),
        cmocka_unit_test(test_list_next),
        cmocka_unit_test(test_list_contains),
        cmocka_unit_test(test_reset_values),
        cmocka_unit_test(test_deviations_values),
        cmocka_unit_test(test_pmi_options), cmocka_unit_test(test_monitor_values), cmocka_unit_test(test_watchdog_values), cmocka_unit_test(test_help_one_row_per_option),
        cmocka_unit_test(test_pmu_emulated),
        cmocka_unit_test(test_error_lists_whole),
        cmocka_unit_test(test_yaml_formatted_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
