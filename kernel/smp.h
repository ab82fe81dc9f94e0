/* Bringing up every hardware thread and running work on it.
 * Logical CPU 0 is the boot CPU; the others are numbered in enumeration order (MADT, or cpus=). */
#pragma once
#include "kernel/percpu.h"
#include "lib/types.h"

enum smp_mode { SMP_PARALLEL, SMP_SERIAL };
enum cpu_state { CPU_ABSENT, CPU_PENDING, CPU_ONLINE, CPU_NO_ANSWER, CPU_UNRESPONSIVE, CPU_NO_MEMORY };

struct smp_cpu_info {
    u32 apic_id;
    enum cpu_state state;
    u64 arrival_tsc; /* TSC when the AP reached ap_main (first arrival) */
    u32 arrivals;    /* entries into ap_main: 1 after bring-up; more after INIT+SIPI re-entry */
    bool from_x2apic_entry;
    u32 acpi_uid;
};

struct smp_state {
    u32 count;    /* logical CPUs known (online or not), index 0 = boot CPU */
    u32 capacity; /* CPUs the per-CPU state was sized for (percpu_resize): count never exceeds it */
    struct smp_cpu_info *cpu; /* per-CPU array (kernel/percpu_array.h): [0, count) */
    u32 absent_count;         /* listed but not enabled (not started, not failures) */
    const u32 *absent_ids;    /* their APIC IDs (in the enumeration's list) */
    enum smp_mode mode;
    u64 init_delay_us;
    bool init_delay_auto;
    u32 ap_timeout_ms;
    u64 first_init_tsc, all_online_tsc;
    u64 wait_tsc;       /* spent waiting for APs to arrive (after the SIPIs) */
    bool wait_extended; /* under a hypervisor, waited past ap_timeout_ms because APs kept arriving */
    u32 strays; /* APs that arrived with an APIC ID we did not list */
    u32 dropped;        /* APs listed to start but beyond the per-CPU state sized at boot: not started, not tested */
    char dropped_why[160]; /* why that state holds no more CPUs */
    u32 dropped_ids[8]; /* the first of them */
    const char *enumeration; /* "ACPI MADT", "cpus= option", "boot CPU only (...)" */
    char enumeration_note[160];
};

extern struct smp_state smp;

/* Boot CPU: per-CPU data, APIC, idle-wakeup vector. */
void smp_init_bsp(void);
/* Add an AP to bring up (kernel/enumerate.c, from cpu_list_build: never the boot CPU, never a not-enabled entry). */
void smp_add_ap(u32 apic_id, u32 acpi_uid, bool x2apic_entry);
/* Start every added AP with INIT-SIPI-SIPI (SDM Vol.3A 9.4.4.1) and wait for each up to ap_timeout_ms. */
void smp_bring_up(enum smp_mode mode, s64 init_delay_us, u32 ap_timeout_ms);
/* Linux arch/x86/kernel/smpboot.c smp_quirk_init_udelay(): no 10 ms INIT wait on Intel family 6,
 * AMD family >= 0xF and Hygon >= 0x18; the legacy wait elsewhere. */
u64 smp_default_init_delay_us(void);

u32 smp_online_count(void);
/* Run fn(arg) on logical CPU idx and wait for it, up to timeout_ms. Returns false on timeout; the CPU is
 * then marked unresponsive and skipped afterwards. Runs directly when idx is the calling CPU. */
bool smp_run_on(u32 idx, void (*fn)(void *arg), void *arg, u32 timeout_ms);
/* Run fn(arg) on every online CPU in turn (boot CPU first), waiting for each. */
void smp_run_on_each(void (*fn)(void *arg), void *arg);
/* Start fn(arg) on CPU idx (another online CPU, idle) and return at once: the ticket smp_call_done() compares,
 * 0 when it was not started. No wake-up is sent back: the caller polls (smp_pause between polls). */
u32 smp_call_post(u32 idx, void (*fn)(void *arg), void *arg);
bool smp_call_done(u32 idx, u32 ticket);
/* Whether AP idx is online with no call in its mailbox: halted in its idle loop, or about to be. */
bool smp_cpu_idle(u32 idx);
/* One pause of a polling loop (which serves an INIT round trip a posted call asked for, smp_init_roundtrip): under
 * a hypervisor a HLT until the next interrupt, bounded by a one-shot tick of
 * the caller's (idle) APIC timer (about 1 ms); on bare metal, or with the timer in use, a 100 us spin. */
void smp_pause(void);
/* While set, every CPU may be running checks: smp_run_on to another CPU is refused with a message. */
void smp_set_concurrent(bool on);
bool smp_concurrent(void);

/* What the AP trampoline recorded on its way in, before it changed anything (boot/ap_trampoline.asm). */
struct ap_tramp_seen {
    u32 cr0, cr2, cr3, cr4, dr0, dr6, dr7, pad;
    u64 efer, tsc;
    u32 apic_id; /* CPUID.01H:EBX[31:24] */
    u32 count;   /* passages through the trampoline so far */
};
/* The live record in the trampoline page (NULL when no AP was ever started). */
const volatile struct ap_tramp_seen *smp_tramp_seen(void);

/* INIT round trip of the calling CPU. An AP, from inside a smp_run_on() call: the calling CPU sends it INIT,
 * then SIPI (SDM Vol.3A 9.4.4.1), while it halts with nothing held. The boot CPU: it sends INIT to itself with
 * CMOS shutdown code 0x0A and the warm-reset vector 40:67 pointing at the trampoline, on firmware known to
 * honour them (SeaBIOS as the firmware itself, not as a coreboot payload: smp_bsp_resume). Either re-enters through the trampoline on a separate stack; ap_main runs capture(arg)
 * before it touches the local APIC (so capture sees the APIC as INIT left it), sets the APIC up again, and
 * resumes here. Returns false with *why when not possible; *init_tsc gets the TSC just before the INIT was sent.
 * An AP that never comes back leaves its caller waiting until the call times out (smp_run_on marks it
 * unresponsive); a boot CPU that never comes back ends the run (the host-side timeout). */
/* Called on an AP back from smp_init_roundtrip's INIT, before anything else touches its state (the emulated PMU
 * takes the INIT too). Set on the boot CPU before any AP starts. */
void smp_set_init_signal_hook(void (*fn)(void));
bool smp_init_roundtrip(void (*capture)(void *arg), void *arg, u64 *init_tsc, const char **why);
/* Whether the boot CPU's INIT comes back, and the evidence (lib/fw_resume.h); decided on first use. */
struct fw_resume;
const struct fw_resume *smp_bsp_resume(void);

#define VECTOR_WAKE 0xF0
#define VECTOR_WAIT_TICK 0xF1 /* the APIC timer that bounds a halted wait for another CPU */
#define VECTOR_SPURIOUS 0xFF
#define SMP_RUN_TIMEOUT_MS 10000
