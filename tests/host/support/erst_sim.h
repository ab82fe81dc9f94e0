/* Host tests: a model of QEMU's ACPI ERST device (hw/acpi/erst.c, docs/specs/acpi_erst.rst) behind lib/erst.h's
 * register callbacks, and its table as QEMU builds it (build_erst). The device: two 64-bit registers in BAR 0, ACTION
 * (offset 0) and VALUE (offset 8), everything happening on a write to ACTION; an 8 KiB record exchange buffer in BAR 1
 * (the Error Log Address Range); a store of 7 record slots. Beside it, memory cells at CELL(n) for the instructions
 * QEMU's table does not use, and faults to inject. */
#pragma once
#include "lib/erst.h"

#define SIM_TABLE_AT 0x7fe1a5cull /* where QEMU's SeaBIOS put the table in a pc run */
#define SIM_BAR0 0xfebfd000ull
#define SIM_BAR1 0xfebfc000ull
#define SIM_XLEN 8192u
#define SIM_SLOTS 7u
#define SIM_EXECUTE_MAGIC 0x9c /* QEMU's ERST_EXECUTE_OPERATION_MAGIC, written to VALUE */
#define SIM_CELLS 16
#define CELL(n) (0x10000ull + 8 * (n))
#define SIM_MEM_AT 0x20000ull /* MOVE_DATA's memory */
#define SIM_MEM_LEN 256u

struct sim {
    u64 value;                  /* the VALUE register */
    u8 operation, status, busy; /* the last BEGIN_x, the command status, the busy bit */
    u32 record_offset;
    u64 record_id;
    u32 walk; /* GET_RECORD_IDENTIFIER's next slot */
    u32 attributes;
    u8 exchange[SIM_XLEN];
    struct {
        u64 id; /* 0: empty */
        u8 data[SIM_XLEN];
    } slot[SIM_SLOTS];
    u64 cell[SIM_CELLS];
    u8 mem[SIM_MEM_LEN];

    /* faults */
    bool busy_forever;  /* EXECUTE_OPERATION leaves the busy bit set */
    int force_status;   /* >= 0: every EXECUTE_OPERATION ends with this command status */
    bool drop_writes;   /* a write says SUCCESS and keeps nothing */

    /* what the interpreter did */
    u32 executes, writes_done, clears_done; /* EXECUTE_OPERATIONs; writes and clears stored */
    u32 register_writes;
    u32 stalls;
    u64 stalled_us;
};

struct sim *sim_new(void);
/* The io callbacks over s (ctx is s). */
struct erst_io sim_io(struct sim *s);
u32 sim_records(const struct sim *s);

/* An instruction entry for a hand-built table. */
struct erst_ins {
    u8 action, instruction, flags, space, bits, access;
    u64 address, value, mask;
    u8 bit_offset;
};
/* QEMU's 27 entries (build_erst), in its order. */
extern const struct erst_ins sim_qemu_ins[];
extern const u32 sim_qemu_count;

struct erst_table {
    u8 *b;
    u32 len;
};
/* The table (ACPI header, Serialization Header Size 48, Instruction Entry Count n), its checksum set. */
struct erst_table erst_table_new(const struct erst_ins *in, u32 n);
void erst_table_fix(struct erst_table *t);
/* Parse t as lib/erst.c would read it at SIM_TABLE_AT. */
bool erst_table_parse(struct erst_table *t, struct acpi_erst *out, struct acpi_problems *pr);
