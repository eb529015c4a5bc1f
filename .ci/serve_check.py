"""Serve the demo table with an installed `arbitre` and fetch everything the page needs.

Usage: python serve_check.py PATH/TO/arbitre

Starts ``arbitre serve --demo`` in the current folder, then fetches ``/``, every file the
page names (followed through stylesheets, ES module imports and the JSON files the
scripts fetch), ``/docs`` and ``/redoc`` with everything they name. Fails if a file is
missing or if anything would be loaded from another machine. Standard library only.
"""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from urllib.parse import urljoin, urlsplit

# What a file names: HTML attributes, CSS url(), ES imports, fetch() and JSON imports.
REFERENCES = (
    r"""(?:src|href|spec-url)=["']([^"'#]+)["']""",
    r"""url\(\s*["']?([^"')]+)["']?\s*\)""",
    r"""\bimport\b[^"';]*?from\s*["']([^"']+)["']""",
    r"""\bimport\s*\(\s*["']([^"']+)["']""",
    r"""\bimport\s+["']([^"']+)["']""",
    r"""fetch\(\s*["']([^"']+\.json)["']""",
    r"""\burl:\s*["']([^"']+)["']""",
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as reply:
        if reply.status != 200:
            raise SystemExit(f"ci: {url} answered {reply.status}")
        return bytes(reply.read())


def named_in(text: str) -> list[str]:
    names: list[str] = []
    for pattern in REFERENCES:
        names.extend(match.strip() for match in re.findall(pattern, text))
    return [name for name in names if name and not name.startswith(("data:", "blob:", "mailto:"))]


def crawl(base: str, start: str) -> set[str]:
    """Every URL reachable from ``start`` through the references above (same server)."""
    seen: set[str] = set()
    queue = [urljoin(base, start)]
    while queue:
        url = queue.pop()
        if url in seen:
            continue
        seen.add(url)
        body = get(url)
        path = urlsplit(url).path
        ours = path.startswith("/static/") and path.endswith((".html", ".js", ".css"))
        if not (ours or path in ("/", "/docs", "/redoc")):
            continue  # read the page's own files, not the bundled Swagger UI and ReDoc
        for name in named_in(body.decode("utf-8", errors="replace")):
            target = urljoin(url, name)
            if urlsplit(target).netloc != urlsplit(base).netloc:
                raise SystemExit(f"ci: {url} loads {name} from another machine")
            if urlsplit(target).path.startswith("/api/"):
                continue  # live routes (the camera stream never ends); tested in the suite
            queue.append(target)
    return seen


def main() -> None:
    arbitre = sys.argv[1]
    port = free_port()
    server = subprocess.Popen(
        [arbitre, "serve", "--demo", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                get(base + "api/health")
                break
            except (urllib.error.URLError, ConnectionError):
                if server.poll() is not None or time.monotonic() > deadline:
                    output = server.stdout.read() if server.stdout else ""
                    raise SystemExit(f"ci: arbitre serve --demo did not start:\n{output}") from None
                time.sleep(0.5)
        page = crawl(base, "/")
        docs = crawl(base, "/docs") | crawl(base, "/redoc")
        for needed in ("static/app.js", "static/style.css", "static/i18n.js"):
            if base + needed not in page:
                raise SystemExit(f"ci: the page does not load {needed}: {sorted(page)}")
        if base + "openapi.json" not in docs:
            raise SystemExit(f"ci: /docs does not load /openapi.json: {sorted(docs)}")
        print(f"ci: the installed arbitre serves the page ({len(page)} files) and the docs")
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
