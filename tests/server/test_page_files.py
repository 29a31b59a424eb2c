"""The web page's files as the server serves them (no browser needed):
index.html at ``/``, its stylesheet and scripts, only local assets (no
CDN, nothing fetched from the internet), scripts that parse (``node
--check`` where node is installed), and the API still answering JSON
under ``/api``. The page itself is played in a real browser by
tests/browser/test_page.py."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from tests.server.helpers import authenticate, client, join, new_table

from kozyri_server.app import STATIC_DIR  # noqa: E402

#: The one absolute URL a script may hold: the SVG namespace (a name, never fetched).
NAMESPACES = {"http://www.w3.org/2000/svg"}


def _local_assets(html: str) -> list[str]:
    """What the page fetches (inline ``data:`` URIs fetch nothing)."""
    return [url for url in re.findall(r'(?:src|href)="([^"#][^"]*)"', html) if not url.startswith("data:")]


def test_the_page_and_its_assets_are_served(tmp_path):
    with client(tmp_path / "p.db") as c:
        page = c.get("/")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assets = _local_assets(page.text)
        assert "css/page.css" in assets and "js/app.js" in assets
        for asset in assets:
            assert not re.match(r"^(?:[a-z]+:)?//", asset), f"{asset} is not a local asset"
            reply = c.get("/" + asset)
            assert reply.status_code == 200, asset
            served = reply.text
            if asset.endswith(".html"):  # a page comes with its reader's words (kozyri_server.words): the file else
                served = re.sub(r'<script type="application/json" id="kozyri-words">.*?</script>\n', "", served,
                                flags=re.S)
            assert served == (STATIC_DIR / asset).read_text(encoding="utf-8")
        assert c.get("/js/app.js").headers["content-type"].split(";")[0] in ("text/javascript",
                                                                               "application/javascript")
        # the API is unchanged: JSON, and a JSON 404 for an unknown path
        assert c.get("/api/engine").json()["ok"] is True
        missing = c.get("/api/no-such-route")
        assert missing.status_code == 404 and missing.json()["ok"] is False
        assert c.get("/no-such-file.js").status_code == 404


def test_no_file_of_the_page_loads_anything_from_the_internet():
    files = [p for p in STATIC_DIR.rglob("*") if p.is_file() and "__pycache__" not in p.parts]  # an install compiles the maker
    assert {p.suffix for p in files} <= {".html", ".css", ".js", ".wav", ".py", ".woff2", ".txt", ".md"}
    assert {p.parent.name for p in files if p.suffix in (".wav", ".py")} <= {"sounds"}  # the sounds and their maker
    # the fonts, their licence and where they came from (an address in a licence is a name, not a fetch)
    assert {p.parent.name for p in files if p.suffix in (".woff2", ".txt", ".md")} <= {"fonts"}
    for path in (p for p in files if p.suffix not in (".wav", ".woff2", ".txt", ".md")):
        urls = set(re.findall(r"(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}[^\s\"')]*", path.read_text(encoding="utf-8")))
        assert urls <= NAMESPACES, (path.name, urls - NAMESPACES)
        assert "@import" not in path.read_text(encoding="utf-8")


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.parametrize("script", sorted(p.name for p in (STATIC_DIR / "js").glob("*.js")))
def test_every_script_parses(script):
    result = subprocess.run(["node", "--check", str(STATIC_DIR / "js" / script)], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr


def test_api_paths_never_reach_the_page(tmp_path):
    """Under /api only the routes answer, in JSON: an unknown path 404, a known path with another method 405."""
    with client(tmp_path / "p.db") as c:
        for method, path, status in (("post", "/api/nowhere", 404), ("get", "/api/nowhere/index.html", 404),
                                     ("get", "/api/owntrumps/bestmove", 405), ("post", "/", 405)):
            reply = getattr(c, method)(path)
            assert reply.status_code == status, (method, path)
            assert reply.json()["ok"] is False


def test_a_hint_from_the_view_the_page_holds(tmp_path):
    """The page's hint: the seat's own ``view`` from its last state, sent to the public best-move route,
    gives one of that seat's legal moves (the engine sees no more than the seat)."""
    with client(tmp_path / "h.db") as c:
        table_id = new_table(c, deck="4x3", players=3, seed=3, trumps="SHD", leader=0,
                             seats=[None, {"level": 2}, {"level": 2}])
        token = join(c, table_id, 0)
        with c.websocket_connect("/api/ws") as ws:
            seat = authenticate(ws, table_id, token, 0)
            state = seat.state["state"]
            assert state["to_move"] == 0
            reply = c.post("/api/owntrumps/bestmove", json={"game": state["view"], "level": 3})
            assert reply.status_code == 200, reply.text
            assert reply.json()["move"] in state["legal_moves"]


def test_every_script_is_loaded_by_a_page_and_the_table_modules_in_order():
    """Each script of js/ is loaded by one of the pages; index.html loads the lobby, the table and its
    end, the online table's parts and the router (app.js, last: it starts the page)."""
    pages = {p.name: p.read_text(encoding="utf-8") for p in STATIC_DIR.glob("*.html")}
    loaded = {name: re.findall(r'<script src="js/([^"]+)"', html) for name, html in pages.items()}
    scripts = {p.name for p in (STATIC_DIR / "js").glob("*.js")}
    assert scripts <= {s for found in loaded.values() for s in found}, scripts
    index = loaded["index.html"]
    assert index[0] == "i18n.js" and index[-1] == "app.js", index  # the words first: every script may ask for them
    assert all(found[0] == "i18n.js" for found in loaded.values()), loaded
    for before, after in (("api.js", "lobby.js"), ("online.js", "lobby.js"), ("online.js", "table.js"),
                          ("owntrumps.js", "table.js"), ("table.js", "ending.js")):
        assert index.index(before) < index.index(after), (before, after)
