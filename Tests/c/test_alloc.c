/*
** test_alloc.c — a warm fr_match makes fr_router_match, fr_router_match_method and fr_match_next
** allocate nothing, and fr_match_allow never allocates.
**
** This program defines malloc, calloc, realloc, free and the aligned allocators itself, so every
** allocation of the process — the library's and the Swift runtime's included — goes through them
** (an executable's definitions win symbol lookup) and is counted while `counting` is set.
*/
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>

#include "check.h"

/* glibc's allocator under its internal names. */
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

static volatile int counting;
static volatile long allocations;

void *malloc(size_t size) {
    if (counting) allocations++;
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    if (counting) allocations++;
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    if (counting) allocations++;
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    if (counting) allocations++;
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    if (counting) allocations++;
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (counting) allocations++;
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *result = pointer;
    return 0;
}

void free(void *pointer) {
    __libc_free(pointer);
}

static const char *const routes[] = {
    "/",
    "/users/{id:int}",
    "/users/me",
    "/users/:name/posts/:post",
    "/users/:name/posts/:post/comments(/:comment)",
    "/repos/:owner/:repo/issues/{number:uint}",
    "/files/*path",
    "/v/{version:v[0-9]+(\\.[0-9]+)?}/status",
    "/search",
    "myapp://users/:id",
    "myapp://settings(/:section)",
    "https://example.com/repos/:owner/:repo",
    "https://*.example.com/docs/*path",
    "/u/:x",
    "/u/*rest",
};

static const char *const urls[] = {
    "/",
    "/users/42",
    "/users/me?tab=posts&sort=new",
    "/users/alice/posts/hello%20world?a=1&b=2&c=3&d=4&e=5&f=6&g=7&h=8&i=9&j=10#top",
    "/users/alice/posts/p/comments/9",
    "/repos/apple/swift/issues/123",
    "/files/a/b/c/d/e/f/g/h.txt",
    "/files",
    "/v/v1.2/status",
    "/v/x1/status",
    "/search?q=fast+router&lang=en&q=%E2%9C%93",
    "myapp://users/42?ref=push",
    "MYAPP://settings/privacy",
    "https://example.com/repos/apple/swift#readme",
    "https://api.example.com:8443/docs/guide/intro",
    "/u/me/and/more",
    "/nothing/matches/this",
    "/bad%zzescape",
    "/a%00b",
};

#define URL_COUNT (sizeof urls / sizeof urls[0])

/* One pass over every URL, declining through every candidate and reading every result. */
static long pass(const fr_router *r, fr_match *m) {
    long seen = 0;
    for (size_t i = 0; i < URL_COUNT; i++) {
        int status = fr_router_match(r, urls[i], strlen(urls[i]), m);
        while (status == FR_OK) {
            seen += (long)fr_match_route_id(m);
            size_t count = fr_match_param_count(m);
            for (size_t p = 0; p < count; p++) {
                fr_str name, value;
                if (fr_match_param_at(m, p, &name, &value) == FR_OK) seen += (long)(name.len + value.len);
            }
            fr_str value;
            if (fr_match_param(m, "name", 4, &value) == FR_OK) seen += (long)value.len;
            seen += (long)fr_match_fragment(m).len;
            status = fr_match_next(m);
        }
        seen += status;
    }
    return seen;
}

/* Method routes: a route per method set, HEAD served by GET, extension names, 405s. */
static const char *const method_routes[][2] = {
    {"GET", "/users/{id:int}"},
    {"PUT,DELETE", "/users/{id:int}"},
    {"POST", "/users"},
    {"GET", "/users"},
    {"", "/users/me"},
    {"GET,HEAD", "/files/*path"},
    {"PURGE", "/files/*path"},
    {"PATCH", "/repos/:owner/:repo"},
    {"GET", "/repos/:owner/:repo"},
    {"PROPFIND", "/dav/*path"},
    {"*", "myapp://open/:what"},
};

