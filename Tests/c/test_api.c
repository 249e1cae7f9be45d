/*
** test_api.c — every function and status code of fastrouter.h, as a C program sees them:
** NULL in every pointer argument, pattern errors with their offsets, lookups with parameters,
** schemes and hosts, declining, removal, shared ids, reverse routing and the dump.
*/
#include <stdalign.h>
#include <stdlib.h>

#include "check.h"

/* ---- layout: what the library's Swift views of these types rely on ------------------------ */

_Static_assert(sizeof(fr_str) == 2 * sizeof(void *), "fr_str is two words");
_Static_assert(offsetof(fr_str, ptr) == 0, "fr_str.ptr first");
_Static_assert(offsetof(fr_str, len) == sizeof(void *), "fr_str.len second");
_Static_assert(sizeof(size_t) == sizeof(void *), "size_t is pointer-sized");
_Static_assert(offsetof(fr_error, code) == 0, "fr_error.code first");
_Static_assert(sizeof(int) == 4, "int is 32 bits");
_Static_assert(offsetof(fr_error, offset) == alignof(size_t), "fr_error.offset after padding");
_Static_assert(offsetof(fr_error, message) == offsetof(fr_error, offset) + sizeof(size_t),
               "fr_error.message follows offset");
_Static_assert(sizeof(((fr_error *)0)->message) == 256, "fr_error.message holds 256 bytes");
_Static_assert(sizeof(fr_error) == offsetof(fr_error, message) + 256, "no tail padding");
_Static_assert(FR_OK == 0 && FR_NOMATCH == 1, "outcomes");
_Static_assert(FR_EINVAL == -1 && FR_EPATTERN == -2 && FR_EREGEX == -3 && FR_EDUPLICATE == -4 &&
               FR_EURL == -5 && FR_ENOTFOUND == -6 && FR_ENOMEM == -7, "error codes");
_Static_assert(FR_CASE_INSENSITIVE == 1 && FR_NO_GLOBAL_FALLBACK == 2 && FR_NO_PLUS_AS_SPACE == 4,
               "flags");
_Static_assert(FR_NO_ROUTE == UINT64_MAX, "FR_NO_ROUTE");

/* ---- helpers -------------------------------------------------------------------------------- */

static int add(fr_router *r, const char *pattern, int32_t priority, uint64_t id) {
    return fr_router_add(r, pattern, strlen(pattern), priority, id, NULL);
}

static int match(const fr_router *r, const char *url, fr_match *m) {
    return fr_router_match(r, url, strlen(url), m);
}

static fr_str param(const fr_match *m, const char *name) {
    fr_str value = {"sentinel", 8};
    if (fr_match_param(m, name, strlen(name), &value) != FR_OK) CHECK(value.ptr == NULL && value.len == 0);
    return value;
}

/* The current result holds exactly these (name, value) pairs, in order. */
static void check_pairs(const fr_match *m, const char *const *pairs, size_t count, int line) {
    size_t actual = fr_match_param_count(m);
    if (actual != count) fprintf(stderr, "line %d: %zu pairs, expected %zu\n", line, actual, count);
    CHECK_INT(actual, count);
    for (size_t i = 0; i < count && i < actual; i++) {
        fr_str name = {NULL, 0}, value = {NULL, 0};
        CHECK_INT(fr_match_param_at(m, i, &name, &value), FR_OK);
        CHECK_STR(name, pairs[2 * i]);
        CHECK_STR(value, pairs[2 * i + 1]);
    }
}
#define PAIRS(m, ...)                                                                            \
    do {                                                                                         \
        const char *const pairs_[] = {__VA_ARGS__};                                              \
        check_pairs((m), pairs_, sizeof pairs_ / sizeof pairs_[0] / 2, __LINE__);                \
    } while (0)

/* The match holds no result: what every accessor must say then. */
static void check_no_result(const fr_match *m) {
    CHECK_ID(fr_match_route_id(m), FR_NO_ROUTE);
    CHECK_INT(fr_match_param_count(m), 0);
    CHECK_ABSENT(fr_match_fragment(m));
    fr_str name = {"x", 1}, value = {"x", 1};
    CHECK_INT(fr_match_param_at(m, 0, &name, &value), m ? FR_ENOTFOUND : FR_EINVAL);
    CHECK_ABSENT(name);
    CHECK_ABSENT(value);
    CHECK_INT(fr_match_param(m, "id", 2, NULL), m ? FR_ENOTFOUND : FR_EINVAL);
}

/* An fr_error wrapped in guard bytes, to catch writes outside it. */
typedef struct {
    unsigned char before[32];
    fr_error err;
    unsigned char after[32];
} guarded_error;

static void guard(guarded_error *g) {
    memset(g, 0xAB, sizeof *g);
}

static int guard_intact(const guarded_error *g) {
    for (size_t i = 0; i < sizeof g->before; i++)
        if (g->before[i] != 0xAB || g->after[i] != 0xAB) return 0;
    return memchr(g->err.message, 0, sizeof g->err.message) != NULL;
}

/* fr_router_add fails with code, at offset (unless offset is -1), with a message. */
static void check_pattern_error(const char *pattern, size_t len, int code, long offset, int line) {
    fr_router *r = fr_router_new(0);
    guarded_error g;
    guard(&g);
    int status = fr_router_add(r, pattern, len, 0, 1, &g.err);
    if (status != code || (offset >= 0 && g.err.offset != (size_t)offset))
        fprintf(stderr, "line %d: pattern \"%.*s\": status %d offset %zu \"%s\"\n", line,
                (int)(len > 60 ? 60 : len), pattern, status, g.err.offset, g.err.message);
    CHECK_INT(status, code);
    CHECK_INT(g.err.code, code);
    if (offset >= 0) CHECK_INT(g.err.offset, offset);
    CHECK(guard_intact(&g));
    CHECK(g.err.message[0] != '\0');
    CHECK(strchr(g.err.message, '\n') == NULL);
    CHECK_INT(fr_router_count(r), 0);
    fr_router_free(r);
}
#define PATTERN_ERROR(pattern, code, offset)                                                     \
    check_pattern_error((pattern), strlen(pattern), (code), (offset), __LINE__)

/* ---- version and status texts -------------------------------------------------------------- */

static void test_version_and_strerror(void) {
    CHECK(fr_version() != NULL);
    CHECK(strcmp(fr_version(), FR_VERSION) == 0);
    char expected[32];
    snprintf(expected, sizeof expected, "%d.%d.%d", FR_VERSION_MAJOR, FR_VERSION_MINOR, FR_VERSION_PATCH);
    CHECK(strcmp(FR_VERSION, expected) == 0);

    CHECK(strcmp(fr_strerror(FR_OK), "ok") == 0);
    CHECK(strcmp(fr_strerror(FR_NOMATCH), "no match") == 0);
    CHECK(strcmp(fr_strerror(FR_EINVAL), "invalid argument") == 0);
    CHECK(strcmp(fr_strerror(FR_EPATTERN), "invalid pattern") == 0);
    CHECK(strcmp(fr_strerror(FR_EREGEX), "invalid regex constraint") == 0);
    CHECK(strcmp(fr_strerror(FR_EDUPLICATE), "duplicate route") == 0);
    CHECK(strcmp(fr_strerror(FR_EURL), "invalid URL") == 0);
    CHECK(strcmp(fr_strerror(FR_ENOTFOUND), "not found") == 0);
    CHECK(strcmp(fr_strerror(FR_ENOMEM), "out of memory") == 0);
    CHECK(strcmp(fr_strerror(-8), "unknown status") == 0);
    CHECK(strcmp(fr_strerror(FR_NOMETHOD), "method not allowed") == 0);
    CHECK(strcmp(fr_strerror(3), "unknown status") == 0);
    CHECK(strcmp(fr_strerror(-2147483647 - 1), "unknown status") == 0);
    /* Static: the same pointer every time. */
    CHECK(fr_strerror(FR_EURL) == fr_strerror(FR_EURL));
}

