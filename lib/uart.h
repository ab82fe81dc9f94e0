/* Where a 16550-compatible UART is and how its registers are reached: the legacy COM ports (I/O space) and
 * MMIO UARTs with 8/16/32-bit register access and a register stride (SPCR, BMC and SoC UARTs). Portable:
 * the description, Linux's earlycon syntax and the divisor arithmetic; kernel/serial.c does the I/O. */
#pragma once
#include "lib/format.h"
#include "lib/types.h"

#define UART_CLOCK_PC 1843200u /* the PC's 1.8432 MHz UART clock: divisor 1 = 115200 baud (PC16550D 8.10) */

enum uart_space { UART_SPACE_IO = 0, UART_SPACE_MMIO = 1 };

struct uart_desc {
    u8 space;        /* enum uart_space */
    u8 reg_shift;    /* register i lies at base + (i << reg_shift) */
    u8 access_bytes; /* width of each register access: 1 (I/O, mmio), 2 (mmio16) or 4 (mmio32) */
    u32 baud;        /* 0: keep what the firmware programmed (earlycon without options, SPCR "as is") */
    u32 clock_hz;    /* UART input clock; 0 = UART_CLOCK_PC */
    u64 base;
};

/* The UART at COM<index+1> (0x3F8, 0x2F8, 0x3E8, 0x2E8: the conventional PC ports). */
void uart_com(struct uart_desc *u, u32 index, u32 baud);
u16 uart_com_base(u32 index);
/* True when u is one of the four COM ports; *index is then its ttyS number. */
bool uart_is_com(const struct uart_desc *u, u32 *index);

/* Linux earlycon syntax (Documentation/admin-guide/kernel-parameters.txt, "earlycon=" and "console="):
 *   uart[8250],io,<addr>[,options]  uart[8250],mmio,<addr>[,options]  uart[8250],mmio16,<addr>[,options]
 *   uart[8250],mmio32,<addr>[,options]  uart[8250],0x<addr>[,options] (= mmio)
 * options: BAUD or BAUDn8 (pmuboot speaks 8N1 only). Without options the UART is not reprogrammed (as Linux).
 * MMIO must lie below 4 GiB (pmuboot identity-maps only the low 4 GiB). Returns NULL on success, else a
 * message naming what is wrong. */
const char *uart_parse_earlycon(const char *v, struct uart_desc *u);
/* Baud rate from "115200" or "115200n8": NULL on success. */
const char *uart_parse_baud(const char *v, u32 *baud);

/* Divisor latch value for baud with this UART's clock; 0 when baud cannot be reached within 2%. */
u32 uart_divisor(const struct uart_desc *u, u32 baud);

/* "ttyS1 I/O 0x2f8 115200" or "uart MMIO32 0xfe030000 (stride 4) baud as firmware set it". */
void uart_describe(const struct uart_desc *u, struct strbuf *sb);
