"""What a seat knows (``kozyri.owntrumps.observation``), and the sampler of
consistent positions: proven exact against an independent brute force over
every deal on tiny decks, and uniform by a chi-square test."""

from __future__ import annotations

import itertools
import json
import math
import random
import subprocess
import sys
from collections import Counter
from dataclasses import replace

import pytest

from kozyri.core import InvalidInput, KozyriError, LimitReached
from kozyri.owntrumps import rules as R
from kozyri.owntrumps.observation import Observation
from kozyri.owntrumps.position import Position
from kozyri.owntrumps.record import GameRecord
from kozyri.owntrumps.rules import MoveKind, Rules
from tests.support.owntrumps import random_record


def game_or_none(deck, n_players: int, seed: int, max_moves: int, must_beat: bool = True,
                 pass_sixes: bool = False) -> GameRecord | None:
    """A random game, or None when passing the sixes empties a hand of the tiny deal."""
    try:
        return random_record(deck, n_players, seed, max_moves, must_beat, pass_sixes)
    except KozyriError as exc:
        assert "empty after passing" in str(exc)
        return None


def popcount(mask: int) -> int:
    return bin(mask).count("1")


def public(pos: Position) -> tuple:
    """What every seat sees of a position."""
    return pos.pile, pos.to_move, pos.outcome, tuple(popcount(h) for h in pos.hands)


def deals(cards: list[int], sizes: list[int]):
    """Every way to deal ``cards`` into parts of ``sizes``."""
    if not sizes:
        yield ()
        return
    for part in itertools.combinations(cards, sizes[0]):
        rest = [c for c in cards if c not in part]
        for tail in deals(rest, sizes[1:]):
            yield (part,) + tail


def brute_force(record: GameRecord, seat: int) -> list[set[Position]]:
    """For every prefix of the record (0 moves, 1 move, ...): the set of
    current positions of every start that ``seat`` cannot tell from the real
    one (its own hand, the pile, the counts, and with pass_sixes a deal whose
    sixes are passed) on which every public move so far is legal and shows
    the same public state."""
    start = record.start
    deck, n = start.deck, start.n_players
    pool = deck.cards_of(deck.all_cards & ~start.hands[seat] & ~deck.mask(start.pile))
    others = [o for o in range(n) if o != seat]
    truths = record.positions()
    found = [set() for _ in truths]
    for parts in deals(pool, [popcount(start.hands[o]) for o in others]):
        hands = list(start.hands)
        for o, part in zip(others, parts):
            hands[o] = deck.mask(part)
        pos = replace(start, hands=tuple(hands))
        if start.rules.pass_sixes and not start.pile:
            try:
                if pos.pass_sixes() != pos:
                    continue
            except KozyriError:
                continue
        for k, truth in enumerate(truths):
            if k:
                move = record.moves[k - 1]
                if pos.is_over or move not in pos.legal_moves():
                    break
                pos = pos.play(move)
            if public(pos) != public(truth):
                break
            found[k].add(pos)
    return found


def chi2_sf(x: float, df: int) -> float:
    """P(chi-square with ``df`` degrees of freedom >= x): the regularized upper
    incomplete gamma function Q(df/2, x/2) (series, or continued fraction)."""
    a, x = df / 2, x / 2
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        term = total = 1 / a
        k = a
        while abs(term) > 1e-16 * abs(total):
            k += 1
            term *= x / k
            total += term
        return max(0.0, 1 - total * math.exp(log_front))
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return math.exp(log_front) * h


def chi2_uniform(counts: Counter, cells: int) -> float:
    """The p-value of the observed ``counts`` over ``cells`` equally likely cells."""
    total = sum(counts.values())
    expected = total / cells
    stat = sum((counts.get(i, 0) - expected) ** 2 / expected for i in range(cells))
    return chi2_sf(stat, cells - 1)


#: Tiny decks for the brute force: (deck, players, with pass_sixes).
TINY = [("3x3", 3, False), ("4x3", 3, False), ("4x3", 4, False), ("3x4", 3, False), ("2x6", 3, False),
        ("3x4", 4, False), ("6,7,8/S,H,D", 3, True), ("6,7,8/S,H,D,C", 4, True), ("6,7,8,9/S,H,D", 3, True)]


