#!/usr/bin/env python3
"""Checks examples/python/route.py against the library through ctypes, its `-m` dispatcher against
examples/c/requests.expected, and, given the paths of a built examples/c/router-cli (and
examples/c/dispatch), checks both languages print the same lines for examples/c/urls.txt (and
examples/c/requests.txt).

    python3 test_route.py [ROUTER_CLI [DISPATCH]]

The last line is "N passed, N failed"; the exit status is non-zero when anything failed.
"""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import route  # noqa: E402  (after the path set-up above)
from route import FastRouterError, Router  # noqa: E402

passed = failed = 0


def check(condition, what):
    global passed, failed
    if condition:
        passed += 1
    else:
        failed += 1
        print(f"FAILED: {what}", file=sys.stderr)


def check_eq(actual, expected, what):
    check(actual == expected, f"{what}: got {actual!r}, expected {expected!r}")


def raises(code, function, *args, **kwargs):
    try:
        function(*args, **kwargs)
    except FastRouterError as error:
        return error.code == code, error
    return False, None


def test_basics():
    check(route.version().count(".") == 2, "version looks like x.y.z")
    check_eq(route.strerror(route.FR_EPATTERN), "invalid pattern", "strerror")

    router = Router()
    router.add("/users/{id:int}", route_id=1)
    router.add("/users/:name/posts(/:post)", route_id=2)
    router.add("/files/*path", route_id=3)
    router.add("myapp://users/:id", route_id=4)
    check_eq(len(router), 4, "count")

    match = router.match("/users/42?tab=posts&tab=2#top")
    check_eq(match.route_id, 1, "route id")
    check_eq(match.params, [(b"id", b"42"), (b"tab", b"posts"), (b"tab", b"2")], "params in order")
    check_eq(match.param(b"tab"), b"posts", "first pair wins")
    check_eq(match.fragment, b"top", "fragment through a by-value fr_str return")
    check_eq(router.match("/users/42").fragment, None, "no fragment")
    check_eq(router.match("/users/42#").fragment, b"", "empty fragment")

    check_eq(router.match("/users/bob/posts/hello%20world").params, [(b"name", b"bob"), (b"post", b"hello world")],
             "decoded values")
    check_eq(router.match("/files/a/b").param(b"path"), b"a/b", "wildcard")
    check_eq(router.match("/nothing"), None, "no match")
    ok, _ = raises(route.FR_EURL, router.match, "/users/%zz")
    check(ok, "bad escape is FR_EURL")
    ok, _ = raises(route.FR_EURL, router.match, b"/users/\x00")
    check(ok, "raw NUL is FR_EURL")

    ids = [m.route_id for m in router.matches("myapp://users/7")]
    check_eq(ids, [4, 1], "the scheme's table first, then the global table")

    ok, error = raises(route.FR_EPATTERN, router.add, "users/:id", route_id=9)
    check(ok and error.offset == 0, "pattern without a leading '/'")
    ok, error = raises(route.FR_EPATTERN, router.add, "/a//b", route_id=9)
    check(ok and error.offset == 2, f"empty segment offset: {error and error.offset}")
    ok, _ = raises(route.FR_EDUPLICATE, router.add, "/users/{n:int}", route_id=9)
    check(ok, "duplicate")
    ok, _ = raises(route.FR_EINVAL, router.add, "/x", route_id=route.FR_NO_ROUTE)
    check(ok, "reserved id")

    check(router.remove(2), "remove")
    check(not router.remove(2), "remove again")
    check_eq(router.match("/users/bob/posts"), None, "removed with every expansion")
    check_eq(len(router), 3, "count after remove")

    url = router.url(1, id=42)
    check_eq(url, "/users/42", "reverse routing")
    check_eq(router.match(url).route_id, 1, "the built URL routes back")
    ok, _ = raises(route.FR_ENOTFOUND, router.url, 999)
    check(ok, "unknown id")
    ok, _ = raises(route.FR_EINVAL, router.url, 1, id="x")
    check(ok, "constraint-violating value")
    check("/files/*path" in router.dump(), "dump lists the patterns")
    router.close()

    ok, _ = raises(route.FR_EINVAL, Router, 1 << 5)
    check(ok, "unknown flag")
    plain = Router(route.FR_NO_PLUS_AS_SPACE | route.FR_CASE_INSENSITIVE)
    plain.add("/Search", route_id=1)
    check_eq(plain.match("/SEARCH?q=a+b").params, [(b"q", b"a+b")], "flags reach the router")


