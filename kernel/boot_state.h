/* What the boot CPU learns at boot and every layer reads: the loader's handover, the command line, the boot CPU's
 * identity. The kernel owns it; kmain fills it (boot_state_fill) on the boot CPU before any AP starts, and from then
 * on it is read only, through boot_state(). */
#pragma once
#include "lib/bootinfo.h"
#include "lib/cmdline.h"
#include "lib/cpu_ident.h"

struct boot_state {
    struct boot_info info;                  /* the loader's handover (lib/bootinfo.h) */
    struct options options;                 /* the base options (lib/cmdline.h: the image path, the console);
                                             * every other option is in its layer's struct (kernel_options(), ...) */
    char cmdline_error[CMDLINE_ERROR_MAX];  /* why the command line was rejected; empty if it was not */
    struct cpu_ident ident;                 /* of the boot CPU */
    char apic_mode_error[160];              /* why apic= could not be honoured; empty if it was */
};

const struct boot_state *boot_state(void);
/* kmain's, once, while it fills the state: the only writable view. */
struct boot_state *boot_state_fill(void);

/* The image's bounds (linker.ld). */
extern char __image_start[], __image_end[];