/* ---- fr_router_new / free and NULL everywhere ---------------------------------------------- */

static void test_new_free_and_null(void) {
    uint32_t valid[] = {0, FR_CASE_INSENSITIVE, FR_NO_GLOBAL_FALLBACK, FR_NO_PLUS_AS_SPACE, FR_NO_HEAD_FALLBACK,
                        FR_CASE_INSENSITIVE | FR_NO_GLOBAL_FALLBACK | FR_NO_PLUS_AS_SPACE | FR_NO_HEAD_FALLBACK};
    for (size_t i = 0; i < sizeof valid / sizeof valid[0]; i++) {
        fr_router *r = fr_router_new(valid[i]);
        CHECK(r != NULL);
        CHECK_INT(fr_router_count(r), 0);
        fr_router_free(r);
    }
    CHECK(fr_router_new(1u << 4) == NULL);
    CHECK(fr_router_new(1u << 31) == NULL);
    CHECK(fr_router_new(0xFFFFFFFFu) == NULL);
    CHECK(fr_router_new(FR_CASE_INSENSITIVE | (1u << 7)) == NULL);

    fr_router_free(NULL);
    fr_match_free(NULL);

    fr_router *r = fr_router_new(0);
    fr_match *m = fr_match_new();
    CHECK(m != NULL);
    CHECK_INT(add(r, "/users/:id", 0, 1), FR_OK);

    /* fr_router_add: NULL router, NULL pattern with a length; err written each time. */
    guarded_error g;
    guard(&g);
    CHECK_INT(fr_router_add(NULL, "/a", 2, 0, 1, &g.err), FR_EINVAL);
    CHECK_INT(g.err.code, FR_EINVAL);
    CHECK_INT(g.err.offset, 0);
    CHECK(g.err.message[0] != '\0');
    CHECK(guard_intact(&g));
    CHECK_INT(fr_router_add(NULL, "/a", 2, 0, 1, NULL), FR_EINVAL);
    guard(&g);
    CHECK_INT(fr_router_add(r, NULL, 2, 0, 1, &g.err), FR_EINVAL);
    CHECK_INT(g.err.code, FR_EINVAL);
    CHECK(guard_intact(&g));
    CHECK_INT(fr_router_count(r), 1);

    /* fr_router_remove / count. */
    CHECK_INT(fr_router_remove(NULL, 1), FR_EINVAL);
    CHECK_INT(fr_router_count(NULL), 0);

    /* fr_router_match: NULL router, URL or match. */
    CHECK_INT(match(r, "/users/1", m), FR_OK);
    CHECK_INT(fr_router_match(NULL, "/users/1", 8, m), FR_EINVAL);
    check_no_result(m); /* the earlier result is gone */
    CHECK_INT(match(r, "/users/1", m), FR_OK);
    CHECK_INT(fr_router_match(r, NULL, 8, m), FR_EINVAL);
    check_no_result(m);
    CHECK_INT(fr_router_match(r, "/users/1", 8, NULL), FR_EINVAL);
    CHECK_INT(fr_router_match(NULL, NULL, 0, NULL), FR_EINVAL);

    /* Accessors on NULL: the "no result" answers; statuses FR_EINVAL. */
    check_no_result(NULL);
    CHECK_INT(fr_match_next(NULL), FR_EINVAL);
    CHECK_INT(fr_match_param_at(NULL, 0, NULL, NULL), FR_EINVAL);
    CHECK_INT(fr_match_param(NULL, "id", 2, NULL), FR_EINVAL);

    /* fr_match_param: NULL name with a length; optional out-parameters. */
    CHECK_INT(match(r, "/users/7", m), FR_OK);
    fr_str value = {"x", 1};
    CHECK_INT(fr_match_param(m, NULL, 2, &value), FR_EINVAL);
    CHECK_ABSENT(value);
    CHECK_INT(fr_match_param(m, NULL, 0, NULL), FR_ENOTFOUND); /* the empty name: not present */
    CHECK_INT(fr_match_param(m, "id", 2, NULL), FR_OK);        /* presence only */
    CHECK_INT(fr_match_param_at(m, 0, NULL, NULL), FR_OK);
    fr_str name = {NULL, 0};
    CHECK_INT(fr_match_param_at(m, 0, &name, NULL), FR_OK);
    CHECK_STR(name, "id");
    value.ptr = NULL;
    CHECK_INT(fr_match_param_at(m, 0, NULL, &value), FR_OK);
    CHECK_STR(value, "7");
    /* A name read through a longer buffer: only name_len bytes count. */
    CHECK_INT(fr_match_param(m, "idx", 2, &value), FR_OK);
    CHECK_STR(value, "7");
    CHECK_INT(fr_match_param(m, "i", 1, NULL), FR_ENOTFOUND);

    /* fr_router_url / fr_router_dump with NULL. */
    size_t needed = 99;
    char buf[64];
    CHECK_INT(fr_router_url(NULL, 1, NULL, NULL, 0, buf, sizeof buf, &needed), FR_EINVAL);
    CHECK_INT(needed, 0);
    CHECK_INT(fr_router_dump(NULL, buf, sizeof buf, &needed), FR_EINVAL);
    CHECK_INT(fr_router_dump(r, NULL, 10, &needed), FR_EINVAL);

    fr_match_free(m);
    fr_router_free(r);
}

/* ---- fr_error and pattern errors ----------------------------------------------------------- */