def test_methods():
    check_eq(route.FR_NOMETHOD, 2, "FR_NOMETHOD")
    check(route.strerror(route.FR_NOMETHOD) != "unknown status", "strerror knows FR_NOMETHOD")

    router = Router()
    router.add("/users/:id", route_id=1, methods="GET")
    router.add("/users/:id", route_id=2, methods=["PUT", "DELETE"])
    router.add("/users/:id", route_id=3, methods=b"PURGE")
    router.add("/users", route_id=4, methods="GET , POST")
    router.add("/any", route_id=5, methods="*")
    router.add("/also-any", route_id=6, methods="")
    router.add("/plain", route_id=7)
    check_eq(len(router), 7, "count with method routes")

    answer = router.match_method("DELETE", "/users/42?x=1#f")
    check(answer.found and not answer.not_found and not answer.method_not_allowed, "found")
    check_eq(answer.status, route.FR_OK, "status FR_OK")
    check_eq(answer.match.route_id, 2, "the route accepting DELETE")
    check_eq(answer.match.params, [(b"id", b"42"), (b"x", b"1")], "parameters of a method match")
    check_eq(answer.match.fragment, b"f", "fragment of a method match")
    check_eq(answer.allow, (), "no Allow value on a match")
    check_eq(router.match_method("HEAD", "/users/42").match.route_id, 1, "HEAD served by GET's route")
    check_eq(router.match_method(b"PURGE", b"/users/42").match.route_id, 3, "bytes and an extension method")

    answer = router.match_method("POST", "/users/42")
    check(answer.method_not_allowed and not answer.found and not answer.not_found, "method not allowed")
    check_eq(answer.status, route.FR_NOMETHOD, "status FR_NOMETHOD")
    check_eq(answer.match, None, "no match on a 405")
    check_eq(answer.allow, ("GET", "HEAD", "PUT", "DELETE", "PURGE"), "Allow in RFC 9110 order, then extensions")
    check_eq(answer.allow_header, "GET, HEAD, PUT, DELETE, PURGE", "Allow header value")
    check_eq(router.match_method("get", "/users/42").allow_header, "GET, HEAD, PUT, DELETE, PURGE",
             "methods are case-sensitive")
    check_eq(router.match_method("PATCH", "/users").allow, ("GET", "HEAD", "POST"), "spaces around commas")

    answer = router.match_method("GET", "/nothing")
    check(answer.not_found and not answer.found and not answer.method_not_allowed, "not found")
    check_eq((answer.status, answer.match, answer.allow), (route.FR_NOMATCH, None, ()), "404 result")

    for method in ("GET", "BREW", "*"):
        check_eq(router.match_method(method, "/any").match.route_id, 5, f"'*' route accepts {method}")
        check_eq(router.match_method(method, "/also-any").match.route_id, 6, f"'' route accepts {method}")
        check_eq(router.match_method(method, "/plain").match.route_id, 7, f"add() without methods accepts {method}")
    check_eq(router.match_method("", "/users/42").match.route_id, 1, "an empty method: every route, best first")
    check_eq([m.route_id for m in router.matches("/users/42")], [1, 2, 3], "match() ignores methods")

    ok, _ = raises(route.FR_EINVAL, router.match_method, "G T", "/users/42")
    check(ok, "a method with a space is FR_EINVAL")
    ok, _ = raises(route.FR_EINVAL, router.match_method, b"GE\x00T", "/users/42")
    check(ok, "a method with a NUL is FR_EINVAL")
    ok, _ = raises(route.FR_EURL, router.match_method, "GET", "/users/%zz")
    check(ok, "a bad URL is FR_EURL")

    ok, error = raises(route.FR_EINVAL, router.add, "/x", route_id=9, methods="GET,")
    check(ok and error.message, "an empty token")
    ok, error = raises(route.FR_EINVAL, router.add, "/x", route_id=9, methods="GE(T")
    check(ok and "GE(T" in error.message, f"a bad token is named: {error and error.message}")
    ok, _ = raises(route.FR_EINVAL, router.add, "/x", route_id=9, methods=["*", "GET"])
    check(ok, "'*' among other methods")
    ok, _ = raises(route.FR_EDUPLICATE, router.add, "/users/:name", route_id=9, methods="POST,GET")
    check(ok, "overlapping method sets are duplicates")
    ok, _ = raises(route.FR_EDUPLICATE, router.add, "/users", route_id=9)
    check(ok, "any method overlaps every set")
    router.add("/users/:name", route_id=9, methods="POST")
    check_eq(router.match_method("POST", "/users/7").match.route_id, 9, "disjoint sets are two routes")
    ok, error = raises(route.FR_EPATTERN, router.add, "/a//b", route_id=9, methods="GET")
    check(ok and error.offset == 2, "pattern errors keep their offset")

    # 64 method names per router; the 65th is refused.
    many = Router()
    for index in range(64):
        many.add(f"/m/{index}", route_id=index, methods=f"X{index}")
    ok, error = raises(route.FR_EINVAL, many.add, "/m/64", route_id=64, methods="X64")
    check(ok and "X64" in error.message, f"the 65th method name: {error and error.message}")
    check_eq(many.match_method("X63", "/m/63").match.route_id, 63, "the 64th name routes")

    # An Allow value longer than the first buffer is read with the size fr_match_allow asks for.
    long_names = Router()
    names = [f"EXTENSION-METHOD-{index:02d}" for index in range(40)]
    long_names.add("/long", route_id=1, methods=",".join(names))
    check_eq(long_names.match_method("GET", "/long").allow, tuple(names), "a long Allow value")

    plain = Router(route.FR_NO_HEAD_FALLBACK)
    plain.add("/g", route_id=1, methods="GET")
    check_eq(plain.match_method("HEAD", "/g").allow, ("GET",), "FR_NO_HEAD_FALLBACK reaches the router")


