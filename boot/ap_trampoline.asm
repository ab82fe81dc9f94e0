; AP start-up. A SIPI with vector V starts the AP in real mode at V000:0000 (SDM Vol.3A 9.4.4); the kernel
; copies ap_trampoline_start..end to that page. The trampoline loads the boot GDT, enters protected mode
; and jumps into kernel text (ap_entry32), which enables long mode. In 64-bit mode the AP reads its own
; APIC ID from CPUID and finds its logical index in smp_ap_apic_ids, so any number of APs may start at
; once (parallel bring-up) and an AP restarted by INIT+SIPI re-enters the same way.
; Before it changes any of it, the trampoline records the state INIT and SIPI left (control and debug
; registers, EFER, TSC, APIC ID) in ap_tramp_seen inside the page, for suite init (tests/init/suite_init.c).
; Every AP passing through overwrites the record; that suite restarts one AP at a time and checks the APIC ID.

%include "boot/boot_gdt.inc"
%include "boot/long_mode.inc"
extern boot_gdt64, boot_pml4, ap_main
extern smp_ap_apic_ids, smp_ap_count, smp_ap_stack_tops, smp_ap_id_from_leaf_b, smp_ap_strays
global ap_trampoline_start, ap_trampoline_end, ap_entry32, ap_tramp_seen

section .rodata
bits 16
ap_trampoline_start:
    cli
    cld
    mov ax, cs
    mov ds, ax
%define SEEN(f) [ap_tramp_seen + f - ap_trampoline_start]
    mov eax, cr0
    mov SEEN(0), eax
    mov eax, cr2
    mov SEEN(4), eax
    mov eax, cr3
    mov SEEN(8), eax
    mov eax, cr4
    mov SEEN(12), eax
    mov eax, dr0
    mov SEEN(16), eax
    mov eax, dr6
    mov SEEN(20), eax
    mov eax, dr7
    mov SEEN(24), eax
    mov ecx, 0xC0000080                     ; IA32_EFER (every CPU this kernel runs on has it)
    rdmsr
    mov SEEN(32), eax
    mov SEEN(36), edx
    rdtsc
    mov SEEN(40), eax
    mov SEEN(44), edx
    mov eax, 1
    cpuid
    shr ebx, 24                             ; initial APIC ID, CPUID.01H:EBX[31:24]
    mov SEEN(48), ebx
    lock inc dword SEEN(52)
    o32 lgdt [tramp_gdtr - ap_trampoline_start]
    mov eax, cr0
    or eax, 1                               ; CR0.PE
    mov cr0, eax
    jmp dword 0x18:ap_entry32               ; 32-bit code segment of the boot GDT, absolute kernel address
align 4
tramp_gdtr:
    dw BOOT_GDT_ENTRIES * 8 - 1
    dd boot_gdt64
align 8
ap_tramp_seen:                              ; struct ap_tramp_seen (kernel/smp.h)
    times 56 db 0
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
    mov rdi, [smp_ap_apic_ids]              ; per-CPU arrays are pointers (kernel/percpu_array.h)
.next:
    cmp esi, ecx
    jae .stray
    cmp [rdi + rsi * 4], r8d
    je .found
    inc esi
    jmp .next
.found:
    mov rdi, [smp_ap_stack_tops]
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