# =============================================================================
# The chi-square helper itself
# =============================================================================
@pytest.mark.parametrize("x,df,p", [(3.841459, 1, 0.05), (18.307038, 10, 0.05), (6.634897, 1, 0.01),
                                    (2.0, 2, math.exp(-1)), (100.0, 100, 0.4811917), (0.5, 3, 0.918891),
                                    (77.929465, 100, 0.95), (135.806723, 100, 0.01)])
def test_chi2_sf(x, df, p):
    assert chi2_sf(x, df) == pytest.approx(p, rel=1e-4)


# =============================================================================
# Exactness against the brute force
# =============================================================================
@pytest.mark.parametrize("deck,players,pass_sixes", TINY)
@pytest.mark.parametrize("must_beat", [True, False])
def test_exact_against_brute_force(deck, players, pass_sixes, must_beat):
    checked = constrained = 0
    for seed in range(6 if players == 3 else 2):  # four players: some 1,700 deals in each brute force
        record = game_or_none(deck, players, 1000 * seed + players, 30, must_beat, pass_sixes)
        if record is None:
            continue
        for seat in range(players):
            expected = brute_force(record, seat)
            for k in range(len(record.moves) + 1):
                obs = GameRecord(record.start, record.moves[:k]).observation(seat)
                allowed = set(obs.positions())
                assert allowed == expected[k], (record.to_text(), seat, k)
                assert obs.count() == len(expected[k])
                assert record.position_at(k) in allowed
                checked += 1
                constrained += any(obs.known_not[o] & obs.unseen for o in range(players) if obs.hidden(o))
    assert checked > 100
    if must_beat and deck in ("4x3", "2x6"):  # these games are long enough for takes under must_beat
        assert constrained, "no observation with a must_beat deduction"


@pytest.mark.parametrize("deck,players", [("4x3", 3), ("3x4", 4), ("2x6", 3)])
def test_exact_from_a_mid_game_start(deck, players):
    # A record may start in the middle of a game: the seat then knows nothing
    # of the earlier moves, only the start's pile and counts.
    checked = 0
    for seed in range(4):
        game = game_or_none(deck, players, seed, 40)
        k0 = len(game.moves) // 3
        record = GameRecord(game.position_at(k0), game.moves[k0:])
        for seat in range(players):
            expected = brute_force(record, seat)
            for k in range(len(record.moves) + 1):
                obs = GameRecord(record.start, record.moves[:k]).observation(seat)
                assert set(obs.positions()) == expected[k] and obs.count() == len(expected[k])
                checked += 1
    assert checked > 50


@pytest.mark.parametrize("deck,players,pass_sixes", TINY[:5])
def test_samples_cover_exactly_the_brute_force_set(deck, players, pass_sixes):
    rng = random.Random(7)
    for seed in range(3):
        record = game_or_none(deck, players, seed, 25)
        for seat in range(players):
            expected = brute_force(record, seat)
            for k in range(0, len(record.moves) + 1, 3):
                obs = GameRecord(record.start, record.moves[:k]).observation(seat)
                if obs.count() > 80:
                    continue
                samples = obs.sample(rng, 40 * obs.count())
                assert set(samples) == expected[k]


def uniformity_cases(n_cases: int = 8) -> list[Observation]:
    """Observations with 3 to 60 consistent positions, most with must_beat deductions."""
    cases, seen = [], set()
    for seed in range(400):
        deck, players, pass_sixes = TINY[seed % len(TINY)]
        record = game_or_none(deck, players, seed, 30, True, pass_sixes)
        if record is None:
            continue
        for k in range(1, len(record.moves) + 1, 2):
            obs = GameRecord(record.start, record.moves[:k]).observation(k % players)
            deduced = any(obs.known_not[o] & obs.unseen for o in range(players) if obs.hidden(o))
            if 3 <= obs.count() <= 60 and (deduced or len(cases) % 3 == 2) and obs.count() not in seen:
                cases.append(obs)
                seen.add(obs.count())
                break
        if len(cases) == n_cases:
            return cases
    raise AssertionError("not enough observations for the uniformity test")  # pragma: no cover


UNIFORMITY = uniformity_cases()


