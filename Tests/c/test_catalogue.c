/*
** test_catalogue.c — the bad-input catalogue (Tests/Fuzz/bad-input-catalogue.txt, shared with
** Tests/FastRouterTests/BadInputCatalogueTests.swift) through the C ABI: every malformed or
** extreme pattern, URL, method list and request gets its status and, for patterns and method
** lists, its fr_error offset and message; a 405 its Allow value; the router still answers its
** known table afterwards; 65,536 routes under one long prefix.
**
**     test_catalogue [CATALOGUE]     (default: Tests/Fuzz/bad-input-catalogue.txt)
**
** Every pattern, URL, method list and method is passed in a heap block of exactly its length,
** without a NUL after it, so a sanitizer build reports any read past (pointer, length).
*/
#include <stdlib.h>

#include "check.h"

typedef struct {
    int number;          /* line number in the file */
    char kind;           /* 'r' route, 'p' pattern, 'u' url, 'k' known, 'm' methods, 'q' request */
    char expect[128];
    int32_t priority;
    unsigned char *input; /* exactly len bytes: the pattern or URL */
    size_t len;
    unsigned char *extra; /* exactly extra_len bytes: the method list or method ('k', 'm', 'q') */
    size_t extra_len;
} line_t;

/* The kinds of line: keyword, letter, whether a method field comes before the input. */
static const struct {
    const char *word;
    char kind;
    int methods;
} kinds[] = {
    {"route", 'r', 0}, {"pattern", 'p', 0}, {"url", 'u', 0}, {"known", 'k', 1}, {"methods", 'm', 1}, {"request", 'q', 1},
};

typedef struct {
    unsigned char *bytes;
    size_t len, cap;
} buffer_t;

static void put(buffer_t *b, const unsigned char *bytes, size_t len) {
    if (b->len + len > b->cap) {
        b->cap = (b->len + len) * 2 + 16;
        b->bytes = realloc(b->bytes, b->cap);
        if (b->bytes == NULL) abort();
    }
    if (len > 0) memcpy(b->bytes + b->len, bytes, len);
    b->len += len;
}

static int hexval(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Expands \\ \s \e \xHH and \*N(TEXT\) from text[*i] up to end (or the closing \) when nested).
** Returns 0 on success. */
static int decode(const char *text, size_t end, size_t *i, int nested, buffer_t *out) {
    while (*i < end) {
        unsigned char c = (unsigned char)text[(*i)++];
        if (c != '\\') {
            put(out, &c, 1);
            continue;
        }
        if (*i >= end) return -1;
        char code = text[(*i)++];
        if (code == '\\') {
            put(out, &c, 1);
        } else if (code == 's') {
            put(out, (const unsigned char *)" ", 1);
        } else if (code == 'e') {
            /* the empty string */
        } else if (code == 'x') {
            if (*i + 2 > end || hexval(text[*i]) < 0 || hexval(text[*i + 1]) < 0) return -1;
            unsigned char byte = (unsigned char)(hexval(text[*i]) * 16 + hexval(text[*i + 1]));
            put(out, &byte, 1);
            *i += 2;
        } else if (code == '*') {
            size_t count = 0;
            while (*i < end && text[*i] >= '0' && text[*i] <= '9') count = count * 10 + (size_t)(text[(*i)++] - '0');
            if (*i >= end || text[*i] != '(') return -1;
            (*i)++;
            buffer_t unit = {0};
            if (decode(text, end, i, 1, &unit) != 0) {
                free(unit.bytes);
                return -1;
            }
            for (size_t k = 0; k < count; k++) put(out, unit.bytes, unit.len);
            free(unit.bytes);
        } else if (code == ')') {
            return nested ? 0 : -1;
        } else {
            return -1;
        }
    }
    return nested ? -1 : 0;
}

/* The next space-separated field of line[*i..end). */
static int field(const char *line, size_t end, size_t *i, size_t *start, size_t *stop) {
    while (*i < end && line[*i] == ' ') (*i)++;
    if (*i >= end) return -1;
    *start = *i;
    while (*i < end && line[*i] != ' ') (*i)++;
    *stop = *i;
    return 0;
}

/* An exact-size heap block holding the bytes (one byte allocated for none). */
static unsigned char *exact_copy(const buffer_t *b) {
    unsigned char *block = malloc(b->len > 0 ? b->len : 1);
    if (block == NULL) abort();
    if (b->len > 0) memcpy(block, b->bytes, b->len);
    return block;
}

