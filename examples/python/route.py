#!/usr/bin/env python3
"""Route URLs with FastRouter from Python through ctypes, with no compiled glue.

    python3 route.py [-i] [-G] [-P] [-a] ROUTES_FILE [URL ...]    (URLs from stdin when none)
    python3 route.py -m [-H] ROUTES_FILE [REQUEST ...]            (`METHOD URL` requests)

ROUTES_FILE has one `pattern [priority]` per line and the route id is the line number, as for
examples/c/router-cli, and the output is the same, line for line:

    /users/42?tab=posts -> 2 id="42" tab="posts"

With -m it is examples/c/dispatch: ROUTES_FILE has one `METHODS pattern` per line and each
`METHOD URL` request gives the route, a 405 with its Allow value, or a 404, line for line as
dispatch prints them (-H: no HEAD served by GET routes):

    DELETE /events -> 405 Allow: GET, HEAD

As a module:

    from route import Router
    router = Router()
    router.add("/users/{id:int}", route_id=7)
    router.match("/users/42?tab=posts")   # -> Match(route_id=7, params=[('id', '42'), ('tab', 'posts')], fragment=None)

    api = Router()
    api.add("/users/:id", route_id=1, methods="GET")
    api.add("/users/:id", route_id=2, methods=["PUT", "DELETE"])
    api.match_method("DELETE", "/users/42")  # -> MethodMatch(status=FR_OK, match=Match(route_id=2, ...), allow=())
    api.match_method("POST", "/users/42")    # -> MethodMatch(status=FR_NOMETHOD, match=None,
                                             #                allow=('GET', 'HEAD', 'PUT', 'DELETE'))
    api.match_method("GET", "/nothing")      # -> MethodMatch(status=FR_NOMATCH, match=None, allow=())

The library is found through $FASTROUTER_LIB (a path to libfastrouter.so), then
`pkg-config --variable=libdir fastrouter`, then the system's library search.
"""

import ctypes
import ctypes.util
import os
import subprocess
import sys
from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple

FR_OK = 0
FR_NOMATCH = 1
FR_NOMETHOD = 2
FR_EINVAL = -1
FR_EPATTERN = -2
FR_EREGEX = -3
FR_EDUPLICATE = -4
FR_EURL = -5
FR_ENOTFOUND = -6
FR_ENOMEM = -7

FR_CASE_INSENSITIVE = 1 << 0
FR_NO_GLOBAL_FALLBACK = 1 << 1
FR_NO_PLUS_AS_SPACE = 1 << 2
FR_NO_HEAD_FALLBACK = 1 << 3

FR_NO_ROUTE = 2**64 - 1


class FrStr(ctypes.Structure):
    """`fr_str`: a (pointer, length) byte string."""

    _fields_ = [("ptr", ctypes.c_void_p), ("len", ctypes.c_size_t)]

    def bytes(self) -> Optional[bytes]:
        """The bytes, or None for {NULL, 0} (absent)."""
        if self.ptr is None:
            return None
        return ctypes.string_at(self.ptr, self.len)


class FrError(ctypes.Structure):
    """`fr_error`: status, byte offset in the pattern, message."""

    _fields_ = [("code", ctypes.c_int), ("offset", ctypes.c_size_t), ("message", ctypes.c_char * 256)]


def _find_library() -> str:
    explicit = os.environ.get("FASTROUTER_LIB")
    if explicit:
        return explicit
    try:
        libdir = subprocess.run(["pkg-config", "--variable=libdir", "fastrouter"], check=True,
                                capture_output=True, text=True).stdout.strip()
        candidate = os.path.join(libdir, "libfastrouter.so")
        if libdir and os.path.exists(candidate):
            return candidate
    except (OSError, subprocess.CalledProcessError):
        pass
    found = ctypes.util.find_library("fastrouter")
    if found:
        return found
    raise OSError("libfastrouter.so not found: set FASTROUTER_LIB or PKG_CONFIG_PATH (make install PREFIX=...)")


