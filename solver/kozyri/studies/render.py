"""Text for people: a win-rate study's summary and a match's, as tables;
a game's review as the record with its annotations."""

from __future__ import annotations

from kozyri.core import Limit
from kozyri.owntrumps.cards import SUIT_SYMBOLS, SUITS
from kozyri.owntrumps.record import GameRecord
from kozyri.owntrumps.render import end_text
from kozyri.studies.arena import Match
from kozyri.studies.review import (
    EXACT,
    CONFIDENCE_Z,
    EXACT_CARDS,
    FORCED,
    MIN_VISITS,
    RECHECK_EFFORT,
    UNCLEAR,
    THRESHOLDS,
    ExactVerdict,
    MoveReview,
    Review,
    total_time_bound,
)
from kozyri.studies.study_settings import SELFPLAY, TABLE
from kozyri.studies.summary import Summary, Tally

SEAT_NAMES = ("leader", "2nd", "3rd", "4th")


def _pct(x: float | None) -> str:
    return "   -" if x is None else f"{100 * x:.1f}%"


def _interval(pair) -> str:
    return f"{100 * pair[0]:.1f}-{100 * pair[1]:.1f}%"


def _wdl(t: Tally) -> str:
    """Wins, draws, losses (capped, unknown) with the win rate and its interval."""
    d = t.to_json()
    extra = "".join(f" {name} {getattr(t, name)}" for name in ("capped", "unknown") if getattr(t, name))
    return (f"W {t.won:>6,}  D {t.drawn:>6,}  L {t.lost:>6,}{extra}   win {_pct(d['win_rate']):>6} "
            f"({_interval(d['win_interval'])})  loss {_pct(d['loss_rate']):>6} ({_interval(d['loss_interval'])})")


def _loser(t: Tally) -> str:
    d = t.to_json()
    return f"{_pct(d['loss_rate']):>6} ({_interval(d['loss_interval'])})"


def header(summary: Summary) -> list[str]:
    s = summary.settings
    what = "every deal" if s.all_deals else ("deals with a given hand" if s.hand else "random deals")
    lines = [f"{summary.deals:,} of {s.n_deals:,} deals ({what}, seed {s.seed}); deck {s.deck}, {s.players} "
             f"players, {s.rules.switches()}; "
             "seat 0 leads, trumps in turn order from the leader"]
    how = ", ".join(f"{name} {count:,}" for name, count in summary.how.items() if count)
    lines.append(f"cells: {sum(summary.how.values()):,} ({how or 'none'})")
    if s.method == TABLE:
        lines.append("every cell exact, from the retrograde tables of the whole deck")
    else:
        ways = []
        if s.solve_seconds > 0:
            ways.append(f"exact where the solver settles a cell within {s.solve_seconds:g} s")
        if s.selfplay:
            limit = f"{s.nodes:,} iterations" if s.nodes is not None else f"{s.time:g} s"
            ways.append(f"{'otherwise ' if ways else ''}one game of {s.agent_name} in every seat at {limit} a move "
                        f"(turn cap {s.turn_cap:,}: capped games count as draws)")
        else:
            ways.append(f"{'otherwise ' if ways else ''}unknown (no self-play)")
        lines.append("; ".join(ways))
    if s.hand is not None:
        lines.append(f"seat {s.seat} holds {s.hand}")
    if s.trumps is not None:
        lines.append(f"one trump assignment only: {' '.join(s.trumps)} (where every suit is dealt, each stands for "
                     "all up to renaming the suits; no choice analysis, no policies)")
    if summary.stopped:
        lines.append(f"stopped early ({summary.stopped}): the figures are of the deals done")
    return lines