@pytest.mark.parametrize("case", range(len(UNIFORMITY)))
def test_samples_are_uniform(case):
    obs = UNIFORMITY[case]
    cells = obs.positions()
    assert len(cells) == obs.count() and 3 <= len(cells) <= 60
    index = {pos: i for i, pos in enumerate(cells)}
    samples = obs.sample(random.Random(1000 + case), 200 * len(cells))
    assert all(pos in index for pos in samples)
    counts = Counter(index[pos] for pos in samples)
    assert len(counts) == len(cells)
    assert chi2_uniform(counts, len(cells)) > 0.001


def test_the_uniformity_test_has_teeth():
    """A plausible but wrong sampler (deal the unseen cards one by one to a
    random opponent allowed to hold it with room left, start again when stuck)
    is biased, and the chi-square test sees it on the same observations."""

    def naive(obs, rng):
        while True:
            hands = list(obs.known)
            room = [obs.hidden(o) for o in range(obs.n_players)]
            ok = True
            for card in obs.deck.cards_of(obs.unseen):
                choices = [o for o in range(obs.n_players) if room[o] and not obs.known_not[o] >> card & 1]
                if not choices:
                    ok = False
                    break
                o = rng.choice(choices)
                hands[o] |= 1 << card
                room[o] -= 1
            if ok:
                return replace(obs.sample(rng, 1)[0], hands=tuple(hands))

    rejected = 0
    for case, obs in enumerate(UNIFORMITY):
        cells = obs.positions()
        index = {pos: i for i, pos in enumerate(cells)}
        rng = random.Random(1000 + case)
        counts = Counter(index[naive(obs, rng)] for _ in range(200 * len(cells)))
        rejected += chi2_uniform(counts, len(cells)) < 0.001
    assert rejected >= 2


# =============================================================================
# Random games: the truth is consistent, known cards are right
# =============================================================================
def check_observation(record: GameRecord, seat: int, rng: random.Random, samples: int = 20) -> Observation:
    obs = record.observation(seat)
    truth = record.final
    deck = truth.deck
    assert obs.hand == truth.hands[seat] and obs.pile == truth.pile and obs.to_move == truth.to_move
    assert obs.counts == tuple(popcount(h) for h in truth.hands) and obs.outcome == truth.outcome
    assert obs.moves == tuple(m.text(deck) for m in record.moves)
    assert obs.known[seat] == obs.hand
    for o in range(truth.n_players):
        assert truth.hands[o] & obs.known[o] == obs.known[o], "a known card is not in the hand"
        assert truth.hands[o] & obs.known_not[o] == 0, "a card known not to be in the hand is there"
        assert obs.possible(o) | obs.known_not[o] == deck.all_cards
        assert obs.possible(o) & obs.known_not[o] == 0
        if o != seat:
            assert obs.hidden(o) == popcount(truth.hands[o] & obs.unseen)
    assert obs.count() >= 1
    for pos in obs.sample(rng, samples):
        assert public(pos) == public(truth)
        assert pos.hands[seat] == truth.hands[seat] and pos.rules == truth.rules and pos.trumps == truth.trumps
        for o in range(truth.n_players):
            assert pos.hands[o] & obs.known[o] == obs.known[o] and pos.hands[o] & obs.known_not[o] == 0
        if not pos.is_over:
            Position.from_json(pos.to_json())  # every sample is a valid position
            assert pos.legal_moves()
    assert Observation.from_json(obs.to_json()) == obs
    assert Observation.from_json(json.dumps(obs.to_json())) == obs
    return obs


