"""Command line: ``python -m tutor play`` (a game in the terminal), ``dashboard`` (Voilà), and
for teachers ``export``, ``import`` and ``report`` (see :mod:`tutor.commands.teacher`).
Its layer: pyproject.toml's import contracts."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TypedDict

from engine.events import Event
from engine.round import Draw, Pass, Play
from tutor.commands import fit_bkt, teacher
from tutor.commands.server import command_flags
from tutor.commands.simulate import (
    NAME_PREFIX,
    progress_folder,
    simulate,
    student_names,
    write_progress,
)
from tutor.course import paths
from tutor.course.lessons import LessonError, check_folder, lesson_coverage, load_lesson
from tutor.course.paths import lesson_dirs
from tutor.i18n import N_, ngettext, normalize_lang, translator
from tutor.session.session import (
    WAIT_MOVE,
    WAIT_QUESTION,
    WAIT_ROUND,
    Feedback,
    Session,
    SessionError,
)
from tutor.teaching.asking import note_text
from tutor.teaching.coverage import skill_mistakes
from tutor.teaching.diagnosis import MISTAKE_NAMES
from tutor.teaching.mastery import SKILL_NAMES, SKILLS
from tutor.teaching.questions import plain_math, seat_name

if TYPE_CHECKING:
    from typing import Unpack

    from tutor.session.snapshot import Snapshot

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
        self._notes_said = 0

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

    def narrate(self, events: Sequence[Event]) -> None:
        for ev in events:
            self.write("  " + self.s.describe(ev))
        notes = self.s.notes_said
        for note in notes[self._notes_said:]:  # said once (the first power on power)
            self.write("ℹ " + note_text(note, self.s.lang))
        self._notes_said = len(notes)

    def scores(self, v: Snapshot | None = None) -> str:
        v = self.s.snapshot() if v is None else v
        return " · ".join(f"{n} {sc}" for n, sc in zip(v.names, v.scores_shown, strict=True))

    def board(self) -> Snapshot:
        """Write the table as the student to move sees it; return the snapshot it shows."""
        _ = self._
        v = self.s.snapshot()
        self.write("")
        self.write(_(N_("Round {round} of {rounds} · Scores: {scores}")).format(
            round=v.round, rounds=v.rounds, scores=self.scores(v)))
        line = " ".join(f"[{t}]" for t in v.line) or "—"
        self.write(_(N_("Line: {line}")).format(line=line))
        self.write(_(N_("Tiles in hand: {sizes} · Pile: {pile}")).format(
            sizes=", ".join(f"{n} {k}" for n, k in zip(v.names, v.hand_sizes, strict=True)),
            pile=v.pile))
        if v.hand_seat is not None:
            self.write(_(N_("Your hand ({seat}): {hand}")).format(
                seat=seat_name(v.hand_seat), hand=" ".join(str(t) for t in v.hand)))
        return v

    def choose_move(self) -> None:
        _ = self._
        v = self.board()
        moves = v.legal  # the numbered moves, then the game's own (Cuban's redeal)
        for i, m in enumerate(moves, 1):
            self.write(f"  {i}. {_move_text(m, _)}")
        extra = v.extra
        for i, x in enumerate(extra, len(moves) + 1):
            self.write(f"  {i}. {x.label}" + (f" ({x.explanation})" if x.explanation else ""))
        count = len(moves) + len(extra)
        while True:
            text = self.ask(_(N_("Your move (number): "))).strip()
            if text.isdigit() and 1 <= int(text) <= count:
                break
            self.write(_(N_("Choose a move from 1 to {count}.")).format(count=count))
        k = int(text) - 1
        events = self.s.apply_action(moves[k] if k < len(moves) else extra[k - len(moves)].move)
        self.narrate(events)

    def question(self) -> None:
        """Ask the pending question as the page does: the situation and the question only;
        hints on request; the worked solution once it is over."""
        _ = self._
        v = self.s.snapshot()
        q = v.question
        assert q is not None
        self.write("")
        if q.situation.drill:
            self.write(_(N_("Practice position (not from your game):")))
        if q.situation.line:
            self.write("   " + _(N_("Line: ◀ {tiles} ▶ (both ends are open)")).format(
                tiles=" ".join(f"[{t}]" for t in q.situation.line)))
        for seat, hand in q.situation.hands:
            self.write("   " + _(N_("Hand of {seat}: {tiles}")).format(
                seat=seat_name(seat), tiles=" ".join(f"[{t}]" for t in hand) or "—"))
        self.write("❓ " + q.prompt)
        if q.scaffold:
            self.write("   " + plain_math(q.scaffold))
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
        if fb.kind == "correct":
            self.write("✔ " + fb.message)
        elif fb.kind == "revealed":
            self.write("→ " + fb.message)
        elif fb.kind in ("invalid", "working"):  # not an attempt: the question stays open
            self.write("✎ " + fb.message)
        else:
            self.write("✘ " + fb.message)
            if fb.hint:
                self.write("💡 " + fb.hint.text)
        if fb.done and fb.worked:
            self.write("   " + plain_math(fb.worked))

    def run(self) -> int:
        _ = self._
        s = self.s
        self.narrate(s.game.last_events)
        try:
            while True:  # the session's loop: its next step, or what it waits for
                step = s.advance(forced=False)
                if step.events:
                    self.narrate(step.events)
                elif step.waiting == WAIT_QUESTION:
                    self.question()
                elif step.waiting == WAIT_MOVE:
                    self.choose_move()
                elif s.lesson_over:  # a lesson: its targets mastered or a cap; else the match
                    break
                elif step.waiting == WAIT_ROUND:
                    self.write(_(N_("Round {round} is over. Scores: {scores}")).format(
                        round=s.snapshot().round, scores=self.scores()))
                    self.narrate(s.new_round())
                else:  # pragma: no cover - every state above moves the game on
                    raise SessionError(N_("The game is stuck."), lang=s.lang)
        except _Quit:
            self.write("")
            self.write(_(N_("Game stopped.")))
        self.write(_(N_("Final score: {scores}")).format(scores=self.scores()))
        if s.plan.targets and s.lesson_over:  # docs/rules.md §4: how the lesson went
            self.write(_(N_("How the lesson went")))
            for sk in s.lesson_summary().skills:
                self.write(f"  {'✔' if sk.mastered else '✘'} {sk.name}: "
                           f"{sk.first_try_right}/{sk.asked} — {sk.next_step}")
        return 0


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter with the "usage: " prefix in the tutor's language."""

    usage_prefix = "usage: "

    def add_usage(self, usage: str | None, actions: Iterable[argparse.Action],
                  groups: Iterable[argparse._MutuallyExclusiveGroup],
                  prefix: str | None = None) -> None:
        super().add_usage(usage, actions, groups,
                          self.usage_prefix if prefix is None else prefix)


