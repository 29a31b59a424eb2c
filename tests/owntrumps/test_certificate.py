"""Certificates of Own Trumps values: the format (kozyri.owntrumps.certificate),
the checker that uses the rules alone (kozyri.owntrumps.verify) and ``kozyri
verify``.

Certificates come from a brute-force builder over tiny decks
(tests/support/owntrumps_certificates.py): every one it makes is accepted
with the reference solver's value, and each kind of corruption is refused
with its reason."""

from __future__ import annotations

import copy
import functools
import gzip
import json
import random
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kozyri.core import InvalidInput
from kozyri.owntrumps import rules as R
from kozyri.owntrumps.certificate import (
    CITE,
    HOLD,
    LABELLED,
    REF,
    WIN,
    CertificateReader,
    CertificateWriter,
    body_line,
    read_text,
    token,
)
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.rules import Rules
from kozyri.owntrumps.verify import CHECKER, MoveTables, check, verify_certificate
from tests.conftest import check_bad_input
from tests.conftest import run_cli as run
from tests.support.owntrumps import positions, reference_value
from tests.support.owntrumps_certificates import (
    Builder,
    Built,
    BuiltLemma,
    TinyGame,
    build_certificate,
    lemma_body,
    looping_choices,
)

ROOT = Path(__file__).resolve().parents[2]

#: The example of docs/certificates.md: a drawn 2x3 deal without must_beat, split into three lemmas.
EXAMPLE_DEAL, EXAMPLE_TRUMPS, EXAMPLE_SPLIT = "KS AS KH | QS QH AH", "SH", 0.2


def example() -> Built:
    position = Position.from_text(EXAMPLE_DEAL, trumps=EXAMPLE_TRUMPS, rules=Rules(must_beat=False))
    return build_certificate(position, split=EXAMPLE_SPLIT, seed=0)


@functools.cache
def game_of(shape: str, seed: int, must_beat: bool = True, trumps: str = "SH") -> TinyGame:
    return TinyGame(Position.deal(shape, trumps=trumps, seed=seed, rules=Rules(must_beat=must_beat)))


@functools.cache
def deal_with(value: int, shape: str = "2x3", must_beat: bool = True, start: int = 0) -> int:
    """The first seed from ``start`` whose deal has ``value`` (+1, 0, -1) for the player to move."""
    return next(seed for seed in range(start, 10_000) if game_of(shape, seed, must_beat).value[0] == value)


def write(built: Built, tmp_path: Path, name: str = "cert.gz") -> Path:
    path = tmp_path / name
    built.write(path)
    return path


def write_text(text: str, tmp_path: Path, name: str = "cert.txt", compress: bool = False) -> Path:
    path = tmp_path / name
    data = text.encode("utf-8")
    path.write_bytes(gzip.compress(data) if compress else data)
    return path


def accepted(path: Path, value: str | None = None):
    report = verify_certificate(path)
    assert report.ok, (report.lemma, report.line, report.node, report.reason)
    if value is not None:
        assert report.value == value
    return report


def refused(path: Path, *fragments: str, lemma: int | None = None):
    report = verify_certificate(path)
    assert not report.ok, "a wrong certificate was accepted"
    for fragment in fragments:
        assert re.search(fragment, report.reason), (fragment, report.reason)
    if lemma is not None:
        assert report.lemma == lemma, (report.lemma, report.reason)
    return report


def text_lines(built: Built) -> list[str]:
    return built.text().splitlines()


# --- accepted: every certificate the builder makes, with the reference's value ----------------------
def check_accepted(position: Position, tmp_path: Path, split: float, seed: int, shuffle: bool) -> None:
    built = build_certificate(position, split=split, seed=seed, shuffle=shuffle)
    assert built.value == reference_value(position).name
    report = accepted(write(built, tmp_path), built.value)
    assert report.to_move == position.to_move and report.lemmas == len(built.lemmas)
    assert report.positions == built.positions


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(position=positions(shapes=("2x2", "2x3"), max_walk=12), split=st.sampled_from([0.0, 0.2, 1.0]),
       seed=st.integers(0, 3), shuffle=st.booleans())
def test_every_certificate_of_a_small_deal_is_accepted_with_its_value(tmp_path, position, split, seed, shuffle):
    check_accepted(position, tmp_path, split, seed, shuffle)


@pytest.mark.slow
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(position=positions(shapes=("2x4", "4x2"), max_walk=30), split=st.sampled_from([0.0, 0.3]),
       seed=st.integers(0, 3))
def test_every_certificate_of_an_eight_card_position_is_accepted(tmp_path, position, split, seed):
    check_accepted(position, tmp_path, split, seed, shuffle=True)


@pytest.mark.slow
@pytest.mark.parametrize("shape", ["2x4", "4x2"])
@pytest.mark.parametrize("must_beat", [True, False])
def test_every_certificate_of_an_eight_card_deal_is_accepted(tmp_path, shape, must_beat):
    for seed in range(6):
        position = Position.deal(shape, trumps="HS" if seed % 2 else "SH", seed=seed, leader=seed % 2,
                                 rules=Rules(must_beat=must_beat))
        check_accepted(position, tmp_path, 0.25 * (seed % 3), seed, shuffle=bool(seed % 2))


@pytest.mark.parametrize("must_beat", [True, False])
def test_every_two_by_three_deal_has_an_accepted_certificate_of_each_kind(tmp_path, must_beat):
    values = set()
    for seed in range(24):
        position = Position.deal("2x3", trumps="SH", seed=seed, leader=seed % 2, rules=Rules(must_beat=must_beat))
        check_accepted(position, tmp_path, 0.3 if seed % 3 else 0.0, seed, shuffle=True)
        values.add(reference_value(position).name)
    assert values == {"win", "draw", "loss"}


def test_a_hold_lemma_may_play_for_ever(tmp_path):
    # A strategy that keeps its win but comes back to a position it is still walking never loses: a hold
    # (beside the certificate's own proof: the value rests on the root's lemmas).
    game = game_of("2x3", deal_with(1, "2x3", True), True)
    side = game.position.to_move
    loop = looping_choices(game, side)
    assert loop, "a won 2x3 deal with a way to go round in circles"
    body = lemma_body(game, side, HOLD, choice=loop)
    assert any(h & 3 == REF for h in body)
    assert accepted_beside_a_proof(game, [BuiltLemma(0, side, HOLD, game.keys[0], body)], tmp_path)


def accepted_beside_a_proof(game: TinyGame, lemmas: list[BuiltLemma], tmp_path: Path) -> bool:
    """Are ``lemmas`` (ids from 0, citing each other) accepted beside a valid proof of the value?"""
    built = build_certificate(game.position, game=game)
    offset = len(built.lemmas)
    for lemma in copy.deepcopy(lemmas):
        lemma.id += offset
        lemma.body = [token(CITE, (h >> 2) + offset) if h & 3 == CITE else h for h in lemma.body]
        built.lemmas.append(lemma)
    return verify_certificate(write(built, tmp_path, "beside.gz")).ok


def test_the_writer_writes_what_the_format_says(tmp_path):
    built = example()
    path = write(built, tmp_path)
    assert path.read_bytes()[:2] == b"\x1f\x8b"
    assert read_text(path) == built.text()
    # The same text uncompressed is read as well.
    accepted(write_text(built.text(), tmp_path), "draw")


def test_the_writer_takes_bodies_as_lists_text_or_arrays(tmp_path):
    built = example()
    path = tmp_path / "forms.gz"
    with CertificateWriter(path, built.position, built.value, len(built.lemmas), built.root, solver={"nodes": 7},
                           created="2026-01-01") as out:
        for n, lemma in enumerate(built.lemmas):
            body = [lemma.body, body_line(lemma.body), np.array(lemma.body, dtype=np.int64)][n % 3]
            where = built.position if lemma.key == built.position.key() else lemma.key
            out.add_lemma(lemma.id, lemma.side, lemma.claim, where, body)
    header = json.loads(read_text(path).splitlines()[0])
    assert header["solver"] == {"nodes": 7} and header["created"] == "2026-01-01"
    accepted(path, "draw")


def test_the_writer_refuses_lemmas_it_did_not_announce(tmp_path):
    built = example()
    with pytest.raises(Exception, match="not one of"):
        with CertificateWriter(tmp_path / "a.gz", built.position, "draw", 1, [0]) as out:
            out.add_lemma(3, 0, HOLD, built.position, [0])
    out = CertificateWriter(tmp_path / "b.gz", built.position, "draw", 2, [0, 1])
    out.add_lemma(0, 0, HOLD, built.position, [0])
    with pytest.raises(Exception, match="lemma 0 is written twice"):
        out.add_lemma(0, 0, HOLD, built.position, [0])
    with pytest.raises(Exception, match="announces 2 lemmas but 1 were not written"):
        out.close()


