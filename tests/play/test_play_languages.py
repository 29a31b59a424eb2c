"""``kozyri play`` in the players' languages (``--lang``, else the
environment): a whole game through standard input in each language, in its
words, with no English message left (checked against the template's
English ids); what a person types in the language's letters and words; the
machine doors (``--json``, the saved record) the same bytes in every
language; ``kozyri reversi play`` in Russian; and a game in Russian on a
real terminal under tmux. The computer
seats play at level 1 or 2 on the 12-card deck: no test depends on the
machine's speed."""

from __future__ import annotations

import json

import pytest

from kozyri import i18n
from kozyri.owntrumps import GameRecord, Position
from kozyri_cli.words import shown_word

from tests.support.english import english_left

from .test_play_cli import KOZYRI, TERMINAL_ENV, TMUX, Terminal

ONES = "1\n" * 3000
TRANSLATED = [lang for lang in i18n.LANGUAGES if lang != i18n.ENGLISH]


def played(cli, *args, moves: str, env=None):
    """``kozyri play ARGS --json`` with ``moves`` typed: ``(what the person read, the game's JSON)``."""
    result = cli("play", *args, "--json", input=moves, env=env)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output and result.stderr == ""
    *shown, last = result.stdout.rstrip("\n").split("\n")
    return "\n".join(shown), json.loads(last)


def translation(lang: str, msgid: str, **values) -> str:
    with i18n.using(lang) as words:
        return words.gettext(msgid, **values)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_whole_game_in_the_language_leaves_no_english(cli, lang):
    with i18n.using(lang):
        typed = [shown_word("help"), shown_word("hint"), "ZZ", shown_word("take")]
    out, game = played(cli, "--lang", lang, "--players", "3", "--deck", "4x3", "--level", "1", "--seed", "5",
                       moves="\n".join(["1", *typed, ""]) + ONES)
    assert GameRecord.from_json(game["record"]).is_over
    for msgid in ("your trump:", "your hand:", "Commands:", "game over", "the deal, every hand revealed:"):
        assert translation(lang, msgid) in out, (lang, msgid)
    assert translation(lang, "illegal move {text}: {reason}", text="'" + typed[3] + "'", reason="").rstrip() in out
    assert english_left(out, lang) == [], lang


def test_the_check_finds_the_english_of_an_english_game(cli):
    out, _ = played(cli, "--players", "3", "--deck", "4x3", "--level", "1", "--seed", "5", moves=ONES)
    left = english_left(out, "ru")
    assert {"your hand", "last moves", "game over after", "the deal, every hand revealed"} <= set(left)


def test_russian_letters_and_words_are_typed(cli, tmp_path):
    record = GameRecord(Position.from_text("QS KH AS | KS QH AH", trumps="SH")).play("QS")
    path = tmp_path / "deal.txt"
    path.write_text(record.to_text() + "\n")
    # Cyrillic К П Т Ч: the king of spades beats, the ace of hearts goes on it.
    out, game = played(cli, "--lang", "ru", "--load", str(path), "--seat", "1", "--level", "1",
                       moves="взять\nКП+ТЧ\n" + ONES)
    assert GameRecord.from_json(game["record"]).moves[1].text(record.start.deck) == "KS+AH"
    assert "недопустимый ход 'взять': у вас есть К♠, которая бьёт Д♠: кто может побить, тот обязан бить" in out
    assert "Вы побили Д♠ компьютера 0 картой К♠, затем положили Т♥" in out
    # The English letters and words work in every language; a Russian command, answered in Russian.
    _, game = played(cli, "--lang", "ru", "--load", str(path), "--seat", "1", "--level", "1", moves="KS+AH\n" + ONES)
    assert GameRecord.from_json(game["record"]).moves[1].text(record.start.deck) == "KS+AH"
    out, game = played(cli, "--lang", "ru", "--load", str(path), "--seat", "1", "--level", "1",
                       moves="сдаться\nд\nн\n")
    assert game["ending"]["reason"] == "resignation" and "вы сдались: вы проиграли" in out


def test_the_environment_chooses_the_language_and_lang_wins(cli):
    out, _ = played(cli, "--deck", "4x3", "--level", "1", "--seed", "5", moves=ONES,
                    env={"LC_ALL": None, "LC_MESSAGES": None, "LANG": "es_ES.UTF-8"})
    assert "Saliste con " in out and "tu mano:" in out
    out, _ = played(cli, "--lang", "en", "--deck", "4x3", "--level", "1", "--seed", "5", moves=ONES,
                    env={"LC_ALL": "ru_RU.UTF-8"})
    assert "You led " in out and "your hand:" in out


def test_json_and_records_are_the_same_bytes_in_every_language(cli, tmp_path):
    lines, saved = set(), set()
    for lang in i18n.LANGUAGES:
        path = tmp_path / f"{lang}.txt"
        result = cli("play", "--lang", lang, "--players", "3", "--deck", "4x3", "--level", "1", "--seed", "11",
                     "--save", str(path), "--json", input=ONES)
        assert result.exit_code == 0, result.output
        line = result.stdout.rstrip("\n").split("\n")[-1]
        lines.add(line.replace(str(path), "SAVED"))
        saved.add(path.read_bytes())
    assert len(lines) == 1 and len(saved) == 1
    assert json.loads(lines.pop())["ending"]["text"].startswith(("player", "a draw"))


def test_reversi_play_speaks_the_language_too(cli):
    result = cli("reversi", "play", "--lang", "ru", "--time", "0.05", input="e5\nz9\nf5\nвыход\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("Вы играете X (чёрные, ходят первыми). Введите ход, например d3, или выход.")
    assert "ваш ход: недопустимый ход e5 для X (возможные: d3 c4 f5 e6)" in out
    assert "это не клетка: 'z9' (ожидается a1..h8)" in out and "X (чёрные) 4  O (белые) 1  ходят O" in out
    assert "движок ходит " in out and out.rstrip().endswith("до свидания")
    assert english_left(out, "ru") == []


@pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install -y tmux): no terminal to play on")
def test_a_whole_game_in_russian_on_a_terminal_under_tmux():
    terminal = Terminal(TERMINAL_ENV + KOZYRI + ["play", "--lang", "ru", "--deck", "4x3", "--level", "2",
                                                 "--seed", "3"])
    prompt = r"(ваш ход \(номер, ход или помощь\)|карта сверху \(номер или карта; Enter — назад\)):\s*$"
    again = r"сыграть ещё\? \(д/н или сохранить ФАЙЛ\):\s*$"
    try:
        start = terminal.wait_for(r"ваш выбор:\s*$")
        assert "Козыри выбирают до раздачи" in start and "1) ♠ пики" in start
        terminal.type("1")
        first = terminal.wait_for(prompt)
        assert "--- ход 1 ---" in first and "стопка:  пуста" in first and "ваши карты: " in first
        shown = terminal.ones_to_the_end(prompt, again)
        assert "игра окончена после" in shown and "раздача, все карты открыты:" in shown
        assert english_left(shown, "ru") == []
        terminal.type("н")
        assert "EXIT=0" in terminal.wait_for(r"EXIT=\d+")
    finally:
        terminal.close()