class _ParserOptions(TypedDict, total=False):
    """The keywords of :class:`argparse.ArgumentParser` (``add_parser`` hands them on)."""

    prog: str | None
    usage: str | None
    description: str | None
    epilog: str | None
    parents: Sequence[argparse.ArgumentParser]
    formatter_class: type[argparse.HelpFormatter]
    prefix_chars: str
    fromfile_prefix_chars: str | None
    argument_default: object
    conflict_handler: str
    add_help: bool
    allow_abbrev: bool
    exit_on_error: bool


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose own words (usage, help, error) are translated."""

    def __init__(self, *, lang: str = "es", **kwargs: Unpack[_ParserOptions]) -> None:
        _ = translator(lang)
        self.lang = lang
        prefix = _(N_("usage: "))
        kwargs.setdefault("formatter_class",
                          type("_Formatter", (_HelpFormatter,), {"usage_prefix": prefix}))
        kwargs["add_help"] = False
        super().__init__(**kwargs)
        self._positionals.title = _(N_("positional arguments"))
        self._optionals.title = _(N_("options"))
        self.add_argument("-h", "--help", action="help", default=argparse.SUPPRESS,
                          help=_(N_("show this help message and exit")))

    def error(self, message: str) -> NoReturn:
        _ = translator(self.lang)
        self.print_usage(sys.stderr)
        self.exit(2, _(N_("{prog}: error: {message}")).format(prog=self.prog, message=message)
                  + "\n")


def _argv_lang(argv: Sequence[str]) -> str:
    """The language for the command line's own texts: ``--lang`` if given, else the
    environment's (see :func:`_env_lang`): English unless one of them says Spanish."""
    for i, arg in enumerate(argv):
        value = None
        if arg == "--lang" and i + 1 < len(argv):
            value = argv[i + 1]
        elif arg.startswith("--lang="):
            value = arg.split("=", 1)[1]
        if value is not None:
            try:
                return normalize_lang(value)
            except ValueError:
                break
    return _env_lang()


