#include "kernel/exit.h"
#include "kernel/ledger.h"
#include "kernel/watchdog.h"

#include "kernel/console.h"
#include "kernel/fbcon.h"
#include "kernel/timing.h"
#include "kernel/x86.h"

/* How long to wait for isa-debug-exit to end the run. QEMU 10's device (hw/misc/debugexit.c,
 * debug_exit_write -> qemu_system_shutdown_request_with_code) only queues a shutdown request that the main
 * loop acts on later, so the vCPU runs on after the OUT; QEMU 7.2 exited inside the OUT. A second is far
 * longer than the main loop needs even on a loaded host. */
#define QEMU_EXIT_WAIT_MS 1000

void halt_forever(void)
{
    for (;;) {
        cli();
        hlt();
    }
}

/* PCI reset control register 0xCF9: 0x02 (system reset type: warm) then 0x06 (plus RST_CPU: go) (Intel PCH
 * datasheets "Reset Control Register"; QEMU hw/isa/piix.c and lpc_ich9.c honour it). */
void machine_reset_cf9(void)
{
    outb(0xCF9, 0x02);
    outb(0xCF9, 0x06);
}

/* The 8042 keyboard controller's "pulse output port bit 0" command 0xFE, the CPU reset line (after waiting for
 * its input buffer to drain, status bit 1). */
void machine_reset_kbc(void)
{
    for (int i = 0; i < 100000 && (inb(0x64) & 0x02); i++)
        cpu_relax();
    outb(0x64, 0xFE);
}

/* A triple fault: an exception with an empty IDT cannot be delivered (#GP, then #DF, then shutdown; SDM
 * Vol.3A 7.15 "Interrupt 8"); the chipset turns the shutdown cycle into a reset. The exception is a divide
 * error (#DE and #GP are both contributory: #DF at once, SDM Vol.3A Table 7-5), not Linux's INT3
 * (arch/x86/kernel/reboot.c): a hypervisor that runs the kernel through KVM's instruction emulator stops the
 * guest at INT3 or UD2 outside real mode (arch/x86/kvm/emulate.c emulate_int, twobyte_table 0x0B), while DIV
 * raises #DE there as on hardware (em_div_ex). */
void machine_reset_triple(void)
{
    struct {
        u16 limit;
        u64 base;
    } PACKED null_idt = {0, 0};
    asm volatile("lidt %0\n"
                 "xorl %%ecx, %%ecx\n"
                 "divl %%ecx" ::"m"(null_idt)
                 : "eax", "ecx", "edx", "memory");
}

/* Reset paths in order of preference; QEMU honours all three (piix rcr_write / ich9_rst_cnt_write, pckbd.c
 * KBD_CCMD_RESET, triple fault in target/i386 check_exception). */
void machine_reboot(void)
{
    cli();
    machine_reset_cf9();
    for (volatile int i = 0; i < 1000000; i++)
        cpu_relax();
    machine_reset_kbc();
    for (volatile int i = 0; i < 1000000; i++)
        cpu_relax();
    machine_reset_triple();
    halt_forever();
}

void kernel_exit(bool passed, enum exit_mode mode)
{
    /* A bail-out can end the run inside a check: the watchdog must not reset a machine told to halt (a reboot says
     * the rest; the next boot reads the record, kernel/watchdog.h). */
    watchdog_stop();
    /* Whatever way the run ends: every change the ledger holds is put back (a record left behind would make the next
     * boot report this run's last check as stopped, and firmware would find its bytes changed). */
    /* Once: a fault while putting a change back bails out again, and lands here without a second restore. */
    static volatile u32 exiting;
    u32 put_back = __sync_fetch_and_add(&exiting, 1) ? 0 : ledger_restore_all();
    if (put_back)
        kprintf("# machine: %u change%s put back before the exit (kernel/ledger.h)\n", put_back,
                put_back == 1 ? "" : "s");
    switch (mode) {
    case EXIT_QEMU:
        outb(QEMU_EXIT_PORT, passed ? QEMU_EXIT_PASS : QEMU_EXIT_FAIL);
        udelay(QEMU_EXIT_WAIT_MS * 1000ull);
        kprintf("# exit=qemu: no isa-debug-exit device at port 0x%x ended the run within %u ms of the write; "
                "halting\n", QEMU_EXIT_PORT, QEMU_EXIT_WAIT_MS);
        break;
    case EXIT_REBOOT:
        kprintf("# exit=reboot: resetting\n");
        machine_reboot();
    case EXIT_HALT:
        kprintf("# exit=halt: halted\n");
        fbcon_final_pages(); /* a screen with more FAILs than it lists pages through them instead */
        break;
    }
    halt_forever();
}
