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