def _env_lang() -> str:
    """The language the environment asks for: the first of ``LANGUAGE`` (a list: its first
    language the tutor speaks), ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that names Spanish
    or English. Without one (no locale, ``C``, ``POSIX``, a language the tutor does not
    speak): English, which more readers of a terminal share than Spanish; a Spanish locale
    (``es_MX.UTF-8``) or ``--lang es`` gives Spanish."""
    import os

    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for value in os.environ.get(var, "").split(":"):
            try:
                return normalize_lang(value)
            except ValueError:
                continue
    return "en"


def _parser(lang: str = "es") -> argparse.ArgumentParser:
    _ = translator(lang)
    p = _Parser(prog="leonard-domino", description=_(N_("Leonard-Domino tutor")), lang=lang)
    sub = p.add_subparsers(dest="command", title=_(N_("commands")), parser_class=_Parser)
    play = sub.add_parser("play", help=_(N_("play in the terminal against bots")), lang=lang,
                          description=_(N_("Play a match in the terminal against bots, with "
                                           "arithmetic questions.")))
    play.add_argument("--players", type=int, default=2,
                      help=_(N_("number of players (default: 2)")))
    play.add_argument("--bots", default="greedy",
                      help=_(N_("bot names for the other seats, comma-separated (random, "
                                "greedy, search)")))
    play.add_argument("--lang", default="es",
                      help=_(N_("language of the game: es or en (default: es)")))
    play.add_argument("--seed", type=int, default=None,
                      help=_(N_("number that fixes the deal, to replay the same game")))
    play.add_argument("--rounds", type=int, default=3,
                      help=_(N_("number of rounds (default: 3)")))
    play.add_argument("--scaffold", action="store_true",
                      help=_(N_("ask T before each power play")))
    play.add_argument("--ask-bot-plays", action="store_true",
                      help=_(N_("also ask about the bots' power plays")))
    play.add_argument("--student", default="anon",
                      help=_(N_("student name or id for the progress file (default: anon)")))
    play.add_argument("--store", default=None,
                      help=_(N_("progress file (SQLite) to record attempts")))
    sub.add_parser("dashboard", help=_(N_("open the dashboard in Voilà (the default)")),
                   lang=lang, description=_(N_("Open the dashboard in Voilà.")))
    teacher.add_commands(sub, lang)
    fit_bkt.add_fit_command(sub, lang)
    lessons = sub.add_parser(
        "lessons", lang=lang, help=_(N_("check lesson files")),
        description=_(N_("Check lesson files: one line per broken file, naming the file, the "
                         "field and what is wrong. Exit code 2 if any file is broken.")))
    lessons.add_argument("action", choices=["check"], help=_(N_("what to do: check")))
    lessons.add_argument("folder", nargs="?", default=None, metavar=_(N_("DIR")),
                         help=_(N_("the folder of lesson files (default: $LEONARD_LESSONS and "
                                   "the shipped lessons)")))
    lessons.add_argument("--lang", default=None,
                         help=_(N_("language of the messages: es or en")))
    sim = sub.add_parser(
        "simulate-students", lang=lang,
        help=_(N_("play a lesson with simulated students and report how it went")),
        description=_(N_("Play a lesson with scripted learners, through the same tutor the "
                         "page uses, and report per skill how many questions it asked, the "
                         "first-try accuracy and how many learners reached mastery.")))
    sim.add_argument("--lesson", required=True, help=_(N_("the lesson's id")))
    sim.add_argument("--students", type=int, default=50,
                     help=_(N_("how many simulated students (default: 50)")))
    sim.add_argument("--profile", default="perfect",
                     help=_(N_("perfect, random, calculator, hints, bkt:L0,T,S,G, "
                               "mistake:NAME:p, scaffold:NAME:p, forget:DAYS, slips:p, "
                               "facts:N, learner:p or mixed:NAME,NAME:p")))
    sim.add_argument("--seed", type=int, default=1,
                     help=_(N_("number that fixes the deals and the learners' choices")))
    sim.add_argument("--json", action="store_true", help=_(N_("print the report as JSON")))
    sim.add_argument("--write-progress", default=None, metavar=_(N_("DIR")),
                     help=_(N_("also write each simulated student's progress file (the CSV "
                               "a student downloads) into this folder, to try the teacher "
                               "page with them; files of the same name are replaced")))
    sim.add_argument("--name-prefix", default=None, metavar=_(N_("PREFIX")),
                     help=_(N_("how the simulated students' names start (default: sim, "
                               "giving sim-01, sim-02 …)")))
    sim.add_argument("--lang", default=None,
                     help=_(N_("language of the messages: es or en")))
    return p


