"""Pictures of a win-rate study and of a game's review (matplotlib, the ``plot`` extra).

A study: left, with two players the trump-pair grid as a heatmap of the
leader's win rate, each cell with its Wilson 95% interval and W/D/L counts;
with three or four players the leader's loser rate per assignment, with
intervals. Right: the trump-choice policies as grouped bars, the leader's
score (two players) or loser rate (more) per pair of policies.

A review (:func:`plot_review`): the expected result along the game.
"""

from __future__ import annotations

import io
from pathlib import Path

from kozyri.core import InvalidInput, MissingExtra
from kozyri.owntrumps.cards import SUITS
from kozyri.studies.review import EXACT, FORCED, THRESHOLDS, Review
from kozyri.studies.summary import Summary


def _pyplot():
    """matplotlib's pyplot drawing into files, or a clear refusal when it is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise MissingExtra("plots need matplotlib", "plot") from None
    return plt


def _save(plt, fig, path: Path) -> Path:
    """Write ``fig`` to ``path`` (its suffix names the format) and close it.
    The picture is drawn in memory and written here, so that a failed write
    (a full disk: matplotlib's own writer does not report it) is an error."""
    path = Path(path)
    try:
        drawn = io.BytesIO()
        fig.savefig(drawn, format=path.suffix.lstrip(".").lower() or None, dpi=110, bbox_inches="tight")
        with open(path, "wb") as fh:
            fh.write(drawn.getvalue())
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise InvalidInput(f"cannot write the plot {path}: {reason}") from None
    finally:
        plt.close(fig)
    return path


def plot_summary(summary: Summary, path) -> Path:
    """Draw ``summary`` into the image file ``path`` (PNG, SVG or PDF by its suffix)."""
    plt = _pyplot()
    path = Path(path)
    s = summary.settings
    fig, (left, right) = plt.subplots(1, 2, figsize=(14, 6), gridspec_kw={"width_ratios": [1, 1.2]})
    if s.players == 2:
        _grid(fig, left, summary)
    else:
        _assignments(left, summary)
    _policies(right, summary)
    where = "every deal" if s.all_deals else f"{summary.deals:,} deals"
    how = ", ".join(f"{name} {count:,}" for name, count in summary.how.items() if count)
    fig.suptitle(f"Own Trumps, deck {s.deck}, {s.players} players, {s.rules.switches(brief=True)}: "
                 f"{where} (cells: {how})", fontsize=12)
    fig.tight_layout()
    return _save(plt, fig, path)


def _grid(fig, ax, summary: Summary) -> None:
    import numpy as np

    rates = np.full((4, 4), np.nan)
    for i, a in enumerate(SUITS):
        for j, b in enumerate(SUITS):
            tallies = summary.assignments.get((a, b))
            if tallies is not None:
                tally = tallies[0].to_json()
                if tally["win_rate"] is not None:
                    rates[i, j] = tally["win_rate"]
                    lo, hi = tally["win_interval"]
                    text = (f"{100 * tally['win_rate']:.1f}%\n{100 * lo:.0f}-{100 * hi:.0f}%\n"
                            f"{tally['won']}/{tally['drawn']}/{tally['lost']}")
                else:
                    text = "?"
            else:
                text = ""
            ax.text(j, i, text, ha="center", va="center", fontsize=8)
    image = ax.imshow(rates, cmap="RdYlGn", vmin=0, vmax=1)
    fig.colorbar(image, ax=ax, fraction=0.046, label="the leader's win rate")
    ax.set_xticks(range(4), SUITS)
    ax.set_yticks(range(4), SUITS)
    ax.set_xlabel("the other player's trump")
    ax.set_ylabel("the leader's trump")
    ax.set_title("Trump pairs: win rate, 95% interval, W/D/L")


def _assignments(ax, summary: Summary) -> None:
    names, rates, low, high = [], [], [], []
    for trumps, tallies in summary.assignments.items():
        tally = tallies[0].to_json()
        if tally["loss_rate"] is None:
            continue
        names.append("".join(trumps))
        rates.append(tally["loss_rate"])
        low.append(tally["loss_rate"] - tally["loss_interval"][0])
        high.append(tally["loss_interval"][1] - tally["loss_rate"])
    ax.bar(range(len(names)), rates, yerr=[low, high], capsize=2, color="tab:blue")
    ax.axhline(1 / summary.settings.players, color="grey", linestyle="--", label="an equal player")
    ax.set_xticks(range(len(names)), names, rotation=90, fontsize=8)
    ax.set_ylabel("the leader's loser rate")
    ax.set_xlabel("trumps in turn order, the leader's first")
    ax.set_title("Assignments: the leader's loser rate, 95% intervals")
    ax.legend()


def _policies(ax, summary: Summary) -> None:
    two = summary.settings.players == 2
    names = list(summary.policies)
    if not names:  # a study of one assignment
        ax.axis("off")
        ax.text(0.5, 0.5, "one trump assignment only:\nno trump-choice policies", ha="center", va="center")
        return
    width = 0.8 / len(names)
    for k, other in enumerate(names):
        values = []
        for leader in names:
            tally = summary.policies[leader][other]
            value = tally.score if two else tally.to_json()["loss_rate"]
            values.append(float("nan") if value is None else value)
        bars = ax.bar([i + (k - (len(names) - 1) / 2) * width for i in range(len(names))], values, width,
                      label=f"others: {other}")
        ax.bar_label(bars, labels=["" if v != v else f"{100 * v:.0f}" for v in values], fontsize=6)  # v != v: NaN
    ax.axhline(0.5 if two else 1 / summary.settings.players, color="grey", linestyle="--", linewidth=1)
    ax.set_xticks(range(len(names)), [f"leader: {n}" for n in names], fontsize=9)
    ax.set_ylim(0, 1)
    ax.set_ylabel("the leader's score (win 1, draw 1/2)" if two else "the leader's loser rate")
    ax.set_title("Trump-choice policies, chosen in turn order")
    ax.legend(fontsize=8, ncol=2)


def check_available() -> None:
    """Refuse early when matplotlib is missing."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise MissingExtra("plots need matplotlib", "plot") from None


#: Each mark's colour in a review's picture, and the seats' (none of the marks').
MARK_COLOURS = {"inaccuracy": "gold", "mistake": "darkorange", "blunder": "red"}
SEAT_COLOURS = ("tab:blue", "tab:green", "tab:purple", "tab:brown")


def plot_review(review: Review, path) -> Path:
    """Draw the expected result along the game into ``path``: with two
    players player 0's (player 1's is its negative), with three or four each
    player's own after its moves; exact values as squares, estimates as
    dots; a marked move as a bar from its best option down to the move
    played, in the mark's colour; turning points as dotted lines."""
    plt = _pyplot()
    path = Path(path)
    record = review.record
    two = record.start.n_players == 2
    fig, ax = plt.subplots(figsize=(12, 5))
    ax.axhspan(-1 / 3, 1 / 3, color="0.93", zorder=0)
    ax.axhline(0, color="0.6", linewidth=0.8)
    seats = [0] if two else range(record.start.n_players)
    for seat in seats:
        shown = [m for m in review.moves if m.judged != FORCED and m.outlook_after is not None
                 and (two or m.seat == seat)]
        sign = [1 if m.seat == seat else -1 for m in shown]
        xs, ys = [m.number for m in shown], [s * m.outlook_after for s, m in zip(sign, shown)]
        colour = SEAT_COLOURS[seat]
        ax.plot(xs, ys, linewidth=1.2, color=colour,
                label=f"player {seat}" + (" (player 1: the negative)" if two else ""))
        exact = [m.judged == EXACT for m in shown]
        ax.scatter([x for x, e in zip(xs, exact) if e], [y for y, e in zip(ys, exact) if e], marker="s", s=22,
                   color=colour, zorder=3)
        ax.scatter([x for x, e in zip(xs, exact) if not e], [y for y, e in zip(ys, exact) if not e], s=10,
                   color=colour, zorder=3)
        for s, m in zip(sign, shown):
            before = m.outlook_before
            if m.mark and before is not None:
                ax.plot([m.number, m.number], [s * before, s * m.outlook_after], color=MARK_COLOURS[m.mark],
                        linewidth=2.5, zorder=2)
    for m in review.turning_points():
        ax.axvline(m.number, color="0.4", linestyle=":", linewidth=1)
    for mark, colour in MARK_COLOURS.items():
        ax.plot([], [], color=colour, linewidth=2.5, label=f"{mark} (loss {THRESHOLDS[mark]:g}+)")
    ax.plot([], [], color="0.4", linestyle=":", label="turning point")
    ax.set_xlim(0.5, max(len(record.moves), 1) + 0.5)
    ax.set_ylim(-1.1, 1.1)
    ax.set_xlabel("move")
    ax.set_ylabel("expected result after the move\n(-1 loses, +1 " + ("wins)" if two else "another player loses)"))
    deck = record.start.deck
    budget = f"{review.limit.nodes:,} iterations" if review.limit.nodes is not None else f"{review.limit.time:g} s"
    end = ("a draw" if record.outcome.is_draw else f"player {record.outcome.loser} loses") if record.is_over \
        else "in progress"
    ax.set_title(f"Own Trumps review: deck {deck.spec()}, {record.start.n_players} players, {len(record.moves)} "
                 f"moves ({end}); {review.agent}, {budget} a move; squares exact, dots estimates")
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=8, frameon=False)
    fig.tight_layout()
    return _save(plt, fig, path)