static line_t *read_catalogue(const char *path, size_t *count) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) return NULL;
    buffer_t text = {0};
    unsigned char chunk[65536];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, file)) > 0) put(&text, chunk, got);
    fclose(file);
    line_t *lines = NULL;
    size_t n = 0, cap = 0;
    size_t pos = 0;
    int number = 0;
    while (pos < text.len) {
        size_t end = pos;
        while (end < text.len && text.bytes[end] != '\n') end++;
        number++;
        const char *line = (const char *)text.bytes;
        if (end > pos && line[pos] != '#') {
            line_t entry = {0};
            entry.number = number;
            size_t i = pos, s, e;
            int ok = field(line, end, &i, &s, &e) == 0;
            int methods = 0;
            entry.kind = '?';
            for (size_t k = 0; ok && k < sizeof kinds / sizeof kinds[0]; k++) {
                if (e - s == strlen(kinds[k].word) && memcmp(line + s, kinds[k].word, e - s) == 0) {
                    entry.kind = kinds[k].kind;
                    methods = kinds[k].methods;
                }
            }
            ok = ok && entry.kind != '?' && field(line, end, &i, &s, &e) == 0 && e - s < sizeof entry.expect;
            if (ok) memcpy(entry.expect, line + s, e - s);
            if (ok && entry.kind == 'r') {
                ok = field(line, end, &i, &s, &e) == 0;
                if (ok) entry.priority = (int32_t)strtol(line + s, NULL, 10);
            }
            buffer_t extra = {0}, input = {0};
            if (ok && methods) {
                size_t j;
                ok = field(line, end, &i, &s, &e) == 0 && (j = s, decode(line, e, &j, 0, &extra) == 0);
            }
            ok = ok && field(line, end, &i, &s, &e) == 0;
            size_t j = s;
            if (ok && decode(line, e, &j, 0, &input) != 0) ok = 0;
            if (!ok) {
                fprintf(stderr, "%s:%d: unreadable line\n", path, number);
                atomic_fetch_add(&check_failed, 1);
            } else {
                /* Exact-size blocks: no terminator after the input. */
                entry.input = exact_copy(&input);
                entry.len = input.len;
                if (methods) {
                    entry.extra = exact_copy(&extra);
                    entry.extra_len = extra.len;
                }
                if (n == cap) {
                    cap = cap * 2 + 64;
                    lines = realloc(lines, cap * sizeof *lines);
                    if (lines == NULL) abort();
                }
                lines[n++] = entry;
            }
            free(input.bytes);
            free(extra.bytes);
        }
        pos = end + 1;
    }
    free(text.bytes);
    *count = n;
    return lines;
}

/* One catalogue line's location and text, for failure messages. */
static void describe(const line_t *l, const char *problem) {
    if (l->extra != NULL)
        fprintf(stderr, "line %d (%c %s, %zu-byte methods \"%.*s\", %zu-byte input \"%.*s\"): %s\n", l->number, l->kind,
                l->expect, l->extra_len, l->extra_len > 40 ? 40 : (int)l->extra_len, (const char *)l->extra, l->len,
                l->len > 60 ? 60 : (int)l->len, (const char *)l->input, problem);
    else
        fprintf(stderr, "line %d (%c %s, %zu-byte input \"%.*s\"): %s\n", l->number, l->kind, l->expect, l->len,
                l->len > 60 ? 60 : (int)l->len, (const char *)l->input, problem);
}

static void verdict(const line_t *l, int ok, const char *problem) {
    if (ok) {
        atomic_fetch_add(&check_passed, 1);
    } else {
        atomic_fetch_add(&check_failed, 1);
        describe(l, problem);
    }
}

