"""The life of online tables after their creation: when an unfinished table
expires (:func:`expiry_seconds`, :func:`is_expired`: the sweeper of
:meth:`kozyri_server.tables.Tables.sweep` marks it ``"abandoned"``), and
what one client address and one player may do (:class:`AddressLimits`:
live tables created, creations and joins a minute).

A live table (open or playing) expires when nothing has happened at it
(no event stored, no seat taken) for:

- :attr:`~kozyri_server.limits.Limits.open_table_seconds` (default an hour)
  when no person has taken any of its seats yet;
- its own days per move when it is turn-based (``{"kind": "days"}``);
- :attr:`~kozyri_server.limits.Limits.idle_table_seconds` (default a day)
  otherwise;

never while a clock runs (the clock ends the game first, on time). An
abandoned table keeps its record (``GET /api/tables/ID/record``), is no
longer played, listed, restored as live at start, counted against the
live limits, nor rated.

**Per player as well as per address.** A request that carries a player
identity (a creation with ``Authorization: Bearer SECRET``, a join with
``"player"``) is counted against that player (its live tables, its
creations and joins a minute: the same bounds as an address's) and,
together with every other identified request from its address, against
:attr:`~kozyri_server.limits.Limits.players_per_address` times the
address's bounds. A request without a player is counted against its
address as before, apart from the identified ones. So honest players
behind one address (a school, a mobile carrier's NAT) each get their own
share, while one address making identities to get more is still bounded
(new players are bounded per address too: :mod:`kozyri_server.players`).

The address limits count per client address as the connection shows it
(``X-Forwarded-For`` is read only from the proxies ``kozyri serve
--forwarded-allow-ips`` names: :mod:`kozyri_server.serving`): a flood
from one address is refused (429) while other addresses still create and
join. They are kept in memory: a restarted server counts afresh, and each
of several servers sharing a database counts its own. Loopback clients
(the machine itself: its tests and benchmarks) are not limited here
unless :attr:`~kozyri_server.limits.Limits.limit_loopback` says so; the
bounds on sockets, new players and wrong transfer codes (elsewhere) count
loopback too.

>>> now = [0.0]
>>> rates = AddressRates(per_minute=2, clock=lambda: now[0])
>>> [rates.allow("a") for _ in range(3)], rates.allow("b")
([True, True, False], True)
>>> now[0] = 30.0
>>> rates.allow("a"), rates.allow("a")
(True, False)
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections.abc import Callable

from kozyri.core import KozyriError
from kozyri.play.clock import DAYS, SECONDS_A_DAY
from kozyri_server.limits import Limits
from kozyri_server.store import LIVE

#: Addresses a meter remembers at most; past it, the addresses whose bucket is full again are forgotten.
MOST_ADDRESSES = 10_000


class TooManyFromAddress(KozyriError):
    """One address (or player) asked for more than its share (the server answers
    429, as :class:`~kozyri_server.tables.TooMany` with the same code)."""

    code = "address_tables_open"


def expiry_seconds(room, limits: Limits) -> float | None:
    """How long ``room`` may stay idle before it is abandoned (see the module
    docstring), None when it never expires now (not live, or its clock runs)."""
    if room.status not in LIVE or room.is_over:
        return None
    clock = room.follow_clock()
    if clock is not None and clock.running is not None:
        return None
    if not any(kind == "person" and hashed is not None for kind, hashed in zip(room.kinds, room.hashes)):
        return limits.open_table_seconds
    control = room.options["time_control"]
    if control["kind"] == DAYS:
        return float(control["days"] * SECONDS_A_DAY)
    return limits.idle_table_seconds


def is_expired(room, limits: Limits, now: float) -> bool:
    """Whether ``room`` has been idle past its expiry at ``now`` (unix seconds)."""
    limit = expiry_seconds(room, limits)
    return limit is not None and now - room.active_at >= limit


def is_loopback(address: str) -> bool:
    """Whether ``address`` is this machine's (127.0.0.0/8, ::1)."""
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


