/* ACPI ERST, the Error Record Serialization Table (ACPI 6.5 18.5 "Error Serialization"): the firmware's persistent
 * store for an OS's error records, driven through "actions", each a list of instruction entries on registers given as
 * Generic Address Structures. Linux keeps pstore's records there (drivers/acpi/apei/erst.c over the interpreter of
 * apei-base.c); QEMU offers one with -device acpi-erst (hw/acpi/erst.c). Portable: the table is decoded through a
 * phys_window, and actions run through register callbacks (struct erst_io), so that the kernel
 * (kernel/erst_store.c) drives the firmware's registers and the host tests a model of QEMU's device.
 *
 * The records themselves are UEFI CPER records (lib/cper.h); the Error Log Address Range is the buffer they are
 * exchanged through: the OS puts a record there before a write, the firmware puts one there for a read. */
#pragma once
#include "lib/acpi.h"
#include "lib/bootinfo.h"
#include "lib/spcr.h" /* struct acpi_gas */

/* Serialization actions (ACPI 6.5 18.5.1.1). */
enum erst_action {
    ERST_BEGIN_WRITE = 0x00,
    ERST_BEGIN_READ = 0x01,
    ERST_BEGIN_CLEAR = 0x02,
    ERST_END = 0x03,
    ERST_SET_RECORD_OFFSET = 0x04,
    ERST_EXECUTE_OPERATION = 0x05,
    ERST_CHECK_BUSY_STATUS = 0x06,
    ERST_GET_COMMAND_STATUS = 0x07,
    ERST_GET_RECORD_IDENTIFIER = 0x08,
    ERST_SET_RECORD_IDENTIFIER = 0x09,
    ERST_GET_RECORD_COUNT = 0x0a,
    ERST_BEGIN_DUMMY_WRITE = 0x0b,
    /* 0x0c reserved */
    ERST_GET_ERROR_LOG_ADDRESS_RANGE = 0x0d,
    ERST_GET_ERROR_LOG_ADDRESS_LENGTH = 0x0e,
    ERST_GET_ERROR_LOG_ADDRESS_RANGE_ATTRIBUTES = 0x0f,
    ERST_GET_EXECUTE_OPERATION_TIMINGS = 0x10, /* ACPI 6.3 */
};

/* Serialization instructions (ACPI 6.5 18.5.1.2): the ones Linux's erst.c interprets, all of the specification's. */
enum erst_instruction {
    ERST_READ_REGISTER = 0x00,
    ERST_READ_REGISTER_VALUE = 0x01,
    ERST_WRITE_REGISTER = 0x02,
    ERST_WRITE_REGISTER_VALUE = 0x03,
    ERST_NOOP = 0x04,
    ERST_LOAD_VAR1 = 0x05,
    ERST_LOAD_VAR2 = 0x06,
    ERST_STORE_VAR1 = 0x07,
    ERST_ADD = 0x08,
    ERST_SUBTRACT = 0x09,
    ERST_ADD_VALUE = 0x0a,
    ERST_SUBTRACT_VALUE = 0x0b,
    ERST_STALL = 0x0c,
    ERST_STALL_WHILE_TRUE = 0x0d,
    ERST_SKIP_NEXT_INSTRUCTION_IF_TRUE = 0x0e,
    ERST_GOTO = 0x0f,
    ERST_SET_SRC_ADDRESS_BASE = 0x10,
    ERST_SET_DST_ADDRESS_BASE = 0x11,
    ERST_MOVE_DATA = 0x12,
};
#define ERST_FLAG_PRESERVE_REGISTER 0x01 /* an instruction entry's Flags bit 0 */

/* Command status (ACPI 6.5 18.5.1.1, GET_COMMAND_STATUS). */
enum erst_status {
    ERST_STATUS_SUCCESS = 0,
    ERST_STATUS_NOT_ENOUGH_SPACE = 1,
    ERST_STATUS_HARDWARE_NOT_AVAILABLE = 2,
    ERST_STATUS_FAILED = 3,
    ERST_STATUS_RECORD_STORE_EMPTY = 4,
    ERST_STATUS_RECORD_NOT_FOUND = 5,
};

/* Error Log Address Range attributes (GET_ERROR_LOG_ADDRESS_RANGE_ATTRIBUTES). */
#define ERST_RANGE_RESERVED 0x1 /* reserved for the firmware's error records */
#define ERST_RANGE_NVRAM 0x2    /* non-volatile, records written in place without the operations (Linux: unsupported) */
#define ERST_RANGE_SLOW 0x4

/* Record identifiers with a meaning of their own (ACPI 6.5 18.5.2.2): none given, and "no more records". */
#define ERST_ID_UNSPECIFIED 0ull
#define ERST_ID_NONE (~0ull)

#define ERST_HEADER_LEN 48 /* the ACPI header, Serialization Header Size, reserved, Instruction Entry Count */
#define ERST_ENTRY_LEN 32
#define ERST_MAX_ENTRIES 128

/* Time budgets, as Linux's erst.c: the firmware answers within 1 ms (FIRMWARE_TIMEOUT); a STALL lasts at most 50 us
 * (FIRMWARE_MAX_STALL). Beyond them an operation fails with the reason, never waits longer. */
