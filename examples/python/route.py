#!/usr/bin/env python3
"""Route URLs with FastRouter from Python through ctypes, with no compiled glue.

    python3 route.py [-i] [-G] [-P] [-a] ROUTES_FILE [URL ...]    (URLs from stdin when none)

ROUTES_FILE has one `pattern [priority]` per line and the route id is the line number, as for
examples/c/router-cli, and the output is the same, line for line:

    /users/42?tab=posts -> 2 id="42" tab="posts"

As a module:

    from route import Router
    router = Router()
    router.add("/users/{id:int}", route_id=7)
    router.match("/users/42?tab=posts")   # -> Match(route_id=7, params=[('id', '42'), ('tab', 'posts')], fragment=None)

The library is found through $FASTROUTER_LIB (a path to libfastrouter.so), then
`pkg-config --variable=libdir fastrouter`, then the system's library search.
"""

import ctypes
import ctypes.util
import os
import subprocess
import sys
from typing import List, NamedTuple, Optional, Sequence, Tuple

FR_OK = 0
FR_NOMATCH = 1
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


def _as_bytes(text) -> bytes:
    return text if isinstance(text, bytes) else text.encode()


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

    def add(self, pattern, route_id: int, priority: int = 0) -> None:
        """Registers a route; raises FastRouterError (with the pattern offset) on failure."""
        data = _as_bytes(pattern)
        err = FrError()
        if _lib.fr_router_add(self._router, data, len(data), priority, route_id, ctypes.byref(err)) != FR_OK:
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


USAGE = "usage: route.py [-i] [-G] [-P] [-a] ROUTES_FILE [URL ...]"


def main(argv: Sequence[str]) -> int:
    flags, everything, args = 0, False, list(argv)
    options = {"-i": FR_CASE_INSENSITIVE, "-G": FR_NO_GLOBAL_FALLBACK, "-P": FR_NO_PLUS_AS_SPACE}
    while args and args[0].startswith("-") and args[0] != "-":
        option = args.pop(0)
        if option in options:
            flags |= options[option]
        elif option == "-a":
            everything = True
        else:
            args = []
            break
    if not args:
        print(USAGE, file=sys.stderr)
        return 2
    router = Router(flags)
    errors = load_routes(router, args[0])
    if errors:
        print("\n".join(errors), file=sys.stderr)
        return 1
    urls = [u.encode("utf-8", errors="surrogateescape") for u in args[1:]] or \
           [line.rstrip(b"\r\n") for line in sys.stdin.buffer]
    out = sys.stdout.buffer
    for url in urls:
        if url:
            out.write(route_line(router, url, everything).encode("utf-8", errors="surrogateescape") + b"\n")
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