/* A `pattern` line through fr_router_add, a `methods` line through fr_router_add_methods. */
static void run_pattern(fr_router *r, const line_t *l) {
    char problem[512];
    size_t before = fr_router_count(r);
    uint64_t id = 900000u + (uint64_t)l->number;
    fr_error err;
    memset(&err, 0x5A, sizeof err);
    int status = l->kind == 'm' ? fr_router_add_methods(r, (const char *)l->extra, l->extra_len, (const char *)l->input,
                                                        l->len, 0, id, &err)
                                : fr_router_add(r, (const char *)l->input, l->len, 0, id, &err);
    int terminated = memchr(err.message, 0, sizeof err.message) != NULL;
    verdict(l, err.code == status && terminated, "fr_error not written with the status and a NUL");
    if (strcmp(l->expect, "ok") == 0) {
        snprintf(problem, sizeof problem, "status %d (offset %zu: %s), expected FR_OK", status, err.offset,
                 terminated ? err.message : "?");
        verdict(l, status == FR_OK && err.offset == 0 && err.message[0] == 0, problem);
        if (status == FR_OK) {
            verdict(l, fr_router_count(r) == before + 1, "count did not grow by one");
            verdict(l, fr_router_remove(r, id) == FR_OK, "could not remove it again");
        }
        return;
    }
    int code = 0;
    long low = -1, high = -1;
    const char *at = strchr(l->expect, '@');
    size_t name_len = at ? (size_t)(at - l->expect) : strlen(l->expect);
    if (name_len == 8 && memcmp(l->expect, "EPATTERN", 8) == 0) code = FR_EPATTERN;
    if (name_len == 6 && memcmp(l->expect, "EREGEX", 6) == 0) code = FR_EREGEX;
    if (name_len == 10 && memcmp(l->expect, "EDUPLICATE", 10) == 0) code = FR_EDUPLICATE;
    if (name_len == 6 && memcmp(l->expect, "EINVAL", 6) == 0) code = FR_EINVAL;
    if (at != NULL) {
        char *rest;
        low = high = strtol(at + 1, &rest, 10);
        if (*rest == '-') high = strtol(rest + 1, NULL, 10);
    }
    verdict(l, code != 0, "unknown expectation");
    snprintf(problem, sizeof problem, "status %d offset %zu (%s)", status, err.offset, terminated ? err.message : "?");
    verdict(l, status == code, problem);
    if (status == code && low >= 0) verdict(l, (long)err.offset >= low && (long)err.offset <= high, problem);
    if (status != FR_OK) {
        verdict(l, terminated && err.message[0] != 0 && strchr(err.message, '\n') == NULL, "message empty or not one line");
        verdict(l, fr_router_count(r) == before, "a failed add changed the count");
    } else {
        fr_router_remove(r, id);
    }
}

/* A `url` line through fr_router_match, a `request` line through fr_router_match_method. */
static void run_url(const fr_router *r, fr_match *m, const line_t *l, const char *when) {
    char problem[512];
    int status = l->kind == 'q' ? fr_router_match_method(r, (const char *)l->extra, l->extra_len, (const char *)l->input,
                                                         l->len, m)
                                : fr_router_match(r, (const char *)l->input, l->len, m);
    char outcome[256];
    if (status == FR_OK) {
        snprintf(outcome, sizeof outcome, "%" PRIu64, fr_match_route_id(m));
    } else if (status == FR_NOMATCH) {
        snprintf(outcome, sizeof outcome, "nomatch");
    } else if (status == FR_EURL) {
        snprintf(outcome, sizeof outcome, "EURL");
    } else if (status == FR_EINVAL) {
        snprintf(outcome, sizeof outcome, "EINVAL");
    } else if (status == FR_NOMETHOD) {
        /* 405=ALLOW: the expectation holds escapes (\s for the spaces). */
        char allow[200];
        size_t needed = 0;
        int got = fr_match_allow(m, allow, sizeof allow, &needed);
        snprintf(outcome, sizeof outcome, "405=%s", got == FR_OK ? allow : "<fr_match_allow failed>");
    } else {
        snprintf(outcome, sizeof outcome, "status %d", status);
    }
    if (strncmp(l->expect, "405=", 4) == 0) {
        buffer_t expected = {0};
        size_t i = 0;
        int readable = decode(l->expect, strlen(l->expect), &i, 0, &expected) == 0;
        snprintf(problem, sizeof problem, "%sgot %s", when, outcome);
        verdict(l, readable && expected.len == strlen(outcome) && memcmp(expected.bytes, outcome, expected.len) == 0,
                problem);
        free(expected.bytes);
    } else {
        const char *colon = strchr(l->expect, ':');
        size_t expected_len = colon ? (size_t)(colon - l->expect) : strlen(l->expect);
        snprintf(problem, sizeof problem, "%sgot %s", when, outcome);
        verdict(l, strlen(outcome) == expected_len && memcmp(outcome, l->expect, expected_len) == 0, problem);
    }
    if (status != FR_OK) {
        fr_str fragment = fr_match_fragment(m);
        verdict(l, fr_match_route_id(m) == FR_NO_ROUTE && fr_match_param_count(m) == 0 && fragment.ptr == NULL,
                "a result is left after a failed lookup");
    }
    if (status != FR_NOMETHOD) {
        size_t needed = 1;
        verdict(l, fr_match_allow(m, NULL, 0, &needed) == FR_ENOTFOUND && needed == 0,
                "an Allow value after a lookup that was not FR_NOMETHOD");
    }
    const char *colon = strchr(l->expect, ':');
    if (colon != NULL && status == FR_OK) {
        const char *equals = strchr(colon, '=');
        buffer_t value = {0};
        size_t i = 0;
        int readable = equals != NULL && decode(equals + 1, strlen(equals + 1), &i, 0, &value) == 0;
        fr_str got = {0};
        int found = readable ? fr_match_param(m, colon + 1, (size_t)(equals - colon - 1), &got) : FR_EINVAL;
        snprintf(problem, sizeof problem, "%sparameter %.*s is \"%.*s\" (status %d)", when,
                 readable ? (int)(equals - colon - 1) : 0, colon + 1, (int)got.len, got.ptr ? got.ptr : "", found);
        verdict(l, found == FR_OK && got.ptr != NULL && got.len == value.len &&
                       (value.len == 0 || memcmp(got.ptr, value.bytes, value.len) == 0), problem);
        free(value.bytes);
    }
}