def _load() -> ctypes.CDLL:
    lib = ctypes.CDLL(_find_library())
    router_p, match_p = ctypes.c_void_p, ctypes.c_void_p
    signatures = {
        "fr_version": (ctypes.c_char_p, []),
        "fr_strerror": (ctypes.c_char_p, [ctypes.c_int]),
        "fr_router_new": (router_p, [ctypes.c_uint32]),
        "fr_router_free": (None, [router_p]),
        "fr_router_add": (ctypes.c_int, [router_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int32,
                                         ctypes.c_uint64, ctypes.POINTER(FrError)]),
        "fr_router_add_methods": (ctypes.c_int, [router_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p,
                                                 ctypes.c_size_t, ctypes.c_int32, ctypes.c_uint64,
                                                 ctypes.POINTER(FrError)]),
        "fr_router_remove": (ctypes.c_int, [router_p, ctypes.c_uint64]),
        "fr_router_count": (ctypes.c_size_t, [router_p]),
        "fr_router_url": (ctypes.c_int, [router_p, ctypes.c_uint64, ctypes.POINTER(FrStr), ctypes.POINTER(FrStr),
                                         ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t,
                                         ctypes.POINTER(ctypes.c_size_t)]),
        "fr_router_dump": (ctypes.c_int, [router_p, ctypes.c_char_p, ctypes.c_size_t,
                                          ctypes.POINTER(ctypes.c_size_t)]),
        "fr_match_new": (match_p, []),
        "fr_match_free": (None, [match_p]),
        "fr_router_match": (ctypes.c_int, [router_p, ctypes.c_char_p, ctypes.c_size_t, match_p]),
        "fr_router_match_method": (ctypes.c_int, [router_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p,
                                                  ctypes.c_size_t, match_p]),
        "fr_match_allow": (ctypes.c_int, [match_p, ctypes.c_char_p, ctypes.c_size_t,
                                          ctypes.POINTER(ctypes.c_size_t)]),
        "fr_match_next": (ctypes.c_int, [match_p]),
        "fr_match_route_id": (ctypes.c_uint64, [match_p]),
        "fr_match_param_count": (ctypes.c_size_t, [match_p]),
        "fr_match_param_at": (ctypes.c_int, [match_p, ctypes.c_size_t, ctypes.POINTER(FrStr),
                                             ctypes.POINTER(FrStr)]),
        "fr_match_param": (ctypes.c_int, [match_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(FrStr)]),
        "fr_match_fragment": (FrStr, [match_p]),
    }
    for name, (restype, argtypes) in signatures.items():
        function = getattr(lib, name)
        function.restype = restype
        function.argtypes = argtypes
    return lib


try:
    _lib = _load()
except OSError as problem:
    if __name__ != "__main__":
        raise
    sys.exit(f"route.py: {problem}")


def strerror(code: int) -> str:
    """The library's description of a status code."""
    return _lib.fr_strerror(code).decode()


def version() -> str:
    """The loaded library's version."""
    return _lib.fr_version().decode()


class FastRouterError(Exception):
    """A failed call: status code, byte offset in the pattern (0 when not applicable), message."""

    def __init__(self, code: int, offset: int = 0, message: str = ""):
        self.code, self.offset, self.message = code, offset, message or strerror(code)
        super().__init__(f"{strerror(code)} at offset {offset}: {self.message}")


class Match(NamedTuple):
    """One candidate: route id, (name, value) pairs in order, raw fragment (None without '#')."""

    route_id: int
    params: List[Tuple[bytes, bytes]]
    fragment: Optional[bytes]

    def param(self, name: bytes) -> Optional[bytes]:
        """The first value named `name` (path parameters before query pairs)."""
        return next((value for key, value in self.params if key == name), None)


class MethodMatch(NamedTuple):
    """The answer to a request (a method and a URL). `status` tells which:

    - FR_OK: `match` is the best route that matches the URL and accepts the method;
    - FR_NOMATCH: no route matches the URL (answer 404);
    - FR_NOMETHOD: routes match the URL but none accepts the method (answer 405): `allow` holds the
      methods they accept, in Allow order (GET, HEAD, POST, PUT, DELETE, CONNECT, OPTIONS, TRACE,
      then the others in the order the router first saw them).
    """

    status: int
    match: Optional[Match] = None
    allow: Tuple[str, ...] = ()

    @property
    def found(self) -> bool:
        return self.status == FR_OK

    @property
    def not_found(self) -> bool:
        return self.status == FR_NOMATCH

    @property
    def method_not_allowed(self) -> bool:
        return self.status == FR_NOMETHOD

    @property
    def allow_header(self) -> str:
        """The value of the Allow header: "GET, HEAD, POST"."""
        return ", ".join(self.allow)


