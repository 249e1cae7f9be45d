/*
** test_methods.c — HTTP methods through the C ABI (docs/SEMANTICS.md §3.7): fr_router_add_methods,
** fr_router_match_method and fr_match_allow as a C server sees them. NULL arguments, method lists
** and bad tokens, the 64-name limit, duplicates only where method sets overlap, filtered
** candidates and declining through them, HEAD served by GET routes (and FR_NO_HEAD_FALLBACK),
** FR_NOMETHOD with its Allow value in RFC 9110 order, the buffer rules of fr_match_allow, and
** lookups without a method left exactly as they were.
*/
#include <stdlib.h>

#include "check.h"

_Static_assert(FR_NOMETHOD == 2, "FR_NOMETHOD is an outcome between FR_NOMATCH and the errors");
_Static_assert(FR_NO_HEAD_FALLBACK == 8, "the fourth flag");

/* ---- helpers -------------------------------------------------------------------------------- */

static int add(fr_router *r, const char *methods, const char *pattern, int32_t priority, uint64_t id) {
    return fr_router_add_methods(r, methods, strlen(methods), pattern, strlen(pattern), priority, id, NULL);
}

static int request(const fr_router *r, const char *method, const char *url, fr_match *m) {
    return fr_router_match_method(r, method, strlen(method), url, strlen(url), m);
}

/* The Allow value after FR_NOMETHOD, or "<status N>" when fr_match_allow fails. */
static const char *allow(const fr_match *m) {
    static char text[512];
    size_t needed = 12345;
    int status = fr_match_allow(m, text, sizeof text, &needed);
    if (status != FR_OK) {
        snprintf(text, sizeof text, "<status %d>", status);
    } else if (needed != strlen(text)) {
        snprintf(text, sizeof text, "<needed %zu for %zu bytes>", needed, strlen(text));
    }
    return text;
}

