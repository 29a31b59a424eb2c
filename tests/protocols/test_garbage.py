"""Garbage never kills the engine: thousands of random and mutated lines
(unknown commands, malformed and illegal moves, moves out of turn, bad
options, over-long lines, invalid UTF-8, binary noise, empty lines) each get
one answer, a refused one leaves the game as it was, and the engine still
plays a whole game afterwards; in the text protocol (one line at a time, and
a session fed everything at once) and in JSON Lines."""

from __future__ import annotations

import io
import json
import random

from kozyri.protocols.analysis import Strength
from kozyri.protocols.engine import Engine
from kozyri.protocols.lines import MAX_LINE_BYTES
from kozyri.protocols.messages import JsonRequests
from kozyri.protocols.transport import serve_jsonl
from tests.protocols.drivers import WAIT, Driver, ask, words

TEMPLATES = [
    "newgame deck=4x3 players=3 seed=5", "newgame deck=4x3 players=2 seed=8 seats=1",
    "newgame deck=4x3 players=4 seat=2 hand=QS,KH,AD", "newgame deal='QS KH AS | KS QH AH' trumps=SH",
    "play AH", "play take1", "play KS+QH", "play QS ply=0", "play take3", "genmove", "genmove nodes=50",
    "undo", "showboard", "showboard 1", "state", "state 2", "legal_moves", "setoption nodes=50",
    "setoption seed=3", "setoption agent=greedy", "setoption name agent value mcts", "time_settings 10 0 0",
    "time_left 0 5 2", "analyze nodes=100", "stop", "name", "version", "protocol_version",
    "known_command play", "list_commands", "7 genmove", "# a comment", "", "12 legal_moves # why", "undo undo",
]
NOISE = list("abcdefghijklmnopqrstuvwxyzSHDCQKAT0123456789 =,+#'\"\\-_.:;/|\t") + [
    "\u2660", "\u2665", "\u00e9", "\u2028", "\x85", "\x00", "\x07", "\x7f", "\ufffd", "\U0001f600"]


def mutated(rng: random.Random, line: str) -> str:
    """``line`` with one or two random edits: a character replaced, inserted
    or deleted, words shuffled or repeated, the line cut or joined to another."""
    for _ in range(rng.randint(1, 2)):
        edit = rng.randrange(7)
        at = rng.randrange(len(line) + 1)
        if edit == 0 and line:
            line = line[:at] + rng.choice(NOISE) + line[at + 1:]
        elif edit == 1:
            line = line[:at] + rng.choice(NOISE) + line[at:]
        elif edit == 2:
            line = line[:at] + line[at + 1:]
        elif edit == 3:
            parts = line.split(" ")
            rng.shuffle(parts)
            line = " ".join(parts)
        elif edit == 4:
            line = line + " " + rng.choice(line.split(" ") or [""])
        elif edit == 5:
            line = line[:at]
        else:
            line = line + " " + rng.choice(TEMPLATES)
    return line


