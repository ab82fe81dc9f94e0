/* Ending the run: QEMU's isa-debug-exit, halt, or reboot (exit= option). */
#pragma once
#include "lib/cmdline.h"
#include "lib/types.h"

/* QEMU's isa-debug-exit (hw/misc/debugexit.c) exits with (value << 1) | 1: 0 -> 1 (pass), 1 -> 3 (fail). */
#define QEMU_EXIT_PORT 0xf4
#define QEMU_EXIT_PASS 0
#define QEMU_EXIT_FAIL 1

NORETURN void kernel_exit(bool passed, enum exit_mode mode);
NORETURN void halt_forever(void);
NORETURN void machine_reboot(void);
/* One machine reset each; they return when the machine did not (yet) reset, so the caller waits and judges. */
void machine_reset_cf9(void);
void machine_reset_kbc(void);
void machine_reset_triple(void);
