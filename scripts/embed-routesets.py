#!/usr/bin/env python3
"""Regenerates Sources/fastrouter-bench/RouteSets/EmbeddedRouteSets.swift and the plain-text copies
in Tests/perf/routesets/ from a routesets/ folder.

The benchmark ships its default suite inside the executable so that it runs anywhere the
package builds. This script turns the route lists (`METHOD /path`) and their request URLs
(`urls/<set>.urls`, line i answered by route i) into Swift source:

  * equal paths are merged, keeping the first occurrence's position: the sets looked up without
    a method;
  * every request line is kept, in order, and points at the merged route of its own line;
  * the method of every line is kept beside it, so that the benchmark also registers each line
    as a route of its own method and looks each request up with its method.

The same sets are written as text for C programs (`make perf`): `<set>.routes`, one merged
pattern per line, and `<set>.urls`, one request URL per line; then `<set>-methods.routes`, one
`METHOD pattern` per line of the list, and `<set>-methods.urls`, `METHOD url` for each request,
in the same order as `<set>.urls`. Lines starting with `#` are comments.

Usage: scripts/embed-routesets.py [ROUTESETS_DIR] [OUTPUT_FILE] [TEXT_DIR]
  ROUTESETS_DIR  the folder of route lists (NAME.txt) and urls/NAME.urls; defaults to $ROUTESETS
  OUTPUT_FILE    defaults to Sources/fastrouter-bench/RouteSets/EmbeddedRouteSets.swift
  TEXT_DIR       defaults to Tests/perf/routesets
"""

import hashlib
import os
import sys

SETS = [
    # (name in the benchmark, file stem, Swift identifier, one-line description)
    ("static", "static", "staticFiles", "the Go website's static files"),
    ("github", "github", "github", "GitHub API v3"),
    ("gplus", "gplus", "googlePlus", "Google+ API"),
    ("parse", "parse", "parse", "Parse REST API"),
]


def fail(message):
    sys.stderr.write(f"embed-routesets: {message}\n")
    sys.exit(1)


def read_lines(path):
    try:
        with open(path, encoding="utf-8") as handle:
            return [line.rstrip("\n") for line in handle if line.strip()]
    except OSError as error:
        fail(f"cannot read {path}: {error.strerror}")


def split_line(path, number, line):
    parts = line.split()
    if len(parts) != 2 or not parts[1].startswith("/"):
        fail(f"{path}:{number}: expected 'METHOD /path', got {line!r}")
    return parts[0], parts[1]


def swift_string(text):
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def merge(directory, stem):
    """The set's distinct paths, its request URLs, per URL the index of its path, and per line
    its method."""
    routes_path = os.path.join(directory, f"{stem}.txt")
    urls_path = os.path.join(directory, "urls", f"{stem}.urls")
    route_lines = read_lines(routes_path)
    url_lines = read_lines(urls_path)
    if len(route_lines) != len(url_lines):
        fail(f"{routes_path} has {len(route_lines)} routes but {urls_path} has {len(url_lines)} URLs")

    merged = []          # unique paths, first occurrence order
    index_of = {}        # path -> merged index
    route_of_request = []
    urls = []
    methods = []
    for number, (route_line, url_line) in enumerate(zip(route_lines, url_lines), start=1):
        method, path = split_line(routes_path, number, route_line)
        url_method, url = split_line(urls_path, number, url_line)
        if method != url_method:
            fail(f"line {number}: route method {method} but URL method {url_method}")
        if path not in index_of:
            index_of[path] = len(merged)
            merged.append(path)
        route_of_request.append(index_of[path])
        urls.append(url)
        methods.append(method)

    with open(routes_path, "rb") as handle:
        digest = hashlib.md5(handle.read()).hexdigest()
    return merged, urls, route_of_request, methods, digest, len(route_lines)


