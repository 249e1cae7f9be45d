/*
** test_threads.c — readers on several threads check every answer while a writer adds and
** removes routes: a lookup sees each change whole (before or after, never in between) and never
** a wrong route or parameter. Then the same with HTTP methods: readers look up METHOD URL pairs
** (filtered candidates, HEAD served by GET, FR_NOMETHOD and its Allow value) while a writer adds
** and removes method routes and teaches the router new method names.
*/
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "check.h"

#define READERS 4
#define STABLE_ROUTES 200
#define SECONDS 2.0

static fr_router *router;
static atomic_int stop;
static atomic_long lookups;
static atomic_long writer_rounds;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int value_is(fr_str s, const char *text) {
    return s.ptr != NULL && s.len == strlen(text) && memcmp(s.ptr, text, s.len) == 0;
}

/* The current result has a pair name=text. */
static int has(const fr_match *m, const char *name, const char *text) {
    fr_str value;
    return fr_match_param(m, name, strlen(name), &value) == FR_OK && value_is(value, text);
}

/* Stable routes /s/<i>/{n:int} have id i. The writer's routes, per round k:
**   /w/<k%16>/:v                   id 1000 + k%16
**   /s/:k/:n       priority 10     id 5000 (shadows every stable route while present)
**   /g(/a)(/:x)                    id 6000: "/g/a" has two candidates with that id, together
*/
static void *writer(void *unused) {
    (void)unused;
    char pattern[64];
    long round = 0;
    while (!atomic_load(&stop)) {
        int slot = (int)(round % 16);
        snprintf(pattern, sizeof pattern, "/w/%d/:v", slot);
        fr_error err;
        CHECK_INT(fr_router_add(router, pattern, strlen(pattern), 0, 1000 + (uint64_t)slot, &err), FR_OK);
        CHECK_INT(fr_router_add(router, "/s/:k/:n", 8, 10, 5000, &err), FR_OK);
        CHECK_INT(fr_router_add(router, "/g(/a)(/:x)", 11, 0, 6000, &err), FR_OK);
        CHECK_INT(fr_router_count(router), STABLE_ROUTES + 3);
        CHECK_INT(fr_router_remove(router, 5000), FR_OK);
        CHECK_INT(fr_router_remove(router, 6000), FR_OK);
        CHECK_INT(fr_router_remove(router, 1000 + (uint64_t)slot), FR_OK);
        CHECK_INT(fr_router_remove(router, 1000 + (uint64_t)slot), FR_ENOTFOUND);
        round++;
    }
    atomic_store(&writer_rounds, round);
    return NULL;
}

static void *reader(void *arg) {
    unsigned seed = (unsigned)(uintptr_t)arg * 2654435761u + 1;
    fr_match *m = fr_match_new();
    char url[128], expected[32], fragment[32];
    long done = 0;
    long wrong = 0;
    while (!atomic_load(&stop)) {
        seed = seed * 1103515245u + 12345u;
        int n = (int)((seed >> 8) % STABLE_ROUTES);
        int kind = (int)((seed >> 20) % 4);
        if (kind == 0) {
            /* A stable route, shadowed by the writer's priority-10 route while that exists. */
            int value = (int)((seed >> 4) % 100000);
            snprintf(url, sizeof url, "/s/%d/%d?q=%d#f%d", n, value, n, n);
            snprintf(expected, sizeof expected, "%d", value);
            snprintf(fragment, sizeof fragment, "f%d", n);
            int status = fr_router_match(router, url, strlen(url), m);
            uint64_t id = fr_match_route_id(m);
            int ok = status == FR_OK && (id == (uint64_t)n || id == 5000);
            if (ok && id == 5000) {
                /* Declining the shadowing route reaches the stable one. */
                ok = fr_match_param_count(m) == 3 && has(m, "n", expected) &&
                     value_is(fr_match_fragment(m), fragment) && fr_match_next(m) == FR_OK &&
                     fr_match_route_id(m) == (uint64_t)n;
            }
            ok = ok && fr_match_param_count(m) == 2 && has(m, "n", expected) &&
                 value_is(fr_match_fragment(m), fragment) && fr_match_next(m) == FR_NOMATCH &&
                 fr_match_route_id(m) == FR_NO_ROUTE;
            if (!ok) {
                wrong++;
                fprintf(stderr, "reader: %s -> status %d id %" PRIu64 "\n", url, status, id);
            }
        } else if (kind == 1) {
            /* The writer's changing route: absent, or present with the right id and value. */
            int slot = n % 16;
            snprintf(url, sizeof url, "/w/%d/v%d", slot, n);
            snprintf(expected, sizeof expected, "v%d", n);
            int status = fr_router_match(router, url, strlen(url), m);
            fr_str value;
            int ok = status == FR_NOMATCH ||
                     (status == FR_OK && fr_match_route_id(m) == 1000 + (uint64_t)slot &&
                      fr_match_param(m, "v", 1, &value) == FR_OK && value_is(value, expected) &&
                      fr_match_next(m) == FR_NOMATCH);
            if (!ok) {
                wrong++;
                fprintf(stderr, "reader: %s -> status %d id %" PRIu64 "\n", url, status, fr_match_route_id(m));
            }
        } else if (kind == 2) {
            /* A grouped route lands whole: both candidates of "/g/a", or neither. */
            const char *g = "/g/a";
            int status = fr_router_match(router, g, 4, m);
            int candidates = 0;
            while (status == FR_OK) {
                if (fr_match_route_id(m) == 6000) candidates++;
                status = fr_match_next(m);
            }
            if (status != FR_NOMATCH || (candidates != 0 && candidates != 2)) {
                wrong++;
                fprintf(stderr, "reader: /g/a -> %d candidates, status %d\n", candidates, status);
            }
        } else {
            /* Never a route for a URL nobody registers; bad URLs stay bad. */
            snprintf(url, sizeof url, "/none/%d", n);
            int a = fr_router_match(router, url, strlen(url), m);
            int b = fr_router_match(router, "/s/1/%zz", 8, m);
            if (a != FR_NOMATCH || b != FR_EURL || fr_match_route_id(m) != FR_NO_ROUTE) {
                wrong++;
                fprintf(stderr, "reader: %s -> %d, bad URL -> %d\n", url, a, b);
            }
        }
        done++;
    }
    CHECK_INT(wrong, 0);
    atomic_fetch_add(&lookups, done);
    fr_match_free(m);
    return NULL;
}

/* ---- HTTP methods ------------------------------------------------------------------------------ */

#define METHOD_STABLE 50
#define NEW_NAMES 40

static fr_router *method_router;
static atomic_int method_stop;
static atomic_long method_lookups;
static atomic_long method_rounds;

static int allow_is(const fr_match *m, const char *expected) {
    char text[128];
    size_t needed = 0;
    return fr_match_allow(m, text, sizeof text, &needed) == FR_OK && needed == strlen(expected) &&
           strcmp(text, expected) == 0;
}

/* Stable routes, per i < METHOD_STABLE: GET /m/<i>/:v id 2000 + i, POST /m/<i>/:v id 3000 + i;
** and PURGE /p/:x id 4000, so PURGE is the first extension name. The writer's, per round k:
**   DELETE,PUT /m/:k/:v   priority 10   id 7000 (takes DELETE and PUT of every /m URL while present)
**   PATCH /x/<k%16>                     id 7100 + k%16
**   GET,PURGE /y(/y)(/:a)               id 7200 ("/y/y" has two candidates with that id, together)
** and, in its first NEW_NAMES rounds, EXT<k> /e/<k> id 8000 + k, kept: a name the router learns
** while readers look it up.
*/
static void *method_writer(void *unused) {
    (void)unused;
    char pattern[64], method[32];
    long round = 0;
    while (!atomic_load(&method_stop)) {
        int slot = (int)(round % 16);
        if (round < NEW_NAMES) {
            snprintf(method, sizeof method, "EXT%ld", round);
            snprintf(pattern, sizeof pattern, "/e/%ld", round);
            CHECK_INT(fr_router_add_methods(method_router, method, strlen(method), pattern, strlen(pattern), 0,
                                            8000 + (uint64_t)round, NULL), FR_OK);
        }
        long kept = round < NEW_NAMES ? round + 1 : NEW_NAMES;
        snprintf(pattern, sizeof pattern, "/x/%d", slot);
        fr_error err;
        CHECK_INT(fr_router_add_methods(method_router, "DELETE,PUT", 10, "/m/:k/:v", 8, 10, 7000, &err), FR_OK);
        CHECK_INT(fr_router_add_methods(method_router, "PATCH", 5, pattern, strlen(pattern), 0, 7100 + (uint64_t)slot,
                                        &err), FR_OK);
        CHECK_INT(fr_router_add_methods(method_router, "GET,PURGE", 9, "/y(/y)(/:a)", 11, 0, 7200, &err), FR_OK);
        CHECK_INT(fr_router_add_methods(method_router, "PUT", 3, "/m/:a/:b", 8, 10, 7001, &err), FR_EDUPLICATE);
        CHECK_INT(fr_router_count(method_router), 2 * METHOD_STABLE + 1 + kept + 3);
        CHECK_INT(fr_router_remove(method_router, 7000), FR_OK);
        CHECK_INT(fr_router_remove(method_router, 7200), FR_OK);
        CHECK_INT(fr_router_remove(method_router, 7100 + (uint64_t)slot), FR_OK);
        CHECK_INT(fr_router_remove(method_router, 7100 + (uint64_t)slot), FR_ENOTFOUND);
        round++;
    }
    atomic_store(&method_rounds, round);
    return NULL;
}

static void *method_reader(void *arg) {
    unsigned seed = (unsigned)(uintptr_t)arg * 2246822519u + 7;
    fr_match *m = fr_match_new();
    char url[128], expected[32], method[32];
    long done = 0, wrong = 0;
    while (!atomic_load(&method_stop)) {
        seed = seed * 1103515245u + 12345u;
        int n = (int)((seed >> 8) % METHOD_STABLE);
        int kind = (int)((seed >> 20) % 7);
        int value = (int)((seed >> 4) % 100000);
        snprintf(url, sizeof url, "/m/%d/%d", n, value);
        snprintf(expected, sizeof expected, "%d", value);
        int status = 0, ok = 0;
        if (kind == 0 || kind == 1) {
            /* GET, and HEAD served by GET's route: the writer's DELETE,PUT route is no candidate. */
            const char *name = kind == 0 ? "GET" : "HEAD";
            status = fr_router_match_method(method_router, name, strlen(name), url, strlen(url), m);
            ok = status == FR_OK && fr_match_route_id(m) == 2000 + (uint64_t)n && has(m, "v", expected) &&
                 fr_match_param_count(m) == 1 && fr_match_next(m) == FR_NOMATCH;
        } else if (kind == 2) {
            /* DELETE: the writer's route, or a 405 listing exactly the stable routes' methods. */
            status = fr_router_match_method(method_router, "DELETE", 6, url, strlen(url), m);
            ok = (status == FR_OK && fr_match_route_id(m) == 7000 && has(m, "v", expected) &&
                  fr_match_next(m) == FR_NOMATCH) ||
                 (status == FR_NOMETHOD && fr_match_route_id(m) == FR_NO_ROUTE && fr_match_param_count(m) == 0 &&
                  allow_is(m, "GET, HEAD, POST"));
        } else if (kind == 3) {
            /* An unknown method: the 405's Allow value is one version's, whole. */
            status = fr_router_match_method(method_router, "BREW", 4, url, strlen(url), m);
            ok = status == FR_NOMETHOD &&
                 (allow_is(m, "GET, HEAD, POST") || allow_is(m, "GET, HEAD, POST, PUT, DELETE"));
            if (ok && (seed & 1)) {
                /* POST on the same URL, and the Allow value is gone. */
                status = fr_router_match_method(method_router, "POST", 4, url, strlen(url), m);
                char text[8];
                size_t needed = 1;
                ok = status == FR_OK && fr_match_route_id(m) == 3000 + (uint64_t)n &&
                     fr_match_allow(m, text, sizeof text, &needed) == FR_ENOTFOUND && needed == 0;
            }
        } else if (kind == 4) {
            /* PATCH on the writer's /x/<slot> route: present, or a 404; GET there is a 405 or a 404. */
            int slot = n % 16;
            snprintf(url, sizeof url, "/x/%d", slot);
            status = fr_router_match_method(method_router, "PATCH", 5, url, strlen(url), m);
            ok = status == FR_NOMATCH ||
                 (status == FR_OK && fr_match_route_id(m) == 7100 + (uint64_t)slot && fr_match_next(m) == FR_NOMATCH);
            if (ok) {
                status = fr_router_match_method(method_router, "GET", 3, url, strlen(url), m);
                ok = status == FR_NOMATCH || (status == FR_NOMETHOD && allow_is(m, "PATCH"));
            }
        } else if (kind == 5) {
            /* The grouped method route lands whole: both candidates of "/y/y", or neither. */
            status = fr_router_match_method(method_router, "PURGE", 5, "/y/y", 4, m);
            int candidates = 0;
            while (status == FR_OK && fr_match_route_id(m) == 7200) {
                candidates++;
                status = fr_match_next(m);
            }
            ok = status == FR_NOMATCH && (candidates == 0 || candidates == 2);
            if (ok) {
                status = fr_router_match_method(method_router, "POST", 4, "/y/z", 4, m);
                ok = status == FR_NOMATCH || (status == FR_NOMETHOD && allow_is(m, "GET, HEAD, PURGE"));
            }
        } else {
            /* A method name the writer teaches the router: unknown (404 for its URL), or routed. */
            int k = n % NEW_NAMES;
            snprintf(method, sizeof method, "EXT%d", k);
            snprintf(url, sizeof url, "/e/%d", k);
            status = fr_router_match_method(method_router, method, strlen(method), url, strlen(url), m);
            ok = status == FR_NOMATCH || (status == FR_OK && fr_match_route_id(m) == 8000 + (uint64_t)k);
            if (ok && status == FR_OK) {
                /* Once routed it stays: another method gets a 405 naming it. */
                status = fr_router_match_method(method_router, "GET", 3, url, strlen(url), m);
                ok = status == FR_NOMETHOD && allow_is(m, method);
            }
        }
        if (!ok) {
            wrong++;
            fprintf(stderr, "method reader: kind %d %s -> status %d id %" PRIu64 "\n", kind, url, status,
                    fr_match_route_id(m));
        }
        done++;
    }
    CHECK_INT(wrong, 0);
    atomic_fetch_add(&method_lookups, done);
    fr_match_free(m);
    return NULL;
}