def garbage(rng: random.Random, count: int) -> list[bytes]:
    """Mutated commands, random text and random bytes (no line breaks), a
    few over-long lines and lines in invalid UTF-8; never a ``quit``."""
    lines = []
    while len(lines) < count:
        kind = rng.random()
        if kind < 0.55:
            line = mutated(rng, rng.choice(TEMPLATES)).encode("utf-8", "surrogatepass")
        elif kind < 0.7:
            line = "".join(rng.choice(NOISE) for _ in range(rng.randrange(40))).encode()
        elif kind < 0.85:
            line = bytes(rng.randrange(256) for _ in range(rng.randrange(60)))
        elif kind < 0.9:
            line = rng.choice(TEMPLATES).encode() + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x80abc"])
        elif kind < 0.92:
            line = rng.choice([b"x", b"play ", b"7 newgame deal="]) * (MAX_LINE_BYTES // rng.choice([1, 5, 7]) + 3)
        else:
            line = rng.choice(TEMPLATES).encode() + rng.choice([b"\r", b"", b"  \t"])
        line = line.replace(b"\n", b" ")
        words_ = line.decode("utf-8", "replace").split("#", 1)[0].split()
        if words_ and words_[0].isascii() and words_[0].isdigit():
            words_ = words_[1:]
        if words_ and words_[0].lower() == "quit":
            continue
        lines.append(line)
    return lines


def snapshot(engine: Engine):
    table = engine.table
    return (None if table is None else json.dumps(table.to_json()), engine.engine_seats, engine.strength,
            engine.time_control, dict(engine.clocks))


def check_plays_a_whole_game(engine: Engine) -> None:
    ask(engine, "setoption level=3")
    ask(engine, "newgame deck=4x3 players=3 seed=1")
    for _ in range(200):
        if "result" in words(ask(engine, "legal_moves")[0]):
            return
        ask(engine, "genmove")
    raise AssertionError("the game did not end")


def test_every_line_gets_one_answer_and_a_refused_one_changes_nothing():
    engine = Engine(Strength(level=3))
    answered = refused = 0
    for line in garbage(random.Random(2024), 2500):
        before = snapshot(engine)
        reply = engine.handle(line)
        if reply == "":
            continue
        answered += 1
        assert reply[0] in "=?" and reply.endswith("\n\n") and "\n\n" not in reply[:-2], (line, reply)
        if reply[0] == "?":
            refused += 1
            assert reply.count("\n") == 2, reply  # one line
            assert snapshot(engine) == before, (line, reply)
    assert answered > 2000 and refused > 1000
    check_plays_a_whole_game(engine)


def test_a_session_fed_garbage_all_at_once_answers_every_line_and_still_plays():
    rng = random.Random(77)
    lines = garbage(rng, 3000)
    blank = {b"", b"# a comment"}
    lines += [b"", b"   ", b"# a comment", b"\xff\xfe\x00\x01", b"\x00" * 100, b"z" * (3 * MAX_LINE_BYTES)]
    driver = Driver()
    try:
        for start in range(0, len(lines), 500):
            driver.send(*lines[start:start + 500])
        driver.send("9998 stop", "9999 name")  # a cut "analyze" runs until a stop
        replies = 0
        while True:
            reply = driver.reply(WAIT)
            assert reply[0][0] in "=?", reply
            replies += 1
            if reply == ["=9999 kozyri"] or replies > len(lines) + 2:
                break
        expected = sum(1 for line in lines if answers(line)) + 2
        assert replies == expected and len(blank) == 2
        driver.send("newgame deck=4x3 players=2 seed=3", "setoption level=3")
        driver.reply()
        driver.reply()
        for _ in range(100):
            driver.send("legal_moves")
            if "result" in words(driver.reply()[0]):
                break
            driver.send("genmove")
            assert driver.reply()[0].startswith("= ")
        else:
            raise AssertionError("the game did not end")
    finally:
        driver.close()
    assert driver.error is None


def answers(line: bytes) -> bool:
    """Whether the engine answers a line: anything but a blank line or a comment in valid text."""
    if len(line) > MAX_LINE_BYTES:
        return True
    try:
        text = line.decode("utf-8").removesuffix("\r")
    except UnicodeDecodeError:
        return True
    if any(ord(ch) < 32 and ch != "\t" or ord(ch) == 127 for ch in text):
        return True
    return bool(text.split("#", 1)[0].replace("\t", " ").strip())


def test_json_lines_answer_every_line_with_one_json_reply():
    rng = random.Random(5)
    good = [json.dumps({"id": 1, "type": "legal_moves", "game": "QS KH AS | KS QH AH", "trumps": "SH"}),
            json.dumps({"id": "x", "type": "bestmove", "game": "QS KH AS | KS QH AH", "trumps": "SH",
                        "nodes": 50}),
            json.dumps({"id": [1], "type": "engine"}),
            json.dumps({"type": "solve", "game": "QS KH AS | KS QH AH", "trumps": "SH", "time": 5})]
    lines = []
    for _ in range(2000):
        kind = rng.random()
        if kind < 0.6:
            lines.append(mutated(rng, rng.choice(good)).encode("utf-8", "surrogatepass").replace(b"\n", b" "))
        elif kind < 0.8:
            lines.append(bytes(rng.randrange(256) for _ in range(rng.randrange(50))).replace(b"\n", b" "))
        else:
            lines.append(rng.choice(good).encode())
    lines += [b"[" * 50000, b"{" * (MAX_LINE_BYTES + 10), b'{"id": NaN, "type": "engine"}',
              b'{"id": "\\ud800", "type": "engine"}', b"", b"  "]
    out = io.BytesIO()
    serve_jsonl(JsonRequests(Strength(level=3)), io.BytesIO(b"\n".join(lines) + b"\n"), out)
    replies = [json.loads(line) for line in out.getvalue().decode().splitlines()]
    expected = [line for line in lines if len(line) > MAX_LINE_BYTES or not _blank_text(line)]
    assert len(replies) == len(expected)
    for reply in replies:
        assert set(reply) >= {"id", "ok"} and (reply["ok"] is True or set(reply) == {"id", "ok", "error"})
    assert sum(reply["ok"] for reply in replies) >= 300


def _blank_text(line: bytes) -> bool:
    try:
        return not line.decode("utf-8").strip()
    except UnicodeDecodeError:
        return False
