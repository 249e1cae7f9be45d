/*
** r3_lookup_loop.c — lookup_loop.c for r3 (c9s/r3 1.3, Debian's libr3-dev): the same route
** files, the same URLs and the same loop, for counting r3's instructions next to FastRouter's.
**
**     r3_lookup_loop ROUTES URLS LOOKUPS [ANSWERS]
**
** Reads the FastRouter patterns of ROUTES (one per line, route id = its position) and registers
** each in r3's syntax as a performance-minded C user would: `:name` becomes `{name}` (r3's
** implicit `[^/]+` slug, which it matches with a byte loop instead of a regex), `{name:regex}`
** keeps its regex and `*name` becomes `{name:.+}`. Routes are inserted most specific first
** (literal, then constrained, then plain, then wildcard segments, compared from the left), the
** order the benchmark's r3 peer uses: r3 takes the first edge that matches and never
** backtracks, so a placeholder inserted before a literal sibling would take its URLs. The tree
** is compiled once (r3_tree_compile), then URLS is looked up with r3_tree_matchl and one
** match_entry reused for every lookup: two warm-up passes, which must all match, then LOOKUPS
** lookups in perf_lookups(). Each measured lookup reads the route (the node's data) and every
** captured value, then frees the captures, which r3 allocates per lookup (zstrndup) and the
** caller owns. `make perf` runs it under callgrind with collection on inside perf_lookups()
** only. With ANSWERS, the route and the captured values of every URL of the first warm-up pass
** are written there, one line per URL, as lookup_loop writes FastRouter's: `make perf` compares
** the two files, so r3 is counted only on URLs it answers as FastRouter does. On stdout: the
** number of measured lookups, then a checksum of what they read.
**
** With methods, as r3's users route on them: a route line "GET /users/:id" is inserted with
** r3_tree_insert_routel_ex and its METHOD_* bit as the route's condition (no method: 0, any), and
** when URL lines carry methods each lookup sets the URL, its length and the method's bit on the
** reused match_entry and calls r3_tree_match_route (the tree walk, then the first of the node's
** routes whose condition holds); the measured loop is then perf_method_lookups(), and the route's
** data is the answer. r3 has bits for GET, POST, PUT, DELETE, PATCH, HEAD and OPTIONS only.
*/
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <r3.h>

#include "lines.h"

/* r3's own free (zmalloc.c), which the captures need: r3 allocates them with a size header. Not
   declared by the installed headers. */
void zfree(void *ptr);

static void die(const char *what, const char *detail) {
    fprintf(stderr, "r3_lookup_loop: %s: %s\n", what, detail);
    exit(1);
}

/* r3.h's METHOD_* bit of a method (a C string), or stops the program: r3 has no other. */
static int method_bit(const char *method) {
    static const struct { const char *name; int bit; } bits[] = {
        { "GET", METHOD_GET }, { "POST", METHOD_POST }, { "PUT", METHOD_PUT }, { "DELETE", METHOD_DELETE },
        { "PATCH", METHOD_PATCH }, { "HEAD", METHOD_HEAD }, { "OPTIONS", METHOD_OPTIONS },
    };
    for (size_t i = 0; i < sizeof bits / sizeof bits[0]; i++) {
        if (strcmp(bits[i].name, method) == 0) return bits[i].bit;
    }
    die(method, "r3 has no METHOD_* bit for this method");
    return 0;
}

/* One route in r3's syntax, and the rank of each of its segments for the insertion order. */
typedef struct pattern {
    char *pattern;
    int length;
    size_t id;
    /* The route's METHOD_* bit, 0 (any method) when its line has none. */
    int method;
    unsigned char ranks[256];
    int segments;
} pattern;

