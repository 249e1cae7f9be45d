/*
** lookup_loop.c — a fixed number of lookups through the C API, for counting instructions.
**
**     lookup_loop ROUTES URLS LOOKUPS [ANSWERS]
**
** Registers every pattern of ROUTES (one per line, route id = its position), then looks up the
** request URLs of URLS (one per line) in turn: two warm-up passes over every URL, which must all
** match, then LOOKUPS lookups in perf_lookups(), called once. Each measured lookup reads the
** route id and every (name, value) parameter pair, as a caller would. Lines starting with '#'
** and empty lines are skipped. `make perf` runs it under callgrind with collection on inside
** perf_lookups() only (--collect-atstart=no --toggle-collect=perf_lookups), so the count covers
** the lookups and nothing else: loading the routes, the warm-up and the process's start and exit
** are left out. With ANSWERS, the route id and the parameter values of every URL of the first
** warm-up pass are written there, one line per URL (id, then each value after a tab): what
** r3_lookup_loop.c writes for r3, so that `make perf` counts r3 only on the answers FastRouter
** gives. Under valgrind the program starts instrumentation itself before the warm-up, so
** `make perf-cache` can run the route loading uninstrumented (--instr-atstart=no) and still find
** the simulated caches warm when the measured loop starts. On stdout: the number of measured
** lookups, then a checksum of what they read.
**
** With methods (docs/SEMANTICS.md §3.7): a route line "GET /users/:id" is registered with
** fr_router_add_methods, and when URL lines carry methods ("GET /users/42", lines.h) every lookup,
** warm-up included, goes through fr_router_match_method with the line's method, and the measured
** loop is perf_method_lookups() (`make perf` toggles collection on that name instead).
*/
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fastrouter.h>

#include "lines.h"

/* valgrind's client requests, when its headers are installed: a no-op outside valgrind. */
#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#endif
#endif
#ifndef CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_START_INSTRUMENTATION
#endif

static void die(const char *what, const char *detail) {
    fprintf(stderr, "lookup_loop: %s: %s\n", what, detail);
    exit(1);
}

/*
** The measured loop: `lookups` lookups cycling through the URLs. Not inlined, so that callgrind
** can toggle collection on its entry and exit; the sum of what was read keeps every read alive.
*/
__attribute__((noinline)) uint64_t perf_lookups(const fr_router *router, fr_match *match,
                                                const lines *urls, long lookups) {
    uint64_t sum = 0;
    size_t next = 0;
    for (long i = 0; i < lookups; i++) {
        const char *url = urls->text + urls->start[next];
        if (fr_router_match(router, url, urls->length[next], match) == FR_OK) {
            sum += fr_match_route_id(match);
            size_t count = fr_match_param_count(match);
            for (size_t p = 0; p < count; p++) {
                fr_str name, value;
                fr_match_param_at(match, p, &name, &value);
                sum += name.len + value.len;
            }
        }
        if (++next == urls->count) next = 0;
    }
    return sum;
}

/* perf_lookups() with each URL's method: fr_router_match_method, then the same reads, written out
   as there (a shared inline helper changed perf_lookups' register allocation: +6 instructions per
   lookup). */
__attribute__((noinline)) uint64_t perf_method_lookups(const fr_router *router, fr_match *match,
                                                       const lines *urls, long lookups) {
    uint64_t sum = 0;
    size_t next = 0;
    for (long i = 0; i < lookups; i++) {
        const char *url = urls->text + urls->start[next];
        const char *method = urls->text + urls->method_start[next];
        if (fr_router_match_method(router, method, urls->method_length[next], url, urls->length[next], match) == FR_OK) {
            sum += fr_match_route_id(match);
            size_t count = fr_match_param_count(match);
            for (size_t p = 0; p < count; p++) {
                fr_str name, value;
                fr_match_param_at(match, p, &name, &value);
                sum += name.len + value.len;
            }
        }
        if (++next == urls->count) next = 0;
    }
    return sum;
}

/* One lookup of URL i, with its method when the URLs have methods. */
static int lookup(const fr_router *router, fr_match *match, const lines *urls, size_t i) {
    if (!urls->has_methods) return fr_router_match(router, urls->text + urls->start[i], urls->length[i], match);
    return fr_router_match_method(router, urls->text + urls->method_start[i], urls->method_length[i],
                                  urls->text + urls->start[i], urls->length[i], match);
}

int main(int argc, char **argv) {
    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: lookup_loop ROUTES URLS LOOKUPS [ANSWERS]\n");
        return 2;
    }
    char *end;
    long lookups = strtol(argv[3], &end, 10);
    if (*end != '\0' || lookups < 0) die(argv[3], "LOOKUPS must be a number >= 0");
    FILE *answers = NULL;
    if (argc == 5 && (answers = fopen(argv[4], "w")) == NULL) die(argv[4], strerror(errno));

    lines routes = read_lines("lookup_loop", argv[1]);
    lines urls = read_lines("lookup_loop", argv[2]);
    fr_router *router = fr_router_new(0);
    fr_match *match = fr_match_new();
    if (router == NULL || match == NULL) die("fr_router_new/fr_match_new", "out of memory");
    for (size_t i = 0; i < routes.count; i++) {
        fr_error err;
        const char *pattern = routes.text + routes.start[i];
        int status = routes.method_length[i] == 0
            ? fr_router_add(router, pattern, routes.length[i], 0, i, &err)
            : fr_router_add_methods(router, routes.text + routes.method_start[i], routes.method_length[i], pattern,
                                    routes.length[i], 0, i, &err);
        if (status != FR_OK) {
            fprintf(stderr, "lookup_loop: %s:%zu: %.*s: %s at offset %zu\n", argv[1], i + 1,
                    (int)routes.length[i], routes.text + routes.start[i], err.message, err.offset);
            return 1;
        }
    }

    /* Warm-up, outside perf_lookups() so that callgrind leaves it out: every URL twice, which
       also proves each one matches. The match's buffers reach their final size here, so the
       measured loop allocates nothing. */
    CALLGRIND_START_INSTRUMENTATION;
    uint64_t sum = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < urls.count; i++) {
            int status = lookup(router, match, &urls, i);
            if (status != FR_OK) {
                fprintf(stderr, "lookup_loop: %s: %.*s: %s\n", argv[2], (int)urls.length[i],
                        urls.text + urls.start[i], fr_strerror(status));
                return 1;
            }
            if (pass == 0 && answers != NULL) {
                fprintf(answers, "%" PRIu64, fr_match_route_id(match));
                for (size_t p = 0; p < fr_match_param_count(match); p++) {
                    fr_str name, value;
                    fr_match_param_at(match, p, &name, &value);
                    fprintf(answers, "\t%.*s", (int)value.len, value.len > 0 ? value.ptr : "");
                }
                fputc('\n', answers);
            }
            sum += fr_match_route_id(match) + fr_match_param_count(match);
        }
    }
    if (answers != NULL && fclose(answers) != 0) die(argv[4], strerror(errno));

    sum += urls.has_methods ? perf_method_lookups(router, match, &urls, lookups) : perf_lookups(router, match, &urls, lookups);
    printf("%ld\n%" PRIu64 "\n", lookups, sum);

    fr_match_free(match);
    fr_router_free(router);
    free_lines(&routes);
    free_lines(&urls);
    return 0;
}