@pytest.mark.parametrize("chunk", [1, 2, 3, 5, 8, 13, 64])
def test_the_reader_reads_bodies_in_chunks_of_any_size(tmp_path, chunk):
    game = game_of("2x3", deal_with(0, "2x3", False), False)
    built = build_certificate(game.position, game=game, split=0.3, seed=1)
    assert len(built.lemmas) > 2 and len(built.text()) > 4 * chunk  # many chunks, bodies cut anywhere
    for path in (write(built, tmp_path), write_text(built.text(), tmp_path)):
        with CertificateReader(path, chunk_bytes=chunk) as reader:
            assert reader.header["value"] == built.value
            got = []
            for n, lemma in enumerate(reader.lemmas()):
                body = list(reader.body()) if n % 2 == 0 else None  # every other body skipped unread
                got.append((lemma.id, lemma.side, lemma.claim, lemma.key, body))
        assert got == [(m.id, m.side, m.claim, m.key, m.body if n % 2 == 0 else None)
                       for n, m in enumerate(built.lemmas)]


def test_the_moves_of_the_checker_are_the_rules_moves():
    rng = random.Random(5)
    for deck in ("2x3", "4x3", "24", "36", "52", "Q,K,A/S,D", "6,7,8,9,10,J,Q,K/S,H,D,C"):
        for trumps in ("SH", "DC", "HS"):
            for must_beat in (True, False):
                start = Position.deal(deck, trumps=trumps, seed=rng.randrange(2**32), rules=Rules(must_beat))
                d, r, t = start.deck, start.rules, start.trump_indices
                tables = MoveTables(d, r, t)
                for _game in range(3):
                    hands, pile, to_move = start.key()
                    for _move in range(rng.randrange(10, 80)):
                        moves = R.legal_moves(d, r, t, hands, pile, to_move)
                        assert tables.legal_moves(hands, pile, to_move) == moves
                        assert tables.cards(hands[to_move]) == d.cards_of(hands[to_move])
                        hands, pile, to_move, outcome = R.apply_move(d, t, hands, pile, to_move, rng.choice(moves))
                        if outcome is not None:
                            break


@settings(max_examples=200, deadline=None)
@given(position=positions(max_walk=40))
def test_the_moves_of_the_checker_are_the_rules_moves_everywhere(position):
    tables = MoveTables(position.deck, position.rules, position.trump_indices)
    assert tables.legal_moves(position.hands, position.pile, position.to_move) == R.legal_moves(
        position.deck, position.rules, position.trump_indices, position.hands, position.pile, position.to_move)