def test_dispatch(dispatch):
    here = os.path.join(HERE, "..", "c")
    routes = os.path.join(here, "github.routes")
    with open(os.path.join(here, "requests.txt"), "rb") as file:
        requests = file.read()
    with open(os.path.join(here, "requests.expected"), "rb") as file:
        expected = file.read().decode().splitlines()
    runs = [[sys.executable, os.path.join(HERE, "route.py"), "-m", routes]]
    if dispatch:
        runs.append([dispatch, routes])
    for command in runs:
        result = subprocess.run(command, input=requests, capture_output=True, check=False)
        name = os.path.basename(command[1] if command[0] == sys.executable else command[0])
        check_eq(result.returncode, 0, f"{name} exit status ({result.stderr.decode(errors='replace')})")
        lines = result.stdout.decode().splitlines()
        for line, want in zip(lines, expected):
            check_eq(line, want, f"{name} prints requests.expected")
        check_eq(len(lines), len(expected), f"{name} line count")


def test_same_output_as_c(cli):
    routes = os.path.join(HERE, "..", "c", "routes.txt")
    with open(os.path.join(HERE, "..", "c", "urls.txt"), "rb") as file:
        urls = file.read()
    for options in ([], ["-a"], ["-i", "-G", "-P", "-a"]):
        c = subprocess.run([cli, *options, routes], input=urls, capture_output=True, check=False)
        py = subprocess.run([sys.executable, os.path.join(HERE, "route.py"), *options, routes], input=urls,
                            capture_output=True, check=False)
        check_eq(c.returncode, 0, f"router-cli {options} exit status ({c.stderr.decode(errors='replace')})")
        check_eq(py.returncode, 0, f"route.py {options} exit status ({py.stderr.decode(errors='replace')})")
        c_lines, py_lines = c.stdout.decode().splitlines(), py.stdout.decode().splitlines()
        check_eq(len(c_lines), urls.count(b"\n"), f"one line per URL {options}")
        for c_line, py_line in zip(c_lines, py_lines):
            check_eq(py_line, c_line, f"same line {options}")
        check_eq(len(py_lines), len(c_lines), f"same line count {options}")


if __name__ == "__main__":
    test_basics()
    test_methods()
    test_dispatch(sys.argv[2] if len(sys.argv) > 2 else None)
    if len(sys.argv) > 1:
        test_same_output_as_c(sys.argv[1])
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
