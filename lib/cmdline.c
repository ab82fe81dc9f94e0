/* Command-line parser (see cmdline.h). Options follow Linux's "last one wins" for repeated keys. */
#include "lib/cmdline.h"

#include <string.h>

#include "lib/format.h"

#define WORD_MAX 256

/* Linux syntax: console=ttyS<N>[,<baud>] (Documentation/admin-guide/serial-console.rst), or an explicit UART
 * in earlycon syntax (lib/uart.h); auto = the ACPI SPCR table's port, else COM1. */
static const char *set_console(void *values, const char *v)
{
    struct options *o = values;
    if (strlen(v) >= sizeof(o->console))
        return "value is too long";
    if (!strcmp(v, "auto")) {
        o->console_kind = CONSOLE_AUTO;
    } else if (!strncmp(v, "ttyS", 4)) {
        if (v[4] < '0' || v[4] > '3' || (v[5] && v[5] != ','))
            return "expects ttyS0..ttyS3, optionally followed by ,BAUD";
        u32 baud = 115200;
        if (v[5] == ',') {
            if (!opt_u32(v + 6, &baud, 50, 115200) || 115200 % baud)
                return "baud rate must divide 115200 (e.g. 115200, 57600, 38400, 19200, 9600)";
        }
        o->console_kind = CONSOLE_TTYS;
        o->console_port = (u32)(v[4] - '0');
        o->console_baud = baud;
    } else {
        struct uart_desc u;
        const char *why = uart_parse_earlycon(v, &u);
        if (why)
            return why;
        o->console_kind = CONSOLE_UART;
        o->console_uart = u;
    }
    memcpy(o->console, v, strlen(v) + 1);
    return NULL;
}

static const struct opt_desc base_options[] = {
    {"console", "console=auto|ttyS0..3[,BAUD]|uart,io|mmio|mmio32,ADDR[,BAUD]",
     "serial console: auto (default) = the ACPI SPCR port, else COM1 (ttyS0) at 115200", set_console},
};

/* The option tables of the layers above (cmdline_add_options), after the base table. */
#define OPT_TABLES_MAX 8
static const struct opt_table *tables[OPT_TABLES_MAX];
static u32 table_count;

void cmdline_add_options(const struct opt_table *t)
{
    for (u32 i = 0; i < table_count; i++)
        if (tables[i] == t)
            return;
    if (table_count < OPT_TABLES_MAX)
        tables[table_count++] = t;
}

/* The option's row, and the struct its setter fills (o's for a base option, its table's for a layer's). */
static const struct opt_desc *find_option(const char *name, struct options *o, void **values)
{
    for (size_t i = 0; i < ARRAY_SIZE(base_options); i++)
        if (!strcmp(base_options[i].name, name)) {
            *values = o;
            return &base_options[i];
        }
    for (u32 t = 0; t < table_count; t++)
        for (u32 i = 0; i < tables[t]->count; i++)
            if (!strcmp(tables[t]->opts[i].name, name)) {
                *values = tables[t]->values;
                return &tables[t]->opts[i];
            }
    return NULL;
}

void options_default(struct options *o)
{
    memset(o, 0, sizeof(*o));
    o->console_kind = CONSOLE_AUTO;
    memcpy(o->console, "auto", 5);
    o->console_port = 0;
    o->console_baud = 115200;
    for (u32 t = 0; t < table_count; t++) {
        memset(tables[t]->values, 0, tables[t]->size);
        if (tables[t]->defaults)
            tables[t]->defaults(tables[t]->values);
    }
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* A first word without '=' that looks like a path is the image name QEMU -kernel passes (load_multiboot). */
static bool looks_like_image(const char *w)
{
    return !strchr(w, '=') && (strchr(w, '/') || strchr(w, '.'));
}

/* Rules between options, checked once every word is read (order does not matter): each table's, in the order added. */
static bool options_consistent(char *err, size_t err_size)
{
    for (u32 t = 0; t < table_count; t++)
        if (tables[t]->consistent && !tables[t]->consistent(tables[t]->values, err, err_size))
            return false;
    return true;
}

bool cmdline_parse(const char *cmdline, struct options *o, char *err, size_t err_size)
{
    const char *p = cmdline ? cmdline : "";
    bool first = true;
    if (err_size)
        err[0] = '\0';
    for (;;) {
        while (is_blank(*p))
            p++;
        if (!*p)
            break;
        char word[WORD_MAX];
        size_t n = 0;
        while (p[n] && !is_blank(p[n]))
            n++;
        if (n >= sizeof(word)) {
            k_snprintf(err, err_size, "option '%.40s...' is longer than %d characters", p, WORD_MAX - 1);
            return false;
        }
        memcpy(word, p, n);
        word[n] = '\0';
        p += n;

        if (first && looks_like_image(word)) {
            first = false;
            k_snprintf(o->image, sizeof(o->image), "%s", word);
            continue;
        }
        first = false;

        char *eq = strchr(word, '=');
        if (!eq) {
            k_snprintf(err, err_size, "unknown option '%s' (options are key=value)", word);
            return false;
        }
        *eq = '\0';
        void *values;
        const struct opt_desc *d = find_option(word, o, &values);
        if (!d) {
            *eq = '=';
            k_snprintf(err, err_size, "unknown option '%s'", word);
            return false;
        }
        const char *why = d->set(values, eq + 1);
        if (why) {
            *eq = '=';
            if ((size_t)k_snprintf(err, err_size, "bad value in '%s': %s %s", word, d->name, why) >= err_size &&
                err_size >= 4)
                memcpy(err + err_size - 4, "...", 4); /* never a list cut without a sign */
            return false;
        }
    }
    return options_consistent(err, err_size);
}

void cmdline_help(void (*emit)(const char *syntax, const char *help, void *ctx), void *ctx)
{
    for (size_t i = 0; i < ARRAY_SIZE(base_options); i++)
        emit(base_options[i].syntax, base_options[i].help, ctx);
    for (u32 t = 0; t < table_count; t++)
        for (u32 i = 0; i < tables[t]->count; i++)
            emit(tables[t]->opts[i].syntax, tables[t]->opts[i].help, ctx);
}

bool list_next(const char **cursor, char *item, size_t item_size)
{
    const char *c = *cursor;
    if (!c || !*c)
        return false;
    size_t n = 0;
    while (c[n] && c[n] != ',')
        n++;
    size_t k = n < item_size ? n : item_size - 1;
    memcpy(item, c, k);
    item[k] = '\0';
    *cursor = c[n] ? c + n + 1 : c + n;
    return true;
}

/* Compares items in place: copying them into a bounded buffer would let a long item match its prefix. */
bool list_contains(const char *list, const char *name)
{
    size_t len = strlen(name);
    for (const char *c = list; c && *c;) {
        const char *comma = strchr(c, ',');
        size_t n = comma ? (size_t)(comma - c) : strlen(c);
        if (n == len && !strncmp(c, name, n))
            return true;
        if (!comma)
            break;
        c = comma + 1;
    }
    return false;
}
