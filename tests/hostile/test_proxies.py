"""Proxy headers are trusted only from the proxies ``--forwarded-allow-ips``
names (kozyri_server.serving).

A real server on loopback (uvicorn as ``kozyri serve`` configures it). The
whole 127.0.0.0/8 block is this machine's, so the test's clients speak from
two addresses: 127.0.0.1, a client, and 127.0.0.2, the trusted proxy when
one is named. Per-address limits are on for loopback (``limit_loopback``)
so that a loopback client is counted like any other.
"""

from __future__ import annotations

import httpx
import pytest

pytest.importorskip("uvicorn")

from kozyri.core import InvalidInput  # noqa: E402
from kozyri_server.serving import trusted_proxies  # noqa: E402
from tests.server.loopback import LoopbackServer  # noqa: E402

TABLE = {"game": "owntrumps", "deck": "4x3", "players": 2, "seats": [None, {"level": 1}]}
PROXY = "127.0.0.2"


def client_from(server: LoopbackServer, address: str) -> httpx.Client:
    return httpx.Client(base_url=server.base, timeout=30,
                        transport=httpx.HTTPTransport(local_address=address))


def create(http: httpx.Client, forwarded: str | None = None) -> int:
    headers = {"X-Forwarded-For": forwarded} if forwarded else {}
    return http.post("/api/tables", json=TABLE, headers=headers).status_code


def test_a_forged_header_from_an_untrusted_peer_changes_nothing(tmp_path):
    with LoopbackServer(tmp_path / "t.db", limit_loopback=True, creates_per_minute=2) as server, \
            client_from(server, "127.0.0.1") as http:
        assert [create(http, f"198.51.100.{k}") for k in range(2)] == [200, 200]
        # A new forged address a request does not buy a new allowance.
        assert create(http, "198.51.100.99") == 429
        assert create(http, "203.0.113.7, 198.51.100.98") == 429
        assert create(http) == 429


def test_a_forged_header_is_ignored_from_a_peer_that_is_not_the_named_proxy(tmp_path):
    with LoopbackServer(tmp_path / "t.db", forwarded_allow_ips=PROXY, limit_loopback=True,
                        creates_per_minute=2) as server, client_from(server, "127.0.0.1") as http:
        assert [create(http, f"198.51.100.{k}") for k in range(2)] == [200, 200]
        assert create(http, "198.51.100.99") == 429


def test_behind_a_trusted_proxy_every_client_has_its_own_limit(tmp_path):
    with LoopbackServer(tmp_path / "t.db", forwarded_allow_ips=PROXY, creates_per_minute=2) as server, \
            client_from(server, PROXY) as proxy:
        assert [create(proxy, "198.51.100.1") for _ in range(2)] == [200, 200]
        assert create(proxy, "198.51.100.1") == 429  # the real client is limited
        assert create(proxy, "198.51.100.2") == 200  # and only it
        # A proxy appends the address it saw: what the client wrote before it is not believed.
        assert create(proxy, "198.51.100.3, 198.51.100.1") == 429


def test_behind_a_trusted_proxy_wrong_transfer_codes_lock_out_the_real_client(tmp_path):
    with LoopbackServer(tmp_path / "t.db", forwarded_allow_ips=PROXY) as server, \
            client_from(server, PROXY) as proxy:
        server.app.state.players.failed_claims.most = 3
        guessing = {"X-Forwarded-For": "198.51.100.1"}
        for _ in range(3):
            assert proxy.post("/api/players/claim", json={"code": "AAAA-AAAA"}, headers=guessing).status_code == 401
        assert proxy.post("/api/players/claim", json={"code": "AAAA-AAAA"}, headers=guessing).status_code == 429
        other = {"X-Forwarded-For": "198.51.100.2"}
        assert proxy.post("/api/players/claim", json={"code": "AAAA-AAAA"}, headers=other).status_code == 401


@pytest.mark.parametrize("text, expected", [
    (None, None), ("127.0.0.1", "127.0.0.1"), (" 10.0.0.0/8 , ::1", "10.0.0.0/8,::1"), ("*", "*"),
])
def test_trusted_proxies_are_read_once(text, expected):
    assert trusted_proxies(text) == expected


@pytest.mark.parametrize("text", ["", ",", "localhost", "10.0.0.0/33", "127.0.0.1,nope"])
def test_a_wrong_proxy_list_is_refused(text):
    with pytest.raises(InvalidInput, match="forwarded-allow-ips"):
        trusted_proxies(text)