static void run_methods(void) {
    method_router = fr_router_new(0);
    char pattern[64];
    CHECK_INT(fr_router_add_methods(method_router, "PURGE", 5, "/p/:x", 5, 0, 4000, NULL), FR_OK);
    for (int i = 0; i < METHOD_STABLE; i++) {
        snprintf(pattern, sizeof pattern, "/m/%d/:v", i);
        CHECK_INT(fr_router_add_methods(method_router, "GET", 3, pattern, strlen(pattern), 0, 2000 + (uint64_t)i, NULL),
                  FR_OK);
        CHECK_INT(fr_router_add_methods(method_router, "POST", 4, pattern, strlen(pattern), 0, 3000 + (uint64_t)i, NULL),
                  FR_OK);
    }
    pthread_t readers[READERS], write;
    for (uintptr_t i = 0; i < READERS; i++) pthread_create(&readers[i], NULL, method_reader, (void *)i);
    pthread_create(&write, NULL, method_writer, NULL);
    double start = now();
    while (now() - start < SECONDS) {
        struct timespec pause = {0, 20 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    atomic_store(&method_stop, 1);
    for (int i = 0; i < READERS; i++) pthread_join(readers[i], NULL);
    pthread_join(write, NULL);

    long rounds = atomic_load(&method_rounds);
    printf("%ld method lookups on %d threads, %ld writer rounds\n", atomic_load(&method_lookups), READERS, rounds);
    CHECK(atomic_load(&method_lookups) > 1000);
    CHECK(rounds > 10);
    CHECK_INT(fr_router_count(method_router), 2 * METHOD_STABLE + 1 + (rounds < NEW_NAMES ? rounds : NEW_NAMES));
    fr_router_free(method_router);
}

int main(void) {
    router = fr_router_new(0);
    char pattern[64];
    for (int i = 0; i < STABLE_ROUTES; i++) {
        snprintf(pattern, sizeof pattern, "/s/%d/{n:int}", i);
        CHECK_INT(fr_router_add(router, pattern, strlen(pattern), 0, (uint64_t)i, NULL), FR_OK);
    }
    CHECK_INT(fr_router_count(router), STABLE_ROUTES);

    pthread_t readers[READERS], write;
    for (uintptr_t i = 0; i < READERS; i++) pthread_create(&readers[i], NULL, reader, (void *)i);
    pthread_create(&write, NULL, writer, NULL);
    double start = now();
    while (now() - start < SECONDS) {
        struct timespec pause = {0, 20 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    atomic_store(&stop, 1);
    for (int i = 0; i < READERS; i++) pthread_join(readers[i], NULL);
    pthread_join(write, NULL);

    printf("%ld lookups on %d threads, %ld writer rounds\n", atomic_load(&lookups), READERS,
           atomic_load(&writer_rounds));
    CHECK(atomic_load(&lookups) > 1000);
    CHECK(atomic_load(&writer_rounds) > 10);
    CHECK_INT(fr_router_count(router), STABLE_ROUTES);
    fr_router_free(router);

    run_methods();
    return finish();
}
