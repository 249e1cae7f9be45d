/*
** test_leaks.c — the whole life cycle, many times over, for valgrind --leak-check=full:
** create, add (with errors), match, decline, read, reverse-route, dump, remove, free.
** A leak in any path grows with the iterations and shows as "definitely lost"; an invalid read or
** write fails the run. The iteration count is the first argument (default 2000).
*/
#include <stdlib.h>

#include "check.h"

static const char *const routes[] = {
    "/users/{id:int}",
    "/users/:name/posts(/:post)",
    "/files/*path",
    "/v/{version:v[0-9]+}",
    "myapp://settings(/:section)",
    "https://*.example.com/docs/*",
};

static const char *const urls[] = {
    "/users/42?tab=posts#top",
    "/users/bob/posts/hello%20world",
    "/files/a/b/c",
    "/v/v2",
    "myapp://settings/privacy?x=1",
    "https://api.example.com/docs/a/b",
    "/nothing",
    "/bad%zz",
};

int main(int argc, char **argv) {
    int iterations = argc > 1 ? atoi(argv[1]) : 2000;
    long seen = 0;
    for (int i = 0; i < iterations; i++) {
        fr_router *r = fr_router_new(i % 2 ? FR_CASE_INSENSITIVE : 0);
        for (size_t k = 0; k < sizeof routes / sizeof routes[0]; k++)
            CHECK_INT(fr_router_add(r, routes[k], strlen(routes[k]), 0, k + 1, NULL), FR_OK);
        fr_error err;
        CHECK_INT(fr_router_add(r, "/users/{n:int}", 14, 0, 9, &err), FR_EDUPLICATE);
        CHECK_INT(fr_router_add(r, "/a//b", 5, 0, 9, &err), FR_EPATTERN);
        CHECK_INT(fr_router_add(r, "/{x:(}", 6, 0, 9, &err), FR_EREGEX);

        fr_match *m = fr_match_new();
        for (size_t u = 0; u < sizeof urls / sizeof urls[0]; u++) {
            int status = fr_router_match(r, urls[u], strlen(urls[u]), m);
            while (status == FR_OK) {
                fr_str name, value;
                for (size_t p = 0; fr_match_param_at(m, p, &name, &value) == FR_OK; p++)
                    seen += (long)(name.len + value.len);
                seen += (long)fr_match_fragment(m).len;
                status = fr_match_next(m);
            }
        }

        fr_str names[] = {{"id", 2}}, values[] = {{"7", 1}};
        char buf[64];
        size_t needed;
        CHECK_INT(fr_router_url(r, 1, names, values, 1, buf, sizeof buf, &needed), FR_OK);
        CHECK_INT(fr_router_url(r, 1, names, values, 1, buf, 2, &needed), FR_ENOMEM);
        CHECK_INT(fr_router_url(r, 1, names, values, 0, buf, sizeof buf, &needed), FR_EINVAL);
        CHECK_INT(fr_router_dump(r, NULL, 0, &needed), FR_ENOMEM);

        CHECK_INT(fr_router_remove(r, 2), FR_OK);
        if (i % 3 == 0) {
            /* Free the router first: the match keeps its result readable on its own. */
            CHECK_INT(fr_router_match(r, urls[0], strlen(urls[0]), m), FR_OK);
            fr_router_free(r);
            CHECK_INT(fr_match_param_count(m), 2);
            fr_match_free(m);
        } else {
            fr_match_free(m);
            fr_router_free(r);
        }
    }
    CHECK(seen > 0);
    return finish();
}
