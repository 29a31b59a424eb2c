"""Generated hostile input for the HTTP API (issue 35), sent to a real server
on a loopback port (:mod:`tests.hostile.live_server_35`): JSON bodies for
every POST route, each a valid body mutated (a value of the wrong type, huge
or tiny numbers, deep nesting, unknown keys, a string where an object goes,
budgets from 1e-9 to 1e308, seeds out of range, keys removed) or raw bytes
that are not JSON at all; and random paths, queries and methods.

Asserted for every request: the status is 2xx or 4xx, or 503/504 with
their documented meaning (the pool full, no answer within the budget);
under ``/api`` the reply is a JSON object ``{"ok": ..., "error": "one
line"}``; nothing new in the server's log holds a traceback or "internal
error"; and at the end the server still answers. Bounded: about 60 bodies
and 40 paths by default, ten times that in the long form
(``KOZYRI_HOSTILE_LONG=1``); the server cuts any budget to 1 s.
"""

from __future__ import annotations

import json
import os
import urllib.parse

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")

from kozyri.owntrumps.record import GameRecord  # noqa: E402
from tests.hostile.live_server_35 import HostileServer  # noqa: E402

LONG = os.environ.get("KOZYRI_HOSTILE_LONG") == "1"


def generated(examples: int):
    return settings(max_examples=examples * (10 if LONG else 1), deadline=None, derandomize=not LONG,
                    database=None, suppress_health_check=list(HealthCheck))


#: Statuses a server error may have: the documented ones (pool full, no answer in time).
SERVER_STATUSES = {503, 504}

_RECORD = GameRecord.deal(deck="4x3", n_players=2, seed=1)
RECORD = _RECORD.to_json()
PLAYED = _RECORD.play(_RECORD.final.legal_moves()[0]).to_json()
REVERSI_END = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX--OOO X"

#: A valid body of each POST route (``{table}`` is a real table's id, filled in at run time).
ROUTES = {
    "/api/owntrumps/bestmove": {"game": RECORD, "nodes": 20},
    "/api/owntrumps/legal_moves": {"game": PLAYED},
    "/api/owntrumps/solve": {"game": RECORD, "time": 0.05},
    "/api/owntrumps/analyze": {"game": PLAYED, "nodes": 5},
    "/api/owntrumps/trumps": {"game": "QS KH AS | KS QH AH", "time": 0.01},
    "/api/reversi/bestmove": {"moves": "f5d6c3", "time": 0.01},
    "/api/reversi/solve": {"position": REVERSI_END, "time": 0.05},
    "/api/tables": {"deck": "4x3", "players": 2, "seed": 3, "seats": [None, {"level": 1}]},
    "/api/tables/{table}/join": {"seat": 0, "name": "Ann"},
    "/api/tables/{table}/leave": {"token": "x" * 20},
    "/api/tables/{table}/rematch": {"token": "x" * 20},
}
#: Keys worth confusing: every route's own, the table options, and some nobody takes.
KEYS = sorted({key for body in ROUTES.values() for key in body} | {
    "level", "agent", "memory", "seat", "open", "trumps", "leader", "must_beat", "pass_sixes", "value_only",
    "mode", "game", "deck", "rules", "turn_cap", "time_control", "takeover", "unlisted", "rated", "player",
    "since", "id", "type", "__proto__", "", "é"})

SPECIAL_NUMBERS = [0, -1, 1, 1e-9, 1e-4, 0.5, 1e308, -1e308, 2**31, 2**53 + 1, 2**63 - 1, 2**63, 2**64, -2**63,
                   10**38, 10**300, 1.5, 5e-324, True, False]
JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(min_value=-2**80, max_value=2**80),
              st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=12),
              st.sampled_from(SPECIAL_NUMBERS)),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12)


def _nested(depth: int, leaf):
    for _ in range(depth):
        leaf = [leaf]
    return leaf


HOSTILE_VALUES = st.one_of(
    JSON_VALUES,
    st.sampled_from(SPECIAL_NUMBERS),
    st.sampled_from(["", " ", "choose", "4x3", "36", "SH", "QS KH AS | KS QH AH", "f5", "x" * 5000, "\x00",
                     "\ud7ff", "NaN", "1e999", "-0", "None", "null", "[]", "{}"]),
    st.integers(min_value=2, max_value=300).map(lambda depth: _nested(depth, 0)),
    st.just(RECORD), st.just(json.dumps(RECORD)), st.just({"start": {"deck": "4x3"}}), st.just({"moves": ["QS"]}),
    st.just({**RECORD, "moves": ["QS"] * 3000}), st.just([None, None]), st.just([{"level": 99}, None]),
    st.just({"kind": "game", "seconds": 1e308, "increment": -1}), st.just({"level": 2**64, "grace": -1}),
)

#: One change to a body: a key set to a hostile value, a key removed, or the whole body replaced.
MUTATION = st.one_of(
    st.tuples(st.just("set"), st.one_of(st.sampled_from(KEYS), st.text(max_size=6)), HOSTILE_VALUES),
    st.tuples(st.just("drop"), st.sampled_from(KEYS), st.none()),
    st.tuples(st.just("replace"), st.none(), HOSTILE_VALUES),
)

