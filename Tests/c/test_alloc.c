/*
** test_alloc.c — a warm fr_match makes fr_router_match and fr_match_next allocate nothing.
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

    fr_match_free(m);
    fr_router_free(ci);
    fr_router_free(r);
    return finish();
}