#define CHECK_TEXT(actual, expected)                                                              \
    do {                                                                                          \
        const char *check_t_ = (actual), *check_x_ = (expected);                                  \
        if (strcmp(check_t_, check_x_) == 0) {                                                    \
            atomic_fetch_add(&check_passed, 1);                                                   \
        } else {                                                                                  \
            atomic_fetch_add(&check_failed, 1);                                                   \
            fprintf(stderr, "%s:%d: FAILED: %s == \"%s\": got \"%s\"\n", __FILE__, __LINE__,      \
                    #actual, check_x_, check_t_);                                                 \
        }                                                                                         \
    } while (0)

/* A lookup of METHOD URL ends in FR_NOMETHOD with exactly this Allow value. */
#define CHECK_405(r, method, url, m, expected)                                                    \
    do {                                                                                          \
        CHECK_INT(request((r), (method), (url), (m)), FR_NOMETHOD);                               \
        CHECK_TEXT(allow(m), (expected));                                                         \
    } while (0)

/* The lookup's candidates, best first, are exactly ids[0..count), then FR_NOMATCH. */
static void check_candidates(int status, fr_match *m, const uint64_t *ids, size_t count, const char *what,
                             int line) {
    for (size_t i = 0; i < count; i++) {
        if (status != FR_OK || fr_match_route_id(m) != ids[i])
            fprintf(stderr, "line %d: %s, candidate %zu: status %d, id %" PRIu64 "\n", line, what, i, status,
                    fr_match_route_id(m));
        CHECK_INT(status, FR_OK);
        CHECK_ID(fr_match_route_id(m), ids[i]);
        status = fr_match_next(m);
    }
    if (status != FR_NOMATCH) fprintf(stderr, "line %d: %s: more than %zu candidates\n", line, what, count);
    CHECK_INT(status, FR_NOMATCH);
}
#define CANDIDATES(status, m, what, ...)                                                         \
    do {                                                                                         \
        const uint64_t ids_[] = {__VA_ARGS__};                                                   \
        check_candidates((status), (m), ids_, sizeof ids_ / sizeof ids_[0], (what), __LINE__);   \
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
}

/* fr_match_allow has nothing to report: FR_ENOTFOUND and an empty value. */
static void check_no_allow(const fr_match *m, int line) {
    char buf[32];
    memset(buf, '#', sizeof buf);
    size_t needed = 99;
    int status = fr_match_allow(m, buf, sizeof buf, &needed);
    if (status != FR_ENOTFOUND) fprintf(stderr, "line %d: fr_match_allow gave %d\n", line, status);
    CHECK_INT(status, FR_ENOTFOUND);
    CHECK_INT(needed, 0);
    CHECK(buf[0] == '\0' && buf[1] == '#'); /* the empty value, and nothing more */
    needed = 99;
    CHECK_INT(fr_match_allow(m, NULL, 0, &needed), FR_ENOTFOUND);
    CHECK_INT(needed, 0);
}
#define NO_ALLOW(m) check_no_allow((m), __LINE__)

/* add_methods fails with code, a NUL-terminated one-line message that mentions `mention`
** (unless NULL), and leaves the router as it was. */
static void check_add_error(fr_router *r, const char *methods, size_t methods_len, const char *pattern, int code,
                            const char *mention, int line) {
    size_t before = fr_router_count(r);
    fr_error err;
    memset(&err, 0x5A, sizeof err);
    int status = fr_router_add_methods(r, methods, methods_len, pattern, strlen(pattern), 0, 77, &err);
    int terminated = memchr(err.message, 0, sizeof err.message) != NULL;
    if (status != code || (mention != NULL && terminated && strstr(err.message, mention) == NULL))
        fprintf(stderr, "line %d: methods \"%.*s\" %s: status %d \"%s\"\n", line, (int)(methods_len > 60 ? 60 : methods_len),
                methods ? methods : "", pattern, status, terminated ? err.message : "?");
    CHECK_INT(status, code);
    CHECK_INT(err.code, code);
    CHECK(terminated);
    if (terminated) {
        CHECK(err.message[0] != '\0');
        CHECK(strchr(err.message, '\n') == NULL);
        if (mention != NULL) CHECK(strstr(err.message, mention) != NULL);
    }
    CHECK_INT(fr_router_count(r), before);
}
#define ADD_ERROR(r, methods, pattern, code, mention)                                            \
    check_add_error((r), (methods), strlen(methods), (pattern), (code), (mention), __LINE__)

/* ---- statuses, flags and NULL everywhere --------------------------------------------------- */

static void test_codes_flags_and_null(void) {
    CHECK(strcmp(fr_strerror(FR_NOMETHOD), "method not allowed") == 0);
    CHECK(strcmp(fr_strerror(3), "unknown status") == 0);

    fr_router *plain = fr_router_new(FR_NO_HEAD_FALLBACK);
    CHECK(plain != NULL);
    fr_router_free(plain);
    plain = fr_router_new(FR_CASE_INSENSITIVE | FR_NO_GLOBAL_FALLBACK | FR_NO_PLUS_AS_SPACE | FR_NO_HEAD_FALLBACK);
    CHECK(plain != NULL);
    fr_router_free(plain);
    CHECK(fr_router_new(1u << 4) == NULL);
    CHECK(fr_router_new(FR_NO_HEAD_FALLBACK | (1u << 9)) == NULL);

    fr_router *r = fr_router_new(0);
    fr_match *m = fr_match_new();
    fr_error err;

    /* fr_router_add_methods: NULL router, NULL methods or pattern with a length, reserved id;
       fr_error written each time. */
    memset(&err, 0x5A, sizeof err);
    CHECK_INT(fr_router_add_methods(NULL, "GET", 3, "/a", 2, 0, 1, &err), FR_EINVAL);
    CHECK_INT(err.code, FR_EINVAL);
    CHECK(memchr(err.message, 0, sizeof err.message) != NULL && err.message[0] != '\0');
    CHECK_INT(fr_router_add_methods(NULL, "GET", 3, "/a", 2, 0, 1, NULL), FR_EINVAL);
    memset(&err, 0x5A, sizeof err);
    CHECK_INT(fr_router_add_methods(r, NULL, 3, "/a", 2, 0, 1, &err), FR_EINVAL);
    CHECK_INT(err.code, FR_EINVAL);
    CHECK_INT(fr_router_add_methods(r, "GET", 3, NULL, 2, 0, 1, &err), FR_EINVAL);
    CHECK_INT(err.code, FR_EINVAL);
    CHECK_INT(fr_router_add_methods(r, "GET", 3, "/a", 2, 0, FR_NO_ROUTE, &err), FR_EINVAL);
    CHECK_INT(err.code, FR_EINVAL);
    CHECK_INT(fr_router_count(r), 0);

    /* Success writes FR_OK, 0, "". NULL methods with length 0 is any method. */
    memset(&err, 0x5A, sizeof err);
    CHECK_INT(fr_router_add_methods(r, "GET", 3, "/a", 2, 0, 1, &err), FR_OK);
    CHECK_INT(err.code, FR_OK);
    CHECK_INT(err.offset, 0);
    CHECK(err.message[0] == '\0');
    CHECK_INT(fr_router_add_methods(r, NULL, 0, "/any", 4, 0, 2, &err), FR_OK);
    CHECK_INT(fr_router_count(r), 2);

    /* fr_router_match_method: NULL router, method or URL with a length, NULL match. */
    CHECK_INT(request(r, "GET", "/a", m), FR_OK);
    CHECK_INT(fr_router_match_method(NULL, "GET", 3, "/a", 2, m), FR_EINVAL);
    check_no_result(m); /* the earlier result is gone */
    CHECK_INT(request(r, "GET", "/a", m), FR_OK);
    CHECK_INT(fr_router_match_method(r, NULL, 3, "/a", 2, m), FR_EINVAL);
    check_no_result(m);
    CHECK_INT(fr_router_match_method(r, "GET", 3, NULL, 2, m), FR_EINVAL);
    check_no_result(m);
    CHECK_INT(fr_router_match_method(r, "GET", 3, "/a", 2, NULL), FR_EINVAL);
    CHECK_INT(fr_router_match_method(NULL, NULL, 0, NULL, 0, NULL), FR_EINVAL);
    /* NULL method with length 0: a lookup without a method. */
    CHECK_INT(fr_router_match_method(r, NULL, 0, "/any", 4, m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 2);
    CHECK_INT(fr_router_match_method(r, NULL, 0, "/a", 2, m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 1);

    /* fr_match_allow: NULL match (needed is still written), NULL buf with a capacity. */
    char buf[64];
    size_t needed = 99;
    CHECK_INT(fr_match_allow(NULL, buf, sizeof buf, &needed), FR_EINVAL);
    CHECK_INT(needed, 0);
    CHECK_INT(fr_match_allow(NULL, NULL, 0, NULL), FR_EINVAL);
    CHECK_INT(request(r, "POST", "/a", m), FR_NOMETHOD);
    CHECK_INT(fr_match_allow(m, NULL, 10, &needed), FR_EINVAL);
    CHECK_INT(fr_match_allow(m, buf, sizeof buf, NULL), FR_OK); /* needed is optional */
    CHECK_TEXT(buf, "GET, HEAD");
    /* The Allow value survives a failed fr_match_allow call. */
    CHECK_TEXT(allow(m), "GET, HEAD");

    /* A new match has no Allow value. */
    fr_match *fresh = fr_match_new();
    NO_ALLOW(fresh);
    check_no_result(fresh);
    fr_match_free(fresh);

    fr_match_free(m);
    fr_router_free(r);
}

/* ---- method lists ---------------------------------------------------------------------------- */

static void test_method_lists(void) {
    fr_router *r = fr_router_new(0);
    fr_match *m = fr_match_new();

    /* Lists: one token, several, spaces around commas; "" and "*" are any method. */
    CHECK_INT(add(r, "GET", "/one", 0, 1), FR_OK);
    CHECK_INT(add(r, "GET,POST", "/two", 0, 2), FR_OK);
    CHECK_INT(add(r, "GET , POST ,PUT", "/three", 0, 3), FR_OK);
    CHECK_INT(add(r, "", "/empty", 0, 4), FR_OK);
    CHECK_INT(add(r, "*", "/star", 0, 5), FR_OK);
    CHECK_INT(add(r, "PURGE,PROPFIND", "/ext", 0, 6), FR_OK);
    CHECK_INT(add(r, "M-SEARCH,X_Y.z!#$%&'*+^`|~9", "/tchar", 0, 7), FR_OK); /* every tchar */
    CHECK_INT(fr_router_count(r), 7);

    CHECK_INT(request(r, "GET", "/one", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 1);
    CHECK_405(r, "POST", "/one", m, "GET, HEAD");
    CHECK_INT(request(r, "POST", "/two", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 2);
    CHECK_405(r, "PUT", "/two", m, "GET, HEAD, POST");
    CHECK_INT(request(r, "PUT", "/three", m), FR_OK);
    CHECK_INT(request(r, "POST", "/three", m), FR_OK);
    CHECK_405(r, "DELETE", "/three", m, "GET, HEAD, POST, PUT");
    const char *any[] = {"GET", "HEAD", "DELETE", "PURGE", "get", "X"};
    for (size_t i = 0; i < sizeof any / sizeof any[0]; i++) {
        CHECK_INT(request(r, any[i], "/empty", m), FR_OK);
        CHECK_ID(fr_match_route_id(m), 4);
        CHECK_INT(request(r, any[i], "/star", m), FR_OK);
        CHECK_ID(fr_match_route_id(m), 5);
    }
    CHECK_INT(request(r, "PROPFIND", "/ext", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 6);
    CHECK_405(r, "GET", "/ext", m, "PURGE, PROPFIND");
    CHECK_INT(request(r, "X_Y.z!#$%&'*+^`|~9", "/tchar", m), FR_OK);
    CHECK_INT(request(r, "M-SEARCH", "/tchar", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 7);

    /* Methods are case-sensitive: "get" is another method than "GET". */
    CHECK_405(r, "get", "/one", m, "GET, HEAD");
    CHECK_INT(add(r, "get", "/one", 0, 8), FR_OK); /* does not overlap "GET" */
    CHECK_INT(request(r, "get", "/one", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 8);
    CHECK_INT(request(r, "GET", "/one", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 1);
    CHECK_405(r, "Get", "/one", m, "GET, HEAD, get");
    /* ... also on a case-insensitive router, which folds path literals only. */
    fr_router *ci = fr_router_new(FR_CASE_INSENSITIVE);
    CHECK_INT(add(ci, "GET", "/Case", 0, 1), FR_OK);
    CHECK_INT(request(ci, "GET", "/CASE", m), FR_OK);
    CHECK_405(ci, "get", "/case", m, "GET, HEAD");
    fr_router_free(ci);

    /* The method list is (ptr, len): bytes past the length are not part of it. */
    CHECK_INT(fr_router_add_methods(r, "POSTXX", 4, "/len", 4, 0, 9, NULL), FR_OK);
    CHECK_INT(request(r, "POST", "/len", m), FR_OK);
    CHECK_INT(fr_router_match_method(r, "POSTXX", 4, "/len", 4, m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 9);
    CHECK_405(r, "POSTXX", "/len", m, "POST");

    /* Bad lists: FR_EINVAL with a message, nothing added. */
    ADD_ERROR(r, ",", "/bad", FR_EINVAL, "empty method");
    ADD_ERROR(r, "GET,", "/bad", FR_EINVAL, "empty method");
    ADD_ERROR(r, ",GET", "/bad", FR_EINVAL, "empty method");
    ADD_ERROR(r, "GET,,POST", "/bad", FR_EINVAL, "empty method");
    ADD_ERROR(r, "GET, ,POST", "/bad", FR_EINVAL, "empty method");
    ADD_ERROR(r, "GET POST", "/bad", FR_EINVAL, "GET POST");
    ADD_ERROR(r, "GET;POST", "/bad", FR_EINVAL, "GET;POST");
    ADD_ERROR(r, "GET\r\n", "/bad", FR_EINVAL, "method");
    ADD_ERROR(r, "G\xC3\x89T", "/bad", FR_EINVAL, "method"); /* not ASCII */
    ADD_ERROR(r, "(GET)", "/bad", FR_EINVAL, "(GET)");
    ADD_ERROR(r, "GET/1", "/bad", FR_EINVAL, "GET/1");
    ADD_ERROR(r, "\"GET\"", "/bad", FR_EINVAL, "method");
    ADD_ERROR(r, "GET,PO{ST", "/bad", FR_EINVAL, "PO{ST"); /* the bad one of several */
    ADD_ERROR(r, "*,GET", "/bad", FR_EINVAL, "\"*\"");
    ADD_ERROR(r, "GET,*", "/bad", FR_EINVAL, "\"*\"");
    ADD_ERROR(r, "*,*", "/bad", FR_EINVAL, "\"*\"");
    check_add_error(r, "GE\0T", 4, "/bad", FR_EINVAL, "method", __LINE__); /* a NUL inside */
    check_add_error(r, "GET\0", 4, "/bad", FR_EINVAL, "method", __LINE__);
    check_add_error(r, "\0", 1, "/bad", FR_EINVAL, "method", __LINE__);
    CHECK_INT(request(r, "GET", "/bad", m), FR_NOMATCH);
    /* A good list does not hide a bad pattern: its status and offset, as fr_router_add gives. */
    fr_error err;
    CHECK_INT(fr_router_add_methods(r, "GET", 3, "/a//b", 5, 0, 10, &err), FR_EPATTERN);
    CHECK_INT(err.offset, 2);
    CHECK_INT(fr_router_add_methods(r, "GET", 3, "/{x:(}", 6, 0, 10, &err), FR_EREGEX);
    CHECK_INT(fr_router_add_methods(r, "GET", 3, "users", 5, 0, 10, &err), FR_EPATTERN);
    CHECK_INT(err.offset, 0);

    /* Long names: a 10,000-byte token is a method like any other, and its Allow value is read
       through a size query. */
    size_t long_len = 10000;
    char *long_name = malloc(long_len);
    memset(long_name, 'A', long_len);
    CHECK_INT(fr_router_add_methods(r, long_name, long_len, "/long", 5, 0, 11, NULL), FR_OK);
    CHECK_INT(fr_router_match_method(r, long_name, long_len, "/long", 5, m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 11);
    CHECK_INT(fr_router_match_method(r, long_name, long_len - 1, "/long", 5, m), FR_NOMETHOD);
    size_t needed = 0;
    CHECK_INT(fr_match_allow(m, NULL, 0, &needed), FR_ENOMEM);
    CHECK_INT(needed, long_len);
    char *value = malloc(long_len + 1);
    CHECK_INT(fr_match_allow(m, value, long_len + 1, &needed), FR_OK);
    CHECK(value[long_len] == '\0' && memcmp(value, long_name, long_len) == 0);
    free(value);
    /* ... and a bad byte at its very end is found. */
    long_name[long_len - 1] = ';';
    check_add_error(r, long_name, long_len, "/long2", FR_EINVAL, "method", __LINE__);
    CHECK_INT(fr_router_match_method(r, long_name, long_len, "/long", 5, m), FR_EINVAL);
    free(long_name);

    /* Huge method strings: a 100,000-byte method list is refused with a message; a method over
       64 KiB in a lookup is refused (FR_EINVAL), a 64 KiB token is a method no route accepts,
       and a bad byte at the end of a 64 KiB one is still found. */
    size_t huge_len = 100000;
    char *huge = malloc(huge_len);
    memset(huge, 'A', huge_len);
    check_add_error(r, huge, huge_len, "/huge", FR_EINVAL, "method list", __LINE__);
    CHECK_INT(fr_router_match_method(r, huge, huge_len, "/long", 5, m), FR_EINVAL);
    CHECK_INT(fr_match_route_id(m), FR_NO_ROUTE);
    CHECK_INT(fr_router_match_method(r, huge, 65537, "/long", 5, m), FR_EINVAL);
    CHECK_INT(fr_router_match_method(r, huge, 65536, "/long", 5, m), FR_NOMETHOD);
    CHECK_TEXT(allow(m), "<status -7>"); /* 10,000 bytes do not fit in allow()'s buffer */
    CHECK_INT(fr_router_match_method(r, huge, 65536, "/nothing", 8, m), FR_NOMATCH);
    huge[65535] = '\x7F';
    CHECK_INT(fr_router_match_method(r, huge, 65536, "/long", 5, m), FR_EINVAL);
    free(huge);
    /* The list limit is 16 KiB exactly: a list of 16,384 bytes is read, one more byte is not. */
    size_t edge_len = 16385;
    char *edge = malloc(edge_len);
    memset(edge, ' ', edge_len);
    memcpy(edge, "GET", 3);
    CHECK_INT(fr_router_add_methods(r, edge, 16384, "/edge", 5, 0, 14, NULL), FR_OK);
    check_add_error(r, edge, edge_len, "/edge2", FR_EINVAL, "16 KiB", __LINE__);
    free(edge);
    /* A list of 1,000 tokens naming one method. */
    size_t list_len = 1000 * 4 - 1;
    char *list = malloc(list_len);
    for (size_t i = 0; i < 1000; i++) memcpy(list + 4 * i, i + 1 < 1000 ? "GET," : "GET", i + 1 < 1000 ? 4 : 3);
    CHECK_INT(fr_router_add_methods(r, list, list_len, "/many", 5, 0, 13, NULL), FR_OK);
    CHECK_INT(request(r, "GET", "/many", m), FR_OK);
    CHECK_405(r, "POST", "/many", m, "GET, HEAD");
    free(list);

    fr_match_free(m);
    fr_router_free(r);
}

/* ---- 64 distinct method names --------------------------------------------------------------- */

static void test_method_name_limit(void) {
    fr_router *r = fr_router_new(0);
    fr_match *m = fr_match_new();
    char method[32], pattern[32];
    for (int i = 0; i < 64; i++) {
        snprintf(method, sizeof method, "EXT%d", i);
        snprintf(pattern, sizeof pattern, "/m/%d", i);
        CHECK_INT(add(r, method, pattern, 0, (uint64_t)i), FR_OK);
    }
    CHECK_INT(fr_router_count(r), 64);
    /* Every name routes; known names may be reused freely. */
    for (int i = 0; i < 64; i++) {
        snprintf(method, sizeof method, "EXT%d", i);
        snprintf(pattern, sizeof pattern, "/m/%d", i);
        CHECK_INT(request(r, method, pattern, m), FR_OK);
        CHECK_ID(fr_match_route_id(m), (uint64_t)i);
    }
    CHECK_INT(add(r, "EXT0,EXT63", "/m/both", 0, 100), FR_OK);
    CHECK_INT(add(r, "", "/m/any", 0, 101), FR_OK);
    /* Lookups with names the router never saw do not use up the budget. */
    for (int i = 0; i < 1000; i++) {
        snprintf(method, sizeof method, "LOOKUP%d", i);
        CHECK_INT(request(r, method, "/m/both", m), FR_NOMETHOD);
        CHECK_INT(request(r, method, "/m/any", m), FR_OK);
    }
    CHECK_405(r, "EXT1", "/m/both", m, "EXT0, EXT63");
    /* The 65th name fails, alone or in a list, and adds nothing. */
    ADD_ERROR(r, "EXT64", "/m/64", FR_EINVAL, "EXT64");
    ADD_ERROR(r, "EXT1,EXT64", "/m/64", FR_EINVAL, "EXT64");
    ADD_ERROR(r, "GET", "/m/64", FR_EINVAL, "GET");
    CHECK_INT(fr_router_count(r), 66);
    CHECK_INT(request(r, "EXT64", "/m/64", m), FR_NOMATCH);
    /* Known names still work after the refusal. */
    CHECK_INT(add(r, "EXT5,EXT6", "/m/again", 0, 102), FR_OK);
    CHECK_INT(request(r, "EXT6", "/m/again", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 102);

    /* The limit is per router. */
    fr_router *other = fr_router_new(0);
    CHECK_INT(add(other, "EXT64", "/m/64", 0, 1), FR_OK);
    CHECK_INT(request(other, "EXT64", "/m/64", m), FR_OK);
    fr_router_free(other);

    /* Standard methods count like the others: 56 extension names and the 8 standard ones. */
    fr_router *mixed = fr_router_new(0);
    const char *standard = "GET,HEAD,POST,PUT,DELETE,CONNECT,OPTIONS,TRACE";
    CHECK_INT(add(mixed, standard, "/s", 0, 1), FR_OK);
    for (int i = 0; i < 56; i++) {
        snprintf(method, sizeof method, "X%d", i);
        CHECK_INT(add(mixed, method, "/x", 0, (uint64_t)i + 10), FR_OK);
    }
    ADD_ERROR(mixed, "X56", "/y", FR_EINVAL, "X56");
    CHECK_INT(add(mixed, "TRACE", "/y", 0, 99), FR_OK);
    CHECK_405(mixed, "PATCH", "/s", m, "GET, HEAD, POST, PUT, DELETE, CONNECT, OPTIONS, TRACE");
    fr_router_free(mixed);

    fr_match_free(m);
    fr_router_free(r);
}

/* ---- duplicates: only where method sets overlap -------------------------------------------- */

static void test_duplicates(void) {
    fr_router *r = fr_router_new(0);
    fr_error err;
    CHECK_INT(add(r, "GET", "/a", 0, 1), FR_OK);
    CHECK_INT(add(r, "POST", "/a", 0, 2), FR_OK); /* disjoint: two routes */
    memset(&err, 0x5A, sizeof err);
    CHECK_INT(fr_router_add_methods(r, "PUT,POST", 8, "/a", 2, 0, 3, &err), FR_EDUPLICATE);
    CHECK_INT(err.code, FR_EDUPLICATE);
    CHECK(err.message[0] != '\0' && memchr(err.message, 0, sizeof err.message) != NULL);
    CHECK_INT(add(r, "GET", "/a/", 0, 3), FR_EDUPLICATE); /* one trailing '/' is ignored */
    CHECK_INT(add(r, "", "/a", 0, 3), FR_EDUPLICATE);     /* any method overlaps every set */
    CHECK_INT(add(r, "*", "/a", 0, 3), FR_EDUPLICATE);
    CHECK_INT(fr_router_add(r, "/a", 2, 0, 3, NULL), FR_EDUPLICATE);
    CHECK_INT(add(r, "PUT,DELETE", "/a", 0, 3), FR_OK);
    CHECK_INT(add(r, "GET", "/a", 1, 4), FR_OK);          /* another priority */
    CHECK_INT(add(r, "HEAD", "/a", 0, 5), FR_OK);         /* HEAD is not GET when registering */
    CHECK_INT(fr_router_count(r), 5);

    CHECK_INT(fr_router_add(r, "/b", 2, 0, 10, NULL), FR_OK);
    CHECK_INT(add(r, "GET", "/b", 0, 11), FR_EDUPLICATE); /* any method overlaps every set */
    CHECK_INT(add(r, "PURGE", "/b", 0, 11), FR_EDUPLICATE);

    /* Shapes decide, as without methods: parameter names do not count. */
    CHECK_INT(add(r, "GET", "/u/:id", 0, 20), FR_OK);
    CHECK_INT(add(r, "GET", "/u/:name", 0, 21), FR_EDUPLICATE);
    CHECK_INT(add(r, "POST", "/u/:name", 0, 21), FR_OK);
    CHECK_INT(add(r, "GET", "/u/{id:int}", 0, 22), FR_OK); /* another shape */
    CHECK_INT(add(r, "GET", "myapp://u/:id", 0, 23), FR_OK); /* another table */

    /* A grouped add whose expansion collides in an overlapping set adds nothing. */
    size_t before = fr_router_count(r);
    CHECK_INT(add(r, "GET,PUT", "/u(/:x)", 0, 24), FR_EDUPLICATE);
    CHECK_INT(fr_router_count(r), before);
    fr_match *m = fr_match_new();
    CHECK_INT(request(r, "PUT", "/u", m), FR_NOMATCH);
    CHECK_INT(add(r, "PUT", "/u(/:x)", 0, 24), FR_OK);
    CHECK_INT(request(r, "PUT", "/u", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 24);
    CHECK_INT(request(r, "PUT", "/u/7", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 24);
    CHECK_INT(add(r, "GET,PUT", "/v(/a)(/a)", 0, 25), FR_EDUPLICATE); /* within its own expansions */

    /* After removal the same route can be added again. */
    CHECK_INT(fr_router_remove(r, 2), FR_OK);
    CHECK_INT(add(r, "POST,PATCH", "/a", 0, 2), FR_OK);
    CHECK_INT(add(r, "PATCH", "/a", 0, 26), FR_EDUPLICATE);

    fr_match_free(m);
    fr_router_free(r);
}

/* ---- lookups: filtered candidates, declining, lookups without a method ---------------------- */

static void test_filtered_candidates(void) {
    fr_router *r = fr_router_new(0);
    fr_match *m = fr_match_new();
    CHECK_INT(add(r, "GET", "/f/me", 0, 1), FR_OK);
    CHECK_INT(add(r, "POST", "/f/:x", 0, 2), FR_OK);
    CHECK_INT(add(r, "GET", "/f/:x", 0, 3), FR_OK);
    CHECK_INT(add(r, "", "/f/*rest", 0, 4), FR_OK);
    CHECK_INT(add(r, "PUT", "/f/:y", 5, 6), FR_OK);
    CHECK_INT(add(r, "DELETE,GET", "/f/{n:int}", 0, 7), FR_OK);

    /* A method keeps the order of §3.1 among the routes that accept it. */
    CANDIDATES(request(r, "GET", "/f/me", m), m, "GET /f/me", 1, 3, 4);
    CANDIDATES(request(r, "POST", "/f/me", m), m, "POST /f/me", 2, 4);
    CANDIDATES(request(r, "PUT", "/f/me", m), m, "PUT /f/me", 6, 4);
    CANDIDATES(request(r, "DELETE", "/f/me", m), m, "DELETE /f/me", 4);
    CANDIDATES(request(r, "DELETE", "/f/42", m), m, "DELETE /f/42", 7, 4);
    CANDIDATES(request(r, "GET", "/f/42", m), m, "GET /f/42", 7, 3, 4);
    /* HEAD takes the GET routes too, in the same order: the any-method route hides none. */
    CANDIDATES(request(r, "HEAD", "/f/me", m), m, "HEAD /f/me", 1, 3, 4);
    CANDIDATES(request(r, "PATCH", "/f/a/b", m), m, "PATCH /f/a/b", 4);
    /* Without a method, every route is a candidate, in the same order as fr_router_match. */
    CANDIDATES(request(r, "", "/f/me", m), m, "no method /f/me", 6, 1, 2, 3, 4);
    CANDIDATES(fr_router_match(r, "/f/me", 5, m), m, "fr_router_match /f/me", 6, 1, 2, 3, 4);
    CANDIDATES(fr_router_match(r, "/f/42", 5, m), m, "fr_router_match /f/42", 6, 7, 2, 3, 4);

    /* Parameters follow the candidate. */
    CHECK_INT(request(r, "GET", "/f/42?q=1#frag", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 7);
    fr_str name, value;
    CHECK_INT(fr_match_param_count(m), 2);
    CHECK_INT(fr_match_param_at(m, 0, &name, &value), FR_OK);
    CHECK_STR(name, "n");
    CHECK_STR(value, "42");
    CHECK_STR(fr_match_fragment(m), "frag");
    CHECK_INT(fr_match_next(m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 3);
    CHECK_INT(fr_match_param(m, "x", 1, &value), FR_OK);
    CHECK_STR(value, "42");
    CHECK_INT(fr_match_param(m, "q", 1, &value), FR_OK);
    CHECK_STR(value, "1");
    CHECK_INT(fr_match_next(m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 4);
    CHECK_INT(fr_match_param(m, "rest", 4, &value), FR_OK);
    CHECK_STR(value, "42");
    CHECK_INT(fr_match_next(m), FR_NOMATCH);
    check_no_result(m);
    NO_ALLOW(m); /* running out of candidates is not FR_NOMETHOD */

    /* Several tables: the scheme's routes, then the global ones, each filtered. */
    CHECK_INT(add(r, "GET", "https://example.com/repos/:owner", 0, 30), FR_OK);
    CHECK_INT(add(r, "POST", "/repos/:owner", 0, 31), FR_OK);
    CHECK_INT(add(r, "GET", "/repos/:owner", 0, 32), FR_OK);
    CANDIDATES(request(r, "GET", "https://example.com/repos/apple", m), m, "GET https", 30, 32);
    CANDIDATES(request(r, "POST", "https://example.com/repos/apple", m), m, "POST https", 31);
    CANDIDATES(request(r, "GET", "https://other.org/repos/apple", m), m, "GET other host", 32);
    CHECK_405(r, "DELETE", "https://example.com/repos/apple", m, "GET, HEAD, POST");
    fr_router *local = fr_router_new(FR_NO_GLOBAL_FALLBACK);
    CHECK_INT(add(local, "GET", "https://example.com/repos/:owner", 0, 30), FR_OK);
    CHECK_INT(add(local, "POST", "/repos/:owner", 0, 31), FR_OK);
    CHECK_405(local, "POST", "https://example.com/repos/apple", m, "GET, HEAD");
    CHECK_INT(request(local, "POST", "/repos/apple", m), FR_OK);
    fr_router_free(local);

    /* Optional groups: every expansion carries the route's methods. */
    CHECK_INT(add(r, "GET", "/opt(/:x)", 0, 40), FR_OK);
    CHECK_INT(request(r, "GET", "/opt", m), FR_OK);
    CHECK_INT(request(r, "GET", "/opt/1", m), FR_OK);
    CHECK_405(r, "POST", "/opt", m, "GET, HEAD");
    CHECK_405(r, "POST", "/opt/1", m, "GET, HEAD");

    /* Removal: the remaining routes answer, and a URL whose last route went is a 404 again. */
    CHECK_INT(add(r, "GET", "/rm", 0, 50), FR_OK);
    CHECK_INT(add(r, "POST", "/rm", 0, 51), FR_OK);
    CHECK_INT(fr_router_remove(r, 50), FR_OK);
    CHECK_405(r, "GET", "/rm", m, "POST");
    CHECK_INT(fr_router_remove(r, 51), FR_OK);
    CHECK_INT(request(r, "GET", "/rm", m), FR_NOMATCH);
    CHECK_INT(request(r, "POST", "/rm", m), FR_NOMATCH);

    /* Lookups: a URL nobody registered is a 404 whatever the method; bad URLs stay FR_EURL. */
    CHECK_INT(request(r, "GET", "/nothing", m), FR_NOMATCH);
    check_no_result(m);
    NO_ALLOW(m);
    CHECK_INT(request(r, "GET", "/f/%zz", m), FR_EURL);
    check_no_result(m);
    NO_ALLOW(m);
    CHECK_INT(request(r, "GET", "/f/a%00", m), FR_EURL);
    CHECK_INT(fr_router_match_method(r, "GET", 3, "/f/me\0", 6, m), FR_EURL);

    /* Bad method tokens: FR_EINVAL, no result, no Allow value. */
    const char *bad[] = {"G T", "GET,POST", "GET\r", "(", "G\xC3\x89T", "\x7F", "GET "};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_INT(request(r, "PUT", "/f/me", m), FR_OK);
        int status = request(r, bad[i], "/f/me", m);
        if (status != FR_EINVAL) fprintf(stderr, "method \"%s\": status %d\n", bad[i], status);
        CHECK_INT(status, FR_EINVAL);
        check_no_result(m);
        NO_ALLOW(m);
    }
    CHECK_INT(fr_router_match_method(r, "GE\0T", 4, "/f/me", 5, m), FR_EINVAL);
    CHECK_INT(fr_router_match_method(r, "\0", 1, "/f/me", 5, m), FR_EINVAL);
    /* "*" is a token: the method named "*", which only any-method routes accept. */
    CANDIDATES(request(r, "*", "/f/me", m), m, "* /f/me", 4);
    /* The method is (ptr, len) too. */
    CHECK_INT(fr_router_match_method(r, "PUTTING", 3, "/f/meXX", 5, m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 6);

    fr_match_free(m);
    fr_router_free(r);
}

/* ---- FR_NOMETHOD and fr_match_allow ---------------------------------------------------------- */

static void test_nomethod_and_allow(void) {
    fr_router *r = fr_router_new(0);
    fr_match *m = fr_match_new();

    /* The router sees PURGE before PATCH, on another URL. */
    CHECK_INT(add(r, "PURGE", "/other", 0, 1), FR_OK);
    CHECK_INT(add(r, "PATCH", "/o", 0, 2), FR_OK);
    CHECK_INT(add(r, "PURGE,TRACE", "/o", 0, 3), FR_OK);
    CHECK_INT(add(r, "GET", "/o", 0, 4), FR_OK);
    CHECK_INT(add(r, "DELETE,CONNECT", "/o", 0, 5), FR_OK);
    CHECK_INT(add(r, "OPTIONS , PUT,POST", "/o", 0, 6), FR_OK);
    const char *all = "GET, HEAD, POST, PUT, DELETE, CONNECT, OPTIONS, TRACE, PURGE, PATCH";

    /* State after FR_NOMETHOD: no route, no parameters, nothing to decline. */
    CHECK_INT(request(r, "GET", "/o?x=1#f", m), FR_OK);
    CHECK_INT(request(r, "LINK", "/o?x=1#f", m), FR_NOMETHOD);
    check_no_result(m);
    CHECK_TEXT(allow(m), all);
    CHECK_TEXT(allow(m), all); /* reading it does not consume it */
    CHECK_INT(fr_match_next(m), FR_NOMATCH);
    check_no_result(m);

    /* Buffer sizes: cap 0, cap == needed (no room for the NUL), needed + 1. */
    size_t length = strlen(all);
    char buf[128];
    size_t needed = 0;
    CHECK_INT(request(r, "LINK", "/o", m), FR_NOMETHOD);
    CHECK_INT(fr_match_allow(m, NULL, 0, &needed), FR_ENOMEM);
    CHECK_INT(needed, length);
    memset(buf, '#', sizeof buf);
    needed = 0;
    CHECK_INT(fr_match_allow(m, buf, 0, &needed), FR_ENOMEM);
    CHECK_INT(needed, length);
    CHECK(buf[0] == '#');
    needed = 0;
    CHECK_INT(fr_match_allow(m, buf, 1, &needed), FR_ENOMEM);
    CHECK_INT(needed, length);
    CHECK(buf[0] == '#');
    needed = 0;
    CHECK_INT(fr_match_allow(m, buf, length, &needed), FR_ENOMEM);
    CHECK_INT(needed, length);
    for (size_t i = 0; i < sizeof buf; i++) CHECK(buf[i] == '#'); /* untouched */
    needed = 0;
    CHECK_INT(fr_match_allow(m, buf, length + 1, &needed), FR_OK);
    CHECK_INT(needed, length);
    CHECK_TEXT(buf, all);
    CHECK(buf[length + 1] == '#'); /* nothing written past cap */
    CHECK_INT(fr_match_allow(m, buf, sizeof buf, &needed), FR_OK);
    CHECK_INT(needed, length);
    /* An exact-size heap block, so a sanitizer sees any write past it. */
    char *exact = malloc(length + 1);
    CHECK_INT(fr_match_allow(m, exact, length + 1, NULL), FR_OK);
    CHECK_TEXT(exact, all);
    free(exact);

    /* Allow collects every route that matches the URL, each method once. */
    CHECK_INT(add(r, "GET", "/c/:x", 0, 10), FR_OK);
    CHECK_INT(add(r, "POST,GET", "/c/{n:int}", 0, 11), FR_OK);
    CHECK_INT(add(r, "PATCH", "/c/*rest", 0, 12), FR_OK);
    CHECK_INT(add(r, "PURGE", "/c/a/:y", 0, 13), FR_OK);
    CHECK_405(r, "PUT", "/c/42", m, "GET, HEAD, POST, PATCH");
    CHECK_405(r, "PUT", "/c/x", m, "GET, HEAD, PATCH");
    CHECK_405(r, "PUT", "/c/a/b", m, "PURGE, PATCH");
    CHECK_405(r, "GET", "/c/a/b", m, "PURGE, PATCH");
    CHECK_405(r, "HEAD", "/c/a/b", m, "PURGE, PATCH");
    CHECK_405(r, "PUT", "/c", m, "PATCH");

    /* A HEAD route without a GET route lists HEAD alone. */
    CHECK_INT(add(r, "HEAD", "/h", 0, 20), FR_OK);
    CHECK_405(r, "GET", "/h", m, "HEAD");

    /* The Allow value is gone after the next lookup, whatever it returns. */
    CHECK_INT(request(r, "LINK", "/o", m), FR_NOMETHOD);
    CHECK_INT(request(r, "GET", "/o", m), FR_OK);
    NO_ALLOW(m);
    CHECK_INT(request(r, "LINK", "/o", m), FR_NOMETHOD);
    CHECK_INT(fr_router_match(r, "/o", 2, m), FR_OK);
    NO_ALLOW(m);
    CHECK_INT(request(r, "LINK", "/o", m), FR_NOMETHOD);
    CHECK_INT(request(r, "LINK", "/nothing", m), FR_NOMATCH);
    NO_ALLOW(m);
    CHECK_INT(request(r, "LINK", "/o", m), FR_NOMETHOD);
    CHECK_INT(request(r, "LINK", "/%zz", m), FR_EURL);
    NO_ALLOW(m);
    CHECK_INT(request(r, "LINK", "/o", m), FR_NOMETHOD);
    CHECK_INT(fr_router_match_method(NULL, "GET", 3, "/o", 2, m), FR_EINVAL);
    NO_ALLOW(m);

    /* ... and it stays readable while routes change and after the router is freed. */
    CHECK_INT(request(r, "LINK", "/o", m), FR_NOMETHOD);
    CHECK_INT(fr_router_remove(r, 4), FR_OK);
    CHECK_INT(add(r, "LINK", "/o", 0, 30), FR_OK);
    CHECK_TEXT(allow(m), all);
    fr_router_free(r);
    CHECK_TEXT(allow(m), all);
    CHECK_INT(fr_match_next(m), FR_NOMATCH);

    /* One match serves several routers in turn; each lists the methods it knows. */
    fr_router *r1 = fr_router_new(0), *r2 = fr_router_new(FR_NO_HEAD_FALLBACK);
    CHECK_INT(add(r1, "PATCH", "/k", 0, 1), FR_OK);
    CHECK_INT(add(r2, "GET,PURGE", "/k", 0, 2), FR_OK);
    CHECK_405(r1, "GET", "/k", m, "PATCH");
    CHECK_405(r2, "POST", "/k", m, "GET, PURGE");
    fr_router_free(r1);
    fr_router_free(r2);

    fr_match_free(m);
}

/* ---- HEAD served by GET routes, and FR_NO_HEAD_FALLBACK ------------------------------------- */

static void test_head_fallback(void) {
    fr_match *m = fr_match_new();
    fr_router *on = fr_router_new(0);
    fr_router *off = fr_router_new(FR_NO_HEAD_FALLBACK);
    fr_router *routers[] = {on, off};
    for (int i = 0; i < 2; i++) {
        fr_router *r = routers[i];
        CHECK_INT(add(r, "GET", "/g/:x", 0, 1), FR_OK);
        CHECK_INT(add(r, "POST", "/g/:x", 0, 2), FR_OK);
        CHECK_INT(add(r, "GET", "/both", 5, 3), FR_OK);
        CHECK_INT(add(r, "HEAD", "/both", 0, 4), FR_OK);
        CHECK_INT(add(r, "GET", "/any", 0, 5), FR_OK);
        CHECK_INT(add(r, "", "/any/:x", 0, 6), FR_OK);
        CHECK_INT(add(r, "POST", "/post", 0, 7), FR_OK);
        CHECK_INT(add(r, "GET,HEAD", "/explicit", 0, 8), FR_OK);
        CHECK_INT(add(r, "", "/files/:name", 0, 9), FR_OK);
        CHECK_INT(add(r, "GET", "/files/index", 0, 10), FR_OK);
        CHECK_INT(add(r, "GET", "/a", 0, 11), FR_OK);
        CHECK_INT(add(r, "HEAD", "/a", 0, 12), FR_OK);
    }

    /* On: HEAD takes the routes accepting HEAD or GET, declining through them only. */
    CHECK_INT(request(on, "HEAD", "/g/1?v=2", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 1);
    fr_str value;
    CHECK_INT(fr_match_param(m, "x", 1, &value), FR_OK);
    CHECK_STR(value, "1");
    CHECK_INT(fr_match_param(m, "v", 1, &value), FR_OK);
    CHECK_STR(value, "2");
    CHECK_INT(fr_match_next(m), FR_NOMATCH);
    /* HEAD is answered by the route that answers GET: a more specific GET route comes before
       an any-method route, as for GET. */
    CANDIDATES(request(on, "HEAD", "/files/index", m), m, "HEAD /files/index", 10, 9);
    CANDIDATES(request(on, "GET", "/files/index", m), m, "GET /files/index", 10, 9);
    CANDIDATES(request(on, "HEAD", "/files/other", m), m, "HEAD /files/other", 9);
    /* Between routes of the same shape, the one naming HEAD comes first though registered
       later; declining it gives the GET route. */
    CHECK_INT(request(on, "HEAD", "/a", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 12);
    CHECK_INT(fr_match_next(m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 11);
    CHECK_INT(fr_match_next(m), FR_NOMATCH);
    CANDIDATES(request(on, "GET", "/a", m), m, "GET /a", 11);
    /* Priority still comes first: the GET route of priority 5 before the HEAD route. */
    CANDIDATES(request(on, "HEAD", "/both", m), m, "HEAD /both", 3, 4);
    CANDIDATES(request(on, "GET", "/both", m), m, "GET /both", 3);
    /* An any-method route accepts HEAD. */
    CANDIDATES(request(on, "HEAD", "/any/1", m), m, "HEAD /any/1", 6);
    CANDIDATES(request(on, "HEAD", "/any", m), m, "HEAD /any", 5);
    CANDIDATES(request(on, "HEAD", "/explicit", m), m, "HEAD /explicit", 8);
    /* No GET route either: FR_NOMETHOD, and GET does not serve other methods. */
    CHECK_405(on, "HEAD", "/post", m, "POST");
    CHECK_405(on, "PUT", "/g/1", m, "GET, HEAD, POST");
    CHECK_405(on, "POST", "/any", m, "GET, HEAD");
    CHECK_405(on, "POST", "/both", m, "GET, HEAD");
    CHECK_405(on, "head", "/g/1", m, "GET, HEAD, POST"); /* "head" is not HEAD */
    /* Lookups without a method are not affected. */
    CANDIDATES(request(on, "", "/both", m), m, "no method /both", 3, 4);

    /* Off: HEAD takes only routes that accept HEAD, and Allow lists HEAD only when one does. */
    CHECK_405(off, "HEAD", "/g/1", m, "GET, POST");
    CANDIDATES(request(off, "HEAD", "/both", m), m, "off HEAD /both", 4);
    CANDIDATES(request(off, "HEAD", "/any/1", m), m, "off HEAD /any/1", 6);
    CHECK_405(off, "HEAD", "/any", m, "GET");
    CANDIDATES(request(off, "HEAD", "/files/index", m), m, "off HEAD /files/index", 9);
    CANDIDATES(request(off, "HEAD", "/a", m), m, "off HEAD /a", 12);
    CHECK_405(off, "PUT", "/g/1", m, "GET, POST");
    CHECK_405(off, "POST", "/both", m, "GET, HEAD");
    CHECK_405(off, "POST", "/explicit", m, "GET, HEAD");
    CHECK_INT(request(off, "GET", "/g/1", m), FR_OK);
    CHECK_ID(fr_match_route_id(m), 1);

    fr_router_free(on);
    fr_router_free(off);
    fr_match_free(m);
}

/* ---- lookups without a method are unchanged ------------------------------------------------- */

static void test_without_method_unchanged(void) {
    /* The same routes registered with fr_router_add and with method lists give the same
       candidates to fr_router_match and to an empty-method lookup, parameters included. */
    static const char *const routes[][2] = {
        {"GET", "/users/{id:int}"}, {"POST", "/users/:name"}, {"", "/users/me"},
        {"PUT,DELETE", "/users/:name/posts(/:post)"}, {"GET", "/files/*path"},
        {"PURGE", "myapp://users/:id"}, {"*", "https://example.com/repos/:owner/:repo"},
    };
    static const char *const urls[] = {
        "/users/42?tab=posts#top", "/users/me", "/users/bob/posts/1", "/files/a/b", "myapp://users/7",
        "https://example.com/repos/apple/swift", "/nothing", "/bad%zz",
    };
    size_t n = sizeof routes / sizeof routes[0];
    fr_router *with = fr_router_new(0), *without = fr_router_new(0);
    for (size_t i = 0; i < n; i++) {
        CHECK_INT(add(with, routes[i][0], routes[i][1], 0, i + 1), FR_OK);
        CHECK_INT(fr_router_add(without, routes[i][1], strlen(routes[i][1]), 0, i + 1, NULL), FR_OK);
    }
    CHECK_INT(fr_router_count(with), n);
    fr_match *a = fr_match_new(), *b = fr_match_new(), *c = fr_match_new();
    for (size_t u = 0; u < sizeof urls / sizeof urls[0]; u++) {
        size_t len = strlen(urls[u]);
        int sa = fr_router_match(with, urls[u], len, a);
        int sb = fr_router_match_method(with, "", 0, urls[u], len, b);
        int sc = fr_router_match(without, urls[u], len, c);
        for (int step = 0; step < 10; step++) {
            if (sa != sc || sb != sc) fprintf(stderr, "%s, step %d: %d %d %d\n", urls[u], step, sa, sb, sc);
            CHECK_INT(sa, sc);
            CHECK_INT(sb, sc);
            CHECK_ID(fr_match_route_id(a), fr_match_route_id(c));
            CHECK_ID(fr_match_route_id(b), fr_match_route_id(c));
            size_t count = fr_match_param_count(c);
            CHECK_INT(fr_match_param_count(a), count);
            CHECK_INT(fr_match_param_count(b), count);
            for (size_t p = 0; p < count; p++) {
                fr_str na, va, nb, vb, nc, vc;
                fr_match_param_at(a, p, &na, &va);
                fr_match_param_at(b, p, &nb, &vb);
                fr_match_param_at(c, p, &nc, &vc);
                CHECK(na.len == nc.len && memcmp(na.ptr, nc.ptr, nc.len) == 0);
                CHECK(va.len == vc.len && memcmp(va.ptr, vc.ptr, vc.len) == 0);
                CHECK(nb.len == nc.len && memcmp(nb.ptr, nc.ptr, nc.len) == 0);
                CHECK(vb.len == vc.len && memcmp(vb.ptr, vc.ptr, vc.len) == 0);
            }
            if (sc != FR_OK) break;
            sa = fr_match_next(a);
            sb = fr_match_next(b);
            sc = fr_match_next(c);
        }
        NO_ALLOW(a);
        NO_ALLOW(b);
    }
    /* fr_router_add is an any-method route: it accepts methods nobody registered. */
    CHECK_INT(request(without, "BREW", "/users/me", a), FR_OK);
    CHECK_ID(fr_match_route_id(a), 3);
    fr_match_free(a);
    fr_match_free(b);
    fr_match_free(c);
    fr_router_free(with);
    fr_router_free(without);
}

int main(void) {
    test_codes_flags_and_null();
    test_method_lists();
    test_method_name_limit();
    test_duplicates();
    test_filtered_candidates();
    test_nomethod_and_allow();
    test_head_fallback();
    test_without_method_unchanged();
    return finish();
}
