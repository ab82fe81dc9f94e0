/* AP bring-up and cross-CPU calls. */
#include "kernel/smp.h"

#include <string.h>

#include "apic/apic.h"
#include "kernel/bsp_watch.h"
#include "kernel/cmos.h"
#include "kernel/ledger.h"
#include "kernel/console.h"
#include "kernel/cpuid_hw.h"
#include "lib/fw_resume.h"
#include "kernel/boot_state.h"
#include "lib/format.h"
#include "kernel/memory.h"
#include "kernel/setjmp.h"
#include "kernel/timing.h"
#include "kernel/traps.h"
#include "kernel/x86.h"
#include "kernel/percpu_array.h"

static struct smp_cpu_info boot_cpu_info[1];
struct smp_state smp = {.cpu = boot_cpu_info, .capacity = 1};
PER_CPU_REGISTER(smp.cpu, smp_cpu);

/* Read by boot/ap_trampoline.asm. */
PER_CPU_ARRAY_GLOBAL(u32, smp_ap_apic_ids);
u32 smp_ap_count;
PER_CPU_ARRAY_GLOBAL(u64, smp_ap_stack_tops);
u8 smp_ap_id_from_leaf_b;
volatile u32 smp_ap_strays;

extern const u8 ap_trampoline_start[], ap_trampoline_end[], ap_tramp_seen[];
static u64 trampoline_phys;

/* Cross-CPU call mailbox, one per CPU: the caller fills fn/arg, bumps req and sends VECTOR_WAKE; the
 * target runs fn in its idle loop (not in interrupt context) and sets done = req. */
struct mailbox {
    void (*volatile fn)(void *);
    void *volatile arg;
    volatile u32 req, done;
    volatile u32 wake_apic_id; /* when wake_caller: the caller halts and wants VECTOR_WAKE once done */
    volatile u32 caller_idx;   /* who waits for this call (and serves an INIT round trip of the target) */
    volatile bool wake_caller;
};
PER_CPU_ARRAY(struct mailbox, mailboxes);
PER_CPU_ARRAY(volatile u32, wakes); /* VECTOR_WAKE interrupts taken, per CPU */

static void wake_handler(struct trap_frame *f)
{
    (void)f;
    __atomic_add_fetch(&wakes[this_cpu()->index], 1, __ATOMIC_RELEASE);
    apic_eoi();
}

static void wait_tick_handler(struct trap_frame *f)
{
    (void)f;
    apic_eoi();
}

static void spurious_handler(struct trap_frame *f)
{
    (void)f; /* no EOI for the spurious vector (SDM Vol.3A 11.9) */
}

void smp_init_bsp(void)
{
    irq_register(VECTOR_WAKE, wake_handler);
    irq_register(VECTOR_WAIT_TICK, wait_tick_handler);
    irq_register(VECTOR_SPURIOUS, spurious_handler);
    apic_cpu_init();
    u32 id = apic_id();
    cpus[0].apic_id = id;
    smp.count = 1;
    smp.cpu[0] = (struct smp_cpu_info){.apic_id = id, .state = CPU_ONLINE, .arrivals = 1};
    smp_ap_apic_ids[0] = id;
    u32 unused;
    smp_ap_id_from_leaf_b = cpuid_x2apic_id(&unused);
}

/* An AP to start. cpu_list_build (lib/cpu_list.c) has already left out the boot CPU's own entry, entries that
 * are not enabled (enumerate.c records those as absent) and repeated IDs, so there is nothing else to sort here. */
void smp_add_ap(u32 apic_id, u32 acpi_uid, bool x2apic_entry)
{
    if (smp.count >= smp.capacity) { /* never in silence: smp/enumeration fails naming them */
        if (!smp.dropped_why[0])
            k_snprintf(smp.dropped_why, sizeof(smp.dropped_why), "this build tests at most %u CPUs (MAX_CPUS)",
                       MAX_CPUS);
        if (!smp.dropped)
            kprintf("# smp: %u CPUs fit: %s; APIC ID %u and later are not started (smp/enumeration)\n", smp.count,
                    smp.dropped_why, apic_id);
        if (smp.dropped < ARRAY_SIZE(smp.dropped_ids))
            smp.dropped_ids[smp.dropped] = apic_id;
        smp.dropped++;
        return;
    }
    u32 i = smp.count++;
    smp.cpu[i] = (struct smp_cpu_info){.apic_id = apic_id, .state = CPU_PENDING, .acpi_uid = acpi_uid,
                                       .from_x2apic_entry = x2apic_entry};
}

