#!/usr/bin/env python3
"""Checks examples/python/route.py against the library through ctypes, and, given the path of a
built examples/c/router-cli, checks both print the same lines for examples/c/urls.txt.

    python3 test_route.py [ROUTER_CLI]

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
    if len(sys.argv) > 1:
        test_same_output_as_c(sys.argv[1])
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