class AddressRates:
    """A token bucket per address: ``per_minute`` on average, as many at once."""

    def __init__(self, per_minute: float, clock: Callable[[], float] = time.monotonic,
                 most_addresses: int = MOST_ADDRESSES):
        self.per_minute, self.clock, self.most_addresses = per_minute, clock, most_addresses
        self.burst = max(1.0, math.ceil(per_minute))
        self._buckets: dict[str, tuple[float, float]] = {}

    def _tokens(self, address: str, now: float) -> float:
        tokens, last = self._buckets.get(address, (self.burst, now))
        return min(self.burst, tokens + (now - last) * self.per_minute / 60.0)

    def allow(self, address: str) -> bool:
        """Whether ``address`` may do one more now (counted if so)."""
        now = self.clock()
        tokens = self._tokens(address, now)
        if tokens < 1.0:
            self._buckets[address] = (tokens, now)
            return False
        if address not in self._buckets and len(self._buckets) >= self.most_addresses:
            self._forget(now)
        self._buckets[address] = (tokens - 1.0, now)
        return True

    def _forget(self, now: float) -> None:
        """Forget the addresses whose bucket is full again (they would start full anyway)."""
        for address in [a for a in self._buckets if self._tokens(a, now) >= self.burst]:
            del self._buckets[address]


class AddressLimits:
    """The per-address and per-player limits of :class:`~kozyri_server.limits.Limits`
    (see the module docstring): live tables created, creations and joins a minute."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic):
        self.limits = limits
        shared = limits.players_per_address
        #: Per address (requests without a player) or per player (``player:ID``), and per address
        #: for the requests with a player (``players_per_address`` times as many).
        self.creates = AddressRates(limits.creates_per_minute, clock)
        self.joins = AddressRates(limits.joins_per_minute, clock)
        self.shared_creates = AddressRates(limits.creates_per_minute * shared, clock)
        self.shared_joins = AddressRates(limits.joins_per_minute * shared, clock)

    def counts(self, address: str | None) -> bool:
        """Whether ``address`` is limited (not unknown, not loopback unless ``limit_loopback``)."""
        return address is not None and (self.limits.limit_loopback or not is_loopback(address))

    def check_create(self, address: str | None, player: str | None, live_own: int, live_shared: int = 0) -> None:
        """Refuse a creation (:class:`TooManyFromAddress`, a message that says what to do) from
        ``address``, by ``player`` (its id) or without one (None). ``live_own``: the live tables
        the player created (without a player: the address created without one); ``live_shared``:
        those the address created with a player, any player."""
        if not self.counts(address):
            return
        limits, wait = self.limits, "finish or resign one, or wait for one to expire"
        if player is None:
            if live_own >= limits.max_tables_per_address:
                raise TooManyFromAddress(f"{live_own} tables are open from your address already: {wait} "
                                         "(with a player identity, your own tables are counted instead)",
                                         code="address_tables_open", count=live_own)
            if not self.creates.allow(address):
                raise TooManyFromAddress(f"too many tables created from your address (at most "
                                         f"{limits.creates_per_minute:g} a minute): wait a minute and try again",
                                         code="creating_too_fast", per_minute=limits.creates_per_minute)
            return
        if live_own >= limits.max_tables_per_player:
            raise TooManyFromAddress(f"you have {live_own} tables open: {wait} (your games are listed in the lobby)",
                                     code="player_tables_open", count=live_own)
        if live_shared >= limits.max_tables_per_address * limits.players_per_address:
            raise TooManyFromAddress(f"{live_shared} tables are open from your network already: {wait}",
                                     code="network_tables_open", count=live_shared)
        if not self.creates.allow(f"player:{player}") or not self.shared_creates.allow(address):
            raise TooManyFromAddress(f"you are creating tables too fast (at most {limits.creates_per_minute:g} "
                                     "a minute): wait a minute and try again",
                                     code="creating_too_fast", per_minute=limits.creates_per_minute)

    def check_join(self, address: str | None, player: str | None = None) -> None:
        """Refuse a join beyond the rate of ``address`` (without a player) or of ``player``."""
        if not self.counts(address):
            return
        allowed = self.joins.allow(address) if player is None else \
            self.joins.allow(f"player:{player}") and self.shared_joins.allow(address)
        if not allowed:
            raise TooManyFromAddress(f"too many tables joined {'from your address ' if player is None else ''}"
                                     f"(at most {self.limits.joins_per_minute:g} a minute): "
                                     "wait a minute and try again",
                                     code="joining_too_fast", per_minute=self.limits.joins_per_minute)
