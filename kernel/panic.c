#include "kernel/panic.h"

#include <stdarg.h>

#include "kernel/console.h"
#include "lib/format.h"
#include "harness/report.h"
#include "kernel/traps.h"

void panic(const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    k_vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    report_bail_out(msg);
}

void panic_fault(const struct fault_record *f, const char *why)
{
    struct cpu *c = this_cpu();
    panic("cpu%u: %s: %s (vector %u) error 0x%llx at rip 0x%llx rsp 0x%llx cr2 0x%llx", c->index, why,
          exception_name(f->vector), f->vector, (unsigned long long)f->error, (unsigned long long)f->rip,
          (unsigned long long)f->rsp, (unsigned long long)f->cr2);
}
