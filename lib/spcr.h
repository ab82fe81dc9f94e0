/* ACPI SPCR, the Serial Port Console Redirection Table (Microsoft, "Serial Port Console Redirection Table",
 * revisions 1-4): the UART firmware and the BMC redirect the console to. Portable: decoded through a
 * phys_window into a struct uart_desc, or a reason why pmuboot cannot drive the port it names. */
#pragma once
#include "lib/acpi.h"
#include "lib/uart.h"

/* Interface Type (offset 36): revision 1: 0 = full 16550, 1 = full 16450; revision 2+: the DBG2 serial port
 * subtypes (Microsoft "Debug Port Table 2", Table 3). pmuboot drives the 16550-compatible ones. */
#define SPCR_IF_16550 0x00
#define SPCR_IF_16550_SUBSET 0x01 /* rev 1: 16450; rev 2+: 16550 subset compatible with DBGP rev 1 */
#define SPCR_IF_16550_GAS 0x12    /* 16550-compatible with parameters defined in the Generic Address Structure */
#define SPCR_MIN_LEN 80           /* the fixed fields up to and including UART Clock Frequency (rev 1-3) */

struct acpi_gas { /* ACPI 6.5 5.2.3.2 Generic Address Structure */
    u8 space_id;  /* 0 system memory, 1 system I/O */
    u8 bit_width; /* register bit width */
    u8 bit_offset;
    u8 access_size; /* 0 undefined, 1 byte, 2 word, 3 dword, 4 qword */
    u64 address;
};

struct acpi_spcr {
    u64 phys;
    u32 length;
    u8 revision;
    u8 interface_type; /* offset 36 */
    struct acpi_gas base; /* offset 40: Base Address; address 0 = console redirection disabled */
    u8 baud_code;      /* offset 58 Configured Baud Rate: 0 as is, 3 9600, 4 19200, 6 57600, 7 115200 */
    u32 clock_hz;      /* offset 76 UART Clock Frequency (rev 3+), 0 = not given */
    u32 precise_baud;  /* offset 80 Precise Baud Rate (rev 4+), 0 = use baud_code */

    bool usable;           /* a 16550-compatible UART pmuboot can reach: uart holds it */
    struct uart_desc uart;
    char why[ACPI_PROBLEM_LEN]; /* when !usable: why not */
};

/* Parse the SPCR at phys. Returns false (reported in pr) when the table itself is bad: unreadable, wrong
 * signature, shorter than SPCR_MIN_LEN, or a wrong checksum. Returns true when the fields could be read;
 * then usable says whether the port is one pmuboot can drive, and why says why not. */
bool acpi_spcr_parse(const struct phys_window *mem, u64 phys, struct acpi_spcr *out, struct acpi_problems *pr);

/* "rev 2, interface 0x12 (16550 GAS), I/O 0x2f8 width 8, baud code 7". */
void acpi_spcr_format(const struct acpi_spcr *s, struct strbuf *sb);


/* Look the SPCR up in what acpi_discover found and parse it. */
enum acpi_lookup acpi_spcr_find(const struct phys_window *mem, const struct acpi_info *ai, struct acpi_spcr *out,
                               struct acpi_problems *pr);
