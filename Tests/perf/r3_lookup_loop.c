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
*/
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <r3.h>

/* r3's own free (zmalloc.c), which the captures need: r3 allocates them with a size header. Not
   declared by the installed headers. */
void zfree(void *ptr);

/* The lines of a text file: one buffer, (offset, length) per kept line, each ended by a NUL as a C
   string (r3 copies a capture with zstrndup, whose strlen would otherwise run to the buffer's end). */
typedef struct lines {
    char *text;
    size_t *start;
    size_t *length;
    size_t count;
} lines;

static void die(const char *what, const char *detail) {
    fprintf(stderr, "r3_lookup_loop: %s: %s\n", what, detail);
    exit(1);
}

static lines read_lines(const char *path) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) die(path, strerror(errno));
    if (fseek(file, 0, SEEK_END) != 0) die(path, strerror(errno));
    long size = ftell(file);
    if (size < 0 || fseek(file, 0, SEEK_SET) != 0) die(path, strerror(errno));
    lines result = { malloc((size_t)size + 1), malloc(((size_t)size + 1) * sizeof(size_t)),
                     malloc(((size_t)size + 1) * sizeof(size_t)), 0 };
    if (result.text == NULL || result.start == NULL || result.length == NULL) die(path, "out of memory");
    if (fread(result.text, 1, (size_t)size, file) != (size_t)size) die(path, "short read");
    fclose(file);
    result.text[size] = '\n';
    size_t begin = 0;
    for (size_t i = 0; i <= (size_t)size; i++) {
        if (result.text[i] != '\n') continue;
        size_t end = i;
        if (end > begin && result.text[end - 1] == '\r') end--;
        if (end > begin && result.text[begin] != '#') {
            result.text[end] = '\0';
            result.start[result.count] = begin;
            result.length[result.count] = end - begin;
            result.count++;
        }
        begin = i + 1;
    }
    if (result.count == 0) die(path, "no lines");
    return result;
}

/* One route in r3's syntax, and the rank of each of its segments for the insertion order. */
typedef struct pattern {
    char *pattern;
    int length;
    size_t id;
    unsigned char ranks[256];
    int segments;
} pattern;

/* Ranks as the benchmark's r3 peer orders them: literal 0, constrained 1, plain 2, wildcard 3. */
static pattern translate(const char *text, size_t length, size_t id) {
    pattern result = { malloc(length * 2 + 8), 0, id, { 0 }, 0 };
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

    lines patterns = read_lines(argv[1]);
    lines urls = read_lines(argv[2]);
    pattern *routes = malloc(patterns.count * sizeof *routes);
    if (routes == NULL) die("routes", "out of memory");
    for (size_t i = 0; i < patterns.count; i++) {
        routes[i] = translate(patterns.text + patterns.start[i], patterns.length[i], i);
    }
    qsort(routes, patterns.count, sizeof *routes, by_specificity);

    node *tree = r3_tree_create(10);
    if (tree == NULL) die("r3_tree_create", "out of memory");
    for (size_t i = 0; i < patterns.count; i++) {
        char *error = NULL;
        /* The route's data is its id + 1: r3 reads NULL data as "no route". */
        if (r3_tree_insert_pathl_ex(tree, routes[i].pattern, routes[i].length, NULL,
                                    (void *)(uintptr_t)(routes[i].id + 1), &error) == NULL || error != NULL) {
            fprintf(stderr, "r3_lookup_loop: %s:%zu: %s: %s\n", argv[1], routes[i].id + 1, routes[i].pattern,
                    error != NULL ? error : "r3_tree_insert_pathl_ex failed");
            return 1;
        }
    }
    char *error = NULL;
    if (r3_tree_compile(tree, &error) != 0) die("r3_tree_compile", error != NULL ? error : "failed");
    match_entry *entry = match_entry_createl("/", 1);
    if (entry == NULL) die("match_entry_createl", "out of memory");

    /* Warm-up, outside perf_lookups() so that callgrind leaves it out: every URL twice, which
       also proves each one matches. The entry's array reaches its final size here. */
    uint64_t sum = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < urls.count; i++) {
            const char *url = urls.text + urls.start[i];
            const node *found = r3_tree_matchl(tree, url, (int)urls.length[i], entry);
            if (found == NULL || found->data == NULL) {
                fprintf(stderr, "r3_lookup_loop: %s: %.*s: no route\n", argv[2], (int)urls.length[i], url);
                return 1;
            }
            if (pass == 0 && answers != NULL) {
                fprintf(answers, "%" PRIuPTR, (uintptr_t)found->data - 1);
                for (int v = 0; v < entry->vars->len; v++) fprintf(answers, "\t%s", entry->vars->tokens[v]);
                fputc('\n', answers);
            }
            sum += (uintptr_t)found->data + release_captures(entry);
        }
    }
    if (answers != NULL && fclose(answers) != 0) die(argv[4], strerror(errno));

    sum += perf_lookups(tree, entry, &urls, lookups);
    printf("%ld\n%" PRIu64 "\n", lookups, sum);

    /* The tree is not freed: r3 1.3.4's r3_tree_free double-frees some compiled trees. */
    entry->path = NULL;
    match_entry_free(entry);
    for (size_t i = 0; i < patterns.count; i++) free(routes[i].pattern);
    free(routes);
    free(patterns.text); free(patterns.start); free(patterns.length);
    free(urls.text); free(urls.start); free(urls.length);
    return 0;
}
