/* The kernel command line: "key=value" words separated by blanks; documented in docs/options.md.
 * A table defines each option, its values and its help text: the base options (the console) in cmdline.c, every
 * other in the layer that reads it (kernel/portable/kernel_options.c, harness/portable/harness_options.c,
 * pmu/options.c, emul/options.c, a suite's tests/NAME/portable/NAME_options.c), added by cmdline_add_options and
 * parsed in one pass.
 * Unknown words and malformed values are errors that name the offending word: never a silent default. */
#pragma once
#include "lib/types.h"
#include "lib/uart.h"

#define OPT_LIST_MAX 256
/* An option's message (opt_desc.set's return, a layer's static buffer) fits OPT_WHY_MAX bytes with its list of valid
 * values whole (pmu_fault='s lists 24 faults); cmdline_parse's err fits CMDLINE_ERROR_MAX with the word before it. */
#define OPT_WHY_MAX 640
#define CMDLINE_ERROR_MAX 1024

enum exit_mode { EXIT_HALT, EXIT_QEMU, EXIT_REBOOT }; /* exit= (kernel/portable/kernel_options.h) */
enum console_kind { CONSOLE_AUTO, CONSOLE_TTYS, CONSOLE_UART };

/* The base options, which the portable console choice reads (lib/console_choice.h); every other option is in the
 * struct of the layer that reads it, filled by that layer's table. */
struct options {
    char image[128];            /* a leading image path (QEMU -kernel passes it), if any */
    enum console_kind console_kind; /* console=auto (default) | ttyS<N>[,BAUD] | uart[8250],... */
    char console[64];           /* the console= value as given ("auto" by default) */
    u32 console_port;           /* console=ttyS<N>[,baud]: N in 0..3 */
    u32 console_baud;
    struct uart_desc console_uart; /* console=uart[8250],io|mmio|mmio16|mmio32,ADDR[,BAUD] */
};

/* The base options' defaults, and every added table's (cmdline_add_options: add them first). */
void options_default(struct options *o);

/* For an option with a fixed set of values: *out = the index of v in names (a NULL-terminated list) and NULL, or
 * `why` ("expects a, b or c") when v is none of them. */
const char *opt_choice(const char *v, const char *const *names, u32 *out, const char *why);
/* A comma-separated list of names, each one of names[0..count-1], as a mask (bit i for names[i]) in *mask; false on
 * a word that is none of them, copied into bad (bad_size bytes, cut to fit) for the message. */
bool opt_names_mask(const char *list, const char *const *names, u32 count, u32 *mask, char *bad, size_t bad_size);
/* names[0..count-1] joined by ", " into buf (size bytes, cut to fit): the list an error message offers. */
const char *opt_names_join(const char *const *names, u32 count, char *buf, size_t size);
/* A decimal number in [min, max] (no sign, no trailing text). */
bool opt_u32(const char *s, u32 *out, u32 min, u32 max);

struct opt_desc {
    const char *name;
    const char *syntax;
    const char *help;
    /* Writes value into values (the struct of the option's layer: its table's `values`; the base options' is the
     * struct options given to cmdline_parse). Returns NULL on success or a message saying what is wrong. */
    const char *(*set)(void *values, const char *value);
};
/* A layer's options: its rows, the struct they fill (the layer owns it and reads it through its own accessor),
 * its defaults and the rules between them. */
struct opt_table {
    const struct opt_desc *opts;
    u32 count;
    void *values;
    size_t size;                     /* of *values: zero before defaults */
    void (*defaults)(void *values); /* NULL: all zero */
    /* Rules between options, checked once every word is read (NULL: none): false with err filled. A rule may read
     * the options of a layer below through that layer's accessor. */
    bool (*consistent)(const void *values, char *err, size_t err_size);
};
/* A layer's table: parsed and listed (after the base options) from then on, in the order added, which is also the
 * order of their rules. Adding a table twice is harmless. The composition adds every layer's table before
 * options_default and cmdline_parse (tests/main.c; the host tests too). */
void cmdline_add_options(const struct opt_table *t);

/* Parse cmdline into *o and the added tables' structs (which must hold defaults: options_default). Returns true on success; on failure err holds one line
 * naming the offending word and what was wrong: whole in CMDLINE_ERROR_MAX bytes; in a smaller err it ends with
 * "..." where it was cut. */
bool cmdline_parse(const char *cmdline, struct options *o, char *err, size_t err_size);

/* The help table: call emit once per option with its syntax and description. */
void cmdline_help(void (*emit)(const char *syntax, const char *help, void *ctx), void *ctx);

/* Iterate a comma-separated list: copies the next item into item, returns false at the end. */
bool list_next(const char **cursor, char *item, size_t item_size);
bool list_contains(const char *list, const char *name);
