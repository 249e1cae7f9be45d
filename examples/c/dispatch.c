/*
** dispatch — a method-aware request dispatcher on FastRouter's C API: what an HTTP server does
** with each request line before it calls a handler.
**
**   dispatch [-H] ROUTES_FILE < REQUESTS
**
** ROUTES_FILE has one `METHODS pattern` per line: METHODS is a method ("GET"), a comma-separated
** list ("GET,POST") or "*" for any method; the route id is the line number. Blank lines and lines
** starting with '#' are skipped. Each `METHOD URL` line of standard input gives one output line:
**
**   GET /authorizations/12345 -> route 4: GET /authorizations/:id id="12345"
**   HEAD /events -> route 10: GET /events          (no route for HEAD there: GET's serves it)
**   DELETE /events -> 405 Allow: GET, HEAD
**   GET /nothing/here -> 404
**   GET /gists/%zz -> 400 invalid URL
**
** (with examples/c/github.routes; examples/c/requests.expected has more). A 400 is a request
** line without a space, a method that is not an HTTP token, or a malformed URL.
**
** -H sets FR_NO_HEAD_FALLBACK: HEAD then takes only routes registered for HEAD. Exit status: 0,
** 1 for a bad routes file, 2 for bad usage.
**
** Build: cc dispatch.c $(pkg-config --cflags --libs fastrouter)
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fastrouter.h>

/* The routes file's lines, by route id (line number), to print the route that answered. */
static char **route_lines;
static size_t route_line_count;

static void remember(uint64_t id, const char *methods, size_t methods_len, const char *pattern, size_t pattern_len) {
    if (id >= route_line_count) {
        size_t count = route_line_count * 2 + 64;
        while (count <= id) count *= 2;
        char **grown = realloc(route_lines, count * sizeof *grown);
        if (grown == NULL) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
        memset(grown + route_line_count, 0, (count - route_line_count) * sizeof *grown);
        route_lines = grown;
        route_line_count = count;
    }
    route_lines[id] = malloc(methods_len + 1 + pattern_len + 1);
    if (route_lines[id] != NULL)
        sprintf(route_lines[id], "%.*s %.*s", (int)methods_len, methods, (int)pattern_len, pattern);
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
        while (length > 0 && strchr(" \t\r\n", line[length - 1]) != NULL) line[--length] = '\0';
        size_t start = strspn(line, " \t");
        if (line[start] == '\0' || line[start] == '#') continue;
        size_t methods_len = strcspn(line + start, " \t");
        size_t pattern_start = start + methods_len + strspn(line + start + methods_len, " \t");
        size_t pattern_len = strcspn(line + pattern_start, " \t");
        if (pattern_len == 0 || line[pattern_start + pattern_len] != '\0') {
            fprintf(stderr, "%s:%" PRIu64 ":%zu: error: expected `METHODS pattern`\n", path, number, start + 1);
            ok = 0;
            continue;
        }
        fr_error err;
        int status = fr_router_add_methods(r, line + start, methods_len, line + pattern_start, pattern_len, 0, number,
                                           &err);
        if (status != FR_OK) {
            /* A bad method list is reported at the list, a bad pattern at its offending byte. */
            size_t column = status == FR_EINVAL ? start : pattern_start + err.offset;
            fprintf(stderr, "%s:%" PRIu64 ":%zu: error: %s: %s\n", path, number, column + 1, fr_strerror(status),
                    err.message);
            ok = 0;
            continue;
        }
        remember(number, line + start, methods_len, line + pattern_start, pattern_len);
    }
    free(line);
    fclose(file);
    return ok;
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

/* Prints the Allow value of a 405. Most fit in a small buffer; a longer one is asked for its
** size and read again. */
static void print_allow(const fr_match *m) {
    char small[64];
    size_t needed = 0;
    int status = fr_match_allow(m, small, sizeof small, &needed);
    if (status == FR_OK) {
        printf("405 Allow: %s", small);
    } else if (status == FR_ENOMEM) {
        char *large = malloc(needed + 1);
        if (large != NULL && fr_match_allow(m, large, needed + 1, NULL) == FR_OK) printf("405 Allow: %s", large);
        else printf("405");
        free(large);
    } else {
        printf("405");
    }
}

/* Dispatches each `METHOD URL` line of standard input and prints the outcome. */
static void dispatch_stdin(const fr_router *r) {
    fr_match *m = fr_match_new(); /* one per thread, reused for every request */
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
        const char *space = memchr(line, ' ', (size_t)length);
        if (space == NULL || space == line) {
            printf("400 expected `METHOD URL`\n");
            continue;
        }
        const char *url = space + 1;
        size_t url_len = (size_t)(line + length - url);
        int status = fr_router_match_method(r, line, (size_t)(space - line), url, url_len, m);
        if (status == FR_OK) {
            uint64_t id = fr_match_route_id(m);
            printf("route %" PRIu64 ": %s", id, id < route_line_count && route_lines[id] ? route_lines[id] : "?");
            fr_str name, value;
            for (size_t i = 0; fr_match_param_at(m, i, &name, &value) == FR_OK; i++) {
                printf(" %.*s=", (int)name.len, name.ptr);
                print_quoted(value);
            }
            fr_str fragment = fr_match_fragment(m);
            if (fragment.ptr != NULL) printf(" #%.*s", (int)fragment.len, fragment.ptr);
        } else if (status == FR_NOMETHOD) {
            print_allow(m);
        } else if (status == FR_NOMATCH) {
            printf("404");
        } else if (status == FR_EINVAL) {
            printf("400 invalid method");
        } else {
            printf("400 %s", fr_strerror(status));
        }
        putchar('\n');
    }
    free(line);
    fr_match_free(m);
}

int main(int argc, char **argv) {
    uint32_t flags = 0;
    int arg = 1;
    if (arg < argc && strcmp(argv[arg], "-H") == 0) {
        flags |= FR_NO_HEAD_FALLBACK;
        arg++;
    }
    if (arg != argc - 1 || argv[arg][0] == '-') {
        fprintf(stderr, "usage: dispatch [-H] ROUTES_FILE < REQUESTS\n");
        return 2;
    }
    fr_router *r = fr_router_new(flags);
    if (r == NULL) {
        fprintf(stderr, "cannot create a router\n");
        return 1;
    }
    int status = 0;
    if (load_routes(r, argv[arg])) dispatch_stdin(r);
    else status = 1;
    fr_router_free(r);
    for (size_t i = 0; i < route_line_count; i++) free(route_lines[i]);
    free(route_lines);
    return status;
}
