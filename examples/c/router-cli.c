/*
** router-cli — route URLs from standard input with FastRouter's C API.
**
**   router-cli [-i] [-G] [-P] [-a] ROUTES_FILE < URLS
**   router-cli [-i] [-G] [-P] -d ROUTES_FILE                   print the route tables
**   router-cli [-i] [-G] [-P] -u ID [NAME=VALUE ...] ROUTES_FILE  build the URL of route ID
**
** ROUTES_FILE has one `pattern [priority]` per line; the route id is the line number. Blank lines
** and lines starting with '#' are skipped. Each URL line gives one output line:
**
**   /users/42?tab=posts -> 2 id="42" tab="posts"
**   myapp://open#x -> 7 #x
**   /nothing -> no match
**   /bad%zz -> error: invalid URL
**
** -a prints every candidate, best first, separated by " | " (what declining walks through);
** -i, -G and -P set FR_CASE_INSENSITIVE, FR_NO_GLOBAL_FALLBACK and FR_NO_PLUS_AS_SPACE.
** Values are printed with '"', '\' and control bytes escaped. Exit status: 0, 1 for a bad routes
** file or URL-building failure, 2 for bad usage.
**
** Build: cc router-cli.c $(pkg-config --cflags --libs fastrouter)
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fastrouter.h>

static void usage(void) {
    fprintf(stderr,
            "usage: router-cli [-i] [-G] [-P] [-a] ROUTES_FILE < URLS\n"
            "       router-cli [-i] [-G] [-P] -d ROUTES_FILE\n"
            "       router-cli [-i] [-G] [-P] -u ID [NAME=VALUE ...] ROUTES_FILE\n");
    exit(2);
}

/* Prints bytes between quotes, escaping what would make the line ambiguous. */
static void print_quoted(fr_str s) {
    putchar('"');
    for (size_t i = 0; i < s.len; i++) {
        unsigned char c = (unsigned char)s.ptr[i];
        if (c == '"' || c == '\\') printf("\\%c", c);
        else if (c < 0x20 || c == 0x7F) printf("\\x%02X", c);
        else putchar(c);
    }
    putchar('"');
}

/* Prints "ID name="value" ... [#fragment]" for the current result. */
static void print_result(const fr_match *m) {
    printf("%" PRIu64, fr_match_route_id(m));
    fr_str name, value;
    for (size_t i = 0; fr_match_param_at(m, i, &name, &value) == FR_OK; i++) {
        printf(" %.*s=", (int)name.len, name.ptr);
        print_quoted(value);
    }
    fr_str fragment = fr_match_fragment(m);
    if (fragment.ptr != NULL) printf(" #%.*s", (int)fragment.len, fragment.ptr);
}

/* Loads ROUTES_FILE into r; reports every bad line as FILE:LINE:COLUMN and returns 0 if any. */
static int load_routes(fr_router *r, const char *path) {
    FILE *file = fopen(path, "r");
    if (file == NULL) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        return 0;
    }
    char *line = NULL;
    size_t capacity = 0;
    ssize_t length;
    uint64_t number = 0;
    int ok = 1;
    while ((length = getline(&line, &capacity, file)) >= 0) {
        number++;
        while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r')) line[--length] = '\0';
        size_t start = strspn(line, " \t");
        if (line[start] == '\0' || line[start] == '#') continue;
        size_t pattern_len = strcspn(line + start, " \t");
        char *rest = line + start + pattern_len;
        int32_t priority = 0;
        rest += strspn(rest, " \t");
        if (*rest != '\0') {
            char *end;
            errno = 0;
            long value = strtol(rest, &end, 10);
            end += strspn(end, " \t");
            if (errno != 0 || *end != '\0' || value < INT32_MIN || value > INT32_MAX) {
                fprintf(stderr, "%s:%" PRIu64 ":%zu: error: expected `pattern [priority]` with a 32-bit priority\n",
                        path, number, (size_t)(rest - line) + 1);
                ok = 0;
                continue;
            }
            priority = (int32_t)value;
        }
        fr_error err;
        if (fr_router_add(r, line + start, pattern_len, priority, number, &err) != FR_OK) {
            fprintf(stderr, "%s:%" PRIu64 ":%zu: error: %s: %s\n", path, number, start + err.offset + 1,
                    fr_strerror(err.code), err.message);
            ok = 0;
        }
    }
    free(line);
    fclose(file);
    return ok;
}

/* Routes each line of standard input and prints the result. */
static void route_stdin(const fr_router *r, int all) {
    fr_match *m = fr_match_new();
    if (m == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    char *line = NULL;
    size_t capacity = 0;
    ssize_t length;
    while ((length = getline(&line, &capacity, stdin)) >= 0) {
        while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r')) length--;
        if (length == 0) continue;
        printf("%.*s -> ", (int)length, line);
        int status = fr_router_match(r, line, (size_t)length, m);
        if (status == FR_NOMATCH) {
            printf("no match");
        } else if (status != FR_OK) {
            printf("error: %s", fr_strerror(status));
        } else {
            print_result(m);
            while (all && fr_match_next(m) == FR_OK) {
                printf(" | ");
                print_result(m);
            }
        }
        putchar('\n');
    }
    free(line);
    fr_match_free(m);
}

/* Builds the URL of route `id` from NAME=VALUE arguments. */
static int build_url(const fr_router *r, uint64_t id, char **pairs, size_t count) {
    fr_str *names = calloc(count + 1, sizeof *names), *values = calloc(count + 1, sizeof *values);
    for (size_t i = 0; i < count; i++) {
        char *equals = strchr(pairs[i], '=');
        if (equals == NULL) {
            fprintf(stderr, "expected NAME=VALUE, got `%s`\n", pairs[i]);
            return 0;
        }
        names[i].ptr = pairs[i];
        names[i].len = (size_t)(equals - pairs[i]);
        values[i].ptr = equals + 1;
        values[i].len = strlen(equals + 1);
    }
    size_t needed = 0;
    int status = fr_router_url(r, id, names, values, count, NULL, 0, &needed);
    char *url = NULL;
    if (status == FR_ENOMEM) {
        url = malloc(needed + 1);
        status = url ? fr_router_url(r, id, names, values, count, url, needed + 1, NULL) : FR_ENOMEM;
    }
    if (status == FR_OK) printf("%s\n", url);
    else fprintf(stderr, "route %" PRIu64 ": %s\n", id, fr_strerror(status));
    free(url);
    free(names);
    free(values);
    return status == FR_OK;
}

int main(int argc, char **argv) {
    uint32_t flags = 0;
    int all = 0, dump = 0, url = 0;
    uint64_t url_id = 0;
    int arg = 1;
    for (; arg < argc && argv[arg][0] == '-' && argv[arg][1] != '\0'; arg++) {
        const char *option = argv[arg];
        if (strcmp(option, "-i") == 0) flags |= FR_CASE_INSENSITIVE;
        else if (strcmp(option, "-G") == 0) flags |= FR_NO_GLOBAL_FALLBACK;
        else if (strcmp(option, "-P") == 0) flags |= FR_NO_PLUS_AS_SPACE;
        else if (strcmp(option, "-a") == 0) all = 1;
        else if (strcmp(option, "-d") == 0) dump = 1;
        else if (strcmp(option, "-u") == 0 && arg + 1 < argc) {
            char *end;
            errno = 0;
            url_id = strtoull(argv[++arg], &end, 10);
            if (errno != 0 || *end != '\0') usage();
            url = 1;
        } else usage();
    }
    if (arg >= argc) usage();
    const char *routes = argv[argc - 1];

    fr_router *r = fr_router_new(flags);
    if (r == NULL) {
        fprintf(stderr, "cannot create a router\n");
        return 1;
    }
    int status = 0;
    if (!load_routes(r, routes)) {
        status = 1;
    } else if (dump) {
        size_t needed = 0;
        fr_router_dump(r, NULL, 0, &needed);
        char *text = malloc(needed + 1);
        if (text != NULL && fr_router_dump(r, text, needed + 1, NULL) == FR_OK) fputs(text, stdout);
        free(text);
    } else if (url) {
        status = build_url(r, url_id, argv + arg, (size_t)(argc - 1 - arg)) ? 0 : 1;
    } else {
        if (arg != argc - 1) usage();
        route_stdin(r, all);
    }
    fr_router_free(r);
    return status;
}
