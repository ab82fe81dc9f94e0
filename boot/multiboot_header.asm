; Multiboot1 and Multiboot2 headers in one image, both in the first 8 KiB of the file.
; Multiboot spec 0.6.96 section 3.1 (magic 0x1BADB002, within the first 8192 bytes, 4-byte aligned);
; Multiboot2 spec 2.0 section 3.1 (magic 0xE85250D6, within the first 32768 bytes, 8-byte aligned).
; No a.out kludge (flag 16): QEMU and GRUB load the ELF32 program headers (QEMU load_multiboot).

section .multiboot progbits alloc noexec nowrite align=8

MB1_MAGIC   equ 0x1BADB002
MB1_FLAGS   equ 0x00000003              ; bit 0: page-align modules, bit 1: memory map wanted

align 4
mb1_header:
    dd MB1_MAGIC
    dd MB1_FLAGS
    dd -(MB1_MAGIC + MB1_FLAGS)

MB2_MAGIC   equ 0xE85250D6
MB2_ARCH    equ 0                       ; i386 32-bit protected mode entry

align 8
mb2_header:
    dd MB2_MAGIC
    dd MB2_ARCH
    dd mb2_header_end - mb2_header
    dd -(MB2_MAGIC + MB2_ARCH + (mb2_header_end - mb2_header))
    ; information request tag (type 1): we want these, but can boot without them (flags = 1, optional)
align 8
    dw 1, 1
    dd mb2_req_end - ($ - 4)
mb2_req_start:
    dd 1                                ; command line
    dd 2                                ; boot loader name
    dd 6                                ; memory map
    dd 14                               ; ACPI old RSDP
    dd 15                               ; ACPI new RSDP
mb2_req_end:
    ; framebuffer tag (type 5, spec 3.1.10), optional (flags = 1): a linear framebuffer for the screen mirror
    ; (kernel/fbcon.c); 1024x768x32 is a preference, GRUB's gfxpayload may choose another mode
align 8
    dw 5, 1
    dd 20
    dd 1024, 768, 32
align 8
    dw 0, 0                             ; end tag
    dd 8
mb2_header_end:
