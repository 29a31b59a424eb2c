"""Each door imports only what it uses: ``kozyri --help``, every command's
``--help``, ``kozyri deal`` and ``kozyri replay`` load neither Numba nor
NumPy (they compute nothing with them); a command that searches loads its
kernels when it runs. Behaviour only: what a fresh process has imported,
never how long it took (``benchmarks/cli_startup.py`` measures that)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import click

from kozyri_cli.commands import COMMANDS, main, unloaded_short_help

HEAVY = ("numba", "numpy", "llvmlite")

#: Runs the command lines given as JSON in ONE fresh process, in-process through the click group (as the
#: console script does), and prints, after each, the heavy modules and the command modules loaded so far.
PROBE = textwrap.dedent("""
    import json, sys
    from kozyri_cli import main
    report = []
    for args in json.loads(sys.argv[1]):
        try:
            code = main(args, prog_name="kozyri", standalone_mode=False)
        except SystemExit as exc:
            code = exc.code
        report.append({"args": args, "code": code,
                       "heavy": sorted(m for m in %r if m in sys.modules),
                       "commands": sorted(m for m in sys.modules if m.startswith("kozyri_cli.")
                                          and m.split(".")[1] not in ("commands", "common", "signals", "start"))})
    print("PROBE " + json.dumps(report), file=sys.stderr)
""" % (HEAVY,))


def probe(*command_lines: list[str], stdin: str | None = None) -> list[dict]:
    """What a fresh process had imported after each command line (run in order)."""
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(list(command_lines))], input=stdin,
                          capture_output=True, text=True, timeout=120)
    lines = [line for line in done.stderr.splitlines() if line.startswith("PROBE ")]
    assert done.returncode == 0 and lines, done.stdout[-2000:] + done.stderr[-3000:]
    return json.loads(lines[-1][len("PROBE "):])


def every_help() -> list[list[str]]:
    """``--help`` of the group, of every command and of every subcommand of the groups."""
    found = [["--help"]]
    for name in sorted(COMMANDS):
        found.append([name, "--help"])
        command = main.get_command(click.Context(main), name)
        if isinstance(command, click.Group):
            found += [[name, sub, "--help"] for sub in sorted(command.commands)]
    return found


def test_help_lists_every_command_without_importing_one():
    [report] = probe(["--help"])
    assert report["code"] == 0
    assert report["heavy"] == [] and report["commands"] == [], report


def test_help_of_every_command_loads_no_numba_nor_numpy():
    reports = probe(["deal", "--help"], *every_help())
    assert all(r["code"] == 0 for r in reports), [r for r in reports if r["code"] != 0]
    assert reports[-1]["heavy"] == [], [(r["args"], r["heavy"]) for r in reports if r["heavy"]][:1]
    # A command loads its own module only: `deal` (beside `solve` and `replay`) not `arena`'s.
    assert reports[0]["commands"] == ["kozyri_cli.owntrumps"], reports[0]


def test_deal_and_replay_load_no_numba_nor_numpy(tmp_path):
    record = tmp_path / "game.txt"
    done = subprocess.run([sys.executable, "-m", "kozyri_cli", "deal", "--deck", "4x3", "--players", "3", "--seed",
                           "7", "--record"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    record.write_text(done.stdout, encoding="utf-8")
    reports = probe(["deal", "--seed", "1"], ["deal", "--deck", "4x3", "--json"], ["replay", str(record)],
                    ["replay", str(record), "--seat", "1", "--json"], ["replay", "-"], stdin=done.stdout)
    assert [r["code"] for r in reports] == [0] * 5, reports
    assert reports[-1]["heavy"] == [], reports


def test_a_command_that_searches_loads_its_kernels_when_it_runs():
    [before, after] = probe(["solve", "--help"], ["solve", "QS KH AS | KS QH AH", "--trumps", "SH",
                                                  "--value-only"])
    assert before["heavy"] == [] and after["code"] == 0
    assert "numba" in after["heavy"], after


def test_the_table_of_commands_is_what_the_commands_say():
    for name in COMMANDS:
        main.get_command(click.Context(main), name)  # imports its module
    assert set(main.commands) == set(COMMANDS), "a command registered on main is missing from COMMANDS"
    for name, (module, _) in COMMANDS.items():
        command = main.commands[name]
        assert command.callback.__module__ == module, name
        assert unloaded_short_help(name, 10**6) == command.get_short_help_str(10**6), name


def test_the_help_is_the_same_before_and_after_the_commands_load():
    fresh = subprocess.run([sys.executable, "-m", "kozyri_cli", "--help"], capture_output=True, text=True,
                           timeout=120, env={**os.environ, "COLUMNS": "80"})
    loaded = subprocess.run([sys.executable, "-c", textwrap.dedent("""
        import click
        from kozyri_cli.commands import COMMANDS, main
        for name in COMMANDS:
            main.get_command(click.Context(main), name)
        main(["--help"], prog_name="kozyri")
    """)], capture_output=True, text=True, timeout=120, env={**os.environ, "COLUMNS": "80"})
    assert fresh.returncode == loaded.returncode == 0, fresh.stderr + loaded.stderr
    assert "deal      Deal a random Own Trumps position." in fresh.stdout
    assert fresh.stdout == loaded.stdout


def test_the_library_modules_the_doors_name_load_no_numba_nor_numpy():
    code = ("import sys, kozyri, kozyri.search.control, kozyri.owntrumps.render, kozyri.owntrumps.table_store, "
            "kozyri.play, kozyri.studies, kozyri.studies.arena, kozyri.studies.winrates, kozyri.runs, "
            "kozyri.agents, kozyri.agents.levels; "
            f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "[]", done.stdout + done.stderr
