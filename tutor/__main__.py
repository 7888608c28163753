"""Command line: ``python -m tutor play`` (a game in the terminal) or ``dashboard`` (Voilà)."""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from engine.round import Draw, Pass, Play
from tutor.i18n import N_, normalize_lang, translator
from tutor.questions import plain_math, seat_name
from tutor.session import Feedback, Session, SessionError, describe_event

NOTEBOOK = Path(__file__).resolve().parent / "notebooks" / "Play.ipynb"
HINT_WORDS = frozenset({"?", "h", "hint", "pista", "ayuda"})
REVEAL_WORDS = frozenset({"show", "mostrar", "ver"})
QUIT_WORDS = frozenset({"quit", "exit", "salir"})


class _Quit(Exception):
    """The player typed quit (or the input ended)."""


def _move_text(action: object, _: Callable[[str], str]) -> str:
    if isinstance(action, Play):
        if action.end is None:
            return str(action.tile)
        side = _(N_("left")) if action.end == "L" else _(N_("right"))
        return f"{action.tile} → {side}"
    if isinstance(action, Draw):
        return _(N_("draw a tile from the pile"))
    if isinstance(action, Pass):
        return _(N_("pass"))
    return str(action)


class Terminal:
    """The terminal game: prints the board, reads moves and answers with ``input()``."""

    def __init__(self, session: Session, read: Callable[[str], str] = input,
                 write: Callable[[str], None] = print) -> None:
        self.s = session
        self.read = read
        self.write = write

    @property
    def _(self) -> Callable[[str], str]:
        return translator(self.s.lang)

    def ask(self, prompt: str) -> str:
        try:
            text = self.read(prompt)
        except EOFError:
            raise _Quit from None
        if text.strip().lower() in QUIT_WORDS:
            raise _Quit
        return text

    def narrate(self, events: Sequence[object]) -> None:
        for ev in events:
            self.write("  " + describe_event(ev, self.s.lang,  # type: ignore[arg-type]
                                             hidden=self.s.asked_about(ev)))  # type: ignore[arg-type]

    def scores(self) -> str:
        v = self.s.view_state()
        return " · ".join(f"{n} {sc}" for n, sc in zip(v["names"], v["scores_shown"],
                                                          strict=True))

    def board(self) -> None:
        _ = self._
        v = self.s.view_state()
        self.write("")
        self.write(_(N_("Round {round} of {rounds} · Scores: {scores}")).format(
            round=v["round"], rounds=v["rounds"], scores=self.scores()))
        line = " ".join(f"[{t}]" for t in v["line"]) or "—"
        self.write(_(N_("Line: {line}")).format(line=line))
        self.write(_(N_("Tiles in hand: {sizes} · Pile: {pile}")).format(
            sizes=", ".join(f"{n} {k}" for n, k in zip(v["names"], v["hand_sizes"],
                                                       strict=True)),
            pile=v["pile"]))
        self.write(_(N_("Your hand ({seat}): {hand}")).format(
            seat=seat_name(v["hand_seat"]), hand=" ".join(v["hand"])))

    def choose_move(self) -> None:
        _ = self._
        self.board()
        moves = self.s.legal_moves()
        for i, m in enumerate(moves, 1):
            self.write(f"  {i}. {_move_text(m, _)}")
        while True:
            text = self.ask(_(N_("Your move (number): "))).strip()
            if text.isdigit() and 1 <= int(text) <= len(moves):
                break
            self.write(_(N_("Choose a move from 1 to {count}.")).format(count=len(moves)))
        events = self.s.play(int(text) - 1)
        self.narrate(events)

    def question(self) -> None:
        _ = self._
        q = self.s.pending_question
        assert q is not None
        self.write("")
        self.write("❓ " + q.prompt)
        self.write("   " + _(N_("(type the number; ? for a hint, show to see the answer)")))
        while True:
            text = self.ask("> ").strip()
            low = text.lower()
            if low in HINT_WORDS:
                self.write("💡 " + self.s.hint())
                continue
            fb = self.s.reveal() if low in REVEAL_WORDS else self.s.answer(text)
            self.feedback(fb)
            if fb.done:
                self.narrate(fb.events)
                return

    def feedback(self, fb: Feedback) -> None:
        _ = self._
        if fb.kind == "correct":
            self.write("✔ " + fb.message + " " + plain_math(fb.question.latex) + f" = "
                       f"{fb.expected}")
        elif fb.kind == "revealed":
            self.write("→ " + fb.message)
        elif fb.kind == "invalid":
            self.write("✎ " + fb.message)
        else:
            self.write("✘ " + fb.message)
            if fb.hint:
                self.write("💡 " + fb.hint)

    def run(self) -> int:
        _ = self._
        s = self.s
        self.narrate(s.last_events)
        try:
            while True:
                if s.pending_question is not None:
                    self.question()
                elif s.human_to_move is not None:
                    self.choose_move()
                elif s.bot_pending():
                    self.narrate(s.run_bots())
                elif s.match.over:
                    break
                elif s.round.over:
                    self.write(_(N_("Round {round} is over. Scores: {scores}")).format(
                        round=s.round.number, scores=self.scores()))
                    self.narrate(s.new_round())
                else:  # pragma: no cover - every state above moves the game on
                    raise SessionError("the game is stuck")
        except _Quit:
            self.write("")
            self.write(_(N_("Game stopped.")))
        self.write(_(N_("Final score: {scores}")).format(scores=self.scores()))
        return 0


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="leonard-domino", description="Leonard-Domino tutor")
    sub = p.add_subparsers(dest="command")
    play = sub.add_parser("play", help="play in the terminal against bots")
    play.add_argument("--players", type=int, default=2)
    play.add_argument("--bots", default="greedy",
                      help="bot names for the other seats, comma-separated (random, greedy, "
                           "search)")
    play.add_argument("--lang", default="es")
    play.add_argument("--seed", type=int, default=None)
    play.add_argument("--rounds", type=int, default=3)
    play.add_argument("--scaffold", action="store_true", help="ask T before each power play")
    play.add_argument("--ask-bot-plays", action="store_true")
    play.add_argument("--student", default="anon")
    play.add_argument("--store", default=None, help="progress file (SQLite) to record attempts")
    sub.add_parser("dashboard", help="open the dashboard in Voilà (the default)")
    return p


def _env_lang() -> str:
    import os

    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        try:
            return normalize_lang(value.split(":")[0])
        except ValueError:
            continue
    return "es"


def dashboard() -> int:
    if not NOTEBOOK.is_file():
        _ = translator(_env_lang())
        print(_(N_("The dashboard notebook is not installed ({path}). To play in the terminal: "
                   "python -m tutor play")).format(path=NOTEBOOK), file=sys.stderr)
        return 1
    return subprocess.call([sys.executable, "-m", "voila", str(NOTEBOOK)])


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command in (None, "dashboard"):
        return dashboard()
    try:
        lang = normalize_lang(args.lang)
        bots = args.bots.split(",") if "," in args.bots else args.bots
        session = Session(players=args.players, humans=(0,), bots=bots, rounds=args.rounds,
                          seed=args.seed, lang=lang, scaffold=args.scaffold,
                          ask_bot_plays=args.ask_bot_plays, student=args.student,
                          store=args.store)
    except ValueError as err:
        print(err, file=sys.stderr)
        return 2
    try:
        return Terminal(session).run()
    finally:
        session.close()


if __name__ == "__main__":
    sys.exit(main())