static const char *const requests[][2] = {
    {"GET", "/users/42?tab=posts&sort=new#top"},
    {"HEAD", "/users/42"},
    {"DELETE", "/users/42"},
    {"POST", "/users/42"},          /* 405: GET, HEAD, PUT, DELETE */
    {"POST", "/users"},
    {"BREW", "/users"},             /* 405 */
    {"OPTIONS", "/users/me"},
    {"HEAD", "/files/a/b/c/d/e/f/g/h.txt"},
    {"PURGE", "/files/a"},
    {"COPY", "/files/a"},           /* 405: GET, HEAD, PURGE */
    {"PATCH", "/repos/apple/swift?x=1&y=2&z=3"},
    {"HEAD", "/repos/apple/swift"},
    {"DELETE", "/repos/apple/swift"}, /* 405: GET, HEAD, PATCH */
    {"PROPFIND", "/dav"},
    {"GET", "/dav/x"},              /* 405: PROPFIND */
    {"GET", "myapp://open/settings"},
    {"", "/users/7"},               /* without a method */
    {"GET", "/nothing/here"},       /* 404 */
    {"GET", "/bad%zzescape"},       /* FR_EURL */
    {"G T", "/users"},              /* FR_EINVAL */
};

#define REQUEST_COUNT (sizeof requests / sizeof requests[0])

/* One pass over every request: every candidate and result read, every 405's Allow value read
** (a size query, then into a buffer). */
static long method_pass(const fr_router *r, fr_match *m) {
    long seen = 0;
    char allow[128];
    for (size_t i = 0; i < REQUEST_COUNT; i++) {
        int status = fr_router_match_method(r, requests[i][0], strlen(requests[i][0]), requests[i][1],
                                            strlen(requests[i][1]), m);
        if (status == FR_NOMETHOD) {
            size_t needed = 0;
            if (fr_match_allow(m, NULL, 0, &needed) == FR_ENOMEM && needed < sizeof allow &&
                fr_match_allow(m, allow, sizeof allow, &needed) == FR_OK)
                seen += (long)needed + allow[0];
        } else {
            size_t needed = 0;
            seen += fr_match_allow(m, allow, sizeof allow, &needed);
        }
        while (status == FR_OK) {
            seen += (long)fr_match_route_id(m);
            size_t count = fr_match_param_count(m);
            for (size_t p = 0; p < count; p++) {
                fr_str name, value;
                if (fr_match_param_at(m, p, &name, &value) == FR_OK) seen += (long)(name.len + value.len);
            }
            seen += (long)fr_match_fragment(m).len;
            status = fr_match_next(m);
        }
        seen += status;
    }
    return seen;
}

static void method_lookups(uint32_t flags, fr_match *m) {
    fr_router *r = fr_router_new(flags);
    for (size_t i = 0; i < sizeof method_routes / sizeof method_routes[0]; i++)
        CHECK_INT(fr_router_add_methods(r, method_routes[i][0], strlen(method_routes[i][0]), method_routes[i][1],
                                        strlen(method_routes[i][1]), 0, i + 1, NULL), FR_OK);
    long warm = method_pass(r, m);
    method_pass(r, m);

    allocations = 0;
    counting = 1;
    long total = 0;
    for (int round = 0; round < 200; round++) total += method_pass(r, m);
    counting = 0;
    if (allocations != 0)
        fprintf(stderr, "flags %u: %ld heap allocations in %d method lookups\n", flags, allocations,
                200 * (int)REQUEST_COUNT);
    CHECK_INT(allocations, 0);
    CHECK_INT(total, 200 * warm);

    /* Each request alone, with the match warmed by the whole set: still nothing. */
    for (size_t i = 0; i < REQUEST_COUNT; i++) {
        char allow[128];
        size_t needed = 0;
        allocations = 0;
        counting = 1;
        int status = fr_router_match_method(r, requests[i][0], strlen(requests[i][0]), requests[i][1],
                                            strlen(requests[i][1]), m);
        fr_match_allow(m, allow, sizeof allow, &needed);
        while (status == FR_OK) status = fr_match_next(m);
        counting = 0;
        if (allocations != 0) fprintf(stderr, "%s %s: %ld allocations\n", requests[i][0], requests[i][1], allocations);
        CHECK_INT(allocations, 0);
    }

    /* fr_match_allow allocates nothing even on a cold match, whatever its buffer. */
    fr_match *cold = fr_match_new();
    char small[4], allow[128];
    size_t needed = 0;
    allocations = 0;
    counting = 1;
    int before = fr_match_allow(cold, allow, sizeof allow, &needed);
    counting = 0;
    CHECK_INT(before, FR_ENOTFOUND);
    CHECK_INT(allocations, 0);
    CHECK_INT(fr_router_match_method(r, "BREW", 4, "/users", 6, cold), FR_NOMETHOD);
    allocations = 0;
    counting = 1;
    int too_small = fr_match_allow(cold, small, sizeof small, &needed);
    int size_only = fr_match_allow(cold, NULL, 0, &needed);
    int fits = fr_match_allow(cold, allow, sizeof allow, &needed);
    int nothing = fr_match_allow(NULL, allow, sizeof allow, &needed);
    counting = 0;
    CHECK_INT(too_small, FR_ENOMEM);
    CHECK_INT(size_only, FR_ENOMEM);
    CHECK_INT(fits, FR_OK);
    CHECK_INT(nothing, FR_EINVAL);
    CHECK(strcmp(allow, flags & FR_NO_HEAD_FALLBACK ? "GET, POST" : "GET, HEAD, POST") == 0);
    CHECK_INT(allocations, 0);
    fr_match_free(cold);
    fr_router_free(r);
}

int main(void) {
    /* The counter works: creating and filling a router allocates. */
    counting = 1;
    fr_router *r = fr_router_new(0);
    for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++)
        CHECK_INT(fr_router_add(r, routes[i], strlen(routes[i]), 0, i + 1, NULL), FR_OK);
    counting = 0;
    long setup = allocations;
    CHECK(setup > 0);

    fr_match *m = fr_match_new();
    long warm = pass(r, m); /* warm-up: buffers grow to the largest lookup */
    pass(r, m);

    allocations = 0;
    counting = 1;
    long total = 0;
    for (int round = 0; round < 200; round++) total += pass(r, m);
    counting = 0;
    if (allocations != 0) fprintf(stderr, "%ld heap allocations in %d lookups\n", allocations, 200 * (int)URL_COUNT);
    CHECK_INT(allocations, 0);
    CHECK_INT(total, 200 * warm); /* every pass saw the same results */

    /* Each URL alone, with the match warmed by the whole set: still nothing. */
    for (size_t i = 0; i < URL_COUNT; i++) {
        allocations = 0;
        counting = 1;
        int status = fr_router_match(r, urls[i], strlen(urls[i]), m);
        while (status == FR_OK) status = fr_match_next(m);
        counting = 0;
        if (allocations != 0) fprintf(stderr, "%s: %ld allocations\n", urls[i], allocations);
        CHECK_INT(allocations, 0);
    }

    /* A case-insensitive router with the same routes: the same rule. */
    fr_router *ci = fr_router_new(FR_CASE_INSENSITIVE | FR_NO_PLUS_AS_SPACE);
    for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++)
        CHECK_INT(fr_router_add(ci, routes[i], strlen(routes[i]), 0, i + 1, NULL), FR_OK);
    pass(ci, m);
    allocations = 0;
    counting = 1;
    for (int round = 0; round < 50; round++) pass(ci, m);
    counting = 0;
    CHECK_INT(allocations, 0);

    /* Lookups with a method, with and without HEAD served by GET, on the same warm match. */
    method_lookups(0, m);
    method_lookups(FR_NO_HEAD_FALLBACK, m);

    fr_match_free(m);
    fr_router_free(ci);
    fr_router_free(r);
    return finish();
}
