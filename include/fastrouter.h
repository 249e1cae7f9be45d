/*
** fastrouter.h — the C interface of FastRouter, a trie-indexed URL router.
**
** FastRouter maps a URL ("myapp://users/42?tab=posts", "https://example.com/repos/apple/swift",
** "/search") to the best registered route and its parameters. This header is the whole C API of
** libfastrouter.so; build with `cc app.c $(pkg-config --cflags --libs fastrouter)`.
**
**     fr_router *r = fr_router_new(0);
**     fr_error err;
**     if (fr_router_add(r, "/users/{id:int}", 15, 0, 7, &err) != FR_OK)
**         fprintf(stderr, "offset %zu: %s\n", err.offset, err.message);
**     fr_match *m = fr_match_new();
**     if (fr_router_match(r, "/users/42", 9, m) == FR_OK) {
**         fr_str id;
**         fr_match_param(m, "id", 2, &id);          // id.ptr/id.len -> "42"
**         printf("route %llu id=%.*s\n", (unsigned long long)fr_match_route_id(m), (int)id.len, id.ptr);
**     }
**     fr_match_free(m);
**     fr_router_free(r);
**
** STRINGS. Every string crosses the API as a pointer and a byte length (UTF-8). A NUL terminator
** is never required and never looked for, so a string may point into the middle of a larger
** buffer. A pointer may be NULL when its length is 0 (the empty string); a NULL pointer with a
** non-zero length gives FR_EINVAL. Strings the library returns (fr_str) are not NUL-terminated
** either; print them with "%.*s". An empty string the library returns for a value that exists
** has a non-NULL ptr; {NULL, 0} means "absent".
**
** NULL. Every function tolerates NULL arguments. Where a function needs a pointer and gets NULL
** it returns FR_EINVAL (or the documented "nothing" value for functions that return no status);
** fr_router_free(NULL) and fr_match_free(NULL) do nothing. Out-parameters documented as optional
** may be NULL when the caller does not want them.
**
** STATUS CODES. Functions that return int return a status. FR_OK, FR_NOMATCH and FR_NOMETHOD are outcomes;
** negative values are errors, and fr_strerror() describes each. The same codes are the raw values
** of RouterError.Code in the Swift API. Out-parameters are written on FR_OK; on any other status
** an fr_str out-parameter that was given is set to {NULL, 0}, an fr_error to the failure, and the
** size_t *needed of fr_router_url / fr_router_dump / fr_router_lint to the size the caller must
** provide.
**
** THREADS. An fr_router is thread-safe: any number of threads may call fr_router_match,
** fr_router_count, fr_router_url, fr_router_dump and fr_router_lint while other threads call
** fr_router_add and fr_router_remove. A lookup never blocks and never waits for a writer; it sees
** the routes either before or after each add or remove, never in between. fr_router_free must
** not run concurrently with any other call on the same router. An fr_match is not thread-safe:
** use one per thread (or guard it) and reuse it for many lookups. fr_strerror and fr_version may
** be called from any thread. On Linux, each add or remove makes every thread of the process
** execute a memory barrier (membarrier(2), one system call), which spares every lookup its own;
** where the kernel or a sandbox refuses the call, lookups fence for themselves and behave alike.
**
** LIFETIMES. fr_router_new and fr_match_new give ownership to the caller, who releases it with
** fr_router_free and fr_match_free. The library never keeps pointers to caller memory after a
** call returns, except that the results of a lookup may point into the URL buffer passed to
** fr_router_match: strings returned by fr_match_param_at, fr_match_param and fr_match_fragment
** stay valid while that URL buffer is unchanged and until the next fr_router_match,
** fr_match_next or fr_match_free on that fr_match. Accessors never invalidate them and never
** allocate. A result stays readable after routes are added or removed and after fr_router_free.
** fr_match_next walks the candidates of the version of the routes its lookup saw, whatever is
** added or removed meanwhile; after fr_router_free it returns FR_NOMATCH.
**
** ALLOCATION. An fr_match that has served one lookup at least as large (URL length, number of
** parameters, number of candidates) makes further fr_router_match / fr_match_next calls allocate
** nothing on the heap: warm one up per thread and reuse it.
**
** OUT OF MEMORY. The library is written in Swift, whose runtime ends the process when an
** allocation fails (a trap: SIGILL, SIGTRAP or SIGABRT depending on where), and so does the
** library when the system refuses it memory for its tables. No call reports an allocation
** failure: these calls may allocate, and end the process when memory runs out:
** fr_router_new, fr_router_free, fr_router_add, fr_router_add_methods, fr_router_remove,
** fr_router_url, fr_router_dump, fr_router_lint, fr_match_new, and fr_router_match,
** fr_router_match_method and fr_match_next while their fr_match (or, for a thread's first lookup
** in the process, the thread's reader slot) is not yet warm (see ALLOCATION). The others never
** allocate: fr_router_count, fr_match_free, the fr_match accessors, fr_strerror, fr_version.
** FR_ENOMEM never means that the allocator failed: it means a caller's buffer is too small, or
** that an add would pass the process's limit of 2^24 distinct parameter names. A process that
** must survive memory exhaustion should bound its routers (fr_router_count) and leave headroom,
** or isolate the router in a process of its own.
**
** ROUTE IDS. A route id is any uint64_t chosen by the caller except FR_NO_ROUTE (UINT64_MAX),
** which is reserved and rejected with FR_EINVAL. Several routes may share an id: fr_router_remove
** removes all of them, and fr_router_url builds the URL of the first of them.
*/
#ifndef FASTROUTER_H
#define FASTROUTER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ============================================================================================
** Version
*/

