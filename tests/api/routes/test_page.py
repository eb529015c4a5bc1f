"""The web page players use at the table: served whole, with every element its scripts look up."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser

import pytest
from fastapi.testclient import TestClient

from arbitre.api.i18n import catalogue
from arbitre.api.live.demo import DemoSource
from arbitre.api.live.table import LiveTable
from tests.api.routes.served import served_demo


@pytest.fixture(scope="module")
def demo() -> Iterator[tuple[TestClient, LiveTable, DemoSource]]:
    with served_demo() as served:
        yield served


class _PageParts(HTMLParser):
    """The parts of an HTML page the tests look at: its title, the scripts it loads and
    the ``data-testid`` of each element (repeats kept)."""

    def __init__(self) -> None:
        super().__init__()
        self.title = ""
        self.scripts: list[str] = []
        self.test_ids: list[str] = []
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("data-testid"):
            self.test_ids.append(str(found["data-testid"]))
        if tag == "script" and found.get("src"):
            self.scripts.append(str(found["src"]))
        self._in_title = tag == "title"

    def handle_endtag(self, tag: str) -> None:
        self._in_title = False

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data


def test_the_page_is_served(demo: tuple[TestClient, LiveTable, DemoSource]) -> None:
    client, _, _ = demo
    reply = client.get("/")
    assert reply.status_code == 200
    assert reply.headers["content-type"].startswith("text/html")
    page = _PageParts()
    page.feed(reply.text)
    # The title is the catalogue's name of the app, in English (the page's first language).
    assert page.title == catalogue()["en"]["app.title"] == "arbitre"
    # It loads one script, the app, from this server; the app imports the rest.
    assert page.scripts == ["static/app.js"]
    scripts = {"app.js": client.get("/static/app.js")}
    for name in re.findall(r'from "\./([\w-]+\.js)"', scripts["app.js"].text):
        scripts[name] = client.get(f"/static/{name}")
    assert {"dom.js", "draw.js", "editor.js", "i18n.js", "server.js"} <= set(scripts)
    for name, script in scripts.items():
        assert script.status_code == 200, name
        assert "javascript" in script.headers["content-type"], name
    # Each element the scripts look up by its data-testid is on the page, once; app.js
    # also looks up `mode-${mode}` for each of its three modes.
    wanted = {"mode-distance", "mode-fire", "mode-move"}
    for script in scripts.values():
        wanted |= set(re.findall(r'byTestId\("([\w-]+)"\)', script.text))
    assert len(wanted) > 50  # 43 in app.js and 16 in editor.js: the pattern finds them
    missing = sorted(wanted - set(page.test_ids))
    assert not missing, missing
    repeated = sorted({i for i in page.test_ids if page.test_ids.count(i) > 1} & wanted)
    assert not repeated, repeated