u64 smp_default_init_delay_us(void)
{
    const struct cpu_ident *id = &boot_state()->ident;
    if ((id->vendor == VENDOR_INTEL && id->family == 6) || (id->vendor == VENDOR_AMD && id->family >= 0xF) ||
        (id->vendor == VENDOR_HYGON && id->family >= 0x18))
        return 0;
    return 10000;
}

static void idle_loop(u32 idx) NORETURN;
static void idle_loop(u32 idx)
{
    struct mailbox *m = &mailboxes[idx];
    bsp_watch_ap_enter(idx);
    for (;;) {
        cli();
        if (m->req != m->done) {
            bsp_watch_ap_pause(idx); /* the APIC timer as it was before the call: checks test it */
            m->fn(m->arg);
            bool wake = m->wake_caller;
            u32 caller = m->wake_apic_id;
            __atomic_store_n(&m->done, m->req, __ATOMIC_RELEASE);
            if (wake)
                apic_send_ipi(caller, ICR_DM_FIXED | VECTOR_WAKE);
            continue;
        }
        bsp_watch_ap_idle(idx); /* a watcher of the boot CPU's check: its tick, and the NMI past the limit */
        /* Again: the watcher takes a latched tick with interrupts open for a moment (bsp_watch.c tick_off), which can
         * take the call's wake-up IPI too; halting now would sleep through the call (seen once: an AP that never
         * started its suite). From here interrupts stay off until the HLT. */
        if (__atomic_load_n(&m->req, __ATOMIC_ACQUIRE) != m->done)
            continue;
        asm volatile("sti; hlt" ::: "memory"); /* STI's one-instruction shadow: no wakeup is lost */
    }
}

/* INIT round trips (smp_init_roundtrip): one at a time, on a stack of their own, because the trampoline starts
 * the AP at the top of its kernel stack, where the frames of the interrupted call still live. */
struct reentry {
    volatile bool armed;
    k_jmp_buf resume;
    void *catch_ctx;      /* this CPU's, which cpu_local_init clears (kernel/catch_hook.h) */
    u64 stack_top;        /* the CPU's own, put back on return */
    void (*capture)(void *arg);
    void *arg;
};
PER_CPU_ARRAY(struct reentry, reentries);
PER_CPU_ARRAY(volatile u32, restart_requests); /* per waiting CPU: index + 1 of the AP to INIT and restart */
PER_CPU_ARRAY(u64, restart_init_tsc);
static u8 reentry_stack[16384] __attribute__((aligned(16)));

const volatile struct ap_tramp_seen *smp_tramp_seen(void)
{
    if (!trampoline_phys)
        return NULL;
    return (const volatile struct ap_tramp_seen *)(uintptr_t)(trampoline_phys +
                                                             (u64)(ap_tramp_seen - ap_trampoline_start));
}

static void send_init(u32 apic_id);
static void send_sipi(u32 apic_id);
static bool trampoline_install(void);

/* The boot CPU after INIT runs the firmware's reset code, not wait-for-SIPI. A PC BIOS that finds shutdown code
 * 0x0A in CMOS 0x0F jumps through the warm-reset vector at 40:67 without a POST (IBM PC/AT BIOS convention;
 * SeaBIOS src/resume.c handle_resume). Whether the code at the reset vector is such a BIOS is decided once by
 * fw_resume_decide (lib/fw_resume.h): SeaBIOS as the firmware, not as a coreboot payload; elsewhere the INIT
 * might reboot the machine, so it is not sent. */
static struct fw_resume bsp_resume;
static bool bsp_resume_known;

const struct fw_resume *smp_bsp_resume(void)
{
    if (!bsp_resume_known) {
        const struct phys_window low4g = {0, 1ull << 32, (const u8 *)0, NULL}; /* 0xFFFFFFF0 too */
        fw_resume_decide(&bsp_resume, &low4g, &low4g);
        bsp_resume_known = true;
    }
    return &bsp_resume;
}

static bool bsp_resume_supported(const char **why)
{
    static char reason[300];
    const struct fw_resume *r = smp_bsp_resume();
    if (r->allowed)
        return true;
    k_snprintf(reason, sizeof(reason), "the boot CPU: INIT sends it to the firmware's reset code; %s", r->evidence);
    *why = reason;
    return false;
}