#define FR_VERSION_MAJOR 0        /* incompatible API changes */
#define FR_VERSION_MINOR 2        /* compatible additions */
#define FR_VERSION_PATCH 0        /* fixes */
#define FR_VERSION "0.2.0"        /* the three numbers as a string; fr_version() returns the same */

/*
** fr_version — the version of the loaded library, e.g. "0.2.0".
**
** Compare it with FR_VERSION to detect a header/library mismatch.
** Returns a static NUL-terminated string; never NULL; do not free it. Any thread.
*/
const char *fr_version(void);

/* ============================================================================================
** Status codes, flags and value types
*/

enum {
    FR_OK         = 0,   /* success, or a route matched */
    FR_NOMATCH    = 1,   /* no (further) route matches the URL; not an error */
    FR_NOMETHOD   = 2,   /* routes match the URL but none accepts the method (HTTP 405); see fr_match_allow */
    FR_EINVAL     = -1,  /* invalid argument: NULL pointer, reserved route id, unknown flag, missing value */
    FR_EPATTERN   = -2,  /* the pattern does not follow the pattern language; see fr_error.offset */
    FR_EREGEX     = -3,  /* a regex constraint does not compile (PCRE2 message and offset) */
    FR_EDUPLICATE = -4,  /* the same route (table, host, priority, segment shapes) is already registered */
    FR_EURL       = -5,  /* malformed URL: bad %-escape, NUL, invalid UTF-8, over 64 KiB or 1024 segments */
    FR_ENOTFOUND  = -6,  /* no route, parameter or value with that id, index or name */
    FR_ENOMEM     = -7   /* a caller's buffer is too small, or the parameter-name limit (not the allocator: OUT OF MEMORY) */
};

enum {
    FR_CASE_INSENSITIVE   = 1u << 0,  /* compare path literals ASCII case-insensitively (never regexes) */
    FR_NO_GLOBAL_FALLBACK = 1u << 1,  /* a URL with a scheme is matched against its scheme's table only */
    FR_NO_PLUS_AS_SPACE   = 1u << 2,  /* keep '+' in query keys and values instead of decoding it as a space */
    FR_NO_HEAD_FALLBACK   = 1u << 3   /* a HEAD lookup takes only routes that accept HEAD, not GET's too */
};

