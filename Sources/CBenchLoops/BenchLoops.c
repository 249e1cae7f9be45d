#include "CBenchLoops.h"

/* The header a C program includes; its `struct fr_router` and `struct fr_match` are the ones
 * CBenchLoops.h declares. */
#include "../../include/fastrouter.h"

/* Inlined into the runs, so a run is one loop in C as in make perf's drivers. */
static inline uint64_t fr_lookup(const fr_router *router, fr_match *match, const char *url, size_t length) {
    if (fr_router_match(router, url, length, match) != FR_OK) return 0;
    uint64_t sum = fr_match_route_id(match);
    size_t count = fr_match_param_count(match);
    for (size_t p = 0; p < count; p++) {
        fr_str name, value;
        fr_match_param_at(match, p, &name, &value);
        sum += name.len + value.len;
    }
    return sum;
}

/* fr_lookup with the request's method; the reads are written out as there rather than shared,
   so that the loop without methods keeps its code (make perf's loop gained 6 instructions per
   lookup from a shared helper). */
static inline uint64_t fr_method_lookup(const fr_router *router, fr_match *match, const char *method,
                                        size_t method_length, const char *url, size_t length) {
    if (fr_router_match_method(router, method, method_length, url, length, match) != FR_OK) return 0;
    uint64_t sum = fr_match_route_id(match);
    size_t count = fr_match_param_count(match);
    for (size_t p = 0; p < count; p++) {
        fr_str name, value;
        fr_match_param_at(match, p, &name, &value);
        sum += name.len + value.len;
    }
    return sum;
}

uint64_t bench_fr_lookup(const struct fr_router *router, struct fr_match *match, const char *url,
                         size_t length) {
    return fr_lookup(router, match, url, length);
}

uint64_t bench_fr_run(const struct fr_router *router, struct fr_match *match, const char *base,
                      const intptr_t *starts, size_t count, size_t first, size_t lookups) {
    uint64_t sum = 0;
    size_t next = first;
    for (size_t i = 0; i < lookups; i++) {
        sum += fr_lookup(router, match, base + starts[next], (size_t)(starts[next + 1] - starts[next] - 1));
        if (++next == count) next = 0;
    }
    return sum;
}

uint64_t bench_fr_method_lookup(const struct fr_router *router, struct fr_match *match, const char *method,
                                size_t method_length, const char *url, size_t length) {
    return fr_method_lookup(router, match, method, method_length, url, length);
}

uint64_t bench_fr_method_run(const struct fr_router *router, struct fr_match *match, const char *base,
                             const intptr_t *starts, const char *method_base, const intptr_t *method_starts,
                             size_t count, size_t first, size_t lookups) {
    uint64_t sum = 0;
    size_t next = first;
    for (size_t i = 0; i < lookups; i++) {
        sum += fr_method_lookup(router, match, method_base + method_starts[next],
                                (size_t)(method_starts[next + 1] - method_starts[next] - 1), base + starts[next],
                                (size_t)(starts[next + 1] - starts[next] - 1));
        if (++next == count) next = 0;
    }
    return sum;
}

static inline uint64_t r3_lookup(const bench_r3 *r3, bench_r3_match_entry *entry, const char *url, size_t length) {
    const bench_r3_node *found = r3->match(r3->tree, url, (int)length, entry);
    uint64_t sum = found != NULL ? (uint64_t)(uintptr_t)found->data : 0;
    /* A lookup that fails part way may have captured too: the captures are freed either way. */
    bench_r3_str_array *vars = entry->vars;
    for (int v = 0; v < vars->len; v++) {
        sum += (unsigned char)vars->tokens[v][0];
        r3->free(vars->tokens[v]);
    }
    vars->len = 0;
    return sum;
}

/* r3_lookup with the request's method, the captures read and freed as there. */
static inline uint64_t r3_method_lookup(const bench_r3 *r3, bench_r3_match_entry *entry, const char *url,
                                        size_t length, int method) {
    /* r3_tree_match_route reads the path, its length and the method from the entry. */
    entry->path = url;
    entry->path_len = (int)length;
    entry->request_method = method;
    const bench_r3_route *route = r3->match_route(r3->tree, entry);
    uint64_t sum = route != NULL ? (uint64_t)(uintptr_t)route->data : 0;
    bench_r3_str_array *vars = entry->vars;
    for (int v = 0; v < vars->len; v++) {
        sum += (unsigned char)vars->tokens[v][0];
        r3->free(vars->tokens[v]);
    }
    vars->len = 0;
    return sum;
}

uint64_t bench_r3_lookup(const bench_r3 *r3, bench_r3_match_entry *entry, const char *url, size_t length) {
    return r3_lookup(r3, entry, url, length);
}

uint64_t bench_r3_run(const bench_r3 *r3, bench_r3_match_entry *entry, const char *base,
                      const intptr_t *starts, size_t count, size_t first, size_t lookups) {
    uint64_t sum = 0;
    size_t next = first;
    for (size_t i = 0; i < lookups; i++) {
        sum += r3_lookup(r3, entry, base + starts[next], (size_t)(starts[next + 1] - starts[next] - 1));
        if (++next == count) next = 0;
    }
    return sum;
}

uint64_t bench_r3_method_lookup(const bench_r3 *r3, bench_r3_match_entry *entry, const char *url, size_t length,
                                int method) {
    return r3_method_lookup(r3, entry, url, length, method);
}

uint64_t bench_r3_method_run(const bench_r3 *r3, bench_r3_match_entry *entry, const char *base,
                             const intptr_t *starts, const int *methods, size_t count, size_t first, size_t lookups) {
    uint64_t sum = 0;
    size_t next = first;
    for (size_t i = 0; i < lookups; i++) {
        sum += r3_method_lookup(r3, entry, base + starts[next], (size_t)(starts[next + 1] - starts[next] - 1),
                                methods[next]);
        if (++next == count) next = 0;
    }
    return sum;
}