#define CMOS_SHUTDOWN 0x0F
#define BDA_WARM_RESET_VECTOR 0x467 /* 40:67, offset then segment */

/* The warm-reset vector as the ledger sees it (kernel/ledger.h): the firmware jumps through it after a reset with
 * shutdown code 0x0A. */
static volatile u32 *warm_vector(void)
{
    uintptr_t a = BDA_WARM_RESET_VECTOR;
    asm("" : "+r"(a)); /* low memory is identity-mapped; keep GCC from calling the address invalid */
    return (volatile u32 *)a;
}

static u64 warm_get(u64 arg)
{
    (void)arg;
    return *warm_vector();
}

static void warm_put(u64 arg, u64 v)
{
    (void)arg;
    *warm_vector() = (u32)v;
}

bool smp_init_roundtrip(void (*capture)(void *arg), void *arg, u64 *init_tsc, const char **why)
{
    struct cpu *self = this_cpu();
    u32 me = self->index;
    struct mailbox *m = &mailboxes[me];
    if (me == 0 && !bsp_resume_supported(why))
        return false;
    if (me != 0 && m->req == m->done) {
        *why = "not inside a cross-CPU call";
        return false;
    }
    if (!trampoline_install()) {
        *why = "no free page below 0x9F000 for the trampoline";
        return false;
    }
    if (!smp_ap_count) /* a single CPU: the trampoline's APIC ID table holds the boot CPU only */
        __atomic_store_n(&smp_ap_count, 1, __ATOMIC_RELEASE);
    uintptr_t warm_addr = BDA_WARM_RESET_VECTOR;
    asm("" : "+r"(warm_addr)); /* low memory is identity-mapped; keep GCC from calling the address invalid */
    volatile u16 *warm = (volatile u16 *)warm_addr;
    u16 warm_old[2] = {warm[0], warm[1]};
    struct reentry *r = &reentries[me];
    r->capture = capture;
    r->arg = arg;
    r->catch_ctx = self->catch_ctx;
    r->stack_top = smp_ap_stack_tops[me];
    u64 flags = read_flags();
    if (k_setjmp(r->resume) == 0) {
        cli();
        smp_ap_stack_tops[me] = (u64)(uintptr_t)(reentry_stack + sizeof(reentry_stack));
        __atomic_store_n(&r->armed, true, __ATOMIC_RELEASE);
        if (me == 0) { /* INIT to itself, back through the firmware's warm-reset vector */
            /* Not watched from here on: a watcher's NMI would be taken in the firmware's real-mode path (its IVT), and
             * a slow round trip (seen under a software KVM at 64 CPUs) reset the machine that way. */
            bsp_watch_end();
            ledger_note("BDA 40:67 warm-reset vector", warm_get, warm_put, 0, *warm_vector(), 32);
            ledger_note_cmos(CMOS_SHUTDOWN, cmos_read(CMOS_SHUTDOWN), "shutdown status");
            warm[0] = 0;
            warm[1] = (u16)(trampoline_phys >> 4);
            cmos_write(CMOS_SHUTDOWN, 0x0A);
            restart_init_tsc[0] = rdtsc();
            apic_send_ipi(self->apic_id, ICR_DM_INIT | ICR_LEVEL | ICR_ASSERT);
        } else {
            __atomic_store_n(&restart_requests[m->caller_idx], me + 1, __ATOMIC_RELEASE);
        }
        for (;;) /* quiescent: no lock held, nothing in flight; INIT ends this loop */
            hlt();
    }
    if (me == 0) {
        warm[0] = warm_old[0];
        warm[1] = warm_old[1];
        ledger_restore_cmos(CMOS_SHUTDOWN); /* as found */
    }
    smp_ap_stack_tops[me] = r->stack_top;
    *init_tsc = restart_init_tsc[me];
    if (flags & RFLAGS_IF)
        sti();
    return true;
}

/* The INIT+SIPI a target asked its caller for (SDM Vol.3A 9.4.4.1: INIT, wait, SIPI, SIPI again if it has not
 * arrived after 200 us). */