def check_lessons(args: argparse.Namespace, lang: str) -> int:
    """``python -m tutor lessons check [DIR]``: exit 0 when every file is good, else 2."""
    _ = translator(lang)
    folders = [Path(args.folder)] if args.folder is not None else lesson_dirs()
    total, broken = 0, []
    for folder in folders:
        if not folder.is_dir():
            print(_(N_("{folder}: there is no such folder")).format(folder=folder))
            return 2
        count, problems = check_folder(folder, lang)
        total += count
        broken += problems
    for line in broken:
        print(line)
    for folder in folders:
        for line in coverage_lines(folder, lang):
            print(line)
    if not broken:
        print(ngettext("{n} lesson file, all good.", "{n} lesson files, all good.", total,
                       lang).format(n=total))
    return 2 if broken else 0


def coverage_lines(folder: Path, lang: str) -> list[str]:
    """For each good lesson file of ``folder`` and each skill it practises, the catalogue
    mistakes of the skill that none of its questions can show (issue 42: mastery rules out
    what they can show, and nothing else), or that they can show every one."""
    _ = translator(lang)
    lines = []
    for path in sorted(folder.glob("*.json")):
        try:
            lesson = load_lesson(path, lang)
        except LessonError:
            continue  # named above
        cover = lesson_coverage(lesson)
        for skill in SKILLS:
            if skill not in lesson.plan.focus:
                continue
            shows = cover[skill].shows if skill in cover else frozenset()
            never = sorted(skill_mistakes(skill) - shows)
            name = _(SKILL_NAMES[skill])
            if not never:
                lines.append(_(N_("{lesson}: {skill}: its questions can show every mistake of "
                                  "the skill the tutor knows ({count}).")).format(
                    lesson=lesson.id, skill=name, count=len(shows)))
            else:
                lines.append(_(N_("{lesson}: {skill}: its questions never show: {mistakes} "
                                  "(mastery cannot rule them out here).")).format(
                    lesson=lesson.id, skill=name,
                    mistakes=", ".join(_(MISTAKE_NAMES[m]) for m in never)))
    return lines


def _text_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """A plain text table: the header row, then the rows; the first column left-aligned,
    the others right-aligned, each as wide as its widest cell."""
    widths = [max(len(r[i]) for r in (header, *rows)) for i in range(len(header))]
    return ["  " + " ".join(cell.ljust(w) if i == 0 else cell.rjust(w)
                            for i, (cell, w) in enumerate(zip(row, widths, strict=True))).rstrip()
            for row in (header, *rows)]