def embed(directory, name, stem, identifier, description):
    merged, urls, route_of_request, methods, digest, route_count = merge(directory, stem)
    lines = []
    lines.append(f"    /// `{name}`, {description}: {len(merged)} distinct paths from {route_count} routes"
                 f" (`{stem}.txt`, md5 {digest}).")
    lines.append(f"    static let {identifier} = EmbeddedPathSet(")
    lines.append(f"        name: {swift_string(name)},")
    lines.append(f"        summary: {swift_string(description)},")
    lines.append("        routes: [")
    for path in merged:
        lines.append(f"            {swift_string(path)},")
    lines.append("        ],")
    lines.append("        urls: [")
    for url in urls:
        lines.append(f"            {swift_string(url)},")
    lines.append("        ],")
    lines.append("        routeOfURL: [")
    for start in range(0, len(route_of_request), 20):
        chunk = ", ".join(str(value) for value in route_of_request[start:start + 20])
        lines.append(f"            {chunk},")
    lines.append("        ],")
    lines.append("        methods: [")
    for start in range(0, len(methods), 10):
        chunk = ", ".join(swift_string(method) for method in methods[start:start + 10])
        lines.append(f"            {chunk},")
    lines.append("        ]")
    lines.append("    )")
    return "\n".join(lines)


def write_text(directory, text_dir, name, stem, description):
    merged, urls, route_of_request, methods, digest, route_count = merge(directory, stem)
    source = (f"# {name}, {description}: {len(merged)} distinct paths from {route_count} routes\n"
              f"# ({stem}.txt, md5 {digest}) of julienschmidt/go-http-routing-benchmark (BSD 3-Clause).\n"
              "# Generated by scripts/embed-routesets.py; do not edit.\n")
    outputs = [
        (f"{name}.routes", "# One pattern per line.\n", merged),
        (f"{name}.urls", "# One request URL per line; each matches a pattern of " + f"{name}.routes.\n", urls),
        (f"{name}-methods.routes", "# One route per line of the list: its method, then its pattern.\n",
         [f"{method} {merged[route]}" for method, route in zip(methods, route_of_request)]),
        (f"{name}-methods.urls", f"# The URLs of {name}.urls, in the same order, each after its method; line i is\n"
         f"# answered by route i of {name}-methods.routes.\n",
         [f"{method} {url}" for method, url in zip(methods, urls)]),
    ]
    for file_name, note, entries in outputs:
        with open(os.path.join(text_dir, file_name), "w", encoding="utf-8") as handle:
            handle.write(source + note + "".join(entry + "\n" for entry in entries))


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    directory = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("ROUTESETS")
    if not directory:
        fail("give the routesets folder (NAME.txt route lists and urls/NAME.urls) as the first argument or in $ROUTESETS")
    output = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        root, "Sources", "fastrouter-bench", "RouteSets", "EmbeddedRouteSets.swift")
    text_dir = sys.argv[3] if len(sys.argv) > 3 else os.path.join(root, "Tests", "perf", "routesets")
    blocks = [embed(directory, *entry) for entry in SETS]
    header = (
        "// Generated by scripts/embed-routesets.py from the routesets/ lists of\n"
        "// julienschmidt/go-http-routing-benchmark (BSD 3-Clause) and their request URLs.\n"
        "// Do not edit: change the lists and run the script again.\n"
        "\n"
        "extension EmbeddedPathSet {\n"
    )
    names = ", ".join(identifier for _, _, identifier, _ in SETS)
    footer = (
        "\n\n"
        "    /// Every embedded set, in suite order.\n"
        f"    static let all: [EmbeddedPathSet] = [{names}]\n"
        "}\n"
    )
    text = header + "\n\n".join(blocks) + footer
    with open(output, "w", encoding="utf-8") as handle:
        handle.write(text)
    sys.stderr.write(f"embed-routesets: wrote {output}\n")
    os.makedirs(text_dir, exist_ok=True)
    for name, stem, _, description in SETS:
        write_text(directory, text_dir, name, stem, description)
    sys.stderr.write(f"embed-routesets: wrote {text_dir}/<set>.routes, <set>.urls, <set>-methods.routes and <set>-methods.urls\n")


if __name__ == "__main__":
    main()