/* 65,536 routes under a 200-byte prefix: they all register, answer, and half can be removed. */
static void many_routes_sharing_one_prefix(void) {
    enum { ROUTES = 65536 };
    char prefix[256];
    memset(prefix, 'p', sizeof prefix);
    prefix[0] = '/';
    prefix[101] = '/';
    prefix[200] = 0;
    fr_router *r = fr_router_new(0);
    fr_match *m = fr_match_new();
    char text[512];
    long failures = 0;
    for (int i = 0; i < ROUTES; i++) {
        int n = snprintf(text, sizeof text, "%s/r%d/{id:int}", prefix, i);
        if (fr_router_add(r, text, (size_t)n, 0, (uint64_t)i, NULL) != FR_OK) failures++;
    }
    CHECK_INT(failures, 0);
    CHECK_INT(fr_router_count(r), ROUTES);
    for (int i = 0; i < ROUTES; i += 4099) {
        int n = snprintf(text, sizeof text, "%s/r%d/7", prefix, i);
        CHECK_INT(fr_router_match(r, text, (size_t)n, m), FR_OK);
        CHECK_ID(fr_match_route_id(m), (uint64_t)i);
        fr_str id;
        CHECK_INT(fr_match_param(m, "id", 2, &id), FR_OK);
        CHECK_STR(id, "7");
    }
    int n = snprintf(text, sizeof text, "%s/r%d/7", prefix, ROUTES);
    CHECK_INT(fr_router_match(r, text, (size_t)n, m), FR_NOMATCH);
    n = snprintf(text, sizeof text, "%s/r5/{n:int}", prefix);
    CHECK_INT(fr_router_add(r, text, (size_t)n, 0, 1, NULL), FR_EDUPLICATE);
    for (int i = 0; i < ROUTES; i += 2) {
        if (fr_router_remove(r, (uint64_t)i) != FR_OK) failures++;
    }
    CHECK_INT(failures, 0);
    CHECK_INT(fr_router_count(r), ROUTES / 2);
    n = snprintf(text, sizeof text, "%s/r4/1", prefix);
    CHECK_INT(fr_router_match(r, text, (size_t)n, m), FR_NOMATCH);
    n = snprintf(text, sizeof text, "%s/r65535/1", prefix);
    CHECK_INT(fr_router_match(r, text, (size_t)n, m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 65535);
    fr_match_free(m);
    fr_router_free(r);
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "Tests/Fuzz/bad-input-catalogue.txt";
    size_t count = 0;
    line_t *lines = read_catalogue(path, &count);
    if (lines == NULL) {
        fprintf(stderr, "cannot read %s\n", path);
        return 1;
    }
    fr_router *r = fr_router_new(0);
    fr_match *m = fr_match_new();
    size_t known = 0, cases = 0;
    for (size_t i = 0; i < count; i++) {
        if (lines[i].kind != 'r' && lines[i].kind != 'k') continue;
        uint64_t id = strtoull(lines[i].expect, NULL, 10);
        fr_error err;
        int status = lines[i].kind == 'k'
                         ? fr_router_add_methods(r, (const char *)lines[i].extra, lines[i].extra_len,
                                                 (const char *)lines[i].input, lines[i].len, 0, id, &err)
                         : fr_router_add(r, (const char *)lines[i].input, lines[i].len, lines[i].priority, id, &err);
        verdict(&lines[i], status == FR_OK, err.message);
        known++;
    }
    CHECK_INT(fr_router_count(r), known);
    for (size_t i = 0; i < count; i++) {
        char kind = lines[i].kind;
        if (kind == 'p' || kind == 'm') run_pattern(r, &lines[i]);
        if (kind == 'u' || kind == 'q') run_url(r, m, &lines[i], "");
        if (kind != 'r' && kind != 'k') cases++;
    }
    CHECK(cases >= 150);
    CHECK_INT(fr_router_count(r), known);
    /* The known table still answers as before. */
    for (size_t i = 0; i < count; i++) {
        if (lines[i].kind == 'u' || lines[i].kind == 'q') run_url(r, m, &lines[i], "after the catalogue: ");
    }
    fr_match_free(m);
    fr_router_free(r);
    for (size_t i = 0; i < count; i++) {
        free(lines[i].input);
        free(lines[i].extra);
    }
    free(lines);

    many_routes_sharing_one_prefix();
    printf("catalogue: %zu cases from %s\n", cases, path);
    return finish();
}
