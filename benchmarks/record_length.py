"""Time and peak memory of record operations against the record's length (issue 35).

Every record operation should be linear in the number of moves. For legal
records of 1k, 5k, 10k and 30k moves (random play that never ends the game
nor repeats a position a third time) this measures, each in a fresh process:

* ``load``: reading the text form (every move replayed and checked);
* ``json``: the JSON form written and read back;
* ``view``: the view of the player to move (its start view played on with every public move);
* ``bestmove``: ``kozyri bestmove``'s path, load + view + an agent with a tiny budget (0.01 s);
* ``seat``: ``kozyri replay --seat 1 --json``'s path, load + every view of seat 1 in JSON, written out;
* ``analyze``: ``kozyri analyze --nodes 1`` over the record's first N moves (smaller N: it is slow per move).

Seconds are wall and process (CPU) time of one untraced run (on a busy machine compare
the CPU time); "peak MB" is tracemalloc's peak
over a second run (Python's allocations). ``--source DIR`` runs the
operations on another copy of the code (e.g. ``git archive HEAD | tar -x -C
DIR``) to compare before and after in one sitting; the records are made by
the current code either way.

    python benchmarks/record_length.py
    python benchmarks/record_length.py --lengths 1000,5000 --analyze 500,1000 --source /tmp/base
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

CASES = ("load", "json", "view", "bestmove", "seat", "analyze")


def long_record(n_moves: int, players: int = 2, seed: int = 1):
    """A legal record of ``n_moves`` moves whose game is not over: random
    play, taking back a few moves from a dead end (a move that would end
    the game by the rules or by repetition is never played)."""
    from kozyri.owntrumps.record import GameRecord
    from kozyri.owntrumps.rules import MoveKind

    rng = random.Random(seed)
    line = [GameRecord.deal(36, players, seed=seed)]
    while len(line) - 1 < n_moves:
        record = line[-1]
        legal = record.final.legal_moves()
        rng.shuffle(legal)
        if rng.random() < 0.6:  # takes keep the hands full: long games
            legal.sort(key=lambda m: m.kind != MoveKind.TAKE)
        for move in legal:
            after = record.play(move)
            if not after.is_over:
                line.append(after)
                break
        else:
            del line[max(1, len(line) - rng.randint(1, 8)):]
    return line[-1]


def run_case(case: str, path: str, moves: int) -> None:
    """(In a fresh process.) One operation on the record in ``path`` cut to its first ``moves`` moves; prints
    ``{"seconds": ..., "peak_mb": ...}``."""
    from kozyri.core import Limit
    from kozyri.owntrumps.inputs import read_record, read_state
    from kozyri.owntrumps.record import GameRecord

    full = GameRecord.parse(Path(path).read_text())
    text = GameRecord(full.start, full.moves[:moves]).to_text()
    data = json.dumps(GameRecord.parse(text).to_json())

    def load():
        GameRecord.parse(text)

    def json_form():
        json.dumps(GameRecord.from_json(json.loads(data)).to_json())

    def view():
        read_state(text)

    def bestmove():
        from kozyri.agents import default_agent
        from kozyri.agents.levels import resolve

        state = read_state(text)
        chosen = resolve("owntrumps", agent=default_agent(state), time=0.01, nodes=None, memory=64)
        chosen.make_agent(0, None).choose(state, chosen.limit)

    def seat():
        from kozyri.owntrumps.record import record_json

        json.dumps(record_json(read_record(text), seat=1))

    def analyze():
        from kozyri.agents import make_agent
        from kozyri.studies.review import review_game

        review_game(read_record(text), Limit(nodes=1), agent=make_agent("pimc", seed=0)).to_json()

    operation = {"load": load, "json": json_form, "view": view, "bestmove": bestmove, "seat": seat,
                 "analyze": analyze}[case]
    whole_text, whole_data = text, data
    text = GameRecord(full.start, full.moves[:10]).to_text()  # a warm-up: imports and kernels load unclocked
    data = json.dumps(GameRecord.parse(text).to_json())
    operation()
    text, data = whole_text, whole_data
    began, cpu = time.perf_counter(), time.process_time()
    operation()
    seconds, cpu = time.perf_counter() - began, time.process_time() - cpu
    tracemalloc.start()
    operation()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(json.dumps({"seconds": round(seconds, 3), "cpu": round(cpu, 3), "peak_mb": round(peak / 2**20, 1)}))


def measure(case: str, path: Path, moves: int, source: str | None, timeout: float) -> str:
    env = dict(os.environ)
    if source:
        paths = [str(Path(source) / part) for part in ("solver", "cli", "server")]
        env["PYTHONPATH"] = os.pathsep.join(paths + [env.get("PYTHONPATH", "")])
    try:
        done = subprocess.run([sys.executable, __file__, "--case", case, str(path), str(moves)], env=env,
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"over {timeout:.0f} s"
    if done.returncode:
        return "failed: " + (done.stderr.strip().splitlines() or ["?"])[-1][:60]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return f"{result['seconds']:8.3f} s {result['cpu']:8.3f} s cpu {result['peak_mb']:8.1f} MB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lengths", default="1000,5000,10000,30000")
    parser.add_argument("--analyze", default="500,1000,2000,5000", help="lengths for the analyze case")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--source", help="run the operations on the code in this folder (solver/, cli/, server/)")
    parser.add_argument("--before", metavar="DIR", help="also run each operation on the code in DIR (e.g. the "
                        "last commit, unpacked), just before, under the same load")
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--case", nargs=3, metavar=("CASE", "FILE", "MOVES"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.case:
        run_case(args.case[0], args.case[1], int(args.case[2]))
        return
    lengths = [int(x) for x in args.lengths.split(",")]
    analyze_lengths = [int(x) for x in args.analyze.split(",")]
    longest = max(lengths + analyze_lengths)
    folder = Path(tempfile.gettempdir()) / "kozyri-record-length"
    folder.mkdir(exist_ok=True)
    path = folder / f"record-{args.players}p-{longest}.txt"
    if not path.exists():
        path.write_text(long_record(longest, args.players).to_text())
    print(f"records: {args.players} players, 36 cards, prefixes of {path}; code: {args.source or 'this tree'}"
          + (f", before: {args.before}" if args.before else ""))
    print("wall time, process time, peak of Python's allocations")
    for case in args.cases.split(","):
        for moves in analyze_lengths if case == "analyze" else lengths:
            if args.before:
                print(f"{case:9} {moves:6} moves  before {measure(case, path, moves, args.before, args.timeout)}",
                      flush=True)
            label = "after  " if args.before else ""
            print(f"{case:9} {moves:6} moves  {label}{measure(case, path, moves, args.source, args.timeout)}",
                  flush=True)


if __name__ == "__main__":
    main()
