#ifndef CBENCHLOOPS_H
#define CBENCHLOOPS_H

/* The benchmark's lookups through C interfaces, written in C: FastRouter's C API and r3 are
 * called as a C program calls them, so neither pays for Swift around each call, and both loops
 * have the shape of make perf's (Tests/perf/lookup_loop.c, Tests/perf/r3_lookup_loop.c). Each
 * lookup reads what a caller reads: the route and every captured parameter.
 *
 * URLs come from the benchmark's string table: NUL-terminated strings back to back in `base`,
 * string i starting at starts[i] and ending (before its NUL) at starts[i + 1] - 1. A run does
 * `lookups` lookups from URL `first` on, wrapping around after URL `count - 1`. */

#include <stddef.h>
#include <stdint.h>

struct fr_router;
struct fr_match;

/* One lookup through the FastRouter C API: fr_router_match with the thread's reused match, then
 * the route id and every (name, value) pair through fr_match_param_at. Returns the route id plus
 * the pairs' lengths, so the reads cannot be dropped. */
uint64_t bench_fr_lookup(const struct fr_router *router, struct fr_match *match, const char *url,
                         size_t length);

/* `lookups` of bench_fr_lookup over the string table; the sum of their results. */
uint64_t bench_fr_run(const struct fr_router *router, struct fr_match *match, const char *base,
                      const intptr_t *starts, size_t count, size_t first, size_t lookups);

/* One lookup with the request's method (docs/SEMANTICS.md §3.7): fr_router_match_method, then the
 * same reads as bench_fr_lookup. */
uint64_t bench_fr_method_lookup(const struct fr_router *router, struct fr_match *match, const char *method,
                                size_t method_length, const char *url, size_t length);

/* `lookups` of bench_fr_method_lookup over two string tables laid out alike: URL i with method i
 * (methods in `method_base`, string i starting at method_starts[i]). */
uint64_t bench_fr_method_run(const struct fr_router *router, struct fr_match *match, const char *base,
                             const intptr_t *starts, const char *method_base, const intptr_t *method_starts,
                             size_t count, size_t first, size_t lookups);

/* The leading fields of r3 1.3's structs (r3.h, str_array.h) in their LP64 layout, for the
 * fields the benchmark reads; it checks them against the loaded library before using it. */
typedef struct bench_r3_str_array {
    char **tokens;
    int len;
    int cap;
} bench_r3_str_array;

typedef struct bench_r3_node {
    void **edges;
    char *combined_pattern;
    void *pcre_pattern;
    void *pcre_extra;
    unsigned int edge_len;
    unsigned int compare_type;
    unsigned char endpoint;
    unsigned char ov_cnt;
    unsigned char edge_cap;
    unsigned char route_len;
    unsigned char route_cap;
    void **routes;
    void *data;
} bench_r3_node;

/* r3 1.3's route (r3.h): a path's condition on the method (a METHOD_* bit mask, 0 for any), host
 * and remote address, and the data given to r3_tree_insert_routel_ex. */
typedef struct bench_r3_route {
    char *path;
    int path_len;
    int request_method;
    char *host;
    int host_len;
    void *data;
    char *remote_addr_pattern;
    int remote_addr_pattern_len;
} bench_r3_route;

typedef struct bench_r3_match_entry {
    bench_r3_str_array *vars;
    const char *path;
    int path_len;
    int request_method;
    void *data;
    char *host;
    int host_len;
    char *remote_addr;
    int remote_addr_len;
} bench_r3_match_entry;

/* r3's functions, loaded with dlopen so that the build never needs libr3, and the tree. */
typedef struct bench_r3 {
    /* r3_tree_matchl */
    bench_r3_node *(*match)(const bench_r3_node *tree, const char *path, int path_len,
                            bench_r3_match_entry *entry);
    /* zfree: r3 allocates captures with zstrndup, behind a size header, so only it frees them. */
    void (*free)(void *pointer);
    const bench_r3_node *tree;
    /* r3_tree_match_route, for the sets looked up with methods (NULL for the others) */
    bench_r3_route *(*match_route)(const bench_r3_node *tree, bench_r3_match_entry *entry);
} bench_r3;

/* One lookup through r3: r3_tree_matchl with the thread's reused match entry, then the route
 * (the node's data) and each capture's first byte (r3 hands out NUL-terminated copies without
 * lengths), then the captures freed and the entry's array emptied for the next lookup. Returns
 * the node's data plus those bytes. */
uint64_t bench_r3_lookup(const bench_r3 *r3, bench_r3_match_entry *entry, const char *url, size_t length);

/* `lookups` of bench_r3_lookup over the string table; the sum of their results. */
uint64_t bench_r3_run(const bench_r3 *r3, bench_r3_match_entry *entry, const char *base,
                      const intptr_t *starts, size_t count, size_t first, size_t lookups);

/* One lookup with the request's method, as r3's users route on methods: the URL and the method's
 * METHOD_* bit set on the reused entry, r3_tree_match_route (the tree walk, then the first of the
 * node's routes whose mask has that bit), then the route's data and the captures read and freed as
 * in bench_r3_lookup. */
uint64_t bench_r3_method_lookup(const bench_r3 *r3, bench_r3_match_entry *entry, const char *url, size_t length,
                                int method);

/* `lookups` of bench_r3_method_lookup over the string table, URL i with the bit methods[i]. */
uint64_t bench_r3_method_run(const bench_r3 *r3, bench_r3_match_entry *entry, const char *base,
                             const intptr_t *starts, const int *methods, size_t count, size_t first, size_t lookups);

#endif
