"""The Reversi GTP engine on the shared framing: the bounded line reader
reaches it (over-long lines, invalid UTF-8 and binary noise each get one
``?`` reply, with the id when it can be read), its replies stay GTP's
(``=``/``?``, an empty line after each, ``showboard`` starting on the next
line), and it still plays afterwards."""

from __future__ import annotations

import io

from kozyri.protocols.gtp import GtpEngine
from kozyri.protocols.lines import MAX_LINE_BYTES
from kozyri.protocols.transport import reply_text


def replies(data: bytes) -> list[str]:
    """Every reply of a GTP session fed ``data`` (each without its closing empty line)."""
    sink = io.BytesIO()
    GtpEngine(move_time=0.05).run(io.BytesIO(data), sink)
    text = sink.getvalue().decode("utf-8")
    assert text.endswith("\n\n"), text
    return text[:-2].split("\n\n")


def test_hostile_lines_get_one_error_reply_each_and_the_game_goes_on():
    data = b"".join([
        b"1 name\n",
        b"2 play black " + b"x" * (MAX_LINE_BYTES + 10) + b"\n",  # over-long: skipped, still answered
        b"3 name \xff\xfe\n",  # invalid UTF-8
        b"4 name \x00\x07\n",  # binary noise
        b"\n# a comment\n",  # nothing to answer
        b"5\n",  # an id alone
        b"6 play black f5\n",
        b"7 genmove white\n",
        b"quit\n",
        b"name\n",  # after quit: never read
    ])
    answers = replies(data)
    assert answers[0] == "=1 kozyri"
    assert answers[1].startswith("?2 line too long")
    assert answers[2].startswith("?3 invalid UTF-8")
    assert answers[3].startswith("?4 not text")
    assert answers[4] == "?5 missing command"
    assert answers[5] == "=6"
    assert answers[6] in {"=7 F4", "=7 D6", "=7 F6"}
    assert answers[7] == "="
    assert len(answers) == 8


def test_replies_keep_gtp_form():
    engine = GtpEngine(move_time=0.05)
    assert engine.handle("") is None and engine.handle("# only a comment") is None
    assert engine.handle("3 known_command genmove") == "=3 true\n\n"
    assert engine.handle("boardsize 19") == "? unacceptable size\n\n"
    assert engine.handle("fly") == "? unknown command\n\n"
    board = engine.handle("showboard")
    assert board.startswith("= \n  a b c d e f g h\n") and board.endswith(" to move\n\n")
    assert "\n\n" not in board[:-2]


def test_the_framing_of_a_reply():
    assert reply_text("", "") == "=\n\n"
    assert reply_text("7", "F5") == "=7 F5\n\n"
    assert reply_text("7", "bad move", ok=False) == "?7 bad move\n\n"
    assert reply_text("", "\nboard\nlines") == "= \nboard\nlines\n\n"  # the result starts on the next line
    assert reply_text("1", "head\n\nmore\n") == "=1 head\nmore\n\n"  # a blank line would end the reply
