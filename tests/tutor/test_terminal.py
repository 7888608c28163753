"""`python -m tutor play`: a whole game in the terminal from fixed input, and the launcher."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import tutor.__main__ as cli
import tutor.course.paths
from tutor import Session

ROOT = Path(__file__).resolve().parents[2]


def run(args: list[str], stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tutor", *args], input=stdin, cwd=ROOT,
                          capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def test_a_whole_game_from_fixed_input() -> None:
    """Always move 1; answer questions wrong ("1", "0"), then "show"; the game ends."""
    out = run(["play", "--lang", "en", "--seed", "5", "--rounds", "2"],
              "1\n0\n?\nshow\n" * 500)
    assert out.returncode == 0, out.stderr
    assert "Final score:" in out.stdout
    assert "The match is over" in out.stdout
    assert "Game stopped" not in out.stdout
    assert "❓" in out.stdout and "The answer is" in out.stdout
    assert "Traceback" not in out.stderr


def test_spanish_by_default_and_eof_exits_cleanly() -> None:
    out = run(["play", "--seed", "1"], "")
    assert out.returncode == 0, out.stderr
    assert "Juego detenido." in out.stdout and "Puntaje final:" in out.stdout


def test_bad_options_are_reported() -> None:
    out = run(["play", "--lang", "fr"], "")
    assert out.returncode == 2 and "not available" in out.stderr


def test_in_process_game_with_right_answers_and_hints() -> None:
    s = Session(seed=9, rounds=1, lang="en")
    lines: list[str] = []
    state = {"hinted": False}

    def read(prompt: str) -> str:
        q = s.pending_question
        if q is None:
            return "1"
        if not state["hinted"]:
            state["hinted"] = True
            return "h"
        return str(q.expected)

    assert cli.Terminal(s, read=read, write=lines.append).run() == 0
    text = "\n".join(lines)
    assert s.match.over and "✔ Right!" in text and "💡" in text
    assert f"Final score: A {s.match.scores[0]} · B {s.match.scores[1]}" in text


def test_dashboard_launches_voila(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    nb = tmp_path / "Play.ipynb"
    nb.write_text("{}", encoding="utf-8")
    calls: list[list[str]] = []
    monkeypatch.setattr(tutor.course.paths, "notebook", lambda: nb)
    monkeypatch.setattr(cli.subprocess, "call", lambda cmd: calls.append(cmd) or 0)
    assert cli.main([]) == 0
    assert cli.main(["dashboard"]) == 0
    # Outside the repository there is no voila.json: the server settings go on the command.
    settings = ["--MappingKernelManager.cull_idle_timeout=300",
                "--MappingKernelManager.cull_interval=30",
                "--MappingKernelManager.cull_connected=False",
                "--MappingKernelManager.cull_busy=False",
                "--VoilaExecutor.iopub_timeout=60",
                "--VoilaConfiguration.template=leonard",
                '--Voila.tornado_settings={"websocket_max_message_size": 218103808}']
    assert calls == [[sys.executable, "-m", "voila", str(nb), *settings]] * 2


def test_dashboard_without_notebook(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(tutor.course.paths, "notebook", lambda: tmp_path / "missing.ipynb")
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    monkeypatch.delenv("LANGUAGE", raising=False)
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    assert cli.main(["dashboard"]) == 1
    assert "python -m tutor play" in capsys.readouterr().err


def _only_lang_env(monkeypatch: pytest.MonkeyPatch, lang: str | None) -> None:
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    if lang is not None:
        monkeypatch.setenv("LANG", lang)


@pytest.mark.parametrize(
    ("argv", "env", "expected", "absent"),
    [
        (["play", "--help", "--lang", "en"], "es_MX.UTF-8",
         ["usage: leonard-domino play", "options:", "number of rounds (default: 3)",
          "show this help message and exit"], "ronda"),
        (["play", "--lang=es", "--help"], "en_US.UTF-8",
         ["uso: leonard-domino play", "opciones:", "número de rondas (por defecto: 3)",
          "muestra esta ayuda y termina"], "rounds (default"),
        (["--help"], "en_US.UTF-8", ["Leonard-Domino tutor", "play in the terminal"], "jugar"),
        # Issue 33: English unless LANG or --lang says Spanish (no locale, C, or French).
        (["--help"], None, ["usage: leonard-domino", "play in the terminal"], "uso:"),
        (["--help"], "C.UTF-8", ["usage: leonard-domino", "play in the terminal"], "uso:"),
        (["--help"], "fr_FR.UTF-8", ["usage: leonard-domino"], "uso:"),
        (["--help"], "es_ES.UTF-8", ["uso: leonard-domino", "comandos",
                                     "jugar en la terminal"], "usage:"),
        (["play", "--lang", "xx", "--help"], "en_GB", ["usage:", "language of the game"],
         "uso:"),
    ],
)
def test_help_speaks_the_chosen_language(monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str], argv: list[str],
                                         env: str | None, expected: list[str],
                                         absent: str) -> None:
    _only_lang_env(monkeypatch, env)
    with pytest.raises(SystemExit) as info:
        cli.main(argv)
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert all(text in out for text in expected), out
    assert absent not in out


def test_usage_errors_are_translated(monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    _only_lang_env(monkeypatch, "es_AR.UTF-8")
    with pytest.raises(SystemExit) as info:
        cli.main(["play", "--rounds"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("uso: leonard-domino play") and "leonard-domino play: error: " in err


def test_terminal_shows_the_situation_not_the_working_and_the_hands_at_a_round_end() -> None:
    """Issue (no giveaways): the terminal follows the page's rules: before an answer only the
    line and, at a round end, the tiles of the hands to count; the working after the answer."""
    for seed in range(40):
        s = Session(seed=seed, rounds=1, lang="en", ask=("round_end",), drill=False)
        lines: list[str] = []
        before_answer: list[str] = []

        def read(prompt: str, ss: Session = s, out: list[str] = lines,
                 seen: list[str] = before_answer) -> str:
            q = ss.pending_question
            if q is None:
                return "1"
            seen.append("\n".join(out[-6:]))
            return str(q.expected)

        cli.Terminal(s, read=read, write=lines.append).run()
        if before_answer:
            shown = before_answer[0]
            assert "Hand of" in shown and "❓" in shown
            assert "=" not in shown.split("❓", 1)[1]  # no working under the question
            text = "\n".join(lines)
            assert re.search(r"\d+ \+ \d+.* = \d+", text)  # the worked sum after the answer
            return
    raise AssertionError("no round-end question in 40 games")


def test_working_is_sent_back_to_be_worked_out() -> None:
    """docs/rules.md §4 "The answer is a number": working typed in the terminal (``0+45``) is
    answered "now work it out" like an unreadable answer (✎, not ✘), and the same question
    waits for the number."""
    s = Session(seed=9, rounds=1, lang="en")
    lines: list[str] = []
    seen: list[str] = []

    def read(prompt: str) -> str:
        q = s.pending_question
        if q is None:
            return "1"
        if q.id not in seen:
            seen.append(q.id)
            return f"0+{q.expected}"
        return str(q.expected)

    assert cli.Terminal(s, read=read, write=lines.append).run() == 0
    working = [line for line in lines if "That is the working" in line]
    assert seen and len(working) == len(seen)
    assert all(line == "✎ That is the working. Now work it out: what number is it?"
               for line in working)
    assert not any(line.startswith("✘") for line in lines)  # no answer was wrong
    assert s.mastery.states and all(st.first_try_right == st.asked
                                    for st in s.mastery.states.values())


def _perfect_lesson_in_the_terminal() -> tuple[Session, list[str]]:
    """Lesson 04-times (seed 5) played to its end in the terminal by a student who answers
    every question right and takes the first move: the session and what the terminal wrote."""
    s = Session.from_lesson("04-times", lang="en", seed=5)
    lines: list[str] = []

    def read(prompt: str) -> str:
        q = s.pending_question
        return "1" if q is None else str(q.expected)

    assert cli.Terminal(s, read=read, write=lines.append).run() == 0
    return s, lines


def test_a_lesson_in_the_terminal_goes_on_to_mastery_and_says_how_it_went() -> None:
    """docs/rules.md §4: a lesson plays until its targets are mastered (here at its rounds, a
    perfect student), then the terminal prints how it went per target skill."""
    s, lines = _perfect_lesson_in_the_terminal()
    text = "\n".join(lines)
    assert s.lesson_over and s.lesson_summary().reason == "mastered"
    assert "How the lesson went" in text
    assert "✔ multiplying: " in text and "Mastered: go on to the next lesson." in text


def test_3_4_the_terminal_numbers_the_games_own_move_after_the_moves_D21() -> None:
    """docs/rules.md §3.4 (D-21): with five doubles on their first turn the student is offered
    the redeal after the numbered moves, and its number asks for it."""
    from engine.tiles import DOUBLE_NINE

    named = ["9/9", "0/0", "1/1", "2/2", "3/3", "4/4"]
    free = [str(t) for t in DOUBLE_NINE.tiles if t.a != t.b]
    hands = [named + free[:4]] + [free[4 + 10 * k:14 + 10 * k] for k in range(3)]
    s = Session(variant="cuban", players=4, humans=(0,), seed=5, lang="en", ask=(),
                drill=False, deals=[{"hands": hands}])
    lines: list[str] = []
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        if len(prompts) > 1:
            raise EOFError
        number = len(s.snapshot().legal) + 1
        assert f"  {number}. Ask for a redeal (five doubles) (" in lines[-1]
        return str(number)

    cli.Terminal(s, read=read, write=lines.append).run()
    assert s.match.rounds[0].result is not None
    assert s.match.rounds[0].result.reason == "annulled"
    assert any("asks for a new deal" in line for line in lines)


def test_the_terminal_says_once_why_power_on_power_asks_nothing() -> None:
    """Issue 43, finding 9: the terminal, like the page, says once why a power tile against a
    power tile asks nothing (lesson 04-times brings many)."""
    from engine import PowerEffect

    s, lines = _perfect_lesson_in_the_terminal()
    said = [line for line in lines if "Power on power: 30 points, nothing to work out" in line]
    assert len(said) == 1 and said[0].startswith("ℹ ")
    assert sum(isinstance(e, PowerEffect) and e.rule == "power-vs-power"
               for e in s.game.round_events) >= 1