def _as_bytes(text) -> bytes:
    return text if isinstance(text, bytes) else text.encode()


def _method_list(methods) -> bytes:
    """A method list for fr_router_add_methods: "GET,POST", b"GET", ["GET", "POST"]; "" or "*" is any."""
    if isinstance(methods, (str, bytes)):
        return _as_bytes(methods)
    return b",".join(_as_bytes(method) for method in methods)


class Router:
    """A FastRouter router. Lookups reuse one fr_match, so one Router serves one thread at a time."""

    def __init__(self, flags: int = 0):
        handle = _lib.fr_router_new(flags)
        if not handle:
            raise FastRouterError(FR_EINVAL, 0, f"invalid flags {flags:#x}")
        self._router = handle
        self._match = _lib.fr_match_new()

    def close(self) -> None:
        """Frees the router; later calls fail."""
        if getattr(self, "_router", None):
            _lib.fr_match_free(self._match)
            _lib.fr_router_free(self._router)
            self._router = self._match = None

    def __del__(self):
        self.close()

    def add(self, pattern, route_id: int, priority: int = 0, methods=None) -> None:
        """Registers a route; raises FastRouterError (with the pattern offset) on failure.

        `methods` limits it to some HTTP methods: "GET,POST", ["GET", "POST"]; None, "" and "*"
        accept any method. Routes of the same path are duplicates only when their methods overlap.
        """
        data = _as_bytes(pattern)
        err = FrError()
        if methods is None:
            status = _lib.fr_router_add(self._router, data, len(data), priority, route_id, ctypes.byref(err))
        else:
            listed = _method_list(methods)
            status = _lib.fr_router_add_methods(self._router, listed, len(listed), data, len(data), priority, route_id,
                                                ctypes.byref(err))
        if status != FR_OK:
            raise FastRouterError(err.code, err.offset, err.message.decode(errors="replace"))

    def remove(self, route_id: int) -> bool:
        """Removes every route with that id; False when there was none."""
        return _lib.fr_router_remove(self._router, route_id) == FR_OK

    def __len__(self) -> int:
        return _lib.fr_router_count(self._router)

    def _current(self) -> Match:
        params = []
        name, value = FrStr(), FrStr()
        index = 0
        while _lib.fr_match_param_at(self._match, index, ctypes.byref(name), ctypes.byref(value)) == FR_OK:
            params.append((name.bytes(), value.bytes()))
            index += 1
        return Match(_lib.fr_match_route_id(self._match), params, _lib.fr_match_fragment(self._match).bytes())

    def matches(self, url) -> List[Match]:
        """Every candidate for `url`, best first (what declining walks through)."""
        data = _as_bytes(url)  # results point into this buffer: copied out before it goes away
        status = _lib.fr_router_match(self._router, data, len(data), self._match)
        found = []
        while status == FR_OK:
            found.append(self._current())
            status = _lib.fr_match_next(self._match)
        if status != FR_NOMATCH:
            raise FastRouterError(status)
        return found

    def match(self, url) -> Optional[Match]:
        """The best candidate for `url`, or None; raises FastRouterError for a malformed URL."""
        data = _as_bytes(url)
        status = _lib.fr_router_match(self._router, data, len(data), self._match)
        if status == FR_NOMATCH:
            return None
        if status != FR_OK:
            raise FastRouterError(status)
        return self._current()

    def _allow(self) -> Tuple[str, ...]:
        """The methods of fr_match_allow after FR_NOMETHOD: a small buffer first, then the size it asked for."""
        buffer = ctypes.create_string_buffer(64)
        needed = ctypes.c_size_t(0)
        status = _lib.fr_match_allow(self._match, buffer, len(buffer), ctypes.byref(needed))
        if status == FR_ENOMEM:
            buffer = ctypes.create_string_buffer(needed.value + 1)
            status = _lib.fr_match_allow(self._match, buffer, len(buffer), ctypes.byref(needed))
        if status != FR_OK:
            raise FastRouterError(status)
        value = buffer.raw[:needed.value].decode()
        return tuple(value.split(", ")) if value else ()

    def match_method(self, method, url) -> MethodMatch:
        """The answer to METHOD URL: the best route accepting the method, a 404, or a 405 with the
        methods the URL's routes accept. An empty method looks up without one, like match().
        Raises FastRouterError for a malformed URL or method."""
        verb, data = _as_bytes(method), _as_bytes(url)
        status = _lib.fr_router_match_method(self._router, verb, len(verb), data, len(data), self._match)
        if status == FR_OK:
            return MethodMatch(FR_OK, self._current())
        if status == FR_NOMATCH:
            return MethodMatch(FR_NOMATCH)
        if status == FR_NOMETHOD:
            return MethodMatch(FR_NOMETHOD, allow=self._allow())
        raise FastRouterError(status)

    def url(self, route_id: int, **values) -> str:
        """The URL of a route from parameter values (reverse routing)."""
        count = len(values)
        keep = [(_as_bytes(k), _as_bytes(str(v))) for k, v in values.items()]
        names = (FrStr * max(count, 1))(*[FrStr(ctypes.cast(k, ctypes.c_void_p), len(k)) for k, _ in keep])
        vals = (FrStr * max(count, 1))(*[FrStr(ctypes.cast(v, ctypes.c_void_p), len(v)) for _, v in keep])
        needed = ctypes.c_size_t(0)
        status = _lib.fr_router_url(self._router, route_id, names, vals, count, None, 0, ctypes.byref(needed))
        if status == FR_ENOMEM:
            buffer = ctypes.create_string_buffer(needed.value + 1)
            status = _lib.fr_router_url(self._router, route_id, names, vals, count, buffer, len(buffer), None)
            if status == FR_OK:
                return buffer.value.decode()
        raise FastRouterError(status)

    def dump(self) -> str:
        """A readable listing of the route tables."""
        needed = ctypes.c_size_t(0)
        _lib.fr_router_dump(self._router, None, 0, ctypes.byref(needed))
        buffer = ctypes.create_string_buffer(needed.value + 1)
        status = _lib.fr_router_dump(self._router, buffer, len(buffer), None)
        if status != FR_OK:
            raise FastRouterError(status)
        return buffer.value.decode()