static void serve_restart(u32 me)
{
    u32 req = __atomic_exchange_n(&restart_requests[me], 0, __ATOMIC_ACQ_REL);
    if (!req)
        return;
    u32 t = req - 1;
    u32 before = __atomic_load_n(&smp.cpu[t].arrivals, __ATOMIC_ACQUIRE);
    restart_init_tsc[t] = rdtsc();
    send_init(smp.cpu[t].apic_id);
    udelay(smp.init_delay_us);
    send_sipi(smp.cpu[t].apic_id);
    u64 until = rdtsc() + us_to_tsc(200);
    while (__atomic_load_n(&smp.cpu[t].arrivals, __ATOMIC_ACQUIRE) == before && rdtsc() < until)
        cpu_relax();
    if (__atomic_load_n(&smp.cpu[t].arrivals, __ATOMIC_ACQUIRE) == before)
        send_sipi(smp.cpu[t].apic_id);
}

static void (*init_signal_hook)(void);

void smp_set_init_signal_hook(void (*fn)(void))
{
    init_signal_hook = fn;
}

void ap_main(u32 idx, u32 apic_id_seen);
void ap_main(u32 idx, u32 apic_id_seen)
{
    u64 t = rdtsc();
    cpu_local_init(idx, apic_id_seen);
    struct reentry *r = &reentries[idx];
    if (__atomic_load_n(&r->armed, __ATOMIC_ACQUIRE)) { /* back from smp_init_roundtrip's INIT */
        r->armed = false;
        __atomic_add_fetch(&smp.cpu[idx].arrivals, 1, __ATOMIC_RELEASE);
        if (init_signal_hook)
            init_signal_hook(); /* e.g. the emulated PMU takes this CPU's INIT too (emul/kernel/pmu_emul.h) */
        r->capture(r->arg); /* before anything below touches the APIC */
        apic_cpu_init();
        this_cpu()->catch_ctx = r->catch_ctx;
        k_longjmp(r->resume, 1);
    }
    apic_cpu_init();
    struct smp_cpu_info *ci = &smp.cpu[idx];
    if (ci->arrivals++ == 0)
        ci->arrival_tsc = t;
    mailboxes[idx].done = mailboxes[idx].req; /* a re-entered AP drops any call it was running */
    __atomic_store_n(&ci->state, CPU_ONLINE, __ATOMIC_RELEASE);
    idle_loop(idx);
}

/* The trampoline page: the SIPI vector addresses a 4 KiB page below 1 MiB. Take the highest page below
 * 0x9F000 that the memory map calls available and that holds no boot information we still read. */
static bool pick_trampoline_page(void)
{
    for (u64 page = 0x9E000; page >= 0x1000; page -= 0x1000) {
        bool avail = false;
        for (u32 i = 0; i < boot_state()->info.mmap_count; i++) {
            const struct mem_region *r = &boot_state()->info.mmap[i];
            if (r->type == MEM_AVAILABLE && page >= r->base && page + 0x1000 <= r->base + r->length)
                avail = true;
        }
        for (u32 i = 0; i < boot_state()->info.mmap_count; i++) { /* overlapping reserved ranges win */
            const struct mem_region *r = &boot_state()->info.mmap[i];
            if (r->type != MEM_AVAILABLE && page < r->base + r->length && r->base < page + 0x1000)
                avail = false;
        }
        u64 ib = boot_state()->info.info_phys, ie = boot_state()->info.info_phys + boot_state()->info.info_size;
        if (avail && !(page < ie && ib < page + 0x1000)) {
            trampoline_phys = page;
            return true;
        }
    }
    return false;
}

static bool trampoline_install(void)
{
    if (trampoline_phys)
        return true;
    if (!pick_trampoline_page())
        return false;
    memcpy((void *)(uintptr_t)trampoline_phys, ap_trampoline_start,
           (size_t)(ap_trampoline_end - ap_trampoline_start));
    return true;
}

static void send_init(u32 apic_id)
{
    /* INIT assert, then (xAPIC only) INIT level de-assert as Linux does; the de-assert is required by P6
     * and ignored by later parts; x2APIC has no level de-assert (SDM Vol.3A 11.6.1, 11.12.10). */
    apic_send_ipi(apic_id, ICR_DM_INIT | ICR_LEVEL | ICR_ASSERT);
    if (apic_mode() == APIC_MODE_XAPIC)
        apic_send_ipi(apic_id, ICR_DM_INIT | ICR_LEVEL);
}

