/*
** add_loop.c — route registration through the C API, one fr_router_add per route, for counting
** instructions (and, run directly, for timing).
**
**     add_loop COUNT
**     add_loop ROUTES_FILE ROUNDS
**
** The first form generates COUNT patterns in the shapes of the benchmark's scale sets (groups
** under /<service>/<resource>: the collection route and, with probability 3/4 each, ten more of
** static, plain, built-in-constrained, PCRE2-constrained and wildcard shapes), then registers
** them in perf_adds(), called once, with one fr_router_add each. The second registers the routes
** of a Tests/perf/routesets file (docs/SEMANTICS.md §6 counts registration on the GitHub set)
** ROUNDS times, each time into a new router (fr_router_add_methods for a line with a method),
** calling perf_adds() once per round. `make perf` runs it under callgrind with collection on
** inside perf_adds() only, so the count covers the adds and nothing else (not a router's
** creation or freeing). On stdout: the number of adds and the wall-clock time of perf_adds().
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <fastrouter.h>

#include "lines.h"

static const char *const shapes[] = {
    "", "/new", "/search", "/export.csv", "/:id", "/:id/history", "/:id/members/:memberId",
    "/{id:int}/edit", "/{uuid:uuid}/versions/{version:uint}", "/by-slug/{slug:[a-z0-9-]+}", "/files/*path",
};
static const char *const resources[] = {
    "invoices", "customers", "subscriptions", "products", "prices", "coupons", "orders", "carts",
    "items", "users", "groups", "roles", "permissions", "sessions", "tokens", "keys",
};

/* Registers every pattern (with its methods when it has them); exits on the first failure. Kept
   out of line for --toggle-collect. */
__attribute__((noinline)) void perf_adds(fr_router *router, char **patterns, size_t *lengths, char **methods,
                                         size_t *method_lengths, size_t count) {
    fr_error error;
    for (size_t i = 0; i < count; i++) {
        int status = methods == NULL || method_lengths[i] == 0
            ? fr_router_add(router, patterns[i], lengths[i], 0, (uint64_t)i, &error)
            : fr_router_add_methods(router, methods[i], method_lengths[i], patterns[i], lengths[i], 0, (uint64_t)i, &error);
        if (status != FR_OK) {
            fprintf(stderr, "add_loop: fr_router_add(%.*s): %s\n", (int)lengths[i], patterns[i], error.message);
            exit(1);
        }
    }
}

/* The second form: the routes of `path`, `rounds` times into a new router each. */
static int add_file(const char *path, size_t rounds) {
    lines routes = read_lines("add_loop", path);
    char **patterns = malloc(routes.count * sizeof *patterns);
    char **methods = malloc(routes.count * sizeof *methods);
    if (routes.count == 0 || rounds == 0 || patterns == NULL || methods == NULL) return 1;
    for (size_t i = 0; i < routes.count; i++) {
        patterns[i] = routes.text + routes.start[i];
        methods[i] = routes.text + routes.method_start[i];
    }
    double ms = 0;
    for (size_t round = 0; round < rounds; round++) {
        fr_router *router = fr_router_new(0);
        if (router == NULL) return 1;
        struct timespec start, end;
        clock_gettime(CLOCK_MONOTONIC, &start);
        perf_adds(router, patterns, routes.length, methods, routes.method_length, routes.count);
        clock_gettime(CLOCK_MONOTONIC, &end);
        ms += (double)(end.tv_sec - start.tv_sec) * 1e3 + (double)(end.tv_nsec - start.tv_nsec) / 1e6;
        fr_router_free(router);
    }
    size_t adds = routes.count * rounds;
    printf("%zu adds in %.0f ms (%.2f us per add)\n", adds, ms, ms * 1e3 / (double)adds);
    free(patterns);
    free(methods);
    free_lines(&routes);
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 2) return add_file(argv[1], strtoull(argv[2], NULL, 10));
    size_t count = argc > 1 ? strtoull(argv[1], NULL, 10) : 20000;
    char **patterns = malloc(count * sizeof *patterns);
    size_t *lengths = malloc(count * sizeof *lengths);
    if (count == 0 || patterns == NULL || lengths == NULL) {
        fprintf(stderr, "usage: add_loop COUNT (at least 1)\n");
        return 1;
    }
    uint32_t random = 2007;
    size_t made = 0;
    for (size_t service = 0; made < count; service++) {
        for (size_t resource = 0; resource < 16 && made < count; resource++) {
            for (size_t shape = 0; shape < 11 && made < count; shape++) {
                random = random * 1103515245u + 12345u;
                if (shape != 0 && (random >> 16) % 4 == 0) continue;
                char buffer[128];
                int length = snprintf(buffer, sizeof buffer, "/service-%zu/%s%s", service, resources[resource],
                                      shapes[shape]);
                patterns[made] = malloc((size_t)length);
                if (patterns[made] == NULL) return 1;
                memcpy(patterns[made], buffer, (size_t)length);
                lengths[made++] = (size_t)length;
            }
        }
    }
    fr_router *router = fr_router_new(0);
    if (router == NULL) return 1;
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    perf_adds(router, patterns, lengths, NULL, NULL, count);
    clock_gettime(CLOCK_MONOTONIC, &end);
    double ms = (double)(end.tv_sec - start.tv_sec) * 1e3 + (double)(end.tv_nsec - start.tv_nsec) / 1e6;
    printf("%zu routes in %.0f ms (%.2f us per fr_router_add)\n", fr_router_count(router), ms, ms * 1e3 / (double)count);
    fr_router_free(router);
    for (size_t i = 0; i < count; i++) free(patterns[i]);
    free(patterns);
    free(lengths);
    return 0;
}