def load_routes(router: Router, path: str) -> List[str]:
    """Adds `pattern [priority]` lines (id = line number); returns the errors as FILE:LINE:COL."""
    errors = []
    with open(path, "rb") as file:
        for number, raw in enumerate(file, start=1):
            line = raw.rstrip(b"\r\n")
            stripped = line.lstrip(b" \t")
            if not stripped or stripped.startswith(b"#"):
                continue
            start = len(line) - len(stripped)
            parts = stripped.split(None, 1)
            pattern, priority = parts[0], 0
            if len(parts) > 1:
                try:
                    priority = int(parts[1])
                    if not -2**31 <= priority < 2**31:
                        raise ValueError
                except ValueError:
                    column = line.index(parts[1], start + len(pattern)) + 1
                    errors.append(f"{path}:{number}:{column}: error: expected `pattern [priority]` "
                                  f"with a 32-bit priority")
                    continue
            try:
                router.add(pattern, route_id=number, priority=priority)
            except FastRouterError as error:
                errors.append(f"{path}:{number}:{start + error.offset + 1}: error: "
                              f"{strerror(error.code)}: {error.message}")
    return errors


def load_method_routes(router: Router, path: str) -> Tuple[List[str], Dict[int, str]]:
    """Adds `METHODS pattern` lines (id = line number), as examples/c/dispatch does; returns the
    errors as FILE:LINE:COL and each route's line by id."""
    errors, lines = [], {}
    with open(path, "rb") as file:
        for number, raw in enumerate(file, start=1):
            line = raw.rstrip(b"\r\n")
            stripped = line.lstrip(b" \t")
            if not stripped or stripped.startswith(b"#"):
                continue
            start = len(line) - len(stripped)
            parts = stripped.split()
            if len(parts) != 2:
                errors.append(f"{path}:{number}:{start + 1}: error: expected `METHODS pattern`")
                continue
            methods, pattern = parts
            pattern_start = line.index(pattern, start + len(methods))
            try:
                router.add(pattern, route_id=number, methods=methods)
            except FastRouterError as error:
                column = start if error.code == FR_EINVAL else pattern_start + error.offset
                errors.append(f"{path}:{number}:{column + 1}: error: {strerror(error.code)}: {error.message}")
                continue
            lines[number] = (methods + b" " + pattern).decode("utf-8", errors="surrogateescape")
    return errors, lines