#define FR_NO_ROUTE UINT64_MAX        /* "no route": fr_match_route_id without a match; reserved as a route id */

/*
** fr_str — a byte string: ptr to len bytes of UTF-8, not NUL-terminated.
** {NULL, 0} means "absent"; a present empty string has a non-NULL ptr and len 0.
*/
typedef struct fr_str {
    const char *ptr;                  /* first byte; NULL only when len is 0 */
    size_t len;                       /* number of bytes */
} fr_str;

/*
** fr_error — why a call failed. Functions that take an fr_error * always write it when it is
** not NULL: on success code FR_OK, offset 0 and an empty message.
*/
typedef struct fr_error {
    int code;                         /* the status the function returned */
    size_t offset;                    /* byte offset of the offending construct in the pattern, else 0 */
    char message[256];                /* one-line explanation, NUL-terminated, truncated to 255 bytes */
} fr_error;

/*
** fr_strerror — a short description of a status code, e.g. "invalid pattern" for FR_EPATTERN.
**
** code: any int; codes this header does not define give "unknown status".
** Returns a static NUL-terminated string; never NULL; do not free it. Any thread.
*/
const char *fr_strerror(int code);

/* ============================================================================================
** fr_router — a set of routes; thread-safe
*/

typedef struct fr_router fr_router;   /* opaque, thread-safe */

/*
** fr_router_new — creates an empty router.
**
** flags: 0 or a bitwise OR of FR_CASE_INSENSITIVE, FR_NO_GLOBAL_FALLBACK, FR_NO_PLUS_AS_SPACE and
**        FR_NO_HEAD_FALLBACK.
**        Only http and https are web schemes (host matched as a domain); every other scheme
**        treats its host as the first path segment.
** Returns a new router owned by the caller (release it with fr_router_free), or NULL when flags
** holds an unknown bit (see OUT OF MEMORY). Any thread.
*/
fr_router *fr_router_new(uint32_t flags);

/*
** fr_router_free — destroys a router and every route in it.
**
** router: the router, or NULL (then nothing happens).
** No other call on this router may be running or start afterwards. Results already in an
** fr_match stay valid (see LIFETIMES).
*/
void fr_router_free(fr_router *router);

/*
** fr_router_add — registers a route.
**
** router:   the router; NULL gives FR_EINVAL.
** pattern:  pattern_len bytes in the pattern language, e.g. "/users/{id:int}",
**           "myapp://users/:id(/:tab)", "https://example.com/repos/:owner/:repo". The library copies
**           what it needs; the buffer may be reused as soon as the call returns.
** priority: higher wins over specificity; 0 is the default.
** route_id: the caller's id, reported by fr_match_route_id; any value but FR_NO_ROUTE
**           (FR_EINVAL). Routes may share an id; every expansion of an optional group does.
** err:      optional; always written when not NULL (see fr_error). For FR_EPATTERN and FR_EREGEX,
**           err->offset is the byte offset in pattern of the offending construct.
** Returns FR_OK; FR_EINVAL; FR_EPATTERN; FR_EREGEX; FR_EDUPLICATE (an expansion collides with a
** registered route or another expansion; then nothing is added); FR_ENOMEM, also when the route
** would bring the process past 16M (2^24) distinct parameter names: names are interned for the
** life of the process and never freed, even when their routes are removed, so reuse names.
** Thread-safe: concurrent lookups see the router before or after the whole add.
*/
int fr_router_add(fr_router *router, const char *pattern, size_t pattern_len, int32_t priority,
                  uint64_t route_id, fr_error *err);