def summary_text(summary: Summary) -> str:
    s = summary.settings
    out = header(summary) + [""]
    two = s.players == 2
    if two:
        out.append("The leader, over every deal and assignment:")
        out.append("  " + _wdl(summary.overall))
        out += ["", "By trump pair (the leader's trump, then the other's), the leader's results:"]
        for trumps, tallies in summary.assignments.items():
            out.append(f"  {' '.join(trumps)}   " + _wdl(tallies[0]))
        if s.trumps is None:
            out += ["", "The leader's win rate (rows: the leader's trump; columns: the other's):",
                    "        " + "".join(f"{suit:>8}" for suit in SUITS)]
            for a in SUITS:
                row = "".join(f"{'-' if a == b else _pct(summary.assignments[(a, b)][0].to_json()['win_rate']):>8}"
                              for b in SUITS)
                out.append(f"  {a}     {row}")
    else:
        out.append("How often each seat is the loser (an equal player: 1 game in "
                   f"{s.players}), with 95% intervals:")
        for seat, tally in enumerate(summary.by_seat):
            extra = f"  draws {tally.drawn}, capped {tally.capped}, unknown {tally.unknown}" if seat == 0 else ""
            out.append(f"  {SEAT_NAMES[seat]:<7} {_loser(tally)}{extra}")
        out += ["", "By assignment (trumps in turn order), each seat's loser rate:",
                "  trumps  " + "".join(f"{name:>9}" for name in SEAT_NAMES[:s.players])]
        for trumps, tallies in summary.assignments.items():
            out.append(f"  {''.join(trumps):<7} " + "".join(f"{_pct(t.to_json()['loss_rate']):>9}" for t in tallies))
    if summary.choice is not None:
        c = summary.choice
        basis = ("values with best play, knowing both hands" if c.exact_deals == c.deals else
                 "outcomes of the cells as obtained: exact ones with best play, self-play games as played; "
                 "both hands known")
        out += ["", f"Choosing the trumps ({c.deals:,} deals with every cell known, {c.exact_deals:,} of them exact; "
                f"{basis}):"]
        if c.deals:
            out.append("  the leader chooses first:  " + _wdl(c.leader_first))
            out.append("  the other chooses first:   " + _wdl(c.other_first))
            out.append(f"  choosing first is worth {c.first_gain:+.3f} points (win 1, draw 1/2) to either "
                       f"player; the order changes the outcome in {c.order_matters:,} deals "
                       f"({_pct(c.order_matters / c.deals)})")
            js = c.to_json()
            out.append(f"  a pure equilibrium of the simultaneous choice: {c.equilibrium:,} deals "
                       f"({_pct(js['equilibrium_rate'])}, {_interval(js['equilibrium_interval'])})")
    names = list(summary.policies)
    if names:
        out += ["", "Trump-choice policies (rows: the leader's; columns: the others'; in turn order, the leader "
                "first), " + ("the leader's score:" if two else "the leader's loser rate:")]
        out.append("  " + " " * 10 + "".join(f"{q:>11}" for q in names))
    for p in names:
        cells = []
        for q in names:
            t = summary.policies[p][q]
            value = t.score if two else t.to_json()["loss_rate"]
            cells.append(f"{_pct(value):>11}")
        out.append(f"  {p:<10}" + "".join(cells))
    if two and "optimal" in names:
        out.append("  (optimal: the exact analysis, knowing both hands; '-' where a deal has unknown cells)")
    if summary.by_own_trump:
        out += ["", f"Seat {s.seat}'s results by its own trump (over the deals and the others' trumps):"]
        for suit, tally in summary.by_own_trump.items():
            out.append(f"  {suit}   " + (_wdl(tally) if two else "loser " + _loser(tally)))
    if s.method != TABLE and s.selfplay and summary.how.get(SELFPLAY):
        out += ["", f"Self-play cells are single games of {s.agent_name}: an estimate, not a proof."]
    return "\n".join(out)


