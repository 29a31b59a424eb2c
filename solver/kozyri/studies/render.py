"""Text for people: a win-rate study's summary as tables."""

from __future__ import annotations

from kozyri.owntrumps.cards import SUITS
from kozyri.studies.winrates import SELFPLAY, TABLE, Summary, Tally

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
             f"players, must_beat {'on' if s.must_beat else 'off'}, pass_sixes {'on' if s.pass_sixes else 'off'}; "
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
    out += ["", "Trump-choice policies (rows: the leader's; columns: the others'; in turn order, the leader "
            "first), " + ("the leader's score:" if two else "the leader's loser rate:")]
    names = list(summary.policies)
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
