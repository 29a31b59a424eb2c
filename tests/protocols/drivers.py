"""Driving the engine in tests: its text replies read back as words, a
session on pipes in a thread (to send ``stop`` while it searches), and whole
games played through each form of the protocol by a harness that relays the
public moves."""

from __future__ import annotations

import json
import os
import select
import threading
import time

from kozyri.owntrumps import GameRecord
from kozyri.protocols.analysis import Strength
from kozyri.protocols.engine import Engine
from kozyri.protocols.messages import JsonRequests
from kozyri.protocols.transport import serve

#: Seconds a test waits for an answer at most: far beyond any budget a test
#: sets, so that a slow or busy machine fails no test (they assert what is
#: answered, never how fast).
WAIT = 120.0


def words(line: str) -> dict[str, str]:
    """The ``key=value`` words of a reply line (other words are skipped)."""
    return dict(word.split("=", 1) for word in line.split() if "=" in word)


def ask(engine: Engine, line: str) -> list[str]:
    """The lines of a successful reply, its ``=`` (and id) taken off the first."""
    reply = engine.handle(line)
    assert reply.startswith("=") and reply.endswith("\n\n"), (line, reply)
    lines = reply[:-2].split("\n")
    lines[0] = lines[0].split(" ", 1)[1] if " " in lines[0] else ""
    return lines


def refused(engine: Engine, line: str) -> str:
    """The message of a ``?`` reply."""
    reply = engine.handle(line)
    assert reply.startswith("?") and reply.endswith("\n\n") and reply.count("\n") == 2, (line, reply)
    return reply[:-2].split(" ", 1)[1]


def deal_text(record: GameRecord) -> str:
    deck = record.start.deck
    return " | ".join(deck.mask_text(hand) for hand in record.start.hands)


class Driver:
    """A :class:`~kozyri.protocols.transport.Connection` on pipes, in a thread:
    :meth:`send` lines, read :meth:`line` or a whole :meth:`reply` (waiting
    :data:`WAIT` at most), :meth:`close` the input and wait for the end."""

    def __init__(self, engine: Engine | None = None):
        self.engine = engine or Engine(Strength(level=3))
        in_read, in_write = os.pipe()
        out_read, out_write = os.pipe()
        self._to_engine = os.fdopen(in_write, "wb", buffering=0)
        self._source = os.fdopen(in_read, "rb", buffering=0)
        self._sink = os.fdopen(out_write, "wb")
        self._from_engine = out_read
        self._pending = b""
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        try:
            serve(self.engine, self._source, self._sink)
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            self.error = exc
        finally:
            self._sink.close()

    def send(self, *lines: str | bytes) -> None:
        self._to_engine.write(b"".join((x if isinstance(x, bytes) else x.encode()) + b"\n" for x in lines))

    def line(self, wait: float = WAIT) -> str | None:
        """The next output line (None at the end of the output)."""
        deadline = time.monotonic() + wait
        while b"\n" not in self._pending:
            left = deadline - time.monotonic()
            assert left > 0, f"no answer within {wait} s (so far: {self._pending!r})"
            ready, _, _ = select.select([self._from_engine], [], [], left)
            if ready:
                chunk = os.read(self._from_engine, 65536)
                if not chunk:
                    return None
                self._pending += chunk
        line, self._pending = self._pending.split(b"\n", 1)
        return line.decode("utf-8")

    def reply(self, wait: float = WAIT) -> list[str]:
        """The lines of the next reply (up to its empty line)."""
        lines = []
        while (line := self.line(wait)) not in ("", None):
            lines.append(line)
        assert lines, "the output ended"
        return lines

    def close(self) -> None:
        """End the input and wait for the session to end."""
        if not self._to_engine.closed:
            self._to_engine.close()
        self.thread.join(WAIT)
        assert not self.thread.is_alive(), "the session did not end at the end of its input"
        os.close(self._from_engine)
        self._source.close()


# --- whole games through the protocol ---------------------------------------------------
def play_alone(deck: str, players: int, seed: int, level: int = 3, cap: int = 400) -> list[str]:
    """A game that one engine deals and plays at every seat (text protocol): its moves."""
    engine = Engine(Strength(level=level))
    assert words(ask(engine, f"newgame deck={deck} players={players} seed={seed} seats=all")[0])["ply"] == "0"
    moves = []
    while "to_move" in (status := words(ask(engine, "legal_moves")[0])) and len(moves) < cap:
        move, *rest = ask(engine, "genmove")[0].split()
        assert words(" ".join(rest))["ply"] == str(len(moves)) == status["ply"]
        assert words(" ".join(rest))["seat"] == status["to_move"]
        moves.append(move)
    return moves


def play_by_seats(deck: str, players: int, seed: int, level: int = 3, cap: int = 400) -> list[str]:
    """A game of one engine per seat, each told only its own hand (text
    protocol); the harness deals, relays every public move to every engine
    and keeps the referee's record. Its moves."""
    record = GameRecord.deal(deck, players, seed=seed)
    start, engines = record.start, []
    for seat in range(players):
        engine = Engine(Strength(level=level))
        hand = ",".join(start.deck.card_text(c) for c in start.deck.cards_of(start.hands[seat]))
        reply = words(ask(engine, f"newgame deck={deck} players={players} seat={seat} hand={hand}")[0])
        assert reply["engine_seats"] == str(seat) and reply["to_move"] == "0"
        engines.append(engine)
    while not record.is_over and len(record.moves) < cap:
        mover = record.final.to_move
        move, *rest = ask(engines[mover], "genmove")[0].split()
        assert words(" ".join(rest))["ply"] == str(len(record.moves))
        record = record.play(move)
        for seat, engine in enumerate(engines):
            if seat != mover:
                assert words(ask(engine, f"play {move}")[0])["ply"] == str(len(record.moves))
    for engine in engines:
        status = words(ask(engine, "showboard")[0])
        assert status["ply"] == str(len(record.moves))
        if record.is_over:
            assert "to_move" not in status and status["result"] == ("draw" if record.outcome.is_draw else "lost")
    return [m.text(start.deck) for m in record.moves]


def play_by_requests(deck: str, players: int, seed: int, level: int = 3, cap: int = 400) -> list[str]:
    """A game through stateless JSON Lines requests: the harness keeps the
    record and sends, for each move, the whole record or the mover's
    observation (in turn). Its moves."""
    requests = JsonRequests(Strength(level=level))
    record = GameRecord.deal(deck, players, seed=seed)
    while not record.is_over and len(record.moves) < cap:
        ply, mover = len(record.moves), record.final.to_move
        game = record.to_json() if ply % 2 else record.observation(mover).to_json()
        reply = requests.answer(json.dumps({"id": ply, "type": "bestmove", "game": game}))
        assert reply["ok"] and reply["id"] == ply and reply["ply"] == ply and reply["seat"] == mover, reply
        record = record.play(reply["move"])
    return [m.text(record.start.deck) for m in record.moves]