def match_text(match: Match) -> str:
    """The summary for people: the match, then a table row per agent."""
    s = match.settings
    games = match.games
    budget = f"{s.nodes:,} iterations" if s.nodes is not None else f"{s.time:g} s"
    if s.memory is not None:
        budget += f" ({s.memory:g} MB)"
    capped = sum(g.capped for g in games)
    repetition = sum(g.repetition for g in games)
    draws = sum(not g.capped and not g.repetition and g.loser is None for g in games)
    moves = sum(len(g.record.moves) for g in games)
    rules = s.rules.switches()
    deals = f"{s.deals} deal{'s' if s.deals != 1 else ''}"
    lines = [f"{len(games)} of {match.planned} games: {deals} x {s.n_players} seat rotations; deck {s.deck}, "
             f"{s.n_players} players, {rules}; {budget} a move; seed {s.seed}",
             f"seats in rotation 0: {' '.join(s.lineup)}; draws {draws}, by repetition {repetition}, capped "
             f"{capped} (stopped at {s.turn_cap} moves, scored as draws); "
             f"{moves / len(games) if games else 0:.0f} moves a game on average",
             ""]
    stats = match.stats()
    if s.n_players == 2:
        lines.append(f"{'agent':<8} {'games':>6} {'W':>5} {'D':>5} {'L':>5} {'rep':>5} {'capped':>6} {'score':>6} "
                     f"{'95% interval':>13} {'Elo':>6} {'Elo 95%':>12} {'s/move':>7}")
        for st in stats:
            if st.score is None:
                lines.append(f"{st.agent:<8} {0:>6}")
                continue
            lo, hi = st.elo_interval
            lines.append(f"{st.agent:<8} {st.games:>6} {st.wins:>5} {st.draws:>5} {st.losses:>5} {st.repetition:>5} "
                         f"{st.capped:>6} "
                         f"{100 * st.score:>5.1f}% {_interval(st.score_interval):>13} {st.elo:>+6.0f} "
                         f"{f'{lo:+.0f}..{hi:+.0f}':>12} {st.seconds_per_move:>7.3f}")
        lines.append("(rep: draws by repetition; score: win 1, draw, rep or capped 1/2, over deals; interval: "
                     "normal, deals as the unit; Elo = -400 log10(1/score - 1))")
    else:
        lines.append(f"{'agent':<8} {'seats':>6} {'loser':>6} {'draws':>6} {'rep':>5} {'capped':>6} {'loser rate':>10} "
                     f"{'95% interval':>13} {'s/move':>7}")
        for st in stats:
            lines.append(f"{st.agent:<8} {st.seats:>6} {st.losses:>6} {st.draws:>6} {st.repetition:>5} {st.capped:>6} "
                         f"{100 * st.loser_rate:>9.1f}% {_interval(st.loser_interval):>13} "
                         f"{st.seconds_per_move:>7.3f}")
        lines.append(f"(seats: games x seats held; rep: draws by repetition; an equal player is the loser in 1 "
                     f"game of {s.n_players}: "
                     f"{100 / s.n_players:.0f}%; interval: Wilson)")
    if match.stopped:
        lines.append(f"stopped early ({match.stopped}): {len(games)} games finished; --resume continues")
    return "\n".join(lines)



# --- a game's review -------------------------------------------------------------
#: The sign of each mark, as chess annotators write them.
MARK_SIGNS = {"blunder": "??", "mistake": "?", "inaccuracy": "?!"}
#: Options shown under a marked move (the JSON holds them all).
OPTIONS_SHOWN = 5


def review_header(record: GameRecord, limit: Limit, moves: int, agent: str, seat: int | None = None) -> list[str]:
    """What a review covers and how it judges, in a few lines (printed before it starts)."""
    start = record.start
    deck, n = start.deck, start.n_players
    trumps = " ".join(SUIT_SYMBOLS[t] for t in start.trumps)
    budget = f"{limit.nodes:,} iterations" if limit.nodes is not None else f"{limit.time:g} s"
    bound = total_time_bound(limit, moves)
    whose = "" if seat is None else f" of player {seat}'s"
    lines = [f"Review of a {n}-player game: deck {deck.spec()} ({deck.size} cards), trumps {trumps}, "
             f"player {start.to_move} leads; {moves} moves{whose} to review",
             f"Budget: {budget} a move" + (f", at most about {bound:g} s in all and "
                                           f"{RECHECK_EFFORT * limit.time:g} s for each mark's second look"
                                           if bound is not None else "")
             + "; Ctrl-C stops and prints the moves done."]
    if n == 2:
        lines.append(f"Judged exactly where the solver reaches (stored tables; a search on half a move's budget "
                     f"with at most {EXACT_CARDS[2]} cards in hands), otherwise by {agent}'s estimates.")
    else:
        lines += [f"Judged by {agent}'s estimates from what the mover knew (its hand, the pile, the cards others "
                  f"took); beside them, with at most {EXACT_CARDS[n]} cards",
                  "in hands, the solver's perfect-information verdict: the paranoid value (the mover against all "
                  "the others together), which marks nothing.",
                  "Once two players are left, every card is known: judged as with two players, exactly where the "
                  "solver reaches."]
    lines += ["Scores are the mover's expected result: -1 it loses, 0 a draw, +1 it wins"
              + (" (another player loses)." if n > 2 else "."),
              "Marks: ?? blunder (the exact value drops, or the estimate by {blunder:g} or more), ? mistake "
              "({mistake:g} or more), ?! inaccuracy ({inaccuracy:g} or more).".format(**THRESHOLDS)
              + f" An estimate marks a move only if its loss less {CONFIDENCE_Z:g} standard errors (+-, the "
              f"search's noise) still reaches {THRESHOLDS['inaccuracy']:g}, and a search of {RECHECK_EFFORT} times "
              f"the budget agrees; a move played searched fewer than {MIN_VISITS} times is unclear, unmarked."]
    return lines


