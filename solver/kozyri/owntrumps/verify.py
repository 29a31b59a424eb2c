"""The checker of certificates: accepts or refuses a certificate file
(:mod:`kozyri.owntrumps.certificate`) with the plain-Python rules alone.

Trust is the point, speed comes second. The checker imports the rules
(:mod:`kozyri.owntrumps.rules`), decks, positions and the certificate's
reader, nothing else of kozyri beyond :mod:`kozyri.core`: no Numba, no
NumPy, no kernel, search, table or store. A certificate written by a buggy
solver is refused here, whatever the solver believed. Every position of
every walk is made by :func:`~kozyri.owntrumps.rules.legal_moves` and
:func:`~kozyri.owntrumps.rules.apply_move` from the lemma's own position,
and compared with a label or a lemma by its exact cards (hands, the pile in
order, the player to move).

What is checked (docs/certificates.md):

* the header: a two-player position in play, a value, and in ``root`` the
  lemmas at that position that prove the value (a win lemma of the player
  to move for ``win``, of the other player for ``loss``, hold lemmas of
  both for ``draw``);
* every lemma, ids 0..N-1 once each, its body walked to its end: the side's
  chosen moves exist, every move of the other side is followed, each game
  end is one the claim allows (``win``: the other player loses; ``hold``:
  the side does not lose), each reference and citation names the very
  position reached, of a lemma of the same side (a win lemma cites win
  lemmas only); in a win lemma a reference names a finished position (a
  reference to a position still being walked would be a cycle: playing for
  ever is no win), and the win lemmas cite each other in no cycle.

Sound because a win lemma's walk is then a finite tree of plays folded onto
shared, finished positions, in which the side wins at every end; a hold
lemma's positions are closed under play, the side's chosen move and every
move of the other, and no end among them is the side's loss.

The walk is iterative (a body may hold millions of positions, nested as
deep): only the labelled positions and the path being walked are held.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from kozyri.core import InvalidInput
from kozyri.owntrumps import rules as R
from kozyri.owntrumps.cards import Deck
from kozyri.owntrumps.certificate import (
    HOLD,
    LABELLED,
    NODE,
    REF,
    WIN,
    CertificateError,
    CertificateReader,
    Lemma,
)
from kozyri.owntrumps.position import Position

#: What the checker trusts, as the command line says it.
CHECKER = "rules only: kozyri.owntrumps.rules, no solver code"


@dataclass
class VerifyReport:
    """What :func:`verify_certificate` found: ``ok`` (accepted) with the
    value it proves for the player to move (``to_move``) at ``position``,
    and what was checked; or a refusal: the ``lemma``, the ``line`` of
    moves from the lemma's position to the wrong node (move texts like
    ``QS``, ``KH+9S``, ``take3``), that ``node`` as text, and the
    ``reason``."""

    ok: bool
    path: str
    value: str | None = None
    to_move: int | None = None
    position: Position | None = None
    lemmas: int = 0
    #: Positions reached by the walks (one a body's integer: expanded, referred to or cited).
    positions: int = 0
    #: Moves that ended a game, each checked against its lemma's claim.
    game_ends: int = 0
    seconds: float = 0.0
    lemma: int | None = None
    line: list[str] = field(default_factory=list)
    node: str | None = None
    reason: str | None = None

    @property
    def positions_per_second(self) -> float:
        return self.positions / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict:
        out = {"ok": self.ok, "certificate": self.path, "value": self.value, "to_move": self.to_move,
               "position": self.position.to_json() if self.position is not None else None,
               "lemmas": self.lemmas, "positions": self.positions, "game_ends": self.game_ends,
               "seconds": round(self.seconds, 6), "checker": CHECKER}
        if not self.ok:
            out.update(lemma=self.lemma, line=list(self.line), node=self.node, reason=self.reason)
        return out


class Refusal(Exception):
    """A certificate is wrong: where (``lemma``, the ``line`` of moves from
    its position, the ``node``) and why (``reason``)."""

    def __init__(self, reason: str, lemma: int | None = None, line: list[str] | None = None,
                 node: str | None = None):
        super().__init__(reason)
        self.reason, self.lemma, self.line, self.node = reason, lemma, line or [], node


class MoveTables:
    """The legal moves of one deck, trump pair and rule set, fast: the same
    list as :func:`~kozyri.owntrumps.rules.legal_moves` (the same
    :class:`~kozyri.owntrumps.rules.Move` objects, in its order), from
    tables made once by :func:`~kozyri.owntrumps.rules.beats` and
    :func:`~kozyri.owntrumps.rules.take_count` (the tests check that the two
    agree). The rules' own function lists a hand's cards by testing every
    card of the deck, several times a position: five to twenty times slower."""

    def __init__(self, deck: Deck, rules: R.Rules, trumps: tuple[int, ...]):
        size = deck.size
        self.must_beat = rules.must_beat
        #: beaters[seat][top]: the mask of the cards that beat ``top`` for ``seat``.
        self.beaters = [[deck.mask(c for c in range(size) if R.beats(deck, c, top, trump)) for top in range(size)]
                        for trump in trumps]
        #: takes[seat][top][n]: the take of ``seat`` with ``top`` on a pile of ``n`` cards.
        self.takes = [[[R.Move.take(R.take_count(deck, top, trump, n)) if n else None for n in range(size + 1)]
                       for top in range(size)] for trump in trumps]
        self.leads = [R.Move.lead(c) for c in range(size)]
        #: beats[b][f]: beat with ``b`` and follow with ``f`` (``f`` = -1, the last item: no follow).
        self.beats = [[R.Move.beat(b, f) for f in range(size)] + [R.Move.beat(b)] for b in range(size)]
        # The cards of each byte of a mask, per byte's place.
        self._bytes = [[[k * 8 + i for i in range(8) if byte >> i & 1] for byte in range(256)]
                       for k in range((size + 7) // 8)]

    def cards(self, mask: int) -> list[int]:
        """The cards of ``mask``, ascending (as ``Deck.cards_of``)."""
        out = []
        for table in self._bytes:
            if mask & 255:
                out += table[mask & 255]
            mask >>= 8
        return out

    def legal_moves(self, hands: tuple[int, ...], pile: tuple[int, ...], to_move: int) -> list[R.Move]:
        """:func:`kozyri.owntrumps.rules.legal_moves` of this deck, trumps and rules."""
        hand = hands[to_move]
        if not pile:
            leads = self.leads
            return [leads[c] for c in self.cards(hand)]
        top = pile[-1]
        moves = []
        beats = self.beats
        for b in self.cards(self.beaters[to_move][top] & hand):
            row = beats[b]
            rest = hand & ~(1 << b)
            if rest:
                moves += [row[f] for f in self.cards(rest)]
            else:
                moves.append(row[-1])
        if not moves or not self.must_beat:
            moves.append(self.takes[to_move][top][len(pile)])
        return moves


def position_text(deck: Deck, key) -> str:
    """``QS AS | KH / QH, player 1 to move``: a position of a walk, for people."""
    hands, pile, to_move = key
    text = " | ".join(deck.mask_text(h) or "-" for h in hands)
    if pile:
        text += " / " + " ".join(deck.card_text(c) for c in pile)
    return f"{text}, player {to_move} to move"


def verify_certificate(path) -> VerifyReport:
    """Check the certificate at ``path``; a refusal is a report with
    ``ok`` false, not an exception. A file that cannot be opened or read
    raises :class:`~kozyri.core.InvalidInput`."""
    started = time.perf_counter()
    report = VerifyReport(ok=False, path=str(path))
    checker = _Checker(report)
    try:
        checker.run(path)
        report.ok = True
    except CertificateError as exc:
        report.reason, report.lemma = exc.reason if not exc.line else f"line {exc.line}: {exc.reason}", checker.lemma
    except Refusal as exc:
        report.reason, report.lemma, report.line, report.node = exc.reason, exc.lemma, exc.line, exc.node
    report.seconds = time.perf_counter() - started
    return report


def _claim_text(side: int, claim: str) -> str:
    return f"a {claim} lemma of player {side}"


class _Checker:
    """One certificate's check: the lemmas' lines first (all of them, so
    that a citation can be checked wherever its lemma is), then the bodies
    in file order, then the citations among win lemmas."""

    def __init__(self, report: VerifyReport):
        self.report = report
        self.lemma: int | None = None  # the lemma being read, for a refusal

    def run(self, path) -> None:
        report = self.report
        with CertificateReader(path) as reader:
            position = reader.position
            report.position, report.value, report.to_move = position, reader.header["value"], position.to_move
            count = reader.header["lemmas"]
            lemmas: dict[int, Lemma] = {}
            for lemma in reader.lemmas():
                if lemma.id >= count:
                    raise Refusal(f"line {lemma.line}: lemma {lemma.id} is not one of 0..{count - 1} (the header "
                                  f"announces {count} lemmas)", lemma.id)
                if lemma.id in lemmas:
                    raise Refusal(f"line {lemma.line}: lemma {lemma.id} comes twice (also line "
                                  f"{lemmas[lemma.id].line})", lemma.id)
                lemmas[lemma.id] = lemma
            if len(lemmas) != count:
                missing = next(i for i in range(count) if i not in lemmas)  # at most len(lemmas)
                raise Refusal(f"the header announces {count} lemmas, the file holds {len(lemmas)} "
                              f"(lemma {missing} is missing)")
        report.lemmas = count
        self._check_root(position, reader.header["value"], reader.header["root"], lemmas)
        self.lemmas = lemmas
        self.deck, self.rules, self.trumps = position.deck, position.rules, position.trump_indices
        self.tables = MoveTables(self.deck, self.rules, self.trumps)
        self.cites: dict[int, set[int]] = {}  # win lemma -> the win lemmas it cites
        with CertificateReader(path) as reader:
            for lemma in reader.lemmas():
                self.lemma = lemma.id  # a malformed body is this lemma's
                self._check_lemma(lemma, reader.body())
                self.lemma = None
        self._check_no_cycle()

    # --- the header ------------------------------------------------------------
    def _check_root(self, position: Position, value: str, root: list[int], lemmas: dict[int, Lemma]) -> None:
        for i in root:
            if i not in lemmas:
                raise Refusal(f'"root" names lemma {i}, which the file does not hold')
            if lemmas[i].key != position.key():
                raise Refusal(f"root lemma {i} is not at the header's position "
                              f"({position_text(position.deck, lemmas[i].key)})", i)
        m = position.to_move
        need = {"win": [(m, WIN)], "loss": [(1 - m, WIN)], "draw": [(0, HOLD), (1, HOLD)]}[value]
        have = sorted((lemmas[i].side, lemmas[i].claim) for i in root)
        if have != need:
            wanted = " and ".join(_claim_text(*n) for n in need)
            found = ", ".join(f"lemma {i}: {_claim_text(lemmas[i].side, lemmas[i].claim)}" for i in root)
            raise Refusal(f'"value": "{value}" (for player {m}, to move) needs in "root" {wanted} at the '
                          f"header's position; the root has {found or 'no lemma'}")

    # --- a lemma's body ----------------------------------------------------------
    def _check_lemma(self, lemma: Lemma, ints) -> None:
        """Walk ``lemma``'s body (an iterator of ints), depth first without recursion."""
        deck, trumps = self.deck, self.trumps
        legal_moves, apply_move = self.tables.legal_moves, R.apply_move
        side, win, lemma_id = lemma.side, lemma.claim == WIN, lemma.id
        lemmas, cited = self.lemmas, self.cites.setdefault(lemma_id, set()) if lemma.claim == WIN else None
        labels: list[tuple] = []  # the labelled positions, in order
        open_labels: set[int] = set()  # labels whose node is still being walked
        # A frame: [the moves followed, how many were taken, its label (-1: none), its position].
        stack: list[list] = []
        positions = ends = 0

        def refuse(reason: str, key=None):
            moves = [frame[0][frame[1] - 1].text(deck) for frame in stack]
            self.report.positions += positions
            self.report.game_ends += ends
            raise Refusal(reason, lemma_id, moves, position_text(deck, key) if key is not None else None)

        key = lemma.key
        h = next(ints, None)
        while True:
            # ``h`` is the integer of the position ``key`` (None: the body has ended).
            if h is None:
                refuse("the body ends here: this position has no integer", key)
            positions += 1
            kind, arg = h & 3, h >> 2
            if kind == NODE or kind == LABELLED:
                hands, pile, to_move = key
                moves = legal_moves(hands, pile, to_move)
                if not moves:
                    refuse("no legal move here: not a position in play", key)
                if to_move == side and len(moves) >= 2:
                    if arg >= len(moves):
                        refuse(f"player {side} chooses move {arg}, but has only {len(moves)} legal moves", key)
                    moves = [moves[arg]]
                elif arg != 0:
                    who = "a single legal move" if to_move == side else f"player {to_move} (every move followed)"
                    refuse(f"a node of {who} must be written with argument 0, not {arg}", key)
                label = -1
                if kind == LABELLED:
                    label = len(labels)
                    labels.append(key)
                    open_labels.add(label)
                stack.append([moves, 0, label, key])
            elif not stack:
                refuse("a body starts with its own position expanded (NODE or LABELLED), not a "
                       + ("REF" if kind == REF else "CITE"), key)
            elif kind == REF:
                if arg >= len(labels):
                    refuse(f"REF to label {arg}, but only {len(labels)} labels are given so far", key)
                if labels[arg] != key:
                    refuse(f"REF to label {arg}, a different position ({position_text(deck, labels[arg])})", key)
                if win and arg in open_labels:
                    refuse(f"REF to label {arg}, a position still being walked: a cycle, and a win lemma may "
                           "not play for ever", key)
            else:  # CITE
                other = lemmas.get(arg)
                if other is None:
                    refuse(f"CITE of lemma {arg}, which the file does not hold", key)
                if other.side != side:
                    refuse(f"CITE of lemma {arg}, a lemma of player {other.side}: this lemma is player {side}'s", key)
                if win and other.claim != WIN:
                    refuse(f"CITE of lemma {arg}, a hold lemma: a win lemma cites win lemmas only", key)
                if other.key != key:
                    refuse(f"CITE of lemma {arg}, a different position ({position_text(deck, other.key)})", key)
                if win:
                    cited.add(arg)
            # The next position: the next move of the innermost node with one left.
            key = None
            while stack:
                frame = stack[-1]
                moves, taken = frame[0], frame[1]
                if taken == len(moves):
                    stack.pop()
                    if frame[2] >= 0:
                        open_labels.discard(frame[2])
                    continue
                frame[1] = taken + 1
                hands, pile, to_move = frame[3]
                hands, pile, to_move, outcome = apply_move(deck, trumps, hands, pile, to_move, moves[taken])
                if outcome is None:
                    key = (hands, pile, to_move)
                    break
                ends += 1
                if outcome.loser == side:
                    refuse(f"the game ends with player {side}'s loss", (hands, pile, to_move))
                if win and outcome.loser is None:
                    refuse(f"the game ends in a draw: a win lemma of player {side} needs the other player to lose",
                           (hands, pile, to_move))
            if key is None:
                break
            h = next(ints, None)
        if next(ints, None) is not None:
            refuse("integers are left after the walk's last position")
        self.report.positions += positions
        self.report.game_ends += ends

    # --- the citations among win lemmas --------------------------------------------
    def _check_no_cycle(self) -> None:
        """Refuse win lemmas that cite each other in a cycle (each would be
        proven by the other: nothing is)."""
        state: dict[int, int] = {}  # 1: being visited, 2: done
        for start in sorted(self.cites):
            if start in state:
                continue
            state[start] = 1
            path, todo = [start], [iter(sorted(self.cites[start]))]
            while todo:
                nxt = next(todo[-1], None)
                if nxt is None:
                    state[path.pop()] = 2
                    todo.pop()
                elif state.get(nxt) == 1:
                    cycle = path[path.index(nxt):] + [nxt]
                    raise Refusal("win lemmas cite each other in a cycle: " + " -> ".join(map(str, cycle))
                                  + " (a win may not rest on itself)", nxt)
                elif nxt not in state:
                    state[nxt] = 1
                    path.append(nxt)
                    todo.append(iter(sorted(self.cites.get(nxt, ()))))


def check(path) -> VerifyReport:
    """:func:`verify_certificate` that raises :class:`~kozyri.core.InvalidInput`
    with the reason when the certificate is refused (for scripts and tests)."""
    report = verify_certificate(path)
    if not report.ok:
        where = f"lemma {report.lemma}" if report.lemma is not None else "certificate"
        moves = (" after " + " ".join(report.line)) if report.line else ""
        raise InvalidInput(f"{where}{moves}: {report.reason}")
    return report