def simulate_students(args: argparse.Namespace, lang: str) -> int:
    """``python -m tutor simulate-students``: one JSON object, or a table per skill; with
    ``--write-progress DIR`` also each simulated student's progress file."""
    _ = translator(lang)
    if args.students < 1:
        print(_(N_("--students must be 1 or more.")), file=sys.stderr)
        return 2
    prefix = NAME_PREFIX if args.name_prefix is None else args.name_prefix
    try:
        if args.write_progress is not None:  # checked before the simulation, not after it
            names = student_names(args.students, prefix, lang)
            progress_folder(args.write_progress, lang)
        elif args.name_prefix is not None:
            print(_(N_("--name-prefix names the students of --write-progress: give both.")),
                  file=sys.stderr)
            return 2
        report = simulate(args.lesson, args.students, args.profile, args.seed, lang)
        files = [] if args.write_progress is None else write_progress(
            args.lesson, args.students, args.profile, args.seed, args.write_progress,
            lang=lang, prefix=prefix)
    except ValueError as err:  # an unknown lesson or profile, a bad folder: one line
        print(err, file=sys.stderr)
        return 2
    if args.json:
        if args.write_progress is not None:
            report["progress_files"] = [{"student": f.student, "file": str(f.path),
                                         "attempts": f.attempts} for f in files]
        print(json.dumps(report, ensure_ascii=False, indent=2))
        return 0
    print(_(N_("{lesson}: {students} students ({profile}), {questions} questions each, "
               "{share:.0%} not arithmetic, all targets mastered by {mastered:.0%}.")).format(
        lesson=report["lesson"], students=report["students"], profile=report["profile"],
        questions=report["questions_per_student"], share=report["non_arithmetic_share"],
        mastered=report["all_targets_mastered_share"]))
    print(_(N_("Lesson length per student: {questions} questions ({targets} on its targets), "
               "{tiles} tiles placed, {rounds} rounds.")).format(
        questions=report["questions_per_student"],
        targets=report["target_questions_per_student"],
        tiles=report["tiles_placed_per_student"], rounds=report["rounds_per_student"]))
    header = [_(N_("skill")), _(N_("questions")), _(N_("share")), _(N_("right 1st try")),
              _(N_("mastered"))]
    rows = [[skill, str(row["questions"]), f"{row['share']:.1%}",
             "-" if row["first_try_accuracy"] is None else f"{row['first_try_accuracy']:.0%}",
             f"{row['mastered_share']:.0%}"] for skill, row in report["skills"].items()]
    for line in _text_table(header, rows):
        print(line)
    print(_(N_("share: of all the questions asked; right 1st try: the first answers that were "
               "right; mastered: the students who mastered the skill.")))
    if args.write_progress is not None:
        print(ngettext(
            "Wrote {n} progress file into {folder} ({names}): upload it on the teacher page.",
            "Wrote {n} progress files into {folder} ({names}): upload them on the teacher "
            "page.", len(files), lang).format(
            n=len(files), folder=args.write_progress,
            names=names[0] if len(names) == 1 else f"{names[0]} … {names[-1]}"))
    return 0


def dashboard() -> int:
    path = paths.notebook()  # through the module: the tests put another notebook there
    if not path.is_file():
        _ = translator(_env_lang())
        print(_(N_("The dashboard notebook is not installed ({path}). To play in the terminal: "
                   "python -m tutor play")).format(path=path), file=sys.stderr)
        return 1
    # Run outside the repository, Voilà finds no voila.json: give it the server settings.
    return subprocess.call([sys.executable, "-m", "voila", str(path), *command_flags()])


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    cli_lang = _argv_lang(argv)
    args = _parser(cli_lang).parse_args(argv)
    if args.command in (None, "dashboard"):
        return dashboard()
    if args.command in teacher.COMMANDS:
        return teacher.run(args, cli_lang)
    if args.command == "fit-bkt":
        return fit_bkt.run(args, cli_lang)
    if args.command == "lessons":
        return check_lessons(args, cli_lang)
    if args.command == "simulate-students":
        try:
            return simulate_students(args, cli_lang)
        except BrokenPipeError:  # output piped into e.g. head, which stopped reading
            sys.stderr.close()
            return 0
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