/*
** fr_router_add_methods — registers a route that accepts only some HTTP methods.
**
** methods:  methods_len bytes: a comma-separated list of method tokens (RFC 9110 tokens, compared
**           case-sensitively: "GET,POST", "PURGE", "PROPFIND"; spaces around a comma are
**           ignored), or "" or "*" for any method (what fr_router_add registers; blanks alone
**           count as ""). NULL with length 0 is "". At most 16 KiB. A router knows at most 64
**           distinct method names, and a name keeps its place once an add has brought it.
** The other arguments are fr_router_add's. Two routes whose patterns are duplicates are
** duplicates only when their method sets overlap: "GET /a" and "POST /a" are two routes,
** "GET,POST /a" and "POST /a" give FR_EDUPLICATE; a route for any method overlaps every set.
** Returns fr_router_add's statuses; FR_EINVAL also for an empty or invalid token (err->message
** names it and err->offset is its byte offset in methods), "*" among other methods, a list over
** 16 KiB, or a 65th distinct method name.
** Thread-safe like fr_router_add.
*/
int fr_router_add_methods(fr_router *router, const char *methods, size_t methods_len,
                          const char *pattern, size_t pattern_len, int32_t priority,
                          uint64_t route_id, fr_error *err);

/*
** fr_router_remove — removes every route registered with route_id.
**
** router:   the router; NULL gives FR_EINVAL.
** route_id: the id given to fr_router_add; FR_NO_ROUTE gives FR_EINVAL.
** Returns FR_OK when at least one route was removed, FR_ENOTFOUND when none has that id, FR_EINVAL.
** Thread-safe: concurrent lookups see the router before or after the whole removal. Results a
** lookup already returned stay readable.
*/
int fr_router_remove(fr_router *router, uint64_t route_id);

/*
** fr_router_count — the number of routes as registered (a pattern with optional groups counts
** once).
**
** router: the router, or NULL (then 0).
** Returns the count. Thread-safe.
*/
size_t fr_router_count(const fr_router *router);

/*
** fr_router_url — builds the URL of a route from parameter values (reverse routing).
**
** router:   the router; NULL gives FR_EINVAL.
** route_id: the route's id; FR_NO_ROUTE gives FR_EINVAL, an unknown id FR_ENOTFOUND. When several
**           routes share the id, the first registered is used.
** names, values: two arrays of count strings, names[i] naming the parameter that gets values[i]
**           (a wildcard is named by its name, or "*" when unnamed; its value is split on '/').
**           May be NULL when count is 0. Values are percent-encoded as needed. An optional group
**           is filled when its parameters are given; an empty value for a placeholder inside an
**           optional group counts as not given (the group is left out, no query pair is added).
**           Names the pattern does not use become query pairs, in the order given. A web route
**           with an exact host gives an absolute URL ("https://example.com/..."), a custom
**           scheme "myapp://...", any other route its path.
** buf, cap: where to write the URL followed by a NUL; buf may be NULL when cap is 0 (to ask for
**           the size only).
** needed:   optional; always receives the URL's length in bytes without the NUL when the URL
**           could be built, whatever cap is; 0 on any other error.
** Returns FR_OK (buf holds the URL and a NUL); FR_ENOMEM when cap < *needed + 1, and then buf is
** left untouched; FR_ENOTFOUND; FR_EINVAL for a NULL argument, a name or value that is not UTF-8
** or holds a NUL byte, or a required placeholder (one outside every optional group) whose value
** is missing, empty or rejected by its constraint. Thread-safe.
*/
int fr_router_url(const fr_router *router, uint64_t route_id, const fr_str *names,
                  const fr_str *values, size_t count, char *buf, size_t cap, size_t *needed);

/*
** fr_router_dump — writes a readable listing of the router's tables (for debugging; the format
** may change between versions).
**
** router:   the router; NULL gives FR_EINVAL.
** buf, cap: where to write the listing followed by a NUL; buf may be NULL when cap is 0.
** needed:   optional; always receives the listing's length in bytes without the NUL.
** Returns FR_OK; FR_ENOMEM when cap < *needed + 1, and then buf is left untouched; FR_EINVAL.
** Thread-safe. While another thread adds or removes routes, two calls may give listings of
** different lengths: allocate *needed + 1 and retry on FR_ENOMEM.
*/
int fr_router_dump(const fr_router *router, char *buf, size_t cap, size_t *needed);

