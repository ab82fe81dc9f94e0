; 32-bit entry from a Multiboot1/2 loader, identity paging, switch to long mode, call kmain.
; Loader state on entry (Multiboot 0.6.96 3.2; Multiboot2 3.3): protected mode, paging off, interrupts off,
; EAX = loader magic, EBX = physical address of the boot information.

%include "boot/boot_gdt.inc"
%include "boot/long_mode.inc"
extern kmain
extern __bss_start, __bss_end
global _start32, boot_pml4, boot_gdt64, boot_gdt64_ptr, boot_stack_top, mb_magic, mb_info

PAGE_P      equ 1 << 0
PAGE_RW     equ 1 << 1
PAGE_US     equ 1 << 2
PAGE_PWT    equ 1 << 3
PAGE_PCD    equ 1 << 4
PAGE_PS     equ 1 << 7
MMIO_BASE   equ 0xFE000000                  ; IOAPIC 0xFEC00000, HPET 0xFED00000, LAPIC 0xFEE00000: uncached
COM1        equ 0x3F8

section .text.boot progbits alloc exec nowrite align=16
bits 32
_start32:
    cli
    cld
    mov [mb_magic], eax                     ; .data, not .bss: survives the bss clear below
    mov [mb_info], ebx
    mov esp, boot_stack_top

    ; Clear .bss ourselves: neither loader is required to (and a warm-reset re-entry must start clean).
    mov edi, __bss_start
    mov ecx, __bss_end
    sub ecx, edi
    xor eax, eax
    rep stosb

    ; Long mode available? CPUID 0x80000001 EDX[29] (SDM Vol.2A CPUID).
    mov eax, 0x80000000
    cpuid
    cmp eax, 0x80000001
    jb .no_long_mode
    mov eax, 0x80000001
    cpuid
    test edx, 1 << 29
    jz .no_long_mode

    ; Identity-map 0..4 GiB with 2 MiB pages: PML4[0] -> PDPT[0..3] -> PD0..PD3 (SDM Vol.3A 4.5).
    mov eax, boot_pdpt
    or eax, PAGE_P | PAGE_RW | PAGE_US
    mov [boot_pml4], eax
    mov edi, boot_pdpt
    mov eax, boot_pd
    or eax, PAGE_P | PAGE_RW | PAGE_US
    mov ecx, 4
.pdpt:
    mov [edi], eax
    add edi, 8
    add eax, 4096
    loop .pdpt

    mov edi, boot_pd
    xor ebx, ebx                            ; physical address of the 2 MiB page (low 32 bits)
    xor edx, edx                            ; high 32 bits of the entry stay 0 below 4 GiB
    mov ecx, 2048
.pd:
    mov eax, ebx
    or eax, PAGE_P | PAGE_RW | PAGE_US | PAGE_PS   ; U/S: ring-3 checks run on the same identity map
    cmp ebx, MMIO_BASE
    jb .cached
    or eax, PAGE_PCD | PAGE_PWT             ; APIC/IOAPIC MMIO must not be cached (SDM Vol.3A 11.4.1)
.cached:
    mov [edi], eax
    mov [edi + 4], edx
    add edi, 8
    add ebx, 0x200000
    loop .pd

    ENABLE_LONG_MODE
    lgdt [boot_gdt64_ptr]
    jmp 0x08:long_entry

.no_long_mode:
    mov esi, msg_no_lm
.putc:
    lodsb
    test al, al
    jz .halt
    mov dx, COM1
    out dx, al
    jmp .putc
.halt:
    hlt
    jmp .halt

bits 64
long_entry:
    LOAD_DATA_SEGMENTS
    mov rsp, boot_stack_top
    mov edi, [mb_magic]
    mov esi, [mb_info]
    call kmain
.hang:
    cli
    hlt
    jmp .hang

section .rodata
msg_no_lm: db "pmuboot: this CPU has no long mode (CPUID 0x80000001 EDX[29]=0); halting", 13, 10, 0

align 8
boot_gdt64:
    dq 0
    dq 0x00AF9A000000FFFF                   ; 0x08: 64-bit ring-0 code (L=1)
    dq 0x00CF92000000FFFF                   ; 0x10: ring-0 data
    dq 0x00CF9A000000FFFF                   ; 0x18: 32-bit ring-0 code (AP trampoline -> ap_entry32)
boot_gdt64_end:
    times (BOOT_GDT_ENTRIES * 8) - (boot_gdt64_end - boot_gdt64) db 0   ; size check: fails if they differ
    times (boot_gdt64_end - boot_gdt64) - (BOOT_GDT_ENTRIES * 8) db 0
boot_gdt64_ptr:
    dw boot_gdt64_end - boot_gdt64 - 1
    dq boot_gdt64

section .data
mb_magic: dd 0
mb_info:  dd 0

section .bss
alignb 4096
boot_pml4:  resb 4096
boot_pdpt:  resb 4096
boot_pd:    resb 4096 * 4
boot_stack: resb 16384
boot_stack_top:
