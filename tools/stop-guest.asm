; tools/stop-guest.asm: the smallest multiboot guest that QEMU stops, or that hangs, for make check's tests of run-qemu.sh's
; failure reports (tools/check.sh). Not pmuboot: a guest that does one thing wrong on purpose.
;   nasm -f bin -o panic.bin tools/stop-guest.asm             writes 1 to the pvpanic port (QEMU hw/misc/pvpanic-isa.c,
;                                                             docs/specs/pvpanic.rst: bit 0 "guest panicked") -> with
;                                                             -device pvpanic -action panic=pause: guest-panicked
;   nasm -f bin -DFETCH_MMIO -o mmio.bin tools/stop-guest.asm jumps into the local APIC's MMIO page: under KVM an
;                                                             instruction fetch KVM cannot emulate -> internal-error
;   nasm -f bin -DHANG -o hang.bin tools/stop-guest.asm       halts with interrupts off: a run that only a timeout ends
; Multiboot 0.6.96 3.1: the header's address fields (flags bit 16) say where this flat image loads and starts; QEMU's
; -kernel loads it so (hw/i386/multiboot.c) and enters in 32-bit protected mode, paging off.
bits 32
org 0x100000
header:
    dd 0x1BADB002                       ; magic
    dd 0x00010000                       ; flags: the address fields are valid
    dd -(0x1BADB002 + 0x00010000)       ; checksum
    dd header                           ; header_addr
    dd header                           ; load_addr
    dd image_end                        ; load_end_addr
    dd image_end                        ; bss_end_addr
    dd start                            ; entry_addr
start:
%ifdef HANG
%elifdef FETCH_MMIO
    mov eax, 0xFEE00000                 ; the local APIC's registers (SDM Vol.3A 11.4.1): not memory to run
    jmp eax
%else
    mov dx, 0x505                       ; the ISA pvpanic device's port
    mov al, 1                           ; PVPANIC_PANICKED
    out dx, al
%endif
halt:
    cli
    hlt
    jmp halt
image_end:
