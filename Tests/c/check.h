/*
** check.h — the assertion helpers shared by the C ABI test programs.
**
** Every program counts its checks and ends with finish(), which prints the last line
** "N passed, N failed" and gives the exit status (non-zero when anything failed). Counters are
** atomic so threads may check too.
*/
#ifndef FASTROUTER_TEST_CHECK_H
#define FASTROUTER_TEST_CHECK_H

#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include <fastrouter.h>

static atomic_long check_passed;
static atomic_long check_failed;

/* A failed check prints where and what; passing ones stay silent. */
#define CHECK(cond)                                                                               \
    do {                                                                                          \
        if (cond) {                                                                               \
            atomic_fetch_add(&check_passed, 1);                                                   \
        } else {                                                                                  \
            atomic_fetch_add(&check_failed, 1);                                                   \
            fprintf(stderr, "%s:%d: FAILED: %s\n", __FILE__, __LINE__, #cond);                    \
        }                                                                                         \
    } while (0)

/* Integers are compared as long long (statuses, counts, offsets). */
#define CHECK_INT(actual, expected)                                                               \
    do {                                                                                          \
        long long check_a_ = (long long)(actual), check_e_ = (long long)(expected);               \
        if (check_a_ == check_e_) {                                                               \
            atomic_fetch_add(&check_passed, 1);                                                   \
        } else {                                                                                  \
            atomic_fetch_add(&check_failed, 1);                                                   \
            fprintf(stderr, "%s:%d: FAILED: %s == %s: got %lld, expected %lld\n", __FILE__,       \
                    __LINE__, #actual, #expected, check_a_, check_e_);                            \
        }                                                                                         \
    } while (0)

/* Route ids are compared as uint64_t, so FR_NO_ROUTE prints as itself. */
#define CHECK_ID(actual, expected)                                                                \
    do {                                                                                          \
        uint64_t check_a_ = (actual), check_e_ = (expected);                                      \
        if (check_a_ == check_e_) {                                                               \
            atomic_fetch_add(&check_passed, 1);                                                   \
        } else {                                                                                  \
            atomic_fetch_add(&check_failed, 1);                                                   \
            fprintf(stderr, "%s:%d: FAILED: %s == %s: got %" PRIu64 ", expected %" PRIu64 "\n",   \
                    __FILE__, __LINE__, #actual, #expected, check_a_, check_e_);                  \
        }                                                                                         \
    } while (0)

/* An fr_str equals a C string; its ptr must be non-NULL (a present value, even when empty). */
#define CHECK_STR(actual, expected)                                                               \
    do {                                                                                          \
        fr_str check_s_ = (actual);                                                               \
        const char *check_e_ = (expected);                                                        \
        if (check_s_.ptr != NULL && check_s_.len == strlen(check_e_) &&                           \
            memcmp(check_s_.ptr, check_e_, check_s_.len) == 0) {                                  \
            atomic_fetch_add(&check_passed, 1);                                                   \
        } else {                                                                                  \
            atomic_fetch_add(&check_failed, 1);                                                   \
            fprintf(stderr, "%s:%d: FAILED: %s == \"%s\": got %s\"%.*s\"\n", __FILE__, __LINE__,  \
                    #actual, check_e_, check_s_.ptr ? "" : "NULL ", (int)check_s_.len,            \
                    check_s_.ptr ? check_s_.ptr : "");                                            \
        }                                                                                         \
    } while (0)

/* An fr_str is {NULL, 0}: absent. */
#define CHECK_ABSENT(actual)                                                                      \
    do {                                                                                          \
        fr_str check_s_ = (actual);                                                               \
        CHECK(check_s_.ptr == NULL && check_s_.len == 0);                                         \
    } while (0)

/* Prints the summary line and returns the exit status. */
static int finish(void) {
    long passed = atomic_load(&check_passed), failed = atomic_load(&check_failed);
    printf("%ld passed, %ld failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}

#endif /* FASTROUTER_TEST_CHECK_H */
