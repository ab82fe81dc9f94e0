/* The 16550 presence tests (see uart_probe.h). Register names and bits: National Semiconductor PC16550D datasheet
 * (Table II, 8.4-8.8); Linux include/uapi/linux/serial_reg.h. */
#include "lib/uart_probe.h"

#include "lib/format.h"

enum { IER = 1, IIR = 2, MCR = 4, LSR = 5, MSR = 6 };
#define IER_ALL 0x0F      /* the four interrupt enables; bits 7:4 are chip-specific (Linux masks them too) */
#define IIR_NO_INT 0x01   /* "no interrupt pending": what IIR bit 0 reads when IER enables none */
#define LSR_THRE 0x20
#define MCR_LOOP 0x10
#define MCR_OUT2 0x08
#define MCR_RTS 0x02
#define MSR_DCD 0x80      /* in loopback mode: OUT2 */
#define MSR_CTS 0x10      /* in loopback mode: RTS */
#define THRE_SPINS 100000 /* a transmitter that never empties is not a console (nor RAM that reads bit 5 clear) */

const char *uart_probe(const struct uart_regs *r, bool loopback, char *why, size_t why_size)
{
    /* Linux serial8250_do_startup: "LSR safety check engaged!": an LSR of 0xff is a bus nothing drives. */
    u8 lsr = r->read(r->ctx, LSR);
    if (lsr == 0xFF) {
        k_snprintf(why, why_size, "LSR reads 0xff: nothing answers at this address (a floating bus)");
        return why;
    }
    /* Linux autoconfig: IER must hold 0 and then 0x0f in its low four bits. */
    u8 ier = r->read(r->ctx, IER);
    r->write(r->ctx, IER, 0);
    u8 ier0 = r->read(r->ctx, IER) & IER_ALL;
    u8 iir = r->read(r->ctx, IIR); /* no interrupt enabled: none can be pending */
    r->write(r->ctx, IER, IER_ALL);
    u8 ier15 = r->read(r->ctx, IER) & IER_ALL;
    r->write(r->ctx, IER, ier);
    if (ier0 != 0 || ier15 != IER_ALL) {
        k_snprintf(why, why_size, "IER test failed: wrote 0x00 and 0x0f, read 0x%02x and 0x%02x (Linux 8250 "
                                  "autoconfig)", ier0, ier15);
        return why;
    }
    /* PC16550D 8.5: IIR bit 0 is 0 only while an enabled interrupt is pending (DesignWare's busy-detect ID 0x7 has
     * it set too). */
    if (!(iir & IIR_NO_INT)) {
        k_snprintf(why, why_size, "IIR reads 0x%02x with every interrupt disabled: bit 0 (no interrupt pending) is "
                                  "clear", iir);
        return why;
    }
    /* Let what the firmware or loader still sends leave before loopback diverts it (PC16550D 8.6: LSR bit 5). */
    u32 spins = 0;
    while (!((lsr = r->read(r->ctx, LSR)) & LSR_THRE))
        if (++spins == THRE_SPINS) {
            k_snprintf(why, why_size, "LSR reads 0x%02x: the transmitter holding register never empties (bit 5)",
                       lsr);
            return why;
        }
    if (!loopback)
        return NULL;
    /* Linux autoconfig: in loopback mode (PC16550D 8.7, MCR bit 4) the modem outputs feed the modem inputs, so
     * OUT2 and RTS read back as DCD and CTS: MSR bits 7:4 = 0x9. */
    u8 mcr = r->read(r->ctx, MCR);
    r->write(r->ctx, MCR, MCR_LOOP | MCR_OUT2 | MCR_RTS);
    u8 msr = r->read(r->ctx, MSR) & 0xF0;
    r->write(r->ctx, MCR, mcr);
    if (msr != (MSR_DCD | MSR_CTS)) {
        k_snprintf(why, why_size, "loopback test failed: MCR 0x1a (loop, OUT2, RTS) gave MSR bits 7:4 0x%02x, a "
                                  "16550 gives 0x90 (DCD, CTS; Linux 8250 autoconfig)", msr);
        return why;
    }
    return NULL;
}