#define ERST_FIRMWARE_TIMEOUT_US 1000
#define ERST_MAX_STALL_US 50
/* Instructions one action may run (a GOTO loop that never ends is an error, not a hang). */
#define ERST_MAX_STEPS 4096
#define ERST_WHY_LEN 192

struct erst_entry {
    u8 action, instruction, flags;
    struct acpi_gas reg;
    u64 value, mask;
};

struct acpi_erst {
    u64 phys;
    u32 length;
    u32 count;
    struct erst_entry e[ERST_MAX_ENTRIES];
};

/* Parse and check the ERST at phys: the header (length, Serialization Header Size, the Instruction Entry Count
 * matching the length as Linux's erst_check_table wants), every entry's action and instruction (known), its
 * register (system memory or I/O, byte to qword access, the bits inside it), and the actions every operation needs.
 * False with the reasons in pr when pmuboot cannot drive it. */
bool acpi_erst_parse(const struct phys_window *mem, u64 phys, struct acpi_erst *out, struct acpi_problems *pr);

enum acpi_lookup acpi_erst_find(const struct phys_window *mem, const struct acpi_info *ai, struct acpi_erst *out,
                               struct acpi_problems *pr);

/* Whether the entry's instruction reaches its register (Linux's erst_ins_type: APEI_EXEC_INS_ACCESS_REGISTER); the
 * register of one that does not (NOOP, ADD, SUBTRACT, STALL, GOTO) is neither checked nor mapped. */
bool erst_uses_register(const struct erst_entry *e);

/* "27 instructions" */
void acpi_erst_format(const struct acpi_erst *t, struct strbuf *sb);

/* The machine as the interpreter reaches it. width in bytes (1, 2, 4, 8). */
struct erst_io {
    void *ctx;
    u64 (*read)(void *ctx, const struct acpi_gas *reg, u32 width);
    void (*write)(void *ctx, const struct acpi_gas *reg, u32 width, u64 value);
    void (*stall_us)(void *ctx, u32 us);
    /* MOVE_DATA: copy len bytes from physical src to dst; false when either range cannot be reached. */
    bool (*move)(void *ctx, u64 dst, u64 src, u64 len);
};

/* A table and the registers it drives; why holds the reason of the last failure. */
struct erst_dev {
    const struct acpi_erst *table;
    const struct erst_io *io;
    char why[ERST_WHY_LEN];
};

struct erst_range {
    u64 base, size;
    u32 attributes;
};

enum erst_outcome {
    ERST_DONE,
    ERST_NO_RECORD, /* the firmware says RECORD_NOT_FOUND or RECORD_STORE_EMPTY (Linux: -ENOENT) */
    ERST_FAILED,    /* why says it */
};

/* The Error Log Address Range, as Linux's erst_get_erange. */
bool erst_get_range(struct erst_dev *d, struct erst_range *r);
/* Why the range cannot serve pmuboot's records of `need` bytes, or NULL: empty, too small, NVRAM mode (which Linux
 * does not implement either), or overlapping RAM the memory map offers to pmuboot (Linux's request_mem_region would
 * refuse it too; bi may be NULL). */
const char *erst_range_problem(const struct erst_range *r, u64 need, const struct boot_info *bi);
/* Why the table's memory registers cannot be used, or NULL: one lies in RAM the memory map offers (why: n bytes). */
const char *erst_registers_problem(const struct acpi_erst *t, const struct boot_info *bi, char *why, size_t n);

/* The operations of ACPI 6.5 18.5.2, as Linux's __erst_write_to_storage, __erst_read_from_storage and
 * __erst_clear_from_storage run them: BEGIN_x, its parameters, EXECUTE_OPERATION, CHECK_BUSY_STATUS until clear
 * (at most ERST_FIRMWARE_TIMEOUT_US), GET_COMMAND_STATUS, END. A write takes the record at `offset` in the range; a
 * read puts the record `id` there. */
enum erst_outcome erst_write(struct erst_dev *d, u64 offset);
enum erst_outcome erst_read(struct erst_dev *d, u64 id, u64 offset);
enum erst_outcome erst_clear(struct erst_dev *d, u64 id);
bool erst_record_count(struct erst_dev *d, u64 *count);
/* The next identifier of the firmware's walk over its records; ERST_ID_NONE at the end. */
bool erst_next_record_id(struct erst_dev *d, u64 *id);

/* A whole record through the range, mapped at `range` (its first r->size bytes): copied in, marked "ER" in its
 * persistence information as Linux's erst_write marks it, and written; or read and copied out (its length, from its
 * CPER header, into *len; at most cap bytes). */
enum erst_outcome erst_put_record(struct erst_dev *d, const struct erst_range *r, u8 *range, const u8 *rec, u32 len);
enum erst_outcome erst_get_record(struct erst_dev *d, const struct erst_range *r, const u8 *range, u64 id, u8 *out,
                                  u32 cap, u32 *len);

/* "RECORD_NOT_FOUND", or "status 0x1234" */
const char *erst_status_name(u64 status, char *buf, size_t n);