@pytest.mark.parametrize("deck", ["36", "24", "4x3", "52"])
@pytest.mark.parametrize("players", [3, 4])
def test_random_games(deck, players):
    rng = random.Random(players)
    for seed in range(4):
        record = game_or_none(deck, players, seed, 400, must_beat=seed % 3 != 2, pass_sixes=seed == 1)
        if record is None:
            continue
        step = max(1, len(record.moves) // 12)
        for k in list(range(0, len(record.moves) + 1, step)) + [len(record.moves)]:
            prefix = GameRecord(record.start, record.moves[:k])
            for seat in range(players):
                check_observation(prefix, seat, rng, 5)


def test_must_beat_deductions_are_made():
    # A take with must_beat on: the taker held no card beating the top card.
    record = GameRecord.deal(36, 3, seed=11)
    rng = random.Random(3)
    while not record.is_over:
        before = record.final
        record = record.play(rng.choice(before.legal_moves()))
        move = record.moves[-1]
        if move.kind == MoveKind.TAKE:
            taker = before.to_move
            seat = (taker + 1) % 3
            obs = record.observation(seat)
            beaters = before.deck.mask(c for c in range(36) if R.beats(before.deck, c, before.top,
                                                                      before.trump_indices[taker]))
            assert beaters & obs.unseen & ~obs.known_not[taker] == 0
            if beaters & obs.unseen:  # not a take of a trump ace, which nothing beats
                assert obs.known_not[taker] & obs.unseen
                return
    pytest.fail("no take with unseen beaters")  # pragma: no cover


def test_taken_cards_are_known():
    record = GameRecord.deal(24, 3, seed=2)
    rng = random.Random(5)
    for _ in range(300):
        before = record.final
        move = rng.choice(before.legal_moves())
        record = record.play(move)
        if move.kind == MoveKind.TAKE:
            taken = before.deck.mask(before.pile[len(before.pile) - move.count:])
            for seat in range(3):
                if seat != before.to_move:
                    assert record.observation(seat).known[before.to_move] & taken == taken
            return
    pytest.fail("no take")  # pragma: no cover


@pytest.mark.parametrize("deck", ["36", "24", "2x6"])
def test_two_players_whole_deck_is_perfect_information(deck):
    rng = random.Random(9)
    for seed in range(5):
        record = game_or_none(deck, 2, seed, 150, must_beat=seed % 2 == 0)
        for k in range(0, len(record.moves) + 1, 7):
            prefix = GameRecord(record.start, record.moves[:k])
            for seat in (0, 1):
                obs = prefix.observation(seat)
                assert obs.count() == 1
                assert obs.sample(rng, 3) == [prefix.final] * 3
                assert obs.positions() == [prefix.final]


def test_pass_sixes_are_known():
    record = GameRecord.deal(36, 4, seed=3, rules=Rules(pass_sixes=True))
    obs = record.observation(0)
    deck = record.start.deck
    for seat, suit in enumerate("SHDC"):
        six = deck.parse_card("6" + suit)
        assert obs.known[seat] >> six & 1
        assert all(obs.known_not[o] >> six & 1 for o in range(4) if o != seat)
    # Without the option nothing is known of the others.
    plain = GameRecord.deal(36, 4, seed=3).observation(0)
    assert plain.known[1:] == (0, 0, 0)


def test_finished_games():
    for seed in range(40):
        record = game_or_none("4x3", 3, seed, 200)
        if record.is_over:
            for seat in range(3):
                obs = check_observation(record, seat, random.Random(seed))
                assert obs.count() == 1 and obs.is_over
                assert obs.to_json()["outcome"] == {"loser": record.outcome.loser}
            return
    pytest.fail("no finished game")  # pragma: no cover


def test_the_records_views_check_the_seat():
    record = GameRecord.deal("4x3", 3, seed=1)
    record = record.play(record.final.legal_moves()[0])
    for seat in (3, -1, True, "0"):
        with pytest.raises(InvalidInput, match=r"seat number 0\.\.2"):
            record.observation(seat)


def test_sample_arguments_and_limits():
    obs = GameRecord.deal(36, 4, seed=1).observation(0)
    assert obs.count() == math.factorial(27) // math.factorial(9) ** 3
    assert obs.sample(random.Random(1), 0) == []
    assert len(obs.sample(random.Random(1))) == 1
    for n in (-1, 1.5, True):
        with pytest.raises(InvalidInput, match="number of samples"):
            obs.sample(random.Random(1), n)
    with pytest.raises(LimitReached, match="more than 100,000"):
        obs.positions()
    # The same seed gives the same samples; draws are independent positions.
    assert obs.sample(random.Random(5), 10) == obs.sample(random.Random(5), 10)
    assert len(set(obs.sample(random.Random(5), 50))) == 50


def test_no_numba_on_import():
    code = ("import sys, kozyri.owntrumps.record, kozyri.owntrumps.observation; "
            "print(sorted(m for m in ('numba', 'numpy', 'llvmlite') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "[]", done.stdout + done.stderr


# =============================================================================
# The JSON form and bad observations
# =============================================================================
GOOD = {"seat": 0, "deck": "4x3", "trumps": ["S", "H", "D"], "to_move": 0,
        "hand": ["QS", "KS", "AS", "QH"], "pile": [], "counts": [4, 4, 4],
        "known": [[], ["KH", "AH"], []], "known_not": [[], ["QD"], ["QC", "KC"]]}


def obs_json(**changes) -> str:
    data = dict(GOOD)
    data.update(changes)
    for key in [k for k, v in changes.items() if v is ...]:
        del data[key]
    return json.dumps(data)


def test_json_by_hand():
    obs = Observation.from_json(obs_json())
    deck = obs.deck
    assert obs.known[0] == obs.hand and obs.known[1] == deck.mask(deck.parse_cards("KH AH"))
    # Hand 1 holds KH AH and two unseen cards, not QD; hand 2 holds four, not
    # QC or KC: QC KC go to hand 1, the rest to hand 2. One position.
    assert obs.count() == 1
    (pos,) = obs.positions()
    assert pos.hands[1] == deck.mask(deck.parse_cards("KH AH QC KC"))
    assert pos.hands[2] == deck.mask(deck.parse_cards("QD KD AD AC"))
    assert obs.sample(random.Random(1), 2) == [pos, pos]
    assert Observation.from_json(obs.to_json()) == obs
    out = obs.to_json()
    assert out["known"][0] == GOOD["hand"] and out["known_not"][0] == []
    # The own entry of "known" may equal the hand; trivial cards in known_not change nothing.
    assert Observation.from_json(obs_json(known=[GOOD["hand"], ["KH", "AH"], []])) == obs
    assert Observation.from_json(obs_json(known_not=[["KH"], ["QD", "QS"], ["QC", "KC", "KH"]])) == obs


def test_json_defaults():
    obs = Observation.from_json({"seat": 1, "trumps": "SH", "hand": ["6S"], "counts": [35, 1]})
    assert obs.deck.size == 36 and obs.to_move == 0 and obs.pile == () and obs.rules == Rules()
    assert obs.count() == 1 and obs.moves == () and obs.outcome is None


@pytest.mark.parametrize("data,message", [
    ("{bad", "malformed JSON"),
    ("[]", "an observation must be a JSON object"),
    (obs_json(colour=1), "unknown key 'colour' in the observation"),
    (obs_json(seat=...), 'the observation has no "seat"'),
    (obs_json(counts=...), 'the observation has no "counts"'),
    (obs_json(seat=3), "seat must be a seat number 0..2"),
    (obs_json(seat="0"), "seat must be a seat number 0..2"),
    (obs_json(to_move=5), "to_move must be a seat number 0..2"),
    (obs_json(counts="444"), '"counts" must be a list of whole numbers'),
    (obs_json(counts=[4, 4, 4, 0, 0]), "5 counts"),
    (obs_json(counts=[4, 4, 4.0]), '"counts" must be a list of whole numbers'),
    (obs_json(counts=[4, 5, -1]), "the count of hand 2 must be at least 0, not -1"),
    (obs_json(trumps=["S", "H"]), "\"counts\" has 3 numbers and \"trumps\" 2 suits"),
    (obs_json(hand="QS KS"), '"hand" must be a list of cards'),
    (obs_json(hand=["QS", "QS", "AS", "QH"]), "duplicate card QS (twice in the hand)"),
    (obs_json(pile=["QS"], counts=[4, 4, 3]), "duplicate card QS (in the hand and the pile)"),
    (obs_json(known=[[], ["KH", "AH"], ["AH"]]), "duplicate card AH (in known 1 and known 2)"),
    (obs_json(known=[[], ["KH", "QS"], []]), "duplicate card QS (in the hand and known 1)"),
    (obs_json(known=[[], ["KH", "KH"], []]), "duplicate card KH (twice in known 1)"),
    (obs_json(known=[["QS"], ["KH", "AH"], []]), "must be its hand or nothing"),
    (obs_json(known=[[], ["KH", "AH"]]), '"known" has 2 lists for 3 players'),
    (obs_json(known_not="QD"), '"known_not" must be a list of lists'),
    (obs_json(counts=[4, 4, 5]), "the counts add up to 13, but 12 cards are in hands"),
    (obs_json(counts=[3, 4, 5]), "the count of the seat's own hand 0 is 3, but the hand holds 4 cards"),
    (obs_json(counts=[4, 1, 7]), "hand 1 holds 1 cards but 2 are known in it"),
    (obs_json(known_not=[[], ["KH"], []]), "inconsistent observation: KH is both known to be and known not"),
    (obs_json(known_not=[[], ["QD"], ["QC", "KC", "AC", "KD"]]),
     "inconsistent observation: hand 2 must hold 4 unseen cards but only 2 unseen cards may be there (QD AD)"),
    (obs_json(known_not=[[], ["QC", "QD"], ["QC", "KC", "AC"]]),
     "inconsistent observation: QC is unseen but can be in no hand"),
    (obs_json(hand=[], counts=[0, 12, 0], to_move=1, known_not=[[], [], []]), "fewer than two players hold"),
    (obs_json(to_move=2, counts=[4, 8, 0], known_not=[[], [], []]), "hand 2 is empty"),
    (obs_json(pile=["AD", "QD"], counts=[4, 3, 3], known_not=[[], [], []]),
     "the pile cannot arise: QD neither beats AD"),
    (obs_json(outcome={"loser": 1}), "the outcome does not fit the counts"),
    (obs_json(outcome="draw"), '"outcome" must be {"loser": SEAT}'),
    (obs_json(moves="QS"), '"moves" must be a list of move texts'),
    (obs_json(rules={"jokers": True}), "unknown rule option 'jokers'"),
    (obs_json(deck=7), '"deck" must be'),
    (obs_json(hand=["QS", "KS", "AS", "6H"]), "card 6H is not in the deck"),
])
def test_bad_json(data, message):
    with pytest.raises(KozyriError) as info:
        Observation.from_json(data)
    text = str(info.value)
    assert message in text and "\n" not in text, text


def test_hall_violation_for_two_hands():
    # Hands 1 and 2 need 8 unseen cards; QC KC AC may be in neither.
    data = {"seat": 0, "deck": "4x3", "trumps": ["S", "H", "D", "C"], "hand": ["QS", "KS", "AS"],
            "counts": [3, 3, 3, 3], "known_not": [[], ["QC", "KC", "AC", "QD"], ["QC", "KC", "AC", "KD"], []]}
    assert Observation.from_json(data).count() > 0
    data["known_not"][1].append("AD")
    data["known_not"][2].append("AD")
    with pytest.raises(InvalidInput) as info:
        Observation.from_json(data)
    assert str(info.value) == ("inconsistent observation: hands 1 and 2 must hold 6 unseen cards but only 5 "
                               "unseen cards may be there (QH KH AH QD KD)")


def test_big_inconsistent_observations_fail_fast():
    # 52 cards, 4 players: every opponent is known not to hold any spade.
    record = GameRecord.deal(52, 4, seed=1)
    data = record.observation(0).to_json()
    spades = [c for c in record.start.deck.parse_cards("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS")
              if not record.start.hands[0] >> c & 1]
    data["known_not"] = [[]] + [[record.start.deck.card_text(c) for c in spades]] * 3
    with pytest.raises(InvalidInput, match="inconsistent observation: .* can be in no hand"):
        Observation.from_json(data)
    # Many groups of unseen cards: a bigger table, still fast.
    data = record.observation(0).to_json()
    unseen = [record.start.deck.card_text(c) for c in range(52) if not record.start.hands[0] >> c & 1]
    data["known_not"] = [[], unseen[:30], unseen[20:35], unseen[30:]]
    with pytest.raises(InvalidInput, match="inconsistent observation: hand 1 must hold 13 unseen cards but only 9"):
        Observation.from_json(data)
    data["known_not"] = [[], unseen[:8] + unseen[30:33], unseen[6:16] + unseen[33:], unseen[14:24] + unseen[28:31]]
    obs = Observation.from_json(data)
    assert obs.count() > 10**6
    for pos in obs.sample(random.Random(1), 100):
        assert all(pos.hands[o] & obs.known_not[o] == 0 and popcount(pos.hands[o]) == 13 for o in range(4))


def test_observations_of_every_prefix_in_one_pass():
    rng = random.Random(31)
    for players in (3, 4):
        record = GameRecord.deal("4x3", players, seed=players, rules=Rules(must_beat=True))
        for _ in range(40):
            if record.is_over:
                break
            record = record.play(rng.choice(record.final.legal_moves()))
        for seat in range(players):
            views = record.observations(seat)
            assert len(views) == len(record.moves) + 1
            for i, view in enumerate(views):
                assert view == GameRecord(record.start, record.moves[:i]).observation(seat), (seat, i)
