#include "tests/events/pmu_silent.h"

#include "lib/format.h"
#include "pmu/pmu.h"
#include "tests/events/portable/events_expect.h"

/* Under a hypervisor, a guest counter that never counts at all (reads 0 in every window that should count) is
 * most often held by the host, not counting wrongly: KVM backs each guest counter with a host perf event, which
 * does not count while the host's NMI watchdog or its own perf users hold the hardware counter (kvm-unit-tests
 * x86/pmu.c needs the host's nmi_watchdog=0 for that reason). When every miss of a check was on such silent
 * counters, that is the deviation (named, TODO; FAIL with deviations=strict); a counter that counts wrongly
 * stays a FAIL. The emulated PMU takes this path only when presented as a KVM guest's (pmu=emulated:KIND@kvm). */
void pmu_silent_counters_deviation(struct check *c, const struct pmu_caps *caps, u64 should_count, u64 counted,
                                   u64 missed_on)
{
    u64 silent = ew_silent_counters(should_count, counted, missed_on);
    if (!silent || !caps->hypervisor)
        return;
    char list[96] = "";
    struct strbuf sb;
    sb_init(&sb, list, sizeof(list));
    for (u32 bit = 0; bit < 64; bit++)
        if (silent >> bit & 1)
            sb_printf(&sb, "%s%s%u", sb.len ? " " : "", PMU_IS_FIXED(bit) ? "fixed" : "gp",
                      PMU_IS_FIXED(bit) ? bit - PMU_FIXED_BIT : bit);
    check_deviation(c, "hypervisor: %s never counted (0 in every window that should count) while the others "
                       "did: a host holds them (KVM backs guest counters with host perf events; the host's NMI "
                       "watchdog or perf takes hardware counters first), not a counter that counts wrongly",
                    list);
}