def dispatch_line(router: Router, lines: Dict[int, str], request: bytes) -> str:
    """The output line of examples/c/dispatch for one `METHOD URL` request."""
    head = request.decode("utf-8", errors="surrogateescape") + " -> "
    method, space, url = request.partition(b" ")
    if not space or not method:
        return head + "400 expected `METHOD URL`"
    try:
        answer = router.match_method(method, url)
    except FastRouterError as error:
        return head + ("400 invalid method" if error.code == FR_EINVAL else "400 " + strerror(error.code))
    if answer.method_not_allowed:
        return head + "405 Allow: " + answer.allow_header
    if answer.not_found:
        return head + "404"
    text = describe(answer.match)
    route_id, _, rest = text.partition(" ")
    return head + f"route {route_id}: {lines.get(answer.match.route_id, '?')}" + (" " + rest if rest else "")


def _quoted(value: bytes) -> str:
    out = bytearray(b'"')
    for byte in value:
        if byte in (0x22, 0x5C):
            out += b"\\" + bytes([byte])
        elif byte < 0x20 or byte == 0x7F:
            out += b"\\x%02X" % byte
        else:
            out.append(byte)
    out += b'"'
    return out.decode("utf-8", errors="surrogateescape")


def describe(match: Match) -> str:
    """One candidate as router-cli prints it: `ID name="value" ... [#fragment]`."""
    text = str(match.route_id)
    for name, value in match.params:
        text += " " + name.decode("utf-8", errors="surrogateescape") + "=" + _quoted(value)
    if match.fragment is not None:
        text += " #" + match.fragment.decode("utf-8", errors="surrogateescape")
    return text


def route_line(router: Router, url: bytes, everything: bool) -> str:
    """The output line for one URL."""
    head = url.decode("utf-8", errors="surrogateescape") + " -> "
    try:
        found = router.matches(url) if everything else [m for m in [router.match(url)] if m]
    except FastRouterError as error:
        return head + "error: " + strerror(error.code)
    return head + (" | ".join(describe(m) for m in found) if found else "no match")


USAGE = "usage: route.py [-i] [-G] [-P] [-a] ROUTES_FILE [URL ...]\n" \
        "       route.py -m [-H] ROUTES_FILE [REQUEST ...]"


def main(argv: Sequence[str]) -> int:
    flags, everything, requests, args = 0, False, False, list(argv)
    options = {"-i": FR_CASE_INSENSITIVE, "-G": FR_NO_GLOBAL_FALLBACK, "-P": FR_NO_PLUS_AS_SPACE,
               "-H": FR_NO_HEAD_FALLBACK}
    while args and args[0].startswith("-") and args[0] != "-":
        option = args.pop(0)
        if option in options:
            flags |= options[option]
        elif option == "-a":
            everything = True
        elif option == "-m":
            requests = True
        else:
            args = []
            break
    if not args:
        print(USAGE, file=sys.stderr)
        return 2
    router = Router(flags)
    if requests:
        errors, lines = load_method_routes(router, args[0])
    else:
        errors, lines = load_routes(router, args[0]), {}
    if errors:
        print("\n".join(errors), file=sys.stderr)
        return 1
    inputs = [u.encode("utf-8", errors="surrogateescape") for u in args[1:]] or \
             [line.rstrip(b"\r\n") for line in sys.stdin.buffer]
    out = sys.stdout.buffer
    for item in inputs:
        if item:
            text = dispatch_line(router, lines, item) if requests else route_line(router, item, everything)
            out.write(text.encode("utf-8", errors="surrogateescape") + b"\n")
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