/*
** fr_router_lint — writes the linter's report on the router's tables: routes that can never be
** the first candidate (shadowed) and pairs of routes only registration order tells apart
** (ambiguous): one line per finding, an indented example URL under it, then a summary line
** ("no problems found" when there is nothing to report). The same text as RouteLinter.format(router.lint()) in
** Swift; the format may change between versions.
**
** router:   the router; NULL gives FR_EINVAL.
** buf, cap: where to write the report followed by a NUL; buf may be NULL when cap is 0.
** needed:   optional; always receives the report's length in bytes without the NUL.
** Returns FR_OK; FR_ENOMEM when cap < *needed + 1, and then buf is left untouched; FR_EINVAL.
** Thread-safe. The check compares every pair of similar routes: it is meant for tests and tools,
** not for a request path. While another thread adds or removes routes, two calls may give reports
** of different lengths: allocate *needed + 1 and retry on FR_ENOMEM.
*/
int fr_router_lint(const fr_router *router, char *buf, size_t cap, size_t *needed);

/* ============================================================================================
** fr_match — a reusable lookup state and its result; one per thread
*/

typedef struct fr_match fr_match;     /* opaque, one per thread, reusable */

/*
** fr_match_new — creates a lookup state to pass to fr_router_match, holding no result.
**
** Returns a new fr_match owned by the caller (release it with fr_match_free); never NULL (see OUT
** OF MEMORY). Any thread; afterwards use it from one thread at a time.
*/
fr_match *fr_match_new(void);

/*
** fr_match_free — destroys a lookup state; strings it returned become invalid.
**
** match: the fr_match, or NULL (then nothing happens).
*/
void fr_match_free(fr_match *match);

/*
** fr_router_match — finds the best route for a URL.
**
** router:  the router; NULL gives FR_EINVAL.
** url:     url_len bytes: "scheme://host/path?query#fragment", or a path "/path?query". Not
**          copied: the results may point into it, so keep it unchanged while you read them.
** match:   receives the result, replacing any earlier one; NULL gives FR_EINVAL.
** Returns FR_OK (read the result with the fr_match_* accessors), FR_NOMATCH, FR_EURL (malformed
** URL: invalid %-escape, invalid UTF-8 after decoding, a NUL byte raw or as %00, over 64 KiB or
** over 1024 segments), or FR_EINVAL. Whatever the status, the earlier result is gone.
** Thread-safe for the router; match must not be in use by another thread. Allocates nothing once
** match is warm (see ALLOCATION).
*/
int fr_router_match(const fr_router *router, const char *url, size_t url_len, fr_match *match);

/*
** fr_router_match_method — finds the best route for a request: a method and a URL.
**
** method: method_len bytes, one RFC 9110 token compared case-sensitively ("GET", "PURGE"); an
**         empty method (NULL with length 0 too) is a lookup without a method, exactly
**         fr_router_match; a byte that is not a token character, or more than 64 KiB, gives
**         FR_EINVAL.
** The other arguments are fr_router_match's. Candidates are the routes that match the URL and
** accept the method, in the usual precedence order (a method set does not make a route more
** specific); a route registered without methods accepts every method. A HEAD request also takes
** the routes accepting GET, so HEAD is answered by the route that answers GET; between two routes
** of the same shape (priority, host and segment ranks) the one naming HEAD comes first (a route
** for any method names it). FR_NO_HEAD_FALLBACK turns this off: HEAD then takes only the routes
** accepting HEAD themselves.
** Returns FR_OK (read the result with the fr_match_* accessors; fr_match_next walks the same
** filtered candidates), FR_NOMATCH (no route matches the URL), FR_NOMETHOD (routes match the URL
** but none accepts the method: answer 405 with the value of fr_match_allow), FR_EURL or
** FR_EINVAL. Same thread rule and allocation rule as fr_router_match.
*/
int fr_router_match_method(const fr_router *router, const char *method, size_t method_len,
                           const char *url, size_t url_len, fr_match *match);

