#include "kernel/exit.h"

#include "kernel/console.h"
#include "kernel/x86.h"

void halt_forever(void)
{
    for (;;) {
        cli();
        hlt();
    }
}

/* Reset paths in order of preference: the PCI reset control register 0xCF9 (warm reset: 0x02 then 0x06;
 * Intel PCH datasheets "Reset Control Register"), the 8042 keyboard controller pulse (0xFE to port 0x64),
 * and finally a triple fault. QEMU honours all three (shared/FACTS.md 4). */
void machine_reboot(void)
{
    cli();
    outb(0xCF9, 0x02);
    outb(0xCF9, 0x06);
    for (volatile int i = 0; i < 1000000; i++)
        cpu_relax();
    for (int i = 0; i < 100000 && (inb(0x64) & 0x02); i++)
        cpu_relax();
    outb(0x64, 0xFE);
    for (volatile int i = 0; i < 1000000; i++)
        cpu_relax();
    struct {
        u16 limit;
        u64 base;
    } PACKED null_idt = {0, 0};
    asm volatile("lidt %0; int3" ::"m"(null_idt));
    halt_forever();
}

void kernel_exit(bool passed, enum exit_mode mode)
{
    switch (mode) {
    case EXIT_QEMU:
        outb(QEMU_EXIT_PORT, passed ? QEMU_EXIT_PASS : QEMU_EXIT_FAIL);
        kprintf("# exit=qemu: no isa-debug-exit device at port 0x%x answered; halting\n", QEMU_EXIT_PORT);
        break;
    case EXIT_REBOOT:
        kprintf("# exit=reboot: resetting\n");
        machine_reboot();
    case EXIT_HALT:
        kprintf("# exit=halt: halted\n");
        break;
    }
    halt_forever();
}
