/*
** lines.h — the text files make perf's C loops read: routes and request URLs, one per line.
**
** A file is read into one buffer; each kept line becomes a C string in place (its end of line
** replaced by a NUL: r3 copies a capture with zstrndup, whose strlen would otherwise run to the
** buffer's end, and both loops look up the same bytes). Lines end with LF or CRLF; empty lines
** and lines starting with '#' are skipped. A line may start with an HTTP method, as the
** `-methods` files of Tests/perf/routesets do ("GET /users/:id", "DELETE /users/42"): upper-case
** letters, then spaces or tabs, then the rest. The method becomes a C string of its own (the
** first separator is overwritten) and the line is what follows it.
*/
#ifndef PERF_LINES_H
#define PERF_LINES_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct lines {
    char *text;
    /* Line i (after its method, if any): start[i] into text, length[i] bytes. */
    size_t *start;
    size_t *length;
    /* Line i's method: method_start[i] into text, method_length[i] bytes; 0 bytes for none. */
    size_t *method_start;
    size_t *method_length;
    size_t count;
    /* Whether any line has a method. */
    int has_methods;
} lines;

static void lines_fail(const char *program, const char *path, const char *detail) {
    fprintf(stderr, "%s: %s: %s\n", program, path, detail);
    exit(1);
}

/* The length of the method at the start of `line` (upper-case letters followed by a space or a
   tab, with more after them), or 0. */
static size_t method_prefix(const char *line, size_t length) {
    size_t i = 0;
    while (i < length && line[i] >= 'A' && line[i] <= 'Z') i++;
    if (i == 0 || i == length || (line[i] != ' ' && line[i] != '\t')) return 0;
    size_t rest = i;
    while (rest < length && (line[rest] == ' ' || line[rest] == '\t')) rest++;
    return rest < length ? i : 0;
}

/* Reads `path`, or stops the program with a message naming `program`. */
static lines read_lines(const char *program, const char *path) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) lines_fail(program, path, strerror(errno));
    if (fseek(file, 0, SEEK_END) != 0) lines_fail(program, path, strerror(errno));
    long size = ftell(file);
    if (size < 0 || fseek(file, 0, SEEK_SET) != 0) lines_fail(program, path, strerror(errno));
    size_t slots = (size_t)size + 1;
    lines result = { malloc(slots), malloc(slots * sizeof(size_t)), malloc(slots * sizeof(size_t)),
                     malloc(slots * sizeof(size_t)), malloc(slots * sizeof(size_t)), 0, 0 };
    if (result.text == NULL || result.start == NULL || result.length == NULL || result.method_start == NULL
        || result.method_length == NULL) {
        lines_fail(program, path, "out of memory");
    }
    if (fread(result.text, 1, (size_t)size, file) != (size_t)size) lines_fail(program, path, "short read");
    fclose(file);
    result.text[size] = '\n';
    size_t begin = 0;
    for (size_t i = 0; i <= (size_t)size; i++) {
        if (result.text[i] != '\n') continue;
        size_t end = i;
        if (end > begin && result.text[end - 1] == '\r') end--;
        if (end > begin && result.text[begin] != '#') {
            result.text[end] = '\0';
            size_t method = method_prefix(result.text + begin, end - begin);
            size_t rest = begin + method;
            if (method > 0) {
                result.text[rest] = '\0';
                rest++;
                while (result.text[rest] == ' ' || result.text[rest] == '\t') rest++;
                result.has_methods = 1;
            }
            result.method_start[result.count] = begin;
            result.method_length[result.count] = method;
            result.start[result.count] = rest;
            result.length[result.count] = end - rest;
            result.count++;
        }
        begin = i + 1;
    }
    if (result.count == 0) lines_fail(program, path, "no lines");
    return result;
}

static void free_lines(lines *file) {
    free(file->text);
    free(file->start);
    free(file->length);
    free(file->method_start);
    free(file->method_length);
}

#endif