/* Ranks as the benchmark's r3 peer orders them: literal 0, constrained 1, plain 2, wildcard 3. */
static pattern translate(const char *text, size_t length, size_t id, int method) {
    pattern result = { malloc(length * 2 + 8), 0, id, method, { 0 }, 0 };
    if (result.pattern == NULL) die("translate", "out of memory");
    char *out = result.pattern;
    size_t i = 0;
    while (i < length) {
        if (text[i] != '/') die("route", "a pattern must be a path of '/'-separated segments");
        *out++ = text[i++];
        size_t begin = i;
        int depth = 0;
        while (i < length && (depth > 0 || text[i] != '/')) {
            if (text[i] == '{') depth++;
            if (text[i] == '}') depth--;
            i++;
        }
        if (i == begin) continue;
        unsigned char rank = 0;
        if (text[begin] == ':') {
            out += sprintf(out, "{%.*s}", (int)(i - begin - 1), text + begin + 1);
            rank = 2;
        } else if (text[begin] == '*') {
            out += sprintf(out, "{%.*s:.+}", i - begin > 1 ? (int)(i - begin - 1) : 4,
                           i - begin > 1 ? text + begin + 1 : "rest");
            rank = 3;
        } else {
            memcpy(out, text + begin, i - begin);
            out += i - begin;
            if (text[begin] == '{') rank = memchr(text + begin, ':', i - begin) != NULL ? 1 : 2;
        }
        if (result.segments == (int)sizeof result.ranks) die("route", "more than 256 segments");
        result.ranks[result.segments++] = rank;
    }
    if (out == result.pattern) *out++ = '/';
    *out = '\0';
    result.length = (int)(out - result.pattern);
    return result;
}

/* Most specific first: segment ranks from the left, then the shorter route, then file order. */
static int by_specificity(const void *left, const void *right) {
    const pattern *a = left, *b = right;
    int shared = a->segments < b->segments ? a->segments : b->segments;
    for (int i = 0; i < shared; i++) {
        if (a->ranks[i] != b->ranks[i]) return a->ranks[i] < b->ranks[i] ? -1 : 1;
    }
    if (a->segments != b->segments) return a->segments < b->segments ? -1 : 1;
    return a->id < b->id ? -1 : a->id > b->id;
}

/* Frees the captures of the last lookup and empties the entry's array for the next one. */
static inline uint64_t release_captures(match_entry *entry) {
    uint64_t sum = 0;
    str_array *vars = entry->vars;
    for (int v = 0; v < vars->len; v++) {
        sum += (unsigned char)vars->tokens[v][0];
        zfree(vars->tokens[v]);
    }
    vars->len = 0;
    return sum;
}

/*
** The measured loop, as lookup_loop's: `lookups` lookups cycling through the URLs, each reading
** the route and every capture (r3 hands out NUL-terminated copies without lengths: the loop
** reads each one's first byte, the least a caller does with a value) and freeing the captures.
** Not inlined, so that callgrind can toggle collection on its entry and exit.
*/
__attribute__((noinline)) uint64_t perf_lookups(const node *tree, match_entry *entry, const lines *urls,
                                                long lookups) {
    uint64_t sum = 0;
    size_t next = 0;
    for (long i = 0; i < lookups; i++) {
        const node *found = r3_tree_matchl(tree, urls->text + urls->start[next], (int)urls->length[next], entry);
        if (found != NULL) sum += (uintptr_t)found->data;
        sum += release_captures(entry);
        if (++next == urls->count) next = 0;
    }
    return sum;
}

/* perf_lookups() with each URL's method, as r3's users route on methods: the URL, its length and
   the method's bit set on the reused entry, r3_tree_match_route, then the route's data read and
   the captures freed. `methods` holds each URL's bit. */
__attribute__((noinline)) uint64_t perf_method_lookups(const node *tree, match_entry *entry, const lines *urls,
                                                       const int *methods, long lookups) {
    uint64_t sum = 0;
    size_t next = 0;
    for (long i = 0; i < lookups; i++) {
        entry->path = urls->text + urls->start[next];
        entry->path_len = (int)urls->length[next];
        entry->request_method = methods[next];
        const route *found = r3_tree_match_route(tree, entry);
        if (found != NULL) sum += (uintptr_t)found->data;
        sum += release_captures(entry);
        if (++next == urls->count) next = 0;
    }
    return sum;
}

/* The data of what r3 finds for URL i: the node's without methods, the route's with them. */
static int find(const node *tree, match_entry *entry, const lines *urls, const int *methods, size_t i, void **data) {
    const char *url = urls->text + urls->start[i];
    if (methods == NULL) {
        const node *found = r3_tree_matchl(tree, url, (int)urls->length[i], entry);
        *data = found != NULL ? found->data : NULL;
        return found != NULL;
    }
    entry->path = url;
    entry->path_len = (int)urls->length[i];
    entry->request_method = methods[i];
    const route *found = r3_tree_match_route(tree, entry);
    *data = found != NULL ? found->data : NULL;
    return found != NULL;
}