static void test_add_and_errors(void) {
    fr_router *r = fr_router_new(0);
    guarded_error g;

    /* Success writes FR_OK, 0, "" over whatever was there. */
    guard(&g);
    CHECK_INT(fr_router_add(r, "/users/{id:int}", 15, 0, 1, &g.err), FR_OK);
    CHECK_INT(g.err.code, FR_OK);
    CHECK_INT(g.err.offset, 0);
    CHECK(g.err.message[0] == '\0');
    CHECK(guard_intact(&g));

    /* The pattern is read as (ptr, len): no NUL needed, bytes past len ignored. */
    CHECK_INT(fr_router_add(r, "/posts/:id/ignored", 10, 0, 2, NULL), FR_OK);
    fr_match *m = fr_match_new();
    CHECK_INT(match(r, "/posts/9", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 2);

    /* The reserved id. */
    guard(&g);
    CHECK_INT(fr_router_add(r, "/reserved", 9, 0, FR_NO_ROUTE, &g.err), FR_EINVAL);
    CHECK_INT(g.err.code, FR_EINVAL);
    CHECK(g.err.message[0] != '\0');
    CHECK(guard_intact(&g));
    CHECK_INT(add(r, "/reserved", 0, UINT64_MAX - 1), FR_OK); /* the largest usable id */
    CHECK_INT(match(r, "/reserved", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), UINT64_MAX - 1);

    /* Duplicates: same table, host, priority and shapes; names do not count. */
    guard(&g);
    CHECK_INT(fr_router_add(r, "/users/{n:int}", 14, 0, 3, &g.err), FR_EDUPLICATE);
    CHECK_INT(g.err.code, FR_EDUPLICATE);
    CHECK(g.err.message[0] != '\0');
    CHECK_INT(add(r, "/users/{n:int}", 1, 3), FR_OK);     /* another priority */
    CHECK_INT(add(r, "/users/{n:uint}", 0, 4), FR_OK);    /* another constraint */
    CHECK_INT(add(r, "/posts/:slug", 0, 5), FR_EDUPLICATE);
    CHECK_INT(add(r, "/posts/:id/", 0, 5), FR_EDUPLICATE); /* one trailing '/' is ignored */
    CHECK_INT(add(r, "myapp://posts/:id", 0, 5), FR_OK);   /* another table */
    CHECK_INT(add(r, "https://example.com/posts/:id", 0, 6), FR_OK);
    CHECK_INT(add(r, "https://example.com/posts/:x", 0, 6), FR_EDUPLICATE);
    CHECK_INT(add(r, "https://a.example.com/posts/:x", 0, 6), FR_OK); /* another host */
    /* A grouped add whose expansion collides adds nothing. */
    size_t before = fr_router_count(r);
    CHECK_INT(add(r, "/posts(/:id)", 0, 7), FR_EDUPLICATE);
    CHECK_INT(fr_router_count(r), before);
    CHECK_INT(match(r, "/posts", m), FR_NOMATCH);
    CHECK_INT(add(r, "/x(/:a)(/:b)", 0, 8), FR_EDUPLICATE); /* /x/:a twice among its own expansions */
    CHECK_INT(fr_router_count(r), before);

    /* Priorities span int32_t. */
    CHECK_INT(add(r, "/p/:x", INT32_MIN, 10), FR_OK);
    CHECK_INT(add(r, "/p/:x", INT32_MAX, 11), FR_OK);
    CHECK_INT(match(r, "/p/1", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 11);
    CHECK_INT(fr_match_next(m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 10);

    /* The empty pattern (also NULL with length 0) is the root route, as is "/". */
    fr_router *root = fr_router_new(0);
    CHECK_INT(fr_router_add(root, NULL, 0, 0, 1, NULL), FR_OK);
    CHECK_INT(add(root, "/", 0, 2), FR_EDUPLICATE);
    CHECK_INT(match(root, "/", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 1);
    CHECK_INT(fr_router_match(root, NULL, 0, m), FR_OK); /* the empty URL: the root path */
    CHECK_ID(fr_match_route_id(m), 1);
    CHECK_INT(match(root, "//", m), FR_OK);
    fr_router_free(root);

    /* Pattern errors: status, offset of the offending construct's first byte, a message. */
    PATTERN_ERROR("users/:id", FR_EPATTERN, 0);
    PATTERN_ERROR("/a//b", FR_EPATTERN, 2);
    PATTERN_ERROR("/a/{id", FR_EPATTERN, 3);
    PATTERN_ERROR("/a/id}", FR_EPATTERN, 5);
    PATTERN_ERROR("/a(/b", FR_EPATTERN, 2);
    PATTERN_ERROR("/a/b)", FR_EPATTERN, 4);
    PATTERN_ERROR("/a/:", FR_EPATTERN, 3);
    PATTERN_ERROR("/a/{}", FR_EPATTERN, 3);
    PATTERN_ERROR("/a/:1x", FR_EPATTERN, 4);     /* the name */
    PATTERN_ERROR("/:id/:id", FR_EPATTERN, 5);
    PATTERN_ERROR("/a/*/b", FR_EPATTERN, 3);
    PATTERN_ERROR("/a/*.json", FR_EPATTERN, 3);  /* the '*' */
    PATTERN_ERROR("/n\xD5%A7", FR_EPATTERN, 2); /* raw bytes must be UTF-8, even if an escape completes them */
    PATTERN_ERROR("http://a%2Fb/x", FR_EPATTERN, 8); /* no escapes in a host */
    PATTERN_ERROR("/a%zz", FR_EPATTERN, 2);
    PATTERN_ERROR("/a%2", FR_EPATTERN, 2);
    PATTERN_ERROR("/a%00", FR_EPATTERN, 2);
    PATTERN_ERROR("/a%FF", FR_EPATTERN, 2);
    PATTERN_ERROR("/a b", FR_EPATTERN, 2);
    PATTERN_ERROR("/a?b", FR_EPATTERN, 2);
    PATTERN_ERROR("/a#b", FR_EPATTERN, 2);
    PATTERN_ERROR("/a<b", FR_EPATTERN, 2);
    PATTERN_ERROR("/a/(/b)", FR_EPATTERN, 3);
    PATTERN_ERROR("myapp://a/(/b)", FR_EPATTERN, 10); /* a group after a slash, in any table */
    PATTERN_ERROR("myapp:///(/a)", FR_EPATTERN, 9);
    PATTERN_ERROR("/a()", FR_EPATTERN, 2);
    PATTERN_ERROR("/a(/b)c", FR_EPATTERN, 6);
    PATTERN_ERROR("/{x:}", FR_EPATTERN, 3);      /* the empty constraint */
    PATTERN_ERROR("https://example.com:8080/a", FR_EPATTERN, 19);
    PATTERN_ERROR("https://a.*.com/a", FR_EPATTERN, 10);
    PATTERN_ERROR("/a(/b)(/c)(/d)(/e)(/f)(/g)(/h)(/i)(/j)", FR_EPATTERN, 34);
    PATTERN_ERROR("/v/{ver:[0-9}", FR_EREGEX, 12); /* the end of the regex "[0-9" */
    check_pattern_error("/a\0b", 4, FR_EPATTERN, 2, __LINE__);
    CHECK_INT(add(r, "/a(/b)(/c)(/d)(/e)(/f)(/g)(/h)(/i)", 0, 20), FR_OK); /* 8 groups are fine */
    {
        /* Over 8 KiB. */
        size_t len = 8 * 1024 + 2;
        char *big = malloc(len + 1);
        big[0] = '/';
        memset(big + 1, 'a', len - 1);
        big[len] = '\0';
        check_pattern_error(big, len, FR_EPATTERN, -1, __LINE__);
        /* Exactly 8 KiB is accepted. */
        CHECK_INT(fr_router_add(r, big, 8 * 1024, 0, 21, NULL), FR_OK);
        free(big);
    }
    /* A regex error reports PCRE2's offset inside the pattern: "missing closing parenthesis" at
       the end of the regex "(", which starts at byte 4; a range out of order at its 'a'. */
    PATTERN_ERROR("/{x:(}", FR_EREGEX, 5);
    PATTERN_ERROR("/{x:[z-a]}", FR_EREGEX, 7);
    /* An escaped '}' does not close the placeholder; the message stays inside the struct. */
    {
        char pattern[600] = "/{x:";
        for (int i = 0; i < 100; i++) strcat(pattern, "(a)");
        strcat(pattern, "\\}");
        guard(&g);
        CHECK_INT(fr_router_add(r, pattern, strlen(pattern), 0, 31, &g.err), FR_EPATTERN);
        CHECK_INT(g.err.offset, 1);
        CHECK(guard_intact(&g));
    }

    fr_match_free(m);
    fr_router_free(r);
}

/* ---- lookups ------------------------------------------------------------------------------- */

static void test_match_parameters(void) {
    fr_router *r = fr_router_new(0);
    fr_match *m = fr_match_new();
    check_no_result(m); /* a new match holds no result */
    CHECK_INT(fr_match_next(m), FR_NOMATCH);

    CHECK_INT(add(r, "/users/{id:int}/posts/:post", 0, 1), FR_OK);
    CHECK_INT(add(r, "/files/*path", 0, 2), FR_OK);
    CHECK_INT(add(r, "/raw/*", 0, 3), FR_OK);
    CHECK_INT(add(r, "/search", 0, 4), FR_OK);
    CHECK_INT(add(r, "/caf%C3%A9/:x", 0, 5), FR_OK);
    CHECK_INT(add(r, "/v/{ver:v[0-9]+}", 0, 6), FR_OK);
    CHECK_INT(add(r, "/n/{n:int}", 0, 7), FR_OK);
    CHECK_INT(add(r, "/u/{u:uuid}", 0, 8), FR_OK);
    CHECK_INT(add(r, "/id/:id", 0, 9), FR_OK);

    /* Path parameters in pattern order, then query pairs in URL order; fragment raw. */
    const char *url = "/users/42/posts/hello%20world?tab=posts&x=1&tab=2#top%20x";
    CHECK_INT(match(r, url, m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 1);
    PAIRS(m, "id", "42", "post", "hello world", "tab", "posts", "x", "1", "tab", "2");
    CHECK_STR(param(m, "tab"), "posts"); /* the first pair */
    CHECK_STR(param(m, "post"), "hello world");
    CHECK_INT(fr_match_param(m, "nope", 4, NULL), FR_ENOTFOUND);
    CHECK_STR(fr_match_fragment(m), "top%20x");
    /* Results may point into the URL buffer or into the match (docs/SEMANTICS.md §4); this version copies the
       URL into the match, so they survive the caller reusing its buffer. */
    {
        char reused[128];
        strcpy(reused, url);
        CHECK_INT(match(r, reused, m), FR_OK);
        memset(reused, 'z', strlen(reused));
        CHECK_STR(param(m, "id"), "42");
        CHECK_STR(param(m, "post"), "hello world");
        CHECK_STR(fr_match_fragment(m), "top%20x");
        fr_str id = param(m, "id");
        CHECK(id.ptr < reused || id.ptr >= reused + sizeof reused);
    }
    /* A result of this match may be matched again with the same match: here its fragment,
       itself a URL, whose copy into the match overlaps its source. Lengths 8 to 30. */
    for (int pad = 0; pad <= 22; pad++) {
        char linked[96];
        snprintf(linked, sizeof linked, "/search#/id/%.*s", pad + 4, "k2345678901234567890123456");
        CHECK_INT(match(r, linked, m), FR_OK);
        fr_str again = fr_match_fragment(m);
        CHECK_INT((int)again.len, pad + 8);
        CHECK_INT(fr_router_match(r, again.ptr, again.len, m), FR_OK);
        CHECK_ID(fr_match_route_id(m), 9);
        fr_str got = param(m, "id");
        CHECK(got.len == (size_t)pad + 4 && memcmp(got.ptr, linked + strlen("/search#/id/"), got.len) == 0);
    }
    /* A URL may lie in the match in any of its buffers: here in the copy of a path kept for
       declines (a wildcard's value after a decline, with the '/' before it), itself kept for
       declines. Keeping it writes that copy again, so it is moved out first, and each candidate
       reads the same bytes. */
    {
        fr_router *twice = fr_router_new(0);
        CHECK(twice != NULL);
        CHECK_INT(add(twice, "/k/*rest", 0, 11), FR_OK);
        CHECK_INT(add(twice, "/k/:a/:b", 0, 10), FR_OK);
        CHECK_INT(add(twice, "/k/:id", 0, 12), FR_OK);
        for (int pad = 1; pad <= 40; pad++) {
            char linked[96], tail[64];
            snprintf(tail, sizeof tail, "%.*s", pad, "k23456789012345678901234567890abcdefghijk");
            snprintf(linked, sizeof linked, "/k/k/%s", tail);
            CHECK_INT(match(twice, linked, m), FR_OK);
            CHECK_ID(fr_match_route_id(m), 10);
            CHECK_INT(fr_match_next(m), FR_OK);
            CHECK_ID(fr_match_route_id(m), 11);
            fr_str rest = param(m, "rest");
            CHECK(rest.len == (size_t)pad + 2 && rest.ptr[-1] == '/');
            CHECK_INT(fr_router_match(twice, rest.ptr - 1, rest.len + 1, m), FR_OK);
            CHECK_ID(fr_match_route_id(m), 12);
            fr_str got = param(m, "id");
            CHECK(got.len == (size_t)pad && memcmp(got.ptr, tail, got.len) == 0);
            CHECK_INT(fr_match_next(m), FR_OK);
            CHECK_ID(fr_match_route_id(m), 11);
            got = param(m, "rest");
            CHECK(got.len == (size_t)pad && memcmp(got.ptr, tail, got.len) == 0);
            CHECK_INT(fr_match_next(m), FR_NOMATCH);
        }
        fr_router_free(twice);
    }
    /* Past the end. */
    fr_str name = {"x", 1}, value = {"x", 1};
    CHECK_INT(fr_match_param_at(m, 5, &name, &value), FR_ENOTFOUND);
    CHECK_ABSENT(name);
    CHECK_ABSENT(value);
    CHECK_INT(fr_match_param_at(m, SIZE_MAX, NULL, NULL), FR_ENOTFOUND);
    CHECK_INT(fr_match_param_at(m, SIZE_MAX / 2 + 1, NULL, NULL), FR_ENOTFOUND);
    CHECK_INT(fr_match_param_at(m, SIZE_MAX / 2, NULL, NULL), FR_ENOTFOUND);
    /* Accessors never invalidate: reading twice gives the same pointers. */
    CHECK(param(m, "post").ptr == param(m, "post").ptr);

    /* The URL is (ptr, len): bytes past len are not part of it. */
    CHECK_INT(fr_router_match(r, "/searchXYZ", 7, m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 4);
    CHECK_ABSENT(fr_match_fragment(m));
    /* A URL ending in '#' has an empty fragment, not an absent one. */
    CHECK_INT(match(r, "/search#", m), FR_OK);
    CHECK_STR(fr_match_fragment(m), "");

    /* A path parameter wins over a query key of the same name. */
    CHECK_INT(match(r, "/id/path?id=query", m), FR_OK);
    PAIRS(m, "id", "path", "id", "query");
    CHECK_STR(param(m, "id"), "path");

    /* Query details: '+', empty items, '=v', keys without '=', decoded keys, repeats. */
    CHECK_INT(match(r, "/search?q=a+b%2Bc&&empty=&flag&=v&k%20ey=x%3Dy=z", m), FR_OK);
    PAIRS(m, "q", "a b+c", "empty", "", "flag", "", "", "v", "k ey", "x=y=z");
    CHECK_STR(param(m, "empty"), ""); /* present and empty: non-NULL ptr */
    CHECK_STR(param(m, "flag"), "");
    CHECK_INT(match(r, "/search?", m), FR_OK);
    CHECK_INT(fr_match_param_count(m), 0);
    CHECK_INT(match(r, "/search#", m), FR_OK);
    CHECK_STR(fr_match_fragment(m), ""); /* '#' present: non-NULL, empty */
    CHECK_INT(match(r, "/search#a#b?c", m), FR_OK);
    CHECK_STR(fr_match_fragment(m), "a#b?c");
    CHECK_INT(fr_match_param_count(m), 0);
    CHECK_INT(match(r, "/search?a=1#f?b=2", m), FR_OK);
    PAIRS(m, "a", "1");

    /* Wildcards: decoded segments joined by '/', empty at zero segments; '*' when unnamed. */
    CHECK_INT(match(r, "/files/a//b%2Fc/d.txt/", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 2);
    PAIRS(m, "path", "a/b/c/d.txt");
    CHECK_INT(match(r, "/files", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 2);
    PAIRS(m, "path", "");
    CHECK_INT(match(r, "/raw/x/y?z=1", m), FR_OK);
    PAIRS(m, "*", "x/y", "z", "1");

    /* Paths: empty segments dropped, decoding per segment, raw UTF-8 literals. */
    CHECK_INT(match(r, "//users//42///posts/p/", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 1);
    CHECK_INT(match(r, "/caf\xC3\xA9/1", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 5);
    CHECK_INT(match(r, "/caf%c3%a9/1", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 5);
    CHECK_INT(match(r, "/users/42/posts/a%2Fb", m), FR_OK);
    CHECK_STR(param(m, "post"), "a/b");
    CHECK_INT(match(r, "/users/42/posts", m), FR_NOMATCH);
    CHECK_INT(match(r, "/USERS/42/posts/p", m), FR_NOMATCH); /* byte-exact by default */

    /* Constraints match the whole decoded segment. */
    CHECK_INT(match(r, "/v/v12", m), FR_OK);
    CHECK_STR(param(m, "ver"), "v12");
    CHECK_INT(match(r, "/v/v12x", m), FR_NOMATCH);
    CHECK_INT(match(r, "/v/xv12", m), FR_NOMATCH);
    CHECK_INT(match(r, "/n/-9223372036854775808", m), FR_OK);
    CHECK_INT(match(r, "/n/9223372036854775807", m), FR_OK);
    CHECK_INT(match(r, "/n/9223372036854775808", m), FR_NOMATCH);
    CHECK_INT(match(r, "/n/1.5", m), FR_NOMATCH);
    CHECK_INT(match(r, "/users/4x/posts/p", m), FR_NOMATCH);
    CHECK_INT(match(r, "/u/123e4567-E89B-12d3-a456-426614174000", m), FR_OK);
    CHECK_INT(match(r, "/u/123e4567-e89b-12d3-a456-42661417400", m), FR_NOMATCH);

    /* No match and bad URLs clear the result. */
    CHECK_INT(match(r, "/nothing/here", m), FR_NOMATCH);
    check_no_result(m);
    CHECK_INT(fr_match_next(m), FR_NOMATCH);
    const char *bad[] = {"/search%zz", "/search%2", "/a%00b", "/search?q=%00", "/search?%00=1",
                         "/a%FFb", "/a%C3", "/search?q=%E2%82",
                         /* the authority too, userinfo and port included, raw bytes as well */
                         "https://h%zz/search", "https://h%00/search", "https://h\xFF/search",
                         "https://u%zz@h/search", "https://h:%zz/search", "myapp://u%zz@h/search"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_INT(match(r, "/search", m), FR_OK);
        int status = match(r, bad[i], m);
        if (status != FR_EURL) fprintf(stderr, "URL %s: status %d\n", bad[i], status);
        CHECK_INT(status, FR_EURL);
        check_no_result(m);
        CHECK_INT(fr_match_next(m), FR_NOMATCH);
    }
    CHECK_INT(fr_router_match(r, "/sea\0rch", 8, m), FR_EURL); /* a raw NUL */
    CHECK_INT(match(r, "/search?q=a%20b#%zz", m), FR_OK);       /* the fragment is not validated */
    CHECK_INT(match(r, "/search?q=a b<c", m), FR_OK);            /* raw space and '<' tolerated */
    CHECK_STR(param(m, "q"), "a b<c");
    {
        /* Over 64 KiB; and over 1024 segments. Exactly 64 KiB and 1024 segments are fine. */
        size_t len = 64 * 1024 + 1;
        char *big = malloc(len + 1);
        memcpy(big, "/files/", 7);
        memset(big + 7, 'a', len - 7);
        CHECK_INT(fr_router_match(r, big, len, m), FR_EURL);
        check_no_result(m);
        CHECK_INT(fr_router_match(r, big, len - 1, m), FR_OK);
        CHECK_ID(fr_match_route_id(m), 2);
        CHECK_INT(param(m, "path").len, len - 1 - 7);
        /* A size_t length past every object: rejected before anything is read past the limit. */
        CHECK_INT(fr_router_match(r, big, SIZE_MAX, m), FR_EURL);
        CHECK_INT(fr_router_match(r, big, (size_t)1 << 63, m), FR_EURL);
        size_t pos = 0;
        memcpy(big, "/files", 6);
        pos = 6;
        for (int i = 0; i < 1023; i++) { big[pos++] = '/'; big[pos++] = 'x'; }
        CHECK_INT(fr_router_match(r, big, pos, m), FR_OK); /* 1024 segments */
        CHECK_INT(param(m, "path").len, 1023 * 2 - 1);
        big[pos++] = '/';
        big[pos++] = 'x';
        CHECK_INT(fr_router_match(r, big, pos, m), FR_EURL); /* 1025 */
        free(big);
    }

    fr_match_free(m);
    fr_router_free(r);
}

static void test_flags(void) {
    fr_match *m = fr_match_new();

    /* Case-insensitive literals; regexes and built-ins are never folded. */
    fr_router *ci = fr_router_new(FR_CASE_INSENSITIVE);
    fr_router *cs = fr_router_new(0);
    const char *patterns[] = {"/About/Team", "/r/{x:[a-z]+}", "/A"};
    for (int i = 0; i < 3; i++) {
        CHECK_INT(add(ci, patterns[i], 0, (uint64_t)i + 1), FR_OK);
        CHECK_INT(add(cs, patterns[i], 0, (uint64_t)i + 1), FR_OK);
    }
    CHECK_INT(add(ci, "/a", 0, 4), FR_OK); /* distinct from /A even case-insensitively */
    CHECK_INT(match(ci, "/about/TEAM", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 1);
    CHECK_INT(match(cs, "/about/TEAM", m), FR_NOMATCH);
    CHECK_INT(match(cs, "/About/Team", m), FR_OK);
    CHECK_INT(match(ci, "/r/ABC", m), FR_NOMATCH);
    CHECK_INT(match(ci, "/r/abc", m), FR_OK);
    CHECK_INT(match(ci, "/a", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 3); /* /A registered first */
    CHECK_INT(fr_match_next(m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 4);
    fr_router_free(ci);
    fr_router_free(cs);

    /* Global fallback, on by default. */
    fr_router *fb = fr_router_new(0);
    fr_router *nofb = fr_router_new(FR_NO_GLOBAL_FALLBACK);
    CHECK_INT(add(fb, "/users/:id", 0, 1), FR_OK);
    CHECK_INT(add(nofb, "/users/:id", 0, 1), FR_OK);
    CHECK_INT(match(fb, "myapp://users/42", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 1);
    CHECK_INT(match(fb, "https://example.com/users/42", m), FR_OK);
    CHECK_INT(match(nofb, "myapp://users/42", m), FR_NOMATCH); /* the myapp table is empty */
    CHECK_INT(match(nofb, "https://example.com/users/42", m), FR_NOMATCH);
    CHECK_INT(match(nofb, "/users/42", m), FR_OK);
    CHECK_INT(add(nofb, "myapp://users/:id", 0, 2), FR_OK);
    CHECK_INT(match(nofb, "myapp://users/42", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 2);
    CHECK_INT(fr_match_next(m), FR_NOMATCH);
    fr_router_free(fb);
    fr_router_free(nofb);

    /* '+' as space, on by default. */
    fr_router *plus = fr_router_new(0);
    fr_router *noplus = fr_router_new(FR_NO_PLUS_AS_SPACE);
    CHECK_INT(add(plus, "/s/:p", 0, 1), FR_OK);
    CHECK_INT(add(noplus, "/s/:p", 0, 1), FR_OK);
    CHECK_INT(match(plus, "/s/a+b?q+1=a+b%2B", m), FR_OK);
    PAIRS(m, "p", "a+b", "q 1", "a b+"); /* never in the path */
    CHECK_INT(match(noplus, "/s/a+b?q+1=a+b%2B", m), FR_OK);
    PAIRS(m, "p", "a+b", "q+1", "a+b+");
    fr_router_free(plus);
    fr_router_free(noplus);

    fr_match_free(m);
}

static void test_schemes_and_hosts(void) {
    fr_router *r = fr_router_new(0);
    fr_match *m = fr_match_new();
    CHECK_INT(add(r, "myapp://users/:id", 0, 1), FR_OK);
    CHECK_INT(add(r, "/users/:id", 0, 2), FR_OK);
    CHECK_INT(add(r, "https://example.com/repos/:owner", 0, 3), FR_OK);
    CHECK_INT(add(r, "https://*.example.com/repos/:owner", 0, 4), FR_OK);
    CHECK_INT(add(r, "https://*/repos/:owner", 0, 5), FR_OK);
    CHECK_INT(add(r, "http:///repos/:owner", 0, 6), FR_OK);
    CHECK_INT(add(r, "myapp://{section:alpha}", 0, 7), FR_OK);

    /* Custom scheme: the host is the first segment; the scheme table first, then global. */
    CHECK_INT(match(r, "myapp://users/42?tab=posts", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 1);
    PAIRS(m, "id", "42", "tab", "posts");
    CHECK_INT(fr_match_next(m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 2);
    PAIRS(m, "id", "42", "tab", "posts");
    CHECK_INT(fr_match_next(m), FR_NOMATCH);
    check_no_result(m);
    CHECK_INT(fr_match_next(m), FR_NOMATCH);
    CHECK_INT(match(r, "MyApp://USERS/42", m), FR_OK); /* scheme and host case-insensitive */
    CHECK_ID(fr_match_route_id(m), 1);
    CHECK_INT(match(r, "myapp://Settings", m), FR_OK); /* a placeholder captures the host as written */
    CHECK_ID(fr_match_route_id(m), 7);
    CHECK_STR(param(m, "section"), "Settings");
    CHECK_INT(match(r, "other://users/5", m), FR_OK); /* no table: global */
    CHECK_ID(fr_match_route_id(m), 2);

    /* Web schemes: host rules, exact > *.suffix > any; port and userinfo ignored. */
    CHECK_INT(match(r, "https://example.com/repos/apple", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 3);
    PAIRS(m, "owner", "apple");
    CHECK_INT(fr_match_next(m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 5);
    CHECK_INT(fr_match_next(m), FR_NOMATCH);
    CHECK_INT(match(r, "https://user:pw@API.Example.COM:8443/repos/apple", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 4);
    CHECK_INT(fr_match_next(m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 5);
    CHECK_INT(match(r, "https://a.b.example.com/repos/x", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 4);
    CHECK_INT(match(r, "https://notexample.com/repos/x", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 5);
    CHECK_INT(match(r, "http://example.com/repos/x", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 6);
    CHECK_INT(match(r, "https://example.com/users/3", m), FR_OK); /* path only, via global */
    CHECK_ID(fr_match_route_id(m), 2);
    CHECK_INT(match(r, "https://example.com/", m), FR_NOMATCH);

    /* A group may open a custom scheme's path right after "://", as it may a web one's. */
    fr_router *g = fr_router_new(FR_NO_GLOBAL_FALLBACK);
    CHECK_INT(add(g, "myapp://(/a)(/*rest)", 0, 1), FR_OK);
    CHECK_INT(add(g, "app://(/:p0)/x", 0, 2), FR_OK);
    CHECK_INT(match(g, "myapp://a/x/y", m), FR_OK); /* the group's segment is the host */
    CHECK_ID(fr_match_route_id(m), 1);
    PAIRS(m, "rest", "x/y");
    CHECK_INT(fr_match_next(m), FR_OK);             /* then the variant without it */
    CHECK_ID(fr_match_route_id(m), 1);
    PAIRS(m, "rest", "a/x/y");
    CHECK_INT(match(g, "myapp://", m), FR_OK);      /* the variant without segments: the root */
    CHECK_ID(fr_match_route_id(m), 1);
    CHECK_INT(fr_match_param_count(m), 0);
    CHECK_INT(match(g, "app://v/x", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 2);
    PAIRS(m, "p0", "v");
    CHECK_INT(match(g, "app://x", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 2);
    CHECK_INT(fr_match_param_count(m), 0);
    CHECK_INT(match(g, "app://v/w", m), FR_NOMATCH);
    fr_router_free(g);

    fr_match_free(m);
    fr_router_free(r);
}

/* ---- precedence and declining -------------------------------------------------------------- */

static void test_decline_order(void) {
    fr_router *r = fr_router_new(0);
    fr_match *m = fr_match_new();
    CHECK_INT(add(r, "/u/me", 0, 1), FR_OK);
    CHECK_INT(add(r, "/u/{id:int}", 0, 2), FR_OK);
    CHECK_INT(add(r, "/u/:name", 0, 3), FR_OK);
    CHECK_INT(add(r, "/u/*rest", 0, 4), FR_OK);
    CHECK_INT(add(r, "/u/:x", 5, 5), FR_OK);
    CHECK_INT(add(r, "/u/*", 0, 6), FR_EDUPLICATE);
    CHECK_INT(add(r, "/u/:other", -1, 6), FR_OK);

    const struct { const char *url; uint64_t ids[6]; size_t count; } cases[] = {
        {"/u/me", {5, 1, 3, 4, 6}, 5},
        {"/u/42", {5, 2, 3, 4, 6}, 5},
        {"/u/zed?x=1", {5, 3, 4, 6}, 4},
        {"/u", {4}, 1},
        {"/u/a/b", {4}, 1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int status = match(r, cases[c].url, m);
        for (size_t i = 0; i < cases[c].count; i++) {
            CHECK_INT(status, FR_OK);
            if (fr_match_route_id(m) != cases[c].ids[i]) fprintf(stderr, "%s, candidate %zu\n", cases[c].url, i);
            CHECK_ID(fr_match_route_id(m), cases[c].ids[i]);
            status = fr_match_next(m);
        }
        CHECK_INT(status, FR_NOMATCH);
        check_no_result(m);
        CHECK_INT(fr_match_next(m), FR_NOMATCH);
    }
    /* Parameters follow the candidate. */
    CHECK_INT(match(r, "/u/me", m), FR_OK);
    PAIRS(m, "x", "me");
    CHECK_INT(fr_match_next(m), FR_OK);
    CHECK_INT(fr_match_param_count(m), 0);
    CHECK_INT(fr_match_next(m), FR_OK);
    PAIRS(m, "name", "me");
    CHECK_INT(fr_match_next(m), FR_OK);
    PAIRS(m, "rest", "me");

    /* A route that ends where the URL ends beats a wildcard matching zero segments. */
    fr_router *z = fr_router_new(0);
    CHECK_INT(add(z, "/docs/*path", 0, 1), FR_OK);
    CHECK_INT(add(z, "/docs", 0, 2), FR_OK);
    CHECK_INT(match(z, "/docs", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 2);
    CHECK_INT(fr_match_next(m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 1);
    fr_router_free(z);

    /* Optional groups: one id, one count, one removal; expansions in written order,
       "present" before "absent", each a candidate. */
    size_t before = fr_router_count(r);
    CHECK_INT(add(r, "/a(/b)(/:c)", 0, 9), FR_OK);
    CHECK_INT(fr_router_count(r), before + 1);
    const char *urls[] = {"/a", "/a/b", "/a/x", "/a/b/x"};
    for (int i = 0; i < 4; i++) {
        CHECK_INT(match(r, urls[i], m), FR_OK);
        CHECK_ID(fr_match_route_id(m), 9);
    }
    CHECK_INT(match(r, "/a/b", m), FR_OK);
    CHECK_INT(fr_match_param_count(m), 0); /* /a/b */
    CHECK_INT(fr_match_next(m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 9);
    PAIRS(m, "c", "b"); /* /a/:c */
    CHECK_INT(fr_match_next(m), FR_NOMATCH);
    CHECK_INT(fr_router_remove(r, 9), FR_OK);
    CHECK_INT(fr_router_count(r), before);
    for (int i = 0; i < 4; i++) CHECK_INT(match(r, urls[i], m), FR_NOMATCH);
    CHECK_INT(fr_router_remove(r, 9), FR_ENOTFOUND);
    CHECK_INT(add(r, "(/lang/:lang)/home", 0, 10), FR_OK); /* a group at the start */
    CHECK_INT(match(r, "/lang/fr/home", m), FR_OK);
    PAIRS(m, "lang", "fr");
    CHECK_INT(match(r, "/home", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 10);

    fr_match_free(m);
    fr_router_free(r);
}

/* ---- removal, shared ids, results that outlive changes ------------------------------------ */

static void test_remove_and_lifetimes(void) {
    fr_router *r = fr_router_new(0);
    fr_match *m = fr_match_new();
    CHECK_INT(add(r, "/x/:a", 0, 7), FR_OK);
    CHECK_INT(add(r, "/y", 0, 7), FR_OK);
    CHECK_INT(add(r, "/z", 0, 8), FR_OK);
    CHECK_INT(fr_router_count(r), 3);
    CHECK_INT(fr_router_remove(r, FR_NO_ROUTE), FR_EINVAL);
    CHECK_INT(fr_router_remove(r, 12345), FR_ENOTFOUND);
    CHECK_INT(fr_router_count(r), 3);

    /* A result stays readable after its route is removed, and after the router is freed. */
    char url[] = "/x/value?q=1#frag";
    CHECK_INT(match(r, url, m), FR_OK);
    CHECK_INT(fr_router_remove(r, 7), FR_OK); /* both routes with id 7 */
    CHECK_INT(fr_router_count(r), 1);
    CHECK_ID(fr_match_route_id(m), 7);
    PAIRS(m, "a", "value", "q", "1");
    CHECK_INT(match(r, "/y", m), FR_NOMATCH);
    CHECK_INT(match(r, "/x/1", m), FR_NOMATCH);
    CHECK_INT(match(r, "/z", m), FR_OK);
    CHECK_INT(fr_router_remove(r, 7), FR_ENOTFOUND);

    /* The id can be used again. */
    CHECK_INT(add(r, "/x/:a", 0, 7), FR_OK);
    CHECK_INT(add(r, "/x/:b", 1, 9), FR_OK);
    CHECK_INT(match(r, url, m), FR_OK);
    CHECK_INT(fr_match_next(m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 7);
    PAIRS(m, "a", "value", "q", "1");
    CHECK_INT(fr_match_next(m), FR_NOMATCH);
    CHECK_INT(match(r, url, m), FR_OK);
    fr_router_free(r);
    CHECK_ID(fr_match_route_id(m), 9);
    PAIRS(m, "b", "value", "q", "1");
    CHECK_STR(fr_match_fragment(m), "frag");
    /* A decline walks its router's tables: once the router is freed, none is left. */
    CHECK_INT(fr_match_next(m), FR_NOMATCH);
    CHECK_ID(fr_match_route_id(m), FR_NO_ROUTE);

    /* One fr_match serves several routers in turn. */
    fr_router *r1 = fr_router_new(0), *r2 = fr_router_new(0);
    CHECK_INT(add(r1, "/k", 0, 1), FR_OK);
    CHECK_INT(add(r2, "/k", 0, 2), FR_OK);
    CHECK_INT(match(r1, "/k", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 1);
    CHECK_INT(match(r2, "/k", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 2);
    fr_router_free(r1);
    fr_router_free(r2);
    fr_match_free(m);
}

/* ---- reverse routing and the dump ---------------------------------------------------------- */

static fr_str S(const char *text) {
    fr_str s = {text, strlen(text)};
    return s;
}

static void test_url_and_dump(void) {
    fr_router *r = fr_router_new(0);
    CHECK_INT(add(r, "/users/{id:int}/posts/:slug", 0, 20), FR_OK);
    CHECK_INT(add(r, "/files/*path", 0, 21), FR_OK);
    CHECK_INT(add(r, "/static", 0, 22), FR_OK);
    CHECK_INT(add(r, "myapp://settings(/:section)", 0, 23), FR_OK);

    fr_str names[] = {S("id"), S("slug")};
    fr_str values[] = {S("42"), S("hello world")};
    char buf[128];
    size_t needed = 0;
    const char *expected = "/users/42/posts/hello%20world";
    CHECK_INT(fr_router_url(r, 20, names, values, 2, buf, sizeof buf, &needed), FR_OK);
    CHECK_INT(needed, strlen(expected));
    CHECK(strcmp(buf, expected) == 0);
    if (strcmp(buf, expected) != 0) fprintf(stderr, "url: got \"%s\"\n", buf);
    CHECK_INT(fr_router_url(r, 20, names, values, 2, buf, sizeof buf, NULL), FR_OK); /* needed optional */

    /* The built URL routes back to the route with the same values. */
    fr_match *m = fr_match_new();
    CHECK_INT(fr_router_match(r, buf, needed, m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 20);
    PAIRS(m, "id", "42", "slug", "hello world");

    /* Too small: FR_ENOMEM, the full length, the buffer untouched; exactly enough is fine. */
    memset(buf, '#', sizeof buf);
    needed = 0;
    CHECK_INT(fr_router_url(r, 20, names, values, 2, buf, strlen(expected), &needed), FR_ENOMEM);
    CHECK_INT(needed, strlen(expected));
    CHECK(buf[0] == '#' && buf[strlen(expected)] == '#');
    CHECK_INT(fr_router_url(r, 20, names, values, 2, NULL, 0, &needed), FR_ENOMEM); /* size query */
    CHECK_INT(needed, strlen(expected));
    CHECK_INT(fr_router_url(r, 20, names, values, 2, buf, strlen(expected) + 1, &needed), FR_OK);
    CHECK(strcmp(buf, expected) == 0);

    /* Names in any order; values point anywhere, no NUL needed; names the pattern does not use
       become query pairs, in the order given. */
    fr_str names2[] = {S("extra"), S("slug"), S("id"), S("q")};
    fr_str values2[] = {S("z&z"), {"abcdef", 3}, {"7xx", 1}, S("a b")};
    CHECK_INT(fr_router_url(r, 20, names2, values2, 4, buf, sizeof buf, &needed), FR_OK);
    CHECK(strcmp(buf, "/users/7/posts/abc?extra=z%26z&q=a%20b") == 0);
    if (strcmp(buf, "/users/7/posts/abc?extra=z%26z&q=a%20b") != 0) fprintf(stderr, "url: got \"%s\"\n", buf);
    CHECK_INT(fr_router_match(r, buf, needed, m), FR_OK);
    PAIRS(m, "id", "7", "slug", "abc", "extra", "z&z", "q", "a b");

    /* Errors. */
    CHECK_INT(fr_router_url(r, 999, names, values, 2, buf, sizeof buf, &needed), FR_ENOTFOUND);
    CHECK_INT(needed, 0);
    CHECK_INT(fr_router_url(r, FR_NO_ROUTE, names, values, 2, buf, sizeof buf, &needed), FR_EINVAL);
    CHECK_INT(fr_router_url(r, 20, names, values, 1, buf, sizeof buf, &needed), FR_EINVAL); /* slug missing */
    fr_str bad_int[] = {S("4x2"), S("s")};
    CHECK_INT(fr_router_url(r, 20, names, bad_int, 2, buf, sizeof buf, &needed), FR_EINVAL);
    fr_str bad_utf8[] = {S("42"), S("\xFF")};
    CHECK_INT(fr_router_url(r, 20, names, bad_utf8, 2, buf, sizeof buf, &needed), FR_EINVAL);
    fr_str null_value[] = {S("42"), {NULL, 3}};
    CHECK_INT(fr_router_url(r, 20, names, null_value, 2, buf, sizeof buf, &needed), FR_EINVAL);
    CHECK_INT(fr_router_url(r, 20, NULL, values, 2, buf, sizeof buf, &needed), FR_EINVAL);
    CHECK_INT(fr_router_url(r, 20, names, NULL, 2, buf, sizeof buf, &needed), FR_EINVAL);
    CHECK_INT(fr_router_url(r, 20, names, values, 2, NULL, 10, &needed), FR_EINVAL);
    CHECK_INT(fr_router_url(r, 22, NULL, NULL, 0, buf, sizeof buf, &needed), FR_OK); /* no parameters */
    CHECK(strcmp(buf, "/static") == 0);

    /* A wildcard takes its segments joined by '/'. */
    fr_str wn[] = {S("path")}, wv[] = {S("a/b c/d")};
    CHECK_INT(fr_router_url(r, 21, wn, wv, 1, buf, sizeof buf, &needed), FR_OK);
    CHECK_INT(fr_router_match(r, buf, needed, m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 21);
    PAIRS(m, "path", "a/b c/d");

    /* An optional group is filled when its parameter is given. */
    fr_str sn[] = {S("section")}, sv[] = {S("privacy")};
    CHECK_INT(fr_router_url(r, 23, sn, sv, 1, buf, sizeof buf, &needed), FR_OK);
    CHECK_INT(fr_router_match(r, buf, needed, m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 23);
    CHECK_STR(param(m, "section"), "privacy");

    CHECK_INT(fr_router_url(r, 23, NULL, NULL, 0, buf, sizeof buf, &needed), FR_OK);
    CHECK(strcmp(buf, "myapp://settings") == 0);
    CHECK_INT(fr_router_url(r, 23, sn, sv, 1, buf, sizeof buf, &needed), FR_OK);
    CHECK(strcmp(buf, "myapp://settings/privacy") == 0);

    /* Reserved characters in a value are escaped, so the value comes back whole. */
    fr_str tricky[] = {S("1"), S("a/b?c#d%e+f g&h")};
    CHECK_INT(fr_router_url(r, 20, names, tricky, 2, buf, sizeof buf, &needed), FR_OK);
    CHECK_INT(fr_router_match(r, buf, needed, m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 20);
    PAIRS(m, "id", "1", "slug", "a/b?c#d%e+f g&h");

    /* An exact web host gives an absolute URL; an unnamed wildcard is named "*". */
    CHECK_INT(add(r, "https://example.com/repos/:owner", 0, 24), FR_OK);
    CHECK_INT(add(r, "/raw/*", 0, 25), FR_OK);
    fr_str on[] = {S("owner")}, ov[] = {S("apple")};
    CHECK_INT(fr_router_url(r, 24, on, ov, 1, buf, sizeof buf, &needed), FR_OK);
    CHECK(strcmp(buf, "https://example.com/repos/apple") == 0);
    fr_str star[] = {S("*")}, starv[] = {S("x/y")};
    CHECK_INT(fr_router_url(r, 25, star, starv, 1, buf, sizeof buf, &needed), FR_OK);
    CHECK(strcmp(buf, "/raw/x/y") == 0);

    /* The dump: a size query, then the listing, which names every pattern. */
    needed = 0;
    CHECK_INT(fr_router_dump(r, NULL, 0, &needed), FR_ENOMEM);
    CHECK(needed > 0);
    char *dump = malloc(needed + 1);
    memset(dump, '#', needed + 1);
    size_t again = 0;
    CHECK_INT(fr_router_dump(r, dump, needed, &again), FR_ENOMEM); /* no room for the NUL */
    CHECK_INT(again, needed);
    CHECK(dump[0] == '#');
    CHECK_INT(fr_router_dump(r, dump, needed + 1, NULL), FR_OK);
    CHECK_INT(strlen(dump), needed);
    CHECK(strstr(dump, "/users/{id:int}/posts/:slug") != NULL);
    CHECK(strstr(dump, "/files/*path") != NULL);
    CHECK(strstr(dump, "myapp") != NULL);
    free(dump);
    fr_router *empty = fr_router_new(0);
    CHECK_INT(fr_router_dump(empty, buf, sizeof buf, &needed), FR_OK);
    CHECK_INT(strlen(buf), needed);
    fr_router_free(empty);

    /* Empty values: an optional group's placeholder counts as not given; a required one and NUL
       anywhere are FR_EINVAL. */
    fr_str opt_names[] = {S("section")}, opt_empty[] = {S("")}, nul_value[] = {{"a\0b", 3}};
    CHECK_INT(fr_router_url(r, 23, opt_names, opt_empty, 1, buf, sizeof buf, &needed), FR_OK);
    CHECK(strcmp(buf, "myapp://settings") == 0);
    CHECK_INT(needed, strlen("myapp://settings"));
    fr_str req_empty[] = {S("7"), S("")};
    CHECK_INT(fr_router_url(r, 20, names, req_empty, 2, buf, sizeof buf, &needed), FR_EINVAL); /* slug empty */
    CHECK_INT(fr_router_url(r, 23, opt_names, nul_value, 1, buf, sizeof buf, &needed), FR_EINVAL);

    fr_match_free(m);
    fr_router_free(r);
}

static void test_lint(void) {
    fr_router *r = fr_router_new(0);
    CHECK_INT(add(r, "/users/:id", 1, 1), FR_OK);
    CHECK_INT(add(r, "/users/me", 0, 2), FR_OK); /* never first: the placeholder has priority 1 */

    /* A size query, then the report; the buffer conventions are fr_router_dump's. */
    size_t needed = 0;
    CHECK_INT(fr_router_lint(r, NULL, 0, &needed), FR_ENOMEM);
    CHECK(needed > 0);
    char *report = malloc(needed + 1);
    memset(report, '#', needed + 1);
    size_t again = 0;
    CHECK_INT(fr_router_lint(r, report, needed, &again), FR_ENOMEM); /* no room for the NUL */
    CHECK_INT(again, needed);
    CHECK(report[0] == '#');
    CHECK_INT(fr_router_lint(r, report, needed + 1, NULL), FR_OK);
    CHECK_INT(strlen(report), needed);
    CHECK(strstr(report, "warning: ") != NULL);
    CHECK(strstr(report, "/users/me") != NULL);
    CHECK(strstr(report, "e.g. /users/me") != NULL);
    CHECK(strstr(report, "0 errors, 1 warning\n") != NULL);
    free(report);

    /* Routes with methods are checked method by method and named with their methods. */
    fr_router *methods = fr_router_new(0);
    CHECK_INT(fr_router_add_methods(methods, "GET", 3, "/a/:x", 5, 1, 1, NULL), FR_OK);
    CHECK_INT(fr_router_add_methods(methods, "GET,POST", 8, "/a/{y}", 6, 0, 2, NULL), FR_OK);
    char method_report[512];
    CHECK_INT(fr_router_lint(methods, method_report, sizeof method_report, &needed), FR_OK);
    CHECK(strstr(method_report, "warning: route 'GET,POST /a/{y}' is shadowed for GET only: ") != NULL);
    CHECK(strstr(method_report, "; POST still reaches it\n    e.g. /a/1\n") != NULL);
    fr_router_free(methods);

    /* Nothing to report; NULL arguments. */
    char buf[64];
    fr_router *clean = fr_router_new(0);
    CHECK_INT(add(clean, "/a", 0, 1), FR_OK);
    CHECK_INT(fr_router_lint(clean, buf, sizeof buf, &needed), FR_OK);
    CHECK(strcmp(buf, "no problems found\n") == 0);
    CHECK_INT(needed, strlen("no problems found\n"));
    needed = 99;
    CHECK_INT(fr_router_lint(NULL, buf, sizeof buf, &needed), FR_EINVAL);
    CHECK_INT(needed, 0);
    CHECK_INT(fr_router_lint(clean, NULL, 10, &needed), FR_EINVAL);
    fr_router_free(clean);
    fr_router_free(r);
}

int main(void) {
    test_version_and_strerror();
    test_new_free_and_null();
    test_add_and_errors();
    test_match_parameters();
    test_flags();
    test_schemes_and_hosts();
    test_decline_order();
    test_remove_and_lifetimes();
    test_url_and_dump();
    test_lint();
    return finish();
}
