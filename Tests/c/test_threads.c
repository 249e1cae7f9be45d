/*
** test_threads.c — readers on several threads check every answer while a writer adds and
** removes routes: a lookup sees each change whole (before or after, never in between) and never
** a wrong route or parameter.
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
    return finish();
}