static void send_sipi(u32 apic_id)
{
    apic_send_ipi(apic_id, ICR_DM_STARTUP | (u32)(trampoline_phys >> 12));
}

static bool arrived(u32 i)
{
    return __atomic_load_n(&smp.cpu[i].state, __ATOMIC_ACQUIRE) == CPU_ONLINE;
}

static bool startable(u32 i)
{
    return smp.cpu[i].state != CPU_NO_MEMORY;
}

/* Wait until every AP in [first, last] arrived or deadline passes; true when all did. */
static bool wait_arrivals(u32 first, u32 last, u64 deadline_tsc)
{
    for (;;) {
        bool all = true;
        for (u32 i = first; i <= last; i++)
            all = all && (arrived(i) || !startable(i));
        if (all)
            return true;
        if (rdtsc() > deadline_tsc)
            return false;
        cpu_relax();
    }
}

static u32 arrivals(u32 first, u32 last)
{
    u32 n = 0;
    for (u32 i = first; i <= last; i++)
        n += arrived(i);
    return n;
}

/* The AP arrival wait. On bare metal, the timeout from the start, as always: a CPU that has not arrived by then
 * is absent. Under a hypervisor (CPUID.01H:ECX[31]) a vCPU that arrives late is late, not absent: with 288 vCPUs
 * on 2 host cores the last ones arrived 286 ms after the first INIT. So while APs keep arriving the wait goes
 * on, and it ends when none has arrived for a whole timeout, or at SMP_WAIT_CAP timeouts in all. */
#define SMP_WAIT_CAP 20
static void wait_for_aps(u32 first, u32 last, u64 timeout_tsc)
{
    u64 start = rdtsc(), cap = start + SMP_WAIT_CAP * timeout_tsc, progress = start;
    u32 seen = arrivals(first, last);
    while (!wait_arrivals(first, last, MIN(progress + timeout_tsc, cap))) {
        u32 now = arrivals(first, last);
        /* Under a hypervisor none may have arrived yet: QEMU 10 TCG with 288 vCPUs on 2 host cores answered the
         * first SIPI after 350 ms. Wait on until the first arrives, and then while they keep arriving. */
        if (!boot_state()->ident.hypervisor_bit || (now == seen && now > 0) || rdtsc() >= cap)
            break;
        seen = now;
        progress = rdtsc();
        smp.wait_extended = true;
    }
    smp.wait_tsc += rdtsc() - start;
}

/* SDM Vol.3A 9.4.4.1: INIT, wait, SIPI, wait 200 us, SIPI if it has not arrived. */
static void start_aps(u32 first, u32 last)
{
    for (u32 i = first; i <= last; i++)
        if (startable(i))
            send_init(smp.cpu[i].apic_id);
    udelay(smp.init_delay_us);
    for (u32 i = first; i <= last; i++)
        if (startable(i))
            send_sipi(smp.cpu[i].apic_id);
    if (!wait_arrivals(first, last, rdtsc() + us_to_tsc(200)))
        for (u32 i = first; i <= last; i++)
            if (startable(i) && !arrived(i))
                send_sipi(smp.cpu[i].apic_id);
}

void smp_bring_up(enum smp_mode mode, s64 init_delay_us, u32 ap_timeout_ms)
{
    smp.mode = mode;
    smp.init_delay_auto = init_delay_us < 0;
    smp.init_delay_us = init_delay_us < 0 ? smp_default_init_delay_us() : (u64)init_delay_us;
    smp.ap_timeout_ms = ap_timeout_ms;
    if (smp.count <= 1)
        return;
    if (!trampoline_install()) {
        kprintf("# smp: no free 4 KiB page below 0x9F000 in the memory map for the AP trampoline; "
                "APs not started\n");
        for (u32 i = 1; i < smp.count; i++)
            smp.cpu[i].state = CPU_NO_ANSWER;
        return;
    }
    for (u32 i = 1; i < smp.count; i++) {
        u8 *mem = early_alloc(CPU_STACKS_BYTES, 4096);
        if (!mem) { /* reported by smp/online as a failure, with this reason */
            smp.cpu[i].state = CPU_NO_MEMORY;
            continue;
        }
        percpu_assign_stacks(i, mem);
    }
    for (u32 i = 0; i < smp.count; i++) {
        smp_ap_apic_ids[i] = smp.cpu[i].apic_id;
        smp_ap_stack_tops[i] = (u64)(uintptr_t)cpu_stacks[i].kstack_top;
    }
    __atomic_store_n(&smp_ap_count, smp.count, __ATOMIC_RELEASE);

    smp.first_init_tsc = rdtsc();
    u64 timeout = us_to_tsc((u64)ap_timeout_ms * 1000);
    if (mode == SMP_PARALLEL) {
        start_aps(1, smp.count - 1);
        wait_for_aps(1, smp.count - 1, timeout);
    } else {
        for (u32 i = 1; i < smp.count; i++) {
            start_aps(i, i);
            wait_for_aps(i, i, timeout);
        }
    }
    for (u32 i = 1; i < smp.count; i++)
        if (!arrived(i) && startable(i))
            smp.cpu[i].state = CPU_NO_ANSWER;
    smp.all_online_tsc = rdtsc();
    smp.strays = smp_ap_strays;
}