int main(int argc, char **argv) {
    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: r3_lookup_loop ROUTES URLS LOOKUPS [ANSWERS]\n");
        return 2;
    }
    char *end;
    long lookups = strtol(argv[3], &end, 10);
    if (*end != '\0' || lookups < 0) die(argv[3], "LOOKUPS must be a number >= 0");
    FILE *answers = NULL;
    if (argc == 5 && (answers = fopen(argv[4], "w")) == NULL) die(argv[4], strerror(errno));

    lines patterns = read_lines("r3_lookup_loop", argv[1]);
    lines urls = read_lines("r3_lookup_loop", argv[2]);
    pattern *routes = malloc(patterns.count * sizeof *routes);
    if (routes == NULL) die("routes", "out of memory");
    for (size_t i = 0; i < patterns.count; i++) {
        int method = patterns.method_length[i] > 0 ? method_bit(patterns.text + patterns.method_start[i]) : 0;
        routes[i] = translate(patterns.text + patterns.start[i], patterns.length[i], i, method);
    }
    /* Each URL's bit, when the URLs have methods (a URL without one asks as GET). */
    int *methods = NULL;
    if (urls.has_methods) {
        methods = malloc(urls.count * sizeof *methods);
        if (methods == NULL) die("methods", "out of memory");
        for (size_t i = 0; i < urls.count; i++) {
            methods[i] = urls.method_length[i] > 0 ? method_bit(urls.text + urls.method_start[i]) : METHOD_GET;
        }
    }
    qsort(routes, patterns.count, sizeof *routes, by_specificity);

    node *tree = r3_tree_create(10);
    if (tree == NULL) die("r3_tree_create", "out of memory");
    for (size_t i = 0; i < patterns.count; i++) {
        char *error = NULL;
        /* The route's data is its id + 1: r3 reads NULL data as "no route". With methods, every
           route is inserted with its condition (0 for a line without a method: any). */
        void *data = (void *)(uintptr_t)(routes[i].id + 1);
        int inserted = patterns.has_methods
            ? r3_tree_insert_routel_ex(tree, routes[i].method, routes[i].pattern, routes[i].length, data, &error) != NULL
            : r3_tree_insert_pathl_ex(tree, routes[i].pattern, routes[i].length, NULL, data, &error) != NULL;
        if (!inserted || error != NULL) {
            fprintf(stderr, "r3_lookup_loop: %s:%zu: %s: %s\n", argv[1], routes[i].id + 1, routes[i].pattern,
                    error != NULL ? error : "r3_tree_insert_pathl_ex failed");
            return 1;
        }
    }
    char *error = NULL;
    if (r3_tree_compile(tree, &error) != 0) die("r3_tree_compile", error != NULL ? error : "failed");
    match_entry *entry = match_entry_createl("/", 1);
    if (entry == NULL) die("match_entry_createl", "out of memory");
    /* match_entry_createl leaves these unset; r3_tree_match_route compares a route's host and
       method with them. */
    entry->request_method = 0;
    entry->host = NULL;
    entry->host_len = 0;
    entry->remote_addr = NULL;
    entry->remote_addr_len = 0;

    /* Warm-up, outside perf_lookups() so that callgrind leaves it out: every URL twice, which
       also proves each one matches. The entry's array reaches its final size here. */
    uint64_t sum = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < urls.count; i++) {
            void *data;
            if (!find(tree, entry, &urls, methods, i, &data) || data == NULL) {
                fprintf(stderr, "r3_lookup_loop: %s: %.*s: no route\n", argv[2], (int)urls.length[i],
                        urls.text + urls.start[i]);
                return 1;
            }
            if (pass == 0 && answers != NULL) {
                fprintf(answers, "%" PRIuPTR, (uintptr_t)data - 1);
                for (int v = 0; v < entry->vars->len; v++) fprintf(answers, "\t%s", entry->vars->tokens[v]);
                fputc('\n', answers);
            }
            sum += (uintptr_t)data + release_captures(entry);
        }
    }
    if (answers != NULL && fclose(answers) != 0) die(argv[4], strerror(errno));

    sum += methods != NULL ? perf_method_lookups(tree, entry, &urls, methods, lookups)
                           : perf_lookups(tree, entry, &urls, lookups);
    printf("%ld\n%" PRIu64 "\n", lookups, sum);

    /* The tree is not freed: r3 1.3.4's r3_tree_free double-frees some compiled trees. */
    entry->path = NULL;
    match_entry_free(entry);
    for (size_t i = 0; i < patterns.count; i++) free(routes[i].pattern);
    free(routes);
    free(methods);
    free_lines(&patterns);
    free_lines(&urls);
    return 0;
}