def review_text(review: Review, with_header: bool = True) -> str:
    """The record with every reviewed move annotated, the summary per seat and the turning points."""
    record = review.record
    deck = record.start.deck
    lines = review_header(record, review.limit, review.planned, review.agent, review.seat) + [""] \
        if with_header else []
    reviewed = {m.number: m for m in review.moves}
    width = max((len(m.text(deck, True)) for m in record.moves), default=0)
    last = review.moves[-1].number if review.moves else 0
    for number, (before, move) in enumerate(zip(record.positions(), record.moves), 1):
        if review.stopped and number > last:
            lines.append(f"      ... moves {number}-{len(record.moves)} not reviewed")
            break
        line = f"{number:4}. player {before.to_move}  {move.text(deck, True):<{width}}  "
        found = reviewed.get(number)
        if found is None:
            lines.append(line.rstrip())
            continue
        line += f"{MARK_SIGNS.get(found.mark, ''):<2}  "
        lines.append(line + _verdict(found))
        lines += [" " * len(line) + extra for extra in _details(found)]
    final = record.final
    if not review.stopped or last == len(record.moves):
        lines.append("      " + (end_text(final, record.outcome) if record.is_over
                                 else f"... player {final.to_move} to move"))
    if review.stopped:
        lines.append(f"(stopped early, {review.stopped}: {len(review.moves)} of {review.planned} moves reviewed)")
    lines += ["", "Summary (loss: the expected score lost a move; an exact step win -> draw -> loss is 1):",
              "  player  moves  judged  exact  average loss  inaccuracies  mistakes  blunders"]
    for s in review.summary():
        average = "-" if s.average_loss is None else f"{s.average_loss:.2f}"
        lines.append(f"  {s.seat:>6}  {s.moves:>5}  {s.judged:>6}  {s.exact:>5}  {average:>12}  "
                     f"{s.marks['inaccuracy']:>12}  {s.marks['mistake']:>8}  {s.marks['blunder']:>8}")
    turning = review.turning_points()
    lines.append("Turning points: " + ("; ".join(f"move {m.number} (player {m.seat}: {_change(m)})" for m in turning)
                                       if turning else "none"))
    return "\n".join(lines)


def _score(x: float | None) -> str:
    return "?" if x is None else f"{x:+.2f}"


def _change(m: MoveReview) -> str:
    """The mover's outlook before and after the move: exact values, else estimates."""
    if m.judged == EXACT:
        return _exact_change(m.exact)
    return f"{_score(m.estimate_before)} -> {_score(m.estimate_after)}"


def _exact_change(verdict: ExactVerdict) -> str:
    """``win, kept``, ``win -> draw``, ``win -> loss or draw``, ``win; the move played not settled``."""
    before, after = verdict.before, verdict.after
    if after.lower >= before.upper:
        return f"{before.range_name}, kept"
    if after.lower == -1 and after.upper == 1:
        return f"{before.range_name}; the move played not settled"
    return f"{before.range_name} -> {after.range_name}"


def _verdict(m: MoveReview) -> str:
    """One move's verdict on its line: the change, the mark and the loss, the best move."""
    if m.judged == FORCED:
        return "forced"
    deck = m.position.deck
    text = _change(m)
    if m.judged == UNCLEAR:
        return text + f" (unclear: the move played searched {m.visits} times within the budget)"
    if m.loss is None:
        return text + " (no estimate of the move played within the budget)"
    if m.mark:
        lost = f"{m.loss:.0f}" if m.judged == EXACT else f"{m.loss:.2f} +-{m.uncertainty or 0:.2f}"
        if m.best is None:
            best = "best move not settled within the budget"
        else:
            best = "best " + m.best.text(deck, True) + ("" if m.judged == EXACT else f" {_score(m.estimate_before)}")
        text += f": {m.mark}, {lost} lost ({best})"
    return text


def _details(m: MoveReview) -> list[str]:
    """Under a marked move its options; with three or four players the paranoid verdict beside the estimate."""
    deck = m.position.deck
    out = []
    if m.mark:
        shown = []
        for o in m.options[:OPTIONS_SHOWN]:
            parts = [o.value.range_name] if o.value is not None else []
            if o.estimate is not None:
                parts.append(f"{o.estimate:+.2f} ({100 * (o.share or 0):.0f}%)")
            shown.append(f"{o.move.text(deck, True)} {' '.join(parts) or '-'}")
        more = len(m.options) - OPTIONS_SHOWN
        out.append("options: " + ", ".join(shown) + (f", ... {more} more" if more > 0 else ""))
    if m.exact is not None and m.exact.paranoid:
        out.append(f"paranoid, perfect information: {_exact_change(m.exact)}")
    return out