def test_the_checker_loads_neither_numba_nor_numpy():
    code = textwrap.dedent("""
        import sys
        import kozyri.owntrumps.verify, kozyri.owntrumps.certificate
        print(sorted(m for m in ("numba", "numpy", "llvmlite") if m in sys.modules))
        print(sorted(m for m in sys.modules if m.startswith("kozyri.owntrumps.")
                     and m.endswith(("kernels", "solver", "prover", "tables", "table_store"))))
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["[]", "[]"], done.stdout


def test_the_checker_imports_only_the_rules_layer():
    import ast

    allowed = {"kozyri.core", "kozyri.owntrumps", "kozyri.owntrumps.rules", "kozyri.owntrumps.cards",
               "kozyri.owntrumps.position", "kozyri.owntrumps.certificate"}
    for name in ("verify", "certificate"):
        tree = ast.parse((ROOT / "solver" / "kozyri" / "owntrumps" / f"{name}.py").read_text(encoding="utf-8"))
        found = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
        assert {m for m in found if m.startswith("kozyri")} <= allowed, (name, found)
        assert not {m for m in found if m.split(".")[0] in ("numpy", "numba")}, (name, found)


# --- refused: each kind of corruption, with its reason --------------------------------------------
def a_win(shape: str = "2x3", must_beat: bool = True) -> tuple[TinyGame, int, Builder, list[int]]:
    """A won deal, its winner, the builder and the winner's lemma body (one lemma, nothing cited)."""
    game = game_of(shape, deal_with(1, shape, must_beat), must_beat)
    side = game.position.to_move
    builder = Builder(game)
    return game, side, builder, builder.body(side, WIN, 0)


def one_lemma(game: TinyGame, side: int, claim: str, body: list[int]) -> Built:
    value = "win" if side == game.position.to_move else "loss"
    return Built(game.position, value, [0], [BuiltLemma(0, side, claim, game.keys[0], body)])


def test_a_token_removed_is_refused(tmp_path):
    built = example()
    cut = copy.deepcopy(built)
    cut.lemmas[0].body.pop()
    refused(write(cut, tmp_path), "the body ends here", lemma=cut.lemmas[0].id)
    for i in range(len(built.lemmas[1].body)):
        removed = copy.deepcopy(built)
        del removed.lemmas[1].body[i]
        refused(write(removed, tmp_path, f"r{i}.gz"), lemma=built.lemmas[1].id)


def test_an_extra_token_is_refused(tmp_path):
    built = copy.deepcopy(example())
    built.lemmas[2].body.append(0)
    refused(write(built, tmp_path), "integers are left after the walk's last position", lemma=built.lemmas[2].id)


@pytest.mark.parametrize("value,claimed", [(0, "win"), (0, "loss"), (1, "loss"), (1, "draw"), (-1, "win"),
                                           (-1, "draw")])
def test_a_value_flipped_in_the_header_is_refused(tmp_path, value, claimed):
    game = game_of("2x3", deal_with(value, "2x3", False), False)
    built = build_certificate(game.position, game=game)
    assert built.value != claimed
    built.value = claimed
    refused(write(built, tmp_path), f'"value": "{claimed}" .* needs in "root"')


def test_a_choice_of_a_move_that_does_not_exist_is_refused(tmp_path):
    game, side, builder, body = a_win()
    at = next(i for i, (_s, chooses) in enumerate(builder.trace) if chooses)
    state = builder.trace[at][0]
    body = list(body)
    body[at] = token(body[at] & 3, len(game.edges[state]))
    refused(write(one_lemma(game, side, WIN, body), tmp_path),
            f"chooses move {len(game.edges[state])}, but has only {len(game.edges[state])} legal moves", lemma=0)


@pytest.mark.parametrize("shape,must_beat", [("2x3", True), ("2x3", False), ("2x4", True), ("4x2", False)])
def test_every_choice_of_a_move_that_does_not_win_is_refused(tmp_path, shape, must_beat):
    game, side, builder, body = a_win(shape, must_beat)
    tried = 0
    for state, chooses in builder.trace:
        if not chooses:
            continue
        for i, (_move, child, end) in enumerate(game.edges[state]):
            wins = (child is None and end == 1) or (child is not None and game.value_for(side, child) == 1)
            if wins:
                continue
            wrong = lemma_body(game, side, WIN, override={state: i})
            refused(write(one_lemma(game, side, WIN, wrong), tmp_path, f"w{tried}.gz"),
                    "player .'s loss|ends in a draw|a cycle", lemma=0)
            tried += 1
    assert tried > 0


def test_a_hold_that_walks_into_a_loss_is_refused(tmp_path):
    for seed in range(40):
        game = game_of("2x3", seed, False)
        if game.value[0] != 0:
            continue
        side = game.position.to_move
        builder = Builder(game)
        builder.body(side, HOLD, 0)
        for state, chooses in builder.trace:
            bad = [i for i, (_m, child, end) in enumerate(game.edges[state]) if chooses
                   and ((child is None and end < 0) or (child is not None and game.value_for(side, child) < 0))]
            if bad:
                wrong = lemma_body(game, side, HOLD, override={state: bad[0]})
                built = build_certificate(game.position, game=game)
                built.lemma(built.root[0]).body = wrong
                refused(write(built, tmp_path), f"player {side}'s loss", lemma=built.root[0])
                return
    raise AssertionError("no drawn 2x3 deal where the mover can walk into a loss")


def test_a_reference_to_another_position_is_refused(tmp_path):
    for seed in range(60):
        built = build_certificate(game_of("2x3", seed, False).position, game=game_of("2x3", seed, False))
        for lemma in built.lemmas:
            labels = 0
            for i, h in enumerate(lemma.body):
                if h & 3 == REF and labels >= 2:
                    lemma.body[i] = token(REF, 1 if h >> 2 == 0 else 0)
                    refused(write(built, tmp_path), r"REF to label \d, a different position \(", lemma=lemma.id)
                    lemma.body[i] = token(REF, labels)
                    refused(write(built, tmp_path, "b.gz"), f"REF to label {labels}, but only {labels} labels")
                    return
                labels += h & 3 == LABELLED
    raise AssertionError("no 2x3 certificate with a reference after two labels")


def test_a_citation_of_another_position_is_refused(tmp_path):
    for seed in range(60):
        game = game_of("2x4", seed % 6, bool(seed % 2)) if seed < 12 else game_of("2x3", seed, False)
        built = build_certificate(game.position, game=game, split=0.3, seed=seed)
        claims = {m.id: (m.side, m.claim, m.key) for m in built.lemmas}
        for lemma in built.lemmas:
            for i, h in enumerate(lemma.body):
                if h & 3 != CITE:
                    continue
                side, claim, key = claims[h >> 2]
                other = [j for j, (s, c, k) in claims.items() if s == side and c == claim and k != key]
                if other:
                    lemma.body[i] = token(CITE, other[0])
                    refused(write(built, tmp_path), rf"CITE of lemma {other[0]}, a different position \(",
                            lemma=lemma.id)
                    lemma.body[i] = token(CITE, len(built.lemmas))
                    refused(write(built, tmp_path, "b.gz"), f"CITE of lemma {len(built.lemmas)}, which the file "
                                                            "does not hold", lemma=lemma.id)
                    return
    raise AssertionError("no certificate citing one of two lemmas of the same kind")


def test_a_win_lemma_that_comes_back_to_a_position_it_is_walking_is_refused(tmp_path):
    # Keeping a won position for ever is no win: the reference to a node being walked is a cycle.
    for shape, must_beat in (("2x3", True), ("2x3", False), ("4x2", True)):
        game = game_of(shape, deal_with(1, shape, must_beat), must_beat)
        side = game.position.to_move
        loop = looping_choices(game, side)
        body = lemma_body(game, side, WIN, choice=loop)
        refused(write(one_lemma(game, side, WIN, body), tmp_path), r"REF to label \d+, a position still being "
                                                                   "walked: a cycle", lemma=0)
        # The same strategy is a fine hold.
        assert accepted_beside_a_proof(game, [BuiltLemma(0, side, HOLD, game.keys[0], body)], tmp_path)


def test_win_lemmas_citing_each_other_in_a_cycle_are_refused(tmp_path):
    game = game_of("2x3", deal_with(1, "2x3", True), True)
    side = game.position.to_move
    built = build_certificate(game.position, game=game, split=1.0, choice={side: looping_choices(game, side)})
    assert all(lemma.claim == WIN and lemma.side == side for lemma in built.lemmas)
    report = refused(write(built, tmp_path), r"win lemmas cite each other in a cycle: (\d+)( -> \d+)+ ")
    assert report.lemma is not None
    # The same lemmas claiming holds are fine (playing for ever never loses).
    holds = copy.deepcopy(built.lemmas)
    for lemma in holds:
        lemma.claim = HOLD
    assert accepted_beside_a_proof(game, holds, tmp_path)


def test_a_win_lemma_citing_a_hold_lemma_is_refused(tmp_path):
    for seed in range(40):
        game = game_of("2x3", seed, False)
        if game.value[0] == 0:
            continue
        built = build_certificate(game.position, game=game, split=0.5, seed=seed)
        cited = {h >> 2 for lemma in built.lemmas if lemma.claim == WIN for h in lemma.body if h & 3 == CITE}
        if cited:
            target = min(cited)
            built.lemma(target).claim = HOLD  # its body is a win, so a fine hold: the citation is wrong
            refused(write(built, tmp_path), rf"CITE of lemma {target}, a hold lemma: a win lemma cites win lemmas")
            return
    raise AssertionError("no 2x3 certificate with a citation between win lemmas")


def test_a_hold_lemma_claimed_as_a_win_is_refused(tmp_path):
    game = game_of("2x3", deal_with(0, "2x3", False), False)
    built = build_certificate(game.position, game=game)
    mover = game.position.to_move
    lemma = next(m for m in built.lemmas if m.side == mover)
    lemma.claim = WIN
    built.value, built.root = "win", [lemma.id]
    refused(write(built, tmp_path), "ends in a draw|a cycle", lemma=lemma.id)


def test_a_lemma_of_the_wrong_side_is_refused(tmp_path):
    game = game_of("2x3", deal_with(1, "2x3", True), True)
    built = build_certificate(game.position, game=game)
    built.lemmas[0].side = 1 - built.lemmas[0].side
    refused(write(built, tmp_path), rf'needs in "root" a win lemma of player {game.position.to_move}')
    # A cited lemma of the other side (written last, so the citation is met first).
    for seed in range(40):
        game = game_of("2x3", seed, False)
        built = build_certificate(game.position, game=game, split=0.5, seed=seed)
        cites = [(lemma.id, h >> 2) for lemma in built.lemmas for h in lemma.body if h & 3 == CITE]
        if cites:
            citing, cited = cites[0]
            built.lemma(cited).side = 1 - built.lemma(cited).side
            built.lemmas.sort(key=lambda m: m.id == cited)
            refused(write(built, tmp_path, "b.gz"), rf"CITE of lemma {cited}, a lemma of player", lemma=citing)
            return
    raise AssertionError("no 2x3 certificate with a citation")


def test_a_lemma_missing_from_the_root_is_refused(tmp_path):
    built = example()
    built.root = built.root[:1]
    refused(write(built, tmp_path), r'"draw" .* needs in "root" a hold lemma of player 0 and a hold lemma of '
                                    r"player 1 .* the root has lemma 0: a hold lemma of player 0$")
    built.root = []
    refused(write(built, tmp_path, "b.gz"), "the root has no lemma")
    built.root = [0, 2]
    refused(write(built, tmp_path, "c.gz"), "root lemma 2 is not at the header's position")
    built.root = [0, 7]
    refused(write(built, tmp_path, "d.gz"), '"root" names lemma 7, which the file does not hold')


def test_lemma_ids_must_be_each_there_once(tmp_path):
    lines = text_lines(example())
    header = json.loads(lines[0])
    header["lemmas"] = 4
    refused(write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n", tmp_path),
            "the header announces 4 lemmas, the file holds 3 .lemma 3 is missing.")
    header["lemmas"] = 2
    refused(write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n", tmp_path, "b.txt"),
            "lemma 2 is not one of 0..1")
    header["lemmas"] = 10**15  # no list of every id is made
    refused(write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n", tmp_path, "huge.txt"),
            "the header announces 1000000000000000 lemmas, the file holds 3 .lemma 3 is missing.")
    twice = lines[:5] + [lines[3].replace('"lemma": 1', '"lemma": 0'), lines[4]]
    refused(write_text("\n".join(twice) + "\n", tmp_path, "c.txt"), "lemma 0 comes twice .also line 2.")


def test_truncated_and_damaged_files_are_refused(tmp_path):
    path = write(example(), tmp_path)
    data = path.read_bytes()
    for cut in (len(data) - 1, len(data) - 6, len(data) // 2, 12):
        (tmp_path / "cut.gz").write_bytes(data[:cut])
        refused(tmp_path / "cut.gz", "the file is cut short|line")
    damaged = bytearray(data)
    damaged[len(data) // 2] ^= 0x55
    (tmp_path / "bad.gz").write_bytes(bytes(damaged))
    refused(tmp_path / "bad.gz")
    # Text cut in the middle of a line.
    text = example().text()
    refused(write_text(text[:text.index("\n", 400) + 30], tmp_path), "")


@pytest.mark.parametrize("seed", range(6))
def test_garbage_is_refused(tmp_path, seed):
    data = random.Random(seed).randbytes(3000)
    if seed % 2:
        data = b"\x1f\x8b" + data
    if seed == 4:
        data = data.replace(b"\n", b"")
    (tmp_path / "junk").write_bytes(data)
    report = refused(tmp_path / "junk")
    assert report.reason


def test_an_empty_file_is_refused(tmp_path):
    (tmp_path / "empty").write_bytes(b"")
    refused(tmp_path / "empty", "the file is empty")
    refused(write_text("", tmp_path, "empty.gz", compress=True), "the file is empty")


def test_a_three_player_position_is_refused(tmp_path):
    lines = text_lines(example())
    header = json.loads(lines[0])
    header["position"] = Position.deal("3x3", trumps="SHD", seed=1, n_players=3).to_json()
    refused(write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n", tmp_path),
            "certificates are for two players; the position has 3")
    with pytest.raises(Exception, match="two players"):
        CertificateWriter(tmp_path / "w.gz", Position.deal("3x3", trumps="SHD", seed=1, n_players=3), "win", 1, [0])


@pytest.mark.parametrize("change,reason", [
    ({"format": "other"}, 'not a certificate: the header\'s "format" is not "kozyri-certificate"'),
    ({"version": 2}, "certificate version 2 is not known here"),
    ({"version": True}, "certificate version True is not known here"),
    ({"game": "reversi"}, '"game" \'reversi\' is not known here'),
    ({"value": "won"}, '"value" must be one of win, draw, loss'),
    ({"lemmas": -1}, '"lemmas" must be the number of lemmas'),
    ({"root": "0"}, '"root" must be a list of lemma ids'),
    ({"position": {"hands": [["QS"]], "trumps": ["S"]}}, "the header's position: 1 hands"),
])
def test_a_malformed_header_is_refused(tmp_path, change, reason):
    lines = text_lines(example())
    header = {**json.loads(lines[0]), **change}
    refused(write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n", tmp_path), "line 1: " + re.escape(reason))


@pytest.mark.parametrize("change,reason", [
    ({"side": 2}, '"side" must be a seat, 0 or 1'),
    ({"to_move": True}, '"to_move" must be a seat, 0 or 1'),
    ({"claim": "draw"}, '"claim" must be "win" or "hold"'),
    ({"hands": [22, 41, 0]}, '"hands" must be two non-empty card masks'),
    ({"hands": [22, 0]}, '"hands" must be two non-empty card masks'),
    ({"hands": [22, 41 | 64]}, '"hands" must be two non-empty card masks'),
    ({"hands": [23, 41]}, "every card of the deck must be in one hand or on the pile, once"),
    ({"hands": [22, 9], "pile": [5, 5]}, "every card of the deck must be in one hand or on the pile, once"),
    ({"pile": [6]}, '"pile" must be a list of card numbers 0..5'),
    ({"extra": 1}, "a lemma's line has the unknown key 'extra'"),
    ({"lemma": "0"}, '"lemma" must be a lemma id'),
])
def test_a_malformed_lemma_line_is_refused(tmp_path, change, reason):
    lines = text_lines(example())
    lemma = {**json.loads(lines[1]), **change}
    refused(write_text("\n".join([lines[0], json.dumps(lemma)] + lines[2:]) + "\n", tmp_path),
            "line 2: .*" + re.escape(reason))


@pytest.mark.parametrize("body,reason", [
    ("", "the body ends here: this position has no integer"),
    ("0  0 0 0 0 4 4 0 0 0 10 0", "separated by single spaces"),
    ("0 0 0 0 0 4 4 0 0 0 10 0 ", "a body ends with a space"),
    (" 0 0 0 0 0 4 4 0 0 0 10 0", "separated by single spaces"),
    ("0,0 0 0 0 4 4 0 0 0 10 0", "a body holds b','"),
    ("0 0 0 0 0 4 4 0 0 0 10 -0", "a body holds b'-'"),
    ("0 0 0 0 0 4 4 0 0 0 10 " + "9" * 30, "more than 19 digits"),
    ("1 0 0 0 0 4 4 0 0 0 10 0", "a body starts with its own position expanded"),
    ("2 0 0 0 0 4 4 0 0 0 10 0", "a body starts with its own position expanded"),
    ("0 4 0 0 0 4 4 0 0 0 10 0", "a node of player 1 .every move followed. must be written with argument 0"),
    ("0 0 0 0 0 4 4 0 0 0 9 0", "REF to label 2, but only 0 labels"),
])
def test_a_malformed_body_is_refused(tmp_path, body, reason):
    lines = text_lines(example())
    assert lines[2] == "0 0 0 0 0 4 4 0 0 0 10 0"
    report = refused(write_text("\n".join(lines[:2] + [body] + lines[3:]) + "\n", tmp_path), reason)
    assert report.lemma == 0


def test_a_refusal_names_the_moves_to_the_wrong_node(tmp_path):
    lines = text_lines(example())
    # The last integer of lemma 0 is the position after KS take1 KH AH+QS... (docs/certificates.md walks it):
    # make its chooser's argument wrong one level up.
    body = lines[2].split()
    body[6] = "8"  # player 0 at AS KH | QS KS QH AH has 2 moves: move 2 does not exist
    report = refused(write_text("\n".join(lines[:2] + [" ".join(body)] + lines[3:]) + "\n", tmp_path),
                     "player 0 chooses move 2, but has only 2 legal moves", lemma=0)
    assert report.line == ["KS", "take1"]
    assert report.node == "AS KH | QS KS QH AH, player 0 to move"


# --- the example of docs/certificates.md ------------------------------------------------------------
def test_the_documented_example_is_what_the_builder_makes_and_is_accepted(tmp_path):
    doc = (ROOT / "docs" / "certificates.md").read_text(encoding="utf-8")
    built = example()
    assert built.text() in doc, "docs/certificates.md shows another example: paste Built.text() of example()"
    path = write(built, tmp_path)
    report = accepted(path, "draw")
    assert (report.lemmas, report.positions) == (3, 23)
    assert f"checked: 3 lemmas, 23 positions, {report.game_ends} game ends in" in doc


# --- kozyri verify ------------------------------------------------------------------------------------
def test_verify_accepts_with_what_it_checked(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(example(), tmp_path, "example.cert.gz")
    result = run("verify", "example.cert.gz")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "value: draw for player 0 (the player to move): proven" in out
    assert re.search(r"checked: 3 lemmas, 23 positions, \d+ game ends in \d+\.\d\d s", out)
    assert CHECKER in out and "rules only: kozyri.owntrumps.rules, no solver code" in out
    doc = (ROOT / "docs" / "certificates.md").read_text(encoding="utf-8")
    for line in out.splitlines():
        assert re.sub(r"in \d+\.\d\d s", "in 0.00 s", line) in doc, line


def test_verify_refuses_with_the_lemma_and_the_moves(tmp_path):
    game, side, builder, body = a_win("2x4")
    at = max(i for i, (_s, chooses) in enumerate(builder.trace) if chooses)
    state = builder.trace[at][0]
    body[at] = token(body[at] & 3, len(game.edges[state]) + 5)
    path = write(one_lemma(game, side, WIN, body), tmp_path)
    report = verify_certificate(path)
    result = run("verify", str(path))
    assert result.exit_code == 4, result.output
    assert "REFUSED: lemma 0" in result.stdout
    assert f"moves from the lemma's position: {' '.join(report.line) or '(none'}" in result.stdout
    assert f"reason: {report.reason}" in result.stdout and result.stderr == ""
    as_json = run("verify", str(path), "--json")
    assert as_json.exit_code == 4
    data = json.loads(as_json.stdout)
    assert data["ok"] is False and data["lemma"] == 0 and data["line"] == report.line
    assert data["reason"] == report.reason and data["node"] == report.node


def test_verify_json_shape(tmp_path):
    path = write(example(), tmp_path)
    result = run("verify", str(path), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {"ok", "certificate", "value", "to_move", "position", "lemmas", "positions", "game_ends",
                         "seconds", "checker"}
    assert data["ok"] is True and data["value"] == "draw" and data["to_move"] == 0
    assert Position.from_json(data["position"]) == example().position
    assert (data["lemmas"], data["positions"]) == (3, 23) and data["checker"] == CHECKER


def test_verify_refuses_garbage_with_exit_code_1(tmp_path):
    (tmp_path / "junk").write_bytes(b"not a certificate\n")
    result = run("verify", str(tmp_path / "junk"))
    assert result.exit_code == 4 and "REFUSED: the certificate" in result.stdout
    assert "line 1: the header: malformed JSON" in result.stdout


def test_verify_help_teaches_what_a_certificate_is_and_how_to_get_one():
    result = run("verify", "--help")
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    for fragment in ("proves the exact value of a two-player Own Trumps position", '"win"', '"hold"',
                     "kozyri solve POSITION --offline --store FILE --certificate FILE", "kozyri.owntrumps.rules",
                     "0 the certificate is accepted", "4 the certificate is refused", "2 the file cannot be read"):
        assert fragment in text, fragment


def test_verify_of_a_file_it_cannot_read_is_exit_code_2(tmp_path):
    check_bad_input(run("verify", str(tmp_path / "missing.gz")), "no such file")
    check_bad_input(run("verify", str(tmp_path)), "is a directory, not a certificate file")


def test_check_raises_with_the_reason(tmp_path):
    assert check(write(example(), tmp_path)).ok
    built = copy.deepcopy(example())
    built.lemmas[0].body.append(0)
    with pytest.raises(Exception, match="lemma 0: integers are left"):
        check(write(built, tmp_path, "b.gz"))
    with pytest.raises(InvalidInput, match="cannot read"):
        check(tmp_path / "missing.gz")
