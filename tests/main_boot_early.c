/* kmain's two checks that run before the runner can: the command line, as soon as it is parsed (a bad option
 * ends the run with a message, not a hang), and the APIC mode, as soon as it is chosen. kmain (tests/main.c)
 * runs them at those points, so they live beside it; they report under suite boot, whose other checks are
 * tests/boot/suite_boot.c. */
#include "tests/main_boot_early.h"

#include "apic/apic.h"
#include "kernel/boot_state.h"

/* The command line as a check of its own, so a bad option is a failed run with a message, not a hang. */
static void cmdline_check(struct check *c)
{
    bool parsed = !boot_state()->cmdline_error[0];
    check_note(c, "cmdline", "%s", boot_state()->info.cmdline);
    if (boot_state()->options.image[0])
        check_note(c, "image", "%s", boot_state()->options.image);
    expect_true(c, "parse", parsed, "every word a known option with a valid value", "%s",
                parsed ? "every word a known option with a valid value" : boot_state()->cmdline_error);
}

/* apic=x2apic on a CPU without x2APIC (or apic=xapic after firmware enabled x2APIC) cannot be honoured: that
 * is a failed request, not a silent fallback to the other mode. */
static void apic_mode_check(struct check *c)
{
    check_note(c, "active", "%s", apic_mode_name(apic_mode()));
    expect_true(c, "apic= request honoured", !boot_state()->apic_mode_error[0], "yes", "%s",
                boot_state()->apic_mode_error[0] ? boot_state()->apic_mode_error : "yes");
}

static const struct check_def cmdline_checks[] = {{"cmdline", cmdline_check, SCOPE_GLOBAL, NO_FAULT}};
static const struct check_def apic_mode_checks[] = {{"apic_mode", apic_mode_check, SCOPE_GLOBAL, NO_FAULT}};
const struct suite boot_cmdline_suite = {"boot", "command line", true, SUITE_CHECKS(cmdline_checks)};
const struct suite boot_apic_mode_suite = {"boot", "APIC mode", true, SUITE_CHECKS(apic_mode_checks)};
