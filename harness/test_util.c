#include "harness/test_util.h"

#include <string.h>

#include "apic/apic.h"
#include "apic/timer.h"
#include "kernel/boot_state.h"
#include "lib/format.h"
#include "kernel/percpu.h"
#include "kernel/timing.h"
#include "kernel/x86.h"
#include "harness/framework.h"

static irq_handler_t borrowed[256];

/* Alone, the check may need its handler on other CPUs too (an IPI check counts deliveries everywhere): the shared
 * table. Among concurrent checks, this CPU's own table, so that no check replaces another CPU's handler. */
void irq_borrow(u8 vector, irq_handler_t h)
{
    if (check_alone())
        borrowed[vector] = irq_register(vector, h);
    else
        irq_register_local(vector, h);
}

void irq_give_back(u8 vector)
{
    if (check_alone()) {
        irq_register(vector, borrowed[vector]);
        borrowed[vector] = NULL;
    } else {
        irq_register_local(vector, NULL);
    }
}

u64 tsc_per_us(void)
{
    return timing.tsc_hz >= 1000000 ? timing.tsc_hz / 1000000 : 3000;
}

static void spin_until(volatile u32 *counter, u32 want, u64 deadline)
{
    while ((!counter || *counter < want) && rdtsc() < deadline)
        spin_wait_step();
}

u32 wait_with_interrupts(volatile u32 *counter, u32 want, u64 timeout_us, u64 settle_us)
{
    u64 flags = read_flags();
    sti();
    /* Halted where the timer is free to wake it (apic_timer_sleep: under a hypervisor), so waiting vCPUs leave the
     * host's CPUs to the others; spinning otherwise. */
    if (!apic_timer_sleep(counter, want, timeout_us))
        spin_until(counter, want, rdtsc() + timeout_us * tsc_per_us());
    if (settle_us && !apic_timer_sleep(NULL, 0, settle_us))
        spin_until(NULL, 0, rdtsc() + settle_us * tsc_per_us());
    if (!(flags & RFLAGS_IF))
        cli();
    return *counter;
}

bool platform_is_qemu_tcg(void)
{
    return boot_state()->ident.hypervisor_bit && !strcmp(boot_state()->ident.hv_signature, "TCGTCGTCGTCG");
}

/* SDM Vol.2A CPUID leaf 0BH: EBX[15:0] is the number of logical processors at that level; the last valid
 * level (ECX[15:8] != 0) spans the package. */
u32 cpuid_logical_per_package(void)
{
    u32 a, b, cc, d, max, n = 0;
    cpuid_count(0, 0, &max, &b, &cc, &d);
    if (max < 0xB)
        return 0;
    for (u32 sub = 0; sub < 8; sub++) {
        cpuid_count(0xB, sub, &a, &b, &cc, &d);
        if (((cc >> 8) & 0xFF) == 0 || (b & 0xFFFF) == 0)
            break;
        n = b & 0xFFFF;
    }
    return n;
}

/* SDM Vol.2A CPUID leaf 01H: EBX[23:16] is an 8-bit count of addressable logical processor IDs and
 * EBX[31:24] the initial APIC ID. QEMU's target/i386/cpu.c cpu_x86_cpuid() (leaf 1, QEMU 10.0.2) does
 * "*ebx |= threads_per_pkg << 16" unmasked: with more than 255 logical processors per package (possible
 * under TCG since QEMU 9.0's x2APIC emulation) the count's bits 15:8 are ORed into the APIC ID field. */
void todo_if_qemu_cpuid1_overflow(struct check *c, u32 ebx, u32 apic_id)
{
    u32 per_pkg = cpuid_logical_per_package();
    u32 spill = (per_pkg >> 8) & 0xFF;
    check_note(c, "logical processors per package (CPUID.0BH, last level EBX[15:0])", "%u", per_pkg);
    if (per_pkg > 255 && (ebx >> 24) == ((apic_id & 0xFF) | spill) && platform_is_qemu_tcg())
        check_deviation(c, "QEMU deviation (QEMU 9.0 to 10.0.2 at least): target/i386/cpu.c cpu_x86_cpuid() leaf 1 "
                      "ORs %u << 16 into EBX unmasked: 0x%x lands in EBX[31:24]", per_pkg, spill);
}

static void pair_notes_flush(struct pair_notes *pn)
{
    if (!pn->len)
        return;
    char key[64];
    if (pn->part)
        k_snprintf(key, sizeof(key), "%s (cont. %u)", pn->key, pn->part);
    else
        k_snprintf(key, sizeof(key), "%s", pn->key);
    check_note(pn->c, key, "%s", pn->buf);
    pn->part++;
    pn->len = 0;
    pn->buf[0] = '\0';
}

void pair_notes_begin(struct pair_notes *pn, struct check *c, const char *key)
{
    memset(pn, 0, sizeof(*pn));
    pn->c = c;
    pn->key = key;
}

void pair_notes_add(struct pair_notes *pn, u32 k, u64 v)
{
    char item[40];
    int n = k_snprintf(item, sizeof(item), "%s%u:%llu", pn->len ? " " : "", k, (unsigned long long)v);
    if (pn->len + (u32)n >= sizeof(pn->buf)) {
        pair_notes_flush(pn);
        n = k_snprintf(item, sizeof(item), "%u:%llu", k, (unsigned long long)v);
    }
    memcpy(pn->buf + pn->len, item, (size_t)n + 1);
    pn->len += (u32)n;
}

void pair_notes_end(struct pair_notes *pn)
{
    pair_notes_flush(pn);
}