#: Bodies that are not JSON objects at all (raw bytes).
RAW_BODIES = st.one_of(
    st.binary(max_size=200),
    st.sampled_from([b"NaN", b"Infinity", b"-Infinity", b"1e999", b"[" * 20000, b'{"a":' * 2000, b"\xff\xfe{}",
                     b'{"game": 1e999999}', b'{"seed": ' + b"9" * 5000 + b"}", b'{"a": 1, "a": 2}',
                     b'{"time": NaN}', b" " * 1000, b"{" + b" " * (300 * 1024) + b"}", b"\xef\xbb\xbf{}"]),
    JSON_VALUES.map(lambda value: json.dumps(value).encode()),
)


def _mutated(body, mutations):
    for action, key, value in mutations:
        if action == "replace":
            body = value
        elif not isinstance(body, dict):
            body = {}
        elif action == "set":
            body = {**body, key: value}
        else:
            body = {k: v for k, v in body.items() if k != key}
    return body


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("http35")
    live = HostileServer(folder / "h.db", folder / "server.log")
    table = live.http.post("/api/tables", json=ROUTES["/api/tables"]).json()
    live.table = table["id"]
    live.checked = 0
    yield live
    assert live.stop() == 0
    assert not live.bad_log_lines(), "\n".join(live.bad_log_lines())


def _checked(server, method: str, url: str, reply: httpx.Response, sent) -> None:
    """One reply keeps the API's promise (see the module's docstring)."""
    what = f"{method} {url} {str(sent)[:300]!r} -> {reply.status_code} {reply.text[:300]!r}"
    assert reply.status_code < 500 or reply.status_code in SERVER_STATUSES, what
    assert "Traceback" not in reply.text and "internal error" not in reply.text, what
    path = urllib.parse.urlsplit(url).path
    if (path == "/api" or path.startswith("/api/")) and method != "HEAD":
        assert reply.headers.get("content-type", "").startswith("application/json"), what
        data = reply.json()
        assert isinstance(data, dict) and isinstance(data.get("ok"), bool), what
        if reply.status_code >= 400:
            assert data["ok"] is False and isinstance(data.get("error"), str), what
            assert data["error"] and "\n" not in data["error"], what
        else:
            assert data["ok"] is True or path in ("/api/engine", "/api/openapi.json", "/api/health"), what
    bad = server.bad_log_lines()
    assert not bad, what + "\n" + "\n".join(bad)
    server.checked += 1


def _send(server, method: str, url: str, content: bytes | None = None):
    try:
        return server.http.request(method, server.base + url, content=content,  # absolute: a path may start "//"
                                   headers={"content-type": "application/json"} if content is not None else None)
    except httpx.RemoteProtocolError as exc:  # the server closed the connection without a reply
        pytest.fail(f"{method} {url} {content[:200] if content else ''!r}: no reply ({exc})")


@pytest.mark.slow
@generated(60)
@given(route=st.sampled_from(sorted(ROUTES)), mutations=st.lists(MUTATION, max_size=3),
       raw=st.one_of(st.none(), RAW_BODIES), other_table=st.booleans())
def test_generated_bodies_get_a_json_reply_and_never_a_server_error(server, route, mutations, raw, other_table):
    url = route.replace("{table}", "no-such-table" if other_table else server.table)
    if raw is None:
        body = _mutated(ROUTES[route], mutations)
        content = json.dumps(body).encode("utf-8", "surrogatepass")
    else:
        content = body = raw
    _checked(server, "POST", url, _send(server, "POST", url, content), body)


SEGMENTS = ["api", "owntrumps", "reversi", "tables", "bestmove", "solve", "trumps", "analyze", "legal_moves",
            "join", "leave", "rematch", "record", "review", "engine", "openapi.json", "ws", "health", "players",
            "leaderboard", "..", ".", "%2e%2e", "%00", "index.html", "js", "", "{table}", "x" * 300]
QUERY_KEYS = ["all", "time", "nodes", "seat", "game", "since", "page"]
QUERY_VALUES = ["", "1", "0", "-1", "true", "1e-9", "1e308", "nan", "inf", "fifty", "9" * 400, "%00", "[]"]


@pytest.mark.slow
@generated(40)
@given(method=st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"]),
       api=st.booleans(),
       segments=st.lists(st.one_of(st.sampled_from(SEGMENTS), st.text(max_size=10)), max_size=5),
       query=st.lists(st.tuples(st.sampled_from(QUERY_KEYS), st.one_of(st.sampled_from(QUERY_VALUES),
                                                                        st.text(max_size=8))), max_size=3))
def test_generated_paths_and_methods_get_a_json_reply_and_never_a_server_error(server, method, api, segments,
                                                                                 query):
    parts = ["api"] * api + [urllib.parse.quote(s.replace("{table}", server.table), safe="%.") for s in segments]
    url = "/" + "/".join(parts)
    if query:
        url += "?" + urllib.parse.urlencode(query)
    content = b"{}" if method in ("POST", "PUT", "PATCH") else None
    _checked(server, method, url, _send(server, method, url, content), None)


@pytest.mark.slow
def test_the_server_answers_after_the_generated_requests(server):
    """Run last in this file: the server is up and the requests above were all checked."""
    health = server.http.get("/api/health")
    if health.status_code == 404:  # a server without the health route: its engine listing answers
        health = server.http.get("/api/engine")
    assert health.status_code == 200, health.text
    reply = server.http.post("/api/owntrumps/bestmove", json={"game": RECORD, "nodes": 20})
    assert reply.status_code == 200 and reply.json()["move"], reply.text
    assert server.checked >= 1
    assert server.process.poll() is None
