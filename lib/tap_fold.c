/* Folding agreeing threads' verdicts into one line (lib/tap_fold.h). A verdict's text is read as pieces: a
 * number standing alone (decimal, 0x-hex, or bare hex with a digit and a letter: "ffffa8c2"), the thread's own
 * name ("cpu5" on cpu5), another word (letters, digits, '_': "cpu4", "x2apic"), or one other byte. Two verdicts
 * fold when their pieces agree one by one, numbers by kind only, everything else byte for byte, except that an
 * evidence entry of the YAML block (a "key": value line whose value is not a {...} mapping, which expectations
 * and exceptions are) may differ in anything but its key. The folded text is the first thread's with each number
 * that differs replaced by its range, the thread's own name by the group's, and an evidence entry that differs
 * in shape saying so. */
#include "lib/tap_fold.h"

#include <string.h>

#include "lib/format.h"

enum piece_kind { PIECE_BYTE, PIECE_WORD, PIECE_DEC, PIECE_HEX, PIECE_BAREHEX, PIECE_SELF };

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_xdigit(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static bool is_word(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_number(enum piece_kind k)
{
    return k == PIECE_DEC || k == PIECE_HEX || k == PIECE_BAREHEX;
}

/* Whether t[i..e) is "cpu" followed by the decimal `self`. */
static bool is_self(const char *t, u32 i, u32 e, u32 self)
{
    if (e - i < 4 || memcmp(t + i, "cpu", 3) != 0)
        return false;
    u64 v = 0;
    for (u32 j = i + 3; j < e; j++) {
        if (!is_digit(t[j]) || v > 100000000)
            return false;
        v = v * 10 + (u32)(t[j] - '0');
    }
    return v == self;
}

/* Where a decimal number starting at digit t[i] ends: its digits and a fraction ("1.000"), when no letter or '_'
 * follows ("1005a" is not one); 0 when it is not a number. */
static u32 decimal_end(const char *t, u32 len, u32 i)
{
    u32 e = i;
    while (e < len && is_digit(t[e]))
        e++;
    if (e < len && is_word(t[e]))
        return 0;
    if (e + 1 < len && t[e] == '.' && is_digit(t[e + 1])) {
        u32 f = e + 1;
        while (f < len && is_digit(t[f]))
            f++;
        if (f == len || !is_word(t[f]))
            return f;
    }
    return e;
}

/* The piece of t that starts at i (< len) in the text of thread `self`: its kind, and where it ends. A '-' before
 * a decimal number that does not follow a word is its sign ("-397", not "a-1"). */
static u32 piece(const char *t, u32 len, u32 i, u32 self, enum piece_kind *kind)
{
    u32 d = 0;
    if (t[i] == '-' && i + 1 < len && is_digit(t[i + 1]) && (i == 0 || !is_word(t[i - 1])))
        d = decimal_end(t, len, i + 1);
    else if (is_digit(t[i]))
        d = decimal_end(t, len, i);
    if (d) {
        *kind = PIECE_DEC;
        return d;
    }
    if (!is_word(t[i])) {
        *kind = PIECE_BYTE;
        return i + 1;
    }
    u32 e = i;
    while (e < len && is_word(t[e]))
        e++;
    *kind = is_self(t, i, e, self) ? PIECE_SELF : PIECE_WORD;
    if (e - i > 2 && t[i] == '0' && (t[i + 1] == 'x' || t[i + 1] == 'X')) {
        u32 j = i + 2;
        while (j < e && is_xdigit(t[j]))
            j++;
        if (j == e)
            *kind = PIECE_HEX;
        return e;
    }
    bool digits = false, hex = true;
    for (u32 j = i; j < e; j++) {
        digits |= is_digit(t[j]);
        hex &= is_xdigit(t[j]);
    }
    if (digits && hex)
        *kind = PIECE_BAREHEX;
    return e;
}

/* A number's value: sign, whole part and fraction (scaled to 18 digits), each saturating at u64. */
struct num {
    bool negative;
    u64 whole, frac;
};

static u64 accumulate(u64 v, u32 base, u32 d)
{
    return v > (~0ull - d) / base ? ~0ull : v * base + d;
}

static struct num value(const char *t, u32 i, u32 e, enum piece_kind kind)
{
    struct num n = {t[i] == '-', 0, 0};
    u32 j = kind == PIECE_HEX ? i + 2 : i + n.negative;
    for (; j < e && t[j] != '.'; j++) {
        char c = t[j];
        u32 d = is_digit(c) ? (u32)(c - '0') : (u32)((c | 0x20) - 'a' + 10);
        n.whole = accumulate(n.whole, kind == PIECE_DEC ? 10 : 16, d);
    }
    u32 digits = 0;
    for (j++; j < e && digits < 18; j++, digits++)
        n.frac = n.frac * 10 + (u32)(t[j] - '0');
    for (; digits < 18; digits++)
        n.frac *= 10;
    return n;
}

/* -1 when a < b, 0 when equal (-0 and 0 differ: they are spelled apart), 1 when a > b. */
static int num_cmp(struct num a, struct num b)
{
    if (a.negative != b.negative)
        return a.negative ? -1 : 1;
    int m = a.whole != b.whole ? (a.whole < b.whole ? -1 : 1) : a.frac != b.frac ? (a.frac < b.frac ? -1 : 1) : 0;
    return a.negative ? -m : m;
}

#define NAME_HEAD " - cpu"

/* Where the name's "/suite/check" starts in " - cpuN/suite/check...", or 0 when the text is not so named. */
static u32 name_tail(const char *t, u32 len)
{
    u32 h = sizeof(NAME_HEAD) - 1, i = h;
    if (len <= h || memcmp(t, NAME_HEAD, h) != 0)
        return 0;
    while (i < len && is_digit(t[i]))
        i++;
    return i > h && i < len && t[i] == '/' ? i : 0;
}

/* The number in the name " - cpuN/...". */
static u32 name_cpu(const char *t, u32 tail)
{
    u32 v = 0;
    for (u32 j = sizeof(NAME_HEAD) - 1; j < tail; j++)
        v = v * 10 + (u32)(t[j] - '0');
    return v;
}

/* The end of the line that starts at i (after its '\n', or len). */
static u32 line_end(const char *t, u32 len, u32 i)
{
    const char *nl = memchr(t + i, '\n', len - i);
    return nl ? (u32)(nl - t) + 1 : len;
}

/* Whether lines a[i..ea) and b[j..eb) agree piece by piece (numbers by kind). */
static bool line_same(const char *a, u32 i, u32 ea, u32 self_a, const char *b, u32 j, u32 eb, u32 self_b)
{
    while (i < ea && j < eb) {
        enum piece_kind ka, kb;
        u32 pa = piece(a, ea, i, self_a, &ka), pb = piece(b, eb, j, self_b, &kb);
        if (ka != kb)
            return false;
        if (!is_number(ka) && ka != PIECE_SELF && (pa - i != pb - j || memcmp(a + i, b + j, pa - i) != 0))
            return false;
        i = pa;
        j = pb;
    }
    return i == ea && j == eb;
}

/* An evidence entry of a YAML block: `  "key": value` with a value that is not a {...} mapping. Returns the
 * offset just after `": ` (0 when the line is not one). */
static u32 evidence_value(const char *t, u32 i, u32 e)
{
    if (e - i < 6 || memcmp(t + i, "  \"", 3) != 0)
        return 0;
    for (u32 j = i + 3; j + 3 < e; j++)
        if (t[j] == '"' && t[j + 1] == ':' && t[j + 2] == ' ')
            return t[j + 3] == '{' ? 0 : j + 3;
    return 0;
}

/* Whether the lines agree, or are evidence entries with the same key, byte for byte (their values may differ in
 * shape: the folded line prints the key and says so). */
static bool line_folds(const char *a, u32 i, u32 ea, u32 self_a, const char *b, u32 j, u32 eb, u32 self_b)
{
    if (line_same(a, i, ea, self_a, b, j, eb, self_b))
        return true;
    u32 va = evidence_value(a, i, ea), vb = evidence_value(b, j, eb);
    return va && vb && va - i == vb - j && !memcmp(a + i, b + j, va - i);
}

bool tap_fold_same_shape(const char *a, u32 alen, const char *b, u32 blen)
{
    u32 i = name_tail(a, alen), j = name_tail(b, blen);
    if (!i || !j)
        return false;
    u32 self_a = name_cpu(a, i), self_b = name_cpu(b, j);
    bool name_line = true;
    while (i < alen && j < blen) {
        u32 ea = line_end(a, alen, i), eb = line_end(b, blen, j);
        if (name_line ? !line_same(a, i, ea, self_a, b, j, eb, self_b)
                      : !line_folds(a, i, ea, self_a, b, j, eb, self_b))
            return false;
        name_line = false;
        i = ea;
        j = eb;
    }
    return i == alen && j == blen;
}

/* Write "0-3,5,..." for the leading runs of it[0..n) (ascending CPUs) whose text stays within `max` characters;
 * returns how many items they cover (the first run always). */
static u32 list_runs(const struct tap_fold_item *it, u32 n, u32 max, struct strbuf *sb)
{
    u32 k = 0;
    while (k < n) {
        u32 last = k;
        while (last + 1 < n && it[last + 1].cpu == it[last].cpu + 1)
            last++;
        char run[24];
        u32 add = last > k ? (u32)k_snprintf(run, sizeof(run), "%s%u-%u", k ? "," : "", it[k].cpu, it[last].cpu)
                           : (u32)k_snprintf(run, sizeof(run), "%s%u", k ? "," : "", it[k].cpu);
        if (k && sb->len + add > max)
            break; /* the next run starts the next line */
        sb_printf(sb, "%s", run);
        k = last + 1;
    }
    return k;
}

u32 tap_fold_cpu_list(const struct tap_fold_item *it, u32 n, char *out, u32 size)
{
    struct strbuf sb;
    sb_init(&sb, out, size);
    list_runs(it, n, UINT32_MAX, &sb);
    return (u32)sb.len;
}

u32 tap_fold_fit(const struct tap_fold_item *it, u32 n)
{
    char list[TAP_FOLD_LIST_MAX + 24];
    struct strbuf sb;
    sb_init(&sb, list, sizeof(list));
    return list_runs(it, n, TAP_FOLD_LIST_MAX, &sb);
}

/* The folded text being written: stops at the first piece that does not fit (full). */
struct out {
    char *p;
    u32 size, len;
    bool full;
};

static void put(struct out *o, const char *s, u32 n)
{
    if (o->full || o->len + n >= o->size) {
        o->full = true;
        return;
    }
    memcpy(o->p + o->len, s, n);
    o->len += n;
    o->p[o->len] = '\0';
}

static void put_str(struct out *o, const char *s)
{
    put(o, s, (u32)strlen(s));
}

/* One piece, taken from every thread at once: the first thread's, and for a number which threads hold the
 * smallest and the largest value and whether they differ. */
struct step {
    enum piece_kind kind;
    u32 start, end; /* of the first thread's piece */
    bool differs;
    u32 min_k, max_k;
    u32 min_start, min_end, max_start, max_end;
};

static void step(const struct tap_fold_item *it, u32 n, u32 *cur, const u32 *end, struct step *s)
{
    s->start = cur[0];
    s->end = piece(it[0].text, end[0], cur[0], it[0].cpu, &s->kind);
    struct num lo = {0}, hi = {0};
    for (u32 k = 0; k < n; k++) {
        enum piece_kind kk;
        u32 b = cur[k], e = piece(it[k].text, end[k], b, it[k].cpu, &kk);
        if (is_number(s->kind)) {
            struct num v = value(it[k].text, b, e, kk);
            if (k == 0 || num_cmp(v, lo) < 0)
                lo = v, s->min_k = k, s->min_start = b, s->min_end = e;
            if (k == 0 || num_cmp(v, hi) > 0)
                hi = v, s->max_k = k, s->max_start = b, s->max_end = e;
        }
        cur[k] = e;
    }
    s->differs = is_number(s->kind) && num_cmp(lo, hi) != 0;
}

static void put_range(struct out *o, const struct tap_fold_item *it, const struct step *s)
{
    char cpu[24];
    put(o, it[s->min_k].text + s->min_start, s->min_end - s->min_start);
    k_snprintf(cpu, sizeof(cpu), " (cpu%u) .. ", it[s->min_k].cpu);
    put_str(o, cpu);
    put(o, it[s->max_k].text + s->max_start, s->max_end - s->max_start);
    k_snprintf(cpu, sizeof(cpu), " (cpu%u)", it[s->max_k].cpu);
    put_str(o, cpu);
}

/* Every thread's current line: ends (end[k]), whether all have the first thread's shape, and whether all are
 * the same bytes (*identical: most lines, copied as they are without reading their pieces). */
static bool lines_agree(const struct tap_fold_item *it, u32 n, const u32 *cur, u32 *end, bool *identical)
{
    bool agree = true;
    *identical = true;
    for (u32 k = 0; k < n; k++)
        end[k] = line_end(it[k].text, it[k].len, cur[k]);
    u32 len0 = end[0] - cur[0];
    for (u32 k = 1; k < n && *identical; k++)
        *identical = end[k] - cur[k] == len0 && !memcmp(it[0].text + cur[0], it[k].text + cur[k], len0);
    for (u32 k = 1; k < n && !*identical && agree; k++)
        agree = line_same(it[0].text, cur[0], end[0], it[0].cpu, it[k].text, cur[k], end[k], it[k].cpu);
    return agree;
}

/* How many numbers differ between the threads on the current lines (agreeing in shape); cur is left as it was. */
static u32 differing_on_line(const struct tap_fold_item *it, u32 n, const u32 *cur, const u32 *end, u32 *tmp)
{
    memcpy(tmp, cur, n * sizeof(*tmp));
    u32 count = 0;
    struct step s;
    while (tmp[0] < end[0]) {
        step(it, n, tmp, end, &s);
        count += s.differs;
    }
    return count;
}

/* The current lines written piece by piece: numbers that differ as ranges, the thread's name as the group's. */
static void put_line(struct out *o, const struct tap_fold_item *it, u32 n, u32 *cur, const u32 *end,
                     const char *group)
{
    struct step s;
    while (cur[0] < end[0]) {
        step(it, n, cur, end, &s);
        if (s.differs)
            put_range(o, it, &s);
        else if (s.kind == PIECE_SELF)
            put_str(o, group);
        else
            put(o, it[0].text + s.start, s.end - s.start);
    }
}

/* The key of the first thread's current line and a note in place of its value; every cursor to its next line. */
static void put_note(struct out *o, const struct tap_fold_item *it, u32 n, u32 *cur, const u32 *end, u32 value_at,
                     const char *note)
{
    put(o, it[0].text + cur[0], value_at - cur[0]);
    put_str(o, note);
    put_str(o, "\n");
    memcpy(cur, end, n * sizeof(*cur));
}

static bool line_is(const struct tap_fold_item *it0, u32 at, const char *line)
{
    u32 n = (u32)strlen(line);
    return at + n <= it0->len && !memcmp(it0->text + at, line, n);
}

u32 tap_fold_render(const struct tap_fold_item *it, u32 n, u32 *scratch, char *out, u32 size)
{
    static const char truncated[] = "  \"diagnostics truncated\": \"the folded block outgrew its buffer; later lines "
                                    "dropped (fold=off prints each thread's)\"\n  ...\n";
    if (size < 256 || !n)
        return 0;
    struct out o = {out, size - (u32)sizeof(truncated), 0, false};
    out[0] = '\0';
    if (n == 1) {
        put(&o, it[0].text, it[0].len);
        if (!o.full)
            return o.len;
        o.len = 0, o.full = false; /* a single text that does not fit is cut like a folded one below */
    }
    u32 *cur = scratch, *end = scratch + n;
    char group[TAP_FOLD_LIST_MAX + 48], list[TAP_FOLD_LIST_MAX + 40];
    tap_fold_cpu_list(it, n, list, sizeof(list));
    k_snprintf(group, sizeof(group), n > 1 ? "cpu[%s]" : "cpu%s", list);
    for (u32 k = 0; k < n; k++)
        cur[k] = sizeof(NAME_HEAD) - 1 - 3; /* at "cpuN/...": the name is the thread's own word */
    u32 whole = 0;     /* length up to the last whole line written */
    bool open = false; /* inside the YAML block at `whole` */
    put_str(&o, " - ");
    for (bool name_line = true; cur[0] < it[0].len && !o.full; name_line = false) {
        bool identical, agree = lines_agree(it, n, cur, end, &identical);
        bool opens = line_is(&it[0], cur[0], "  ---\n"), closes = line_is(&it[0], cur[0], "  ...\n");
        u32 value_at = name_line ? 0 : evidence_value(it[0].text, cur[0], end[0]);
        char note[96];
        u32 d;
        if (identical && !name_line) { /* every thread wrote these bytes: as they are */
            put(&o, it[0].text + cur[0], end[0] - cur[0]);
            memcpy(cur, end, n * sizeof(*cur));
        } else if (value_at && !agree) {
            put_note(&o, it, n, cur, end, value_at,
                     "\"differs between the threads (fold=off prints each thread's)\"");
        } else if (value_at && (d = differing_on_line(it, n, cur, end, end + n)) > TAP_FOLD_MAX_RANGES) {
            k_snprintf(note, sizeof(note), "\"%u numbers differ between the threads (fold=off prints each thread's)\"",
                       d);
            put_note(&o, it, n, cur, end, value_at, note);
        } else {
            put_line(&o, it, n, cur, end, group);
        }
        if (!o.full) {
            whole = o.len;
            open = (open || opens) && !closes;
        }
    }
    if (!o.full)
        return o.len;
    o.len = whole;
    out[whole] = '\0';
    o.size = size, o.full = false;
    if (open)
        put_str(&o, truncated);
    return o.len;
}

void tap_fold_emit_group(const struct tap_fold_item *it, u32 n, u32 *scratch, char *out, tap_fold_emit_fn emit,
                         void *ctx)
{
    for (u32 at = 0, k; at < n; at += k) { /* a list too long for one name: several lines */
        k = tap_fold_fit(it + at, n - at);
        u32 len = tap_fold_render(it + at, k, scratch, out, TAP_FOLD_OUT_MAX);
        if (len)
            emit(ctx, out, len);
        else /* not even the name line fits folded: each thread's own */
            for (u32 m = at; m < at + k; m++)
                emit(ctx, it[m].text, it[m].len);
    }
}