/*
** fr_match_next — declines the current result and moves to the next candidate, in precedence
** order (priority, then specificity, then registration order), for handler chains.
**
** match: an fr_match whose last fr_router_match or fr_match_next returned FR_OK; NULL gives
**        FR_EINVAL.
** Returns FR_OK (the accessors now describe the next candidate), or FR_NOMATCH when no candidate
** is left or there was no result to decline. The URL buffer must still be unchanged.
** Same thread rule and allocation rule as fr_router_match.
*/
int fr_match_next(fr_match *match);

/*
** fr_match_allow — the value of an Allow header after FR_NOMETHOD: the methods the routes
** matching the URL accept, e.g. "GET, HEAD, POST". Standard methods come first in RFC 9110 order
** (GET, HEAD, POST, PUT, DELETE, CONNECT, OPTIONS, TRACE), then the others (PATCH, PURGE, ...) in
** the order the router first saw them; HEAD is listed when GET is, unless FR_NO_HEAD_FALLBACK.
**
** match:  the fr_match whose last fr_router_match_method returned FR_NOMETHOD; NULL gives FR_EINVAL.
** buf, cap: where the value and a NUL go; buf may be NULL when cap is 0 (to ask for the size).
** needed: optional; receives the value's length (without the NUL) whatever the status.
** Returns FR_OK; FR_ENOMEM when cap < *needed + 1, and then buf is left untouched; FR_ENOTFOUND
** (and an empty value) unless the last lookup on match returned FR_NOMETHOD; FR_EINVAL.
** Never allocates; the value stays available until the next lookup on match.
*/
int fr_match_allow(const fr_match *match, char *buf, size_t cap, size_t *needed);

/*
** fr_match_route_id — the route id of the current result.
**
** match: the fr_match, or NULL.
** Returns the id given to fr_router_add, or FR_NO_ROUTE unless the last fr_router_match or
** fr_match_next on match returned FR_OK.
*/
uint64_t fr_match_route_id(const fr_match *match);

/*
** fr_match_param_count — the number of (name, value) pairs of the current result: path
** parameters in pattern order, then the wildcard, then query pairs in URL order.
**
** match: the fr_match, or NULL.
** Returns the count; 0 unless the last fr_router_match or fr_match_next on match returned FR_OK.
*/
size_t fr_match_param_count(const fr_match *match);

/*
** fr_match_param_at — the i-th (name, value) pair of the current result.
**
** match: the fr_match; NULL gives FR_EINVAL.
** index: 0 ..< fr_match_param_count(match); past the end gives FR_ENOTFOUND.
** name, value: optional out-parameters; values are percent-decoded (and '+' is a space in the
**        query unless FR_NO_PLUS_AS_SPACE); a wildcard's name is its name or "*".
** Returns FR_OK, FR_ENOTFOUND or FR_EINVAL. The strings follow LIFETIMES; never allocates.
*/
int fr_match_param_at(const fr_match *match, size_t index, fr_str *name, fr_str *value);

/*
** fr_match_param — the value of the first pair with a given name (so a path parameter wins over
** a query key of the same name).
**
** match: the fr_match; NULL gives FR_EINVAL.
** name:  name_len bytes, compared byte for byte.
** value: optional out-parameter; pass NULL to test presence only.
** Returns FR_OK, FR_ENOTFOUND (no such name, or no current result) or FR_EINVAL. The string
** follows LIFETIMES; never allocates.
*/
int fr_match_param(const fr_match *match, const char *name, size_t name_len, fr_str *value);

/*
** fr_match_fragment — the fragment of the matched URL (after '#'), raw: neither decoded nor
** validated.
**
** match: the fr_match, or NULL.
** Returns the fragment, pointing into the match's own copy of the URL (valid as LIFETIMES says
** above); {NULL, 0} when the URL has no '#' or unless the last fr_router_match or fr_match_next
** on match returned FR_OK. "a#" gives a non-NULL ptr with len 0.
*/
fr_str fr_match_fragment(const fr_match *match);

#ifdef __cplusplus
}
#endif

#endif /* FASTROUTER_H */
