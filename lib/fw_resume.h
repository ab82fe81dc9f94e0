/* May the boot CPU send INIT to itself? After INIT it does not wait for a SIPI: it fetches from the reset
 * vector (0xFFFFFFF0, SDM Vol.3A 10.1.4 "First Instruction Executed"), so what happens next is whatever
 * firmware code lies there. pmuboot comes back only through a BIOS that, finding CMOS shutdown code 0x0A,
 * jumps through the warm-reset vector 40:67 without a POST. SeaBIOS does (src/romlayout.S entry_post: once
 * POST has run, entry_resume; src/resume.c handle_resume), but only when SeaBIOS is itself the firmware, as in
 * QEMU. As a coreboot payload (PC Engines APU, Protectli, Chromebooks with a legacy payload) the reset vector
 * is coreboot's bootblock (src/cpu/x86/16bit/reset16.inc: a near jump, opcode E9), which knows nothing of the
 * shutdown code and boots the machine again: a reboot, with a zero-timeout boot menu a boot loop.
 *
 * Portable: decided from memory images only (host test tests/host/test_fw_resume.c); kernel/smp.c hands it
 * the low 1 MiB and the reset vector. */
#pragma once
#include "lib/phys_window.h"
#include "lib/types.h"

#define FW_RESET_VECTOR 0xFFFFFFF0ull
#define FW_RESET_VECTOR_LEN 16u
#define FW_SEABIOS_LO 0xE0000ull  /* SeaBIOS lives in the E and F segments */
#define FW_SEABIOS_HI 0x100000ull

struct fw_resume {
    bool allowed;          /* INIT of the boot CPU comes back through 40:67 */
    bool seabios;          /* "SeaBIOS" in 0xE0000-0xFFFFF */
    u64 seabios_at;
    bool coreboot;         /* an "LBIO" signature where coreboot puts its table header */
    u64 coreboot_at;
    bool coreboot_valid;   /* ... and that header verifies (size and checksum) */
    bool vector_read;      /* reset_vector[] holds the 16 bytes at 0xFFFFFFF0 */
    u8 reset_vector[FW_RESET_VECTOR_LEN];
    char evidence[256];    /* what was found where; the SKIP reason when !allowed */
};

/* low covers physical 0 - 0xFFFFF (parts outside it count as not found), top the 16 bytes at
 * FW_RESET_VECTOR. Allowed only with SeaBIOS in 0xE0000-0xFFFFF, SeaBIOS's far jump into segment F000 at the
 * reset vector, and no coreboot table header. */
void fw_resume_decide(struct fw_resume *out, const struct phys_window *low, const struct phys_window *top);