u32 smp_online_count(void)
{
    u32 n = 0;
    for (u32 i = 0; i < smp.count; i++)
        n += smp.cpu[i].state == CPU_ONLINE;
    return n;
}

/* Whether a caller may halt while it waits for another CPU. Under a hypervisor a spinning waiter takes a host
 * CPU from the vCPU it waits for (here 2 host cores serve up to 64 vCPUs, and under QEMU TCG a spinning vCPU
 * also delays the emulated timers of the others), so it halts. It needs interrupts enabled and its APIC timer
 * idle (masked), which bounds every halt (wait_until_done). On bare metal it spins, as it always did. */
static bool may_halt_waiting(void)
{
    return boot_state()->ident.hypervisor_bit && (read_flags() & RFLAGS_IF) && (apic_read(APIC_LVT_TIMER) & LVT_MASKED);
}

/* Wait for the call `ticket` on mailbox m, halting when may_halt. The caller's APIC timer, periodic on
 * VECTOR_WAIT_TICK with 2^20 ticks at divide by 1 (1 ms at QEMU's and KVM's 1 GHz, 42 ms at a 25 MHz crystal),
 * wakes every halt, so the deadline holds even when the target never answers. */
static bool wait_until_done(struct mailbox *m, u32 ticket, u64 deadline, bool may_halt, u32 wakes_before)
{
    u32 me = this_cpu()->index;
    if (!may_halt) { /* as before: spin, interrupts as the caller has them */
        while (__atomic_load_n(&m->done, __ATOMIC_ACQUIRE) != ticket) {
            serve_restart(me);
            if (rdtsc() > deadline)
                return false;
            cpu_relax();
        }
        return true;
    }
    apic_write(APIC_TIMER_DCR, 0xB); /* divide by 1 (SDM Vol.3A Figure 11-10) */
    apic_write(APIC_LVT_TIMER, VECTOR_WAIT_TICK | LVT_TIMER_PERIODIC);
    apic_write(APIC_TIMER_ICR, 1u << 20);
    bool ok = true;
    for (;;) {
        cli();
        serve_restart(me);
        if (__atomic_load_n(&m->done, __ATOMIC_ACQUIRE) == ticket)
            break;
        if (rdtsc() > deadline) {
            ok = false;
            break;
        }
        asm volatile("sti; hlt" ::: "memory"); /* STI's shadow: a wake-up pending now still ends the HLT */
    }
    sti();
    apic_write(APIC_LVT_TIMER, LVT_MASKED | VECTOR_WAIT_TICK);
    apic_write(APIC_TIMER_ICR, 0);
    /* Take the target's wake-up IPI and any tick already latched now, not during the caller's next check. */
    u64 drain = rdtsc() + us_to_tsc(10000);
    while ((ok && __atomic_load_n(&wakes[me], __ATOMIC_ACQUIRE) == wakes_before) ||
           apic_vector_bit(APIC_IRR0, VECTOR_WAIT_TICK)) {
        if (rdtsc() > drain)
            break;
        cpu_relax();
    }
    return ok;
}

static volatile bool concurrent; /* every CPU may be running checks (smp_set_concurrent) */

void smp_set_concurrent(bool on)
{
    __atomic_store_n(&concurrent, on, __ATOMIC_RELEASE);
}

bool smp_concurrent(void)
{
    return __atomic_load_n(&concurrent, __ATOMIC_ACQUIRE);
}

bool smp_run_on(u32 idx, void (*fn)(void *arg), void *arg, u32 timeout_ms)
{
    if (idx == this_cpu()->index) {
        fn(arg);
        return true;
    }
    if (smp.cpu[idx].state != CPU_ONLINE)
        return false;
    if (__atomic_load_n(&concurrent, __ATOMIC_ACQUIRE)) {
        /* The target runs its own checks and reads its mailbox only when idle: waiting would time out and
         * wrongly mark it unresponsive. */
        kprintf("# smp: cpu%u asked cpu%u to run a call while every CPU runs its checks; refused (declare the "
                "check CPUS_OTHERS, docs/writing-checks.md)\n", this_cpu()->index, idx);
        return false;
    }
    struct mailbox *m = &mailboxes[idx];
    bool may_halt = may_halt_waiting(); /* with interrupts enabled, which it leaves enabled */
    m->fn = fn;
    m->arg = arg;
    m->wake_apic_id = this_cpu()->apic_id;
    m->caller_idx = this_cpu()->index;
    m->wake_caller = may_halt;
    u32 wakes_before = wakes[this_cpu()->index];
    u32 ticket = m->req + 1;
    __atomic_store_n(&m->req, ticket, __ATOMIC_RELEASE);
    apic_send_ipi(smp.cpu[idx].apic_id, ICR_DM_FIXED | VECTOR_WAKE);
    u64 deadline = rdtsc() + us_to_tsc((u64)timeout_ms * 1000);
    bool ok = wait_until_done(m, ticket, deadline, may_halt, wakes_before);
    if (!ok)
        smp.cpu[idx].state = CPU_UNRESPONSIVE;
    return ok;
}

u32 smp_call_post(u32 idx, void (*fn)(void *arg), void *arg)
{
    if (smp.cpu[idx].state != CPU_ONLINE || idx == this_cpu()->index)
        return 0;
    struct mailbox *m = &mailboxes[idx];
    m->fn = fn;
    m->arg = arg;
    m->caller_idx = this_cpu()->index; /* serves the target's INIT round trip from smp_pause() */
    m->wake_caller = false;
    u32 ticket = m->req + 1; /* 0 ("not started") only after 2^32 calls */
    __atomic_store_n(&m->req, ticket, __ATOMIC_RELEASE);
    apic_send_ipi(smp.cpu[idx].apic_id, ICR_DM_FIXED | VECTOR_WAKE);
    return ticket;
}

bool smp_cpu_idle(u32 idx)
{
    return __atomic_load_n(&smp.cpu[idx].state, __ATOMIC_ACQUIRE) == CPU_ONLINE &&
           __atomic_load_n(&mailboxes[idx].req, __ATOMIC_ACQUIRE) == __atomic_load_n(&mailboxes[idx].done, __ATOMIC_ACQUIRE);
}

bool smp_call_done(u32 idx, u32 ticket)
{
    return __atomic_load_n(&mailboxes[idx].done, __ATOMIC_ACQUIRE) == ticket;
}

void smp_pause(void)
{
    serve_restart(this_cpu()->index);
    if (!may_halt_waiting()) {
        u64 end = rdtsc() + us_to_tsc(100);
        while (rdtsc() < end)
            cpu_relax();
        return;
    }
    apic_write(APIC_TIMER_DCR, 0xB); /* divide by 1; one tick of wait_until_done's, which bounds the HLT */
    apic_write(APIC_LVT_TIMER, VECTOR_WAIT_TICK); /* one-shot */
    apic_write(APIC_TIMER_ICR, 1u << 20);
    asm volatile("sti; hlt" ::: "memory");
    apic_write(APIC_LVT_TIMER, LVT_MASKED | VECTOR_WAIT_TICK);
    apic_write(APIC_TIMER_ICR, 0);
}

void smp_run_on_each(void (*fn)(void *arg), void *arg)
{
    for (u32 i = 0; i < smp.count; i++) {
        if (smp.cpu[i].state != CPU_ONLINE)
            continue;
        if (!smp_run_on(i, fn, arg, SMP_RUN_TIMEOUT_MS))
            kprintf("# smp: cpu%u (APIC ID %u) did not finish within %u ms; it is skipped from now on\n", i,
                    smp.cpu[i].apic_id, SMP_RUN_TIMEOUT_MS);
    }
}
