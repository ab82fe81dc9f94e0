; AP start-up. A SIPI with vector V starts the AP in real mode at V000:0000 (SDM Vol.3A 9.4.4); the kernel
; copies ap_trampoline_start..end to that page. The trampoline loads the boot GDT, enters protected mode
; and jumps into kernel text (ap_entry32), which enables long mode. In 64-bit mode the AP reads its own
; APIC ID from CPUID and finds its logical index in smp_ap_apic_ids, so any number of APs may start at
; once (parallel bring-up) and an AP restarted by INIT+SIPI re-enters the same way.

%include "boot/boot_gdt.inc"
%include "boot/long_mode.inc"
extern boot_gdt64, boot_pml4, ap_main
extern smp_ap_apic_ids, smp_ap_count, smp_ap_stack_tops, smp_ap_id_from_leaf_b, smp_ap_strays
global ap_trampoline_start, ap_trampoline_end, ap_entry32

section .rodata
bits 16
ap_trampoline_start:
    cli
    cld
    mov ax, cs
    mov ds, ax
    o32 lgdt [tramp_gdtr - ap_trampoline_start]
    mov eax, cr0
    or eax, 1                               ; CR0.PE
    mov cr0, eax
    jmp dword 0x18:ap_entry32               ; 32-bit code segment of the boot GDT, absolute kernel address
align 4
tramp_gdtr:
    dw BOOT_GDT_ENTRIES * 8 - 1
    dd boot_gdt64
ap_trampoline_end:

section .text.boot
bits 32
ap_entry32:
    mov ax, 0x10
    mov ds, ax
    mov es, ax
    mov ss, ax
    ENABLE_LONG_MODE
    jmp 0x08:ap_entry64

bits 64
ap_entry64:
    LOAD_DATA_SEGMENTS
    ; Our APIC ID: CPUID.0BH:EDX (x2APIC ID) when the BSP found leaf 0xB valid, else CPUID.01H:EBX[31:24].
    cmp byte [smp_ap_id_from_leaf_b], 0
    je .leaf1
    mov eax, 0x0B
    xor ecx, ecx
    cpuid
    mov r8d, edx
    jmp .lookup
.leaf1:
    mov eax, 1
    cpuid
    shr ebx, 24
    mov r8d, ebx
.lookup:
    mov ecx, [smp_ap_count]
    xor esi, esi
    lea rdi, [smp_ap_apic_ids]
.next:
    cmp esi, ecx
    jae .stray
    cmp [rdi + rsi * 4], r8d
    je .found
    inc esi
    jmp .next
.found:
    lea rdi, [smp_ap_stack_tops]
    mov rsp, [rdi + rsi * 8]
    mov edi, esi                            ; ap_main(slot, apic_id)
    mov esi, r8d
    call ap_main
.stray:
    lock inc dword [smp_ap_strays]          ; an AP we did not expect: count it, park it
.park:
    cli
    hlt
    jmp .park
