"""Simulated students, for lesson designers and for tests: scripted learners
(:mod:`tutor.commands.learners`, by profile) play whole lessons through the same
:class:`~tutor.session.session.Session` the page uses, all through ONE loop (:func:`drive`), and
the tutor's own records say how the lesson went (which skills it asked, how often, whether
mastery was reached).

    python -m tutor simulate-students --lesson 04-times --students 50 --profile perfect \\
        --seed 1 --json

Every learner has a hidden state, :meth:`~tutor.commands.learners.Learner.knows`, which the
report sets against the tutor's verdict: per skill ``mastered_while_wrong`` is the share of the
students called mastered who do not know the skill. :mod:`tutor.commands.goals` checks a lesson
against the teaching goals (issue 32, part 8), for ``benchmarks/teaching_rates.py`` and the
tests. :func:`simulate_days` plays lessons days apart, on an injected clock.

:func:`write_progress` (``--write-progress DIR``) plays the same students with the tutor
recording their attempts and writes each one's progress file, as a student downloads it, so a
teacher can try the teacher page with a simulated class.
"""

from __future__ import annotations

import os
import random
import re
import statistics
import tempfile
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TypedDict

from engine.bots import GreedyBot
from engine.events import Placed
from engine.view import view_of
from tutor.commands.learners import Forgetful, Learner, Seen, SimClock, Typist, learner
from tutor.course.lessons import Lesson, load_lesson
from tutor.i18n import N_, TranslatableError
from tutor.session.session import Session
from tutor.session.snapshot import WAIT_MOVE, WAIT_QUESTION, WAIT_ROUND
from tutor.storage.store import Store
from tutor.storage.store_files import progress_file_name
from tutor.teaching.diagnosis import diagnose, mistake_value
from tutor.teaching.mastery import SKILLS
from tutor.teaching.questions import Question

__all__ = ["MAX_ATTEMPTS", "MAX_HINTS", "NAME_PREFIX", "ProgressFile", "ProgressFilesError",
           "Reply", "Report", "Run", "SkillReport", "drive", "lesson_over", "progress_folder",
           "simulate", "simulate_days", "simulate_one", "student_names", "student_seed",
           "write_progress"]

MAX_ATTEMPTS = 3
"""A learner who is still wrong after this many replies (counted or not) asks to see the
answer."""
MAX_HINTS = 20
"""More rungs than any hint ladder has: a bound on a ``hints`` learner's asking."""


@dataclass(frozen=True)
class Reply:
    """How one question went for a simulated student."""

    question: Question
    seen: Seen
    hints: int
    """Hint rungs taken before the first reply."""
    first_text: str
    """What the student typed first."""
    first_counted: bool | None
    """Whether the first counted reply was right (None: no reply counted, the answer was
    revealed)."""
    counted: int
    """Replies the tutor counted as attempts."""
    uncounted: int
    """Replies it did not count (unreadable, or working where a number is asked)."""
    revealed: bool
    first_right: bool = False
    """Whether the first reply was right, counted or not (what :func:`simulate_days`
    reports)."""


@dataclass
class Run:
    """One simulated student's lesson."""

    questions: list[tuple[Question, bool]] = field(default_factory=list)
    """Every question asked, with whether the first counted answer was right."""
    replies: list[Reply] = field(default_factory=list)
    """Every question asked, in detail (see :class:`Reply`)."""
    mastered_after: dict[str, int] = field(default_factory=dict)
    """Per skill, how many questions of it were asked when it was first mastered."""
    final: dict[str, float] = field(default_factory=dict)
    mastered: dict[str, bool] = field(default_factory=dict)
    knows: dict[str, bool] = field(default_factory=dict)
    """The learner's hidden state at the lesson's end (:meth:`Learner.knows`)."""
    tiles_placed: int = 0
    """Tiles the simulated student placed in the lesson (its own seat's, not the bots')."""
    rounds: int = 0
    shown: list[tuple[str, bool]] = field(default_factory=list)
    """Mistake profiles: each answer that showed the mistake, as (the question's rule, whether
    the diagnosis named that mistake)."""
    typos: list[bool] = field(default_factory=list)
    """``slips:`` profiles: each first answer that was a typo, with whether the diagnosis named
    a catalogue mistake for it (``named`` or ``likely``)."""



def _as_int(text: str) -> int | None:
    """A simulated reply that is a plain whole number, as that number (the simulator's own
    text, never a student's)."""
    body = text[1:] if text.startswith("-") else text
    return int(text) if body.isdigit() else None


def lesson_over(s: Session) -> bool:
    """Whether the simulated lesson has ended: the ONE place that decides it (every target
    mastered or the lesson's cap; free play: its match is over)."""
    return bool(s.lesson_over)


def drive(s: Session, student: Learner, rng: random.Random, mover: GreedyBot, run: Run, *,
          until: Callable[[Session], bool] = lesson_over, steps: int = 100_000,
          on_reply: Callable[[Reply], None] | None = None) -> Run:
    """THE loop of the simulated students: play ``s`` until ``until(s)`` (default: the
    lesson is over), at most ``steps`` steps. What happens next is what the session waits for
    (:meth:`~tutor.session.session.Session.waiting`): a question, answered by ``student``
    (:func:`_ask`, each :class:`Reply` kept in ``run`` and given to ``on_reply``); the
    student's move, chosen by ``mover`` from what its seat sees; the round's end, then the
    next round (or a new match of the same lesson); else the session's own step
    (:meth:`~tutor.session.session.Session.advance`: a bot's move). Returns ``run``."""
    for _ in range(steps):  # bounded: a lesson is a few hundred steps
        if until(s):
            break
        waiting = s.waiting()
        if waiting == WAIT_QUESTION:
            reply = _ask(s, student, rng, run)
            run.replies.append(reply)
            run.questions.append((reply.question, bool(reply.first_counted)))
            if on_reply is not None:
                on_reply(reply)
        elif waiting == WAIT_MOVE:
            seat = s.round.turn
            events = s.apply_action(mover.choose(view_of(s.round, seat)))
            run.tiles_placed += sum(isinstance(e, Placed) and e.seat == seat for e in events)
        elif waiting == WAIT_ROUND:
            s.new_round()
        elif not s.advance().events:  # pragma: no cover - a step always moves someone
            raise RuntimeError("the simulated lesson is stuck")
    return run


def _ask(s: Session, student: Learner, rng: random.Random, run: Run) -> Reply:
    """The question at the front, from the hints a learner asks for to its last reply (or
    giving up); what it sees besides the prompt is the session's own record of its
    scaffolds (:meth:`Seen.of <tutor.commands.learners.Seen.of>`)."""
    p = s.asker.pending
    assert p is not None  # the session waits for a question
    q, seen = p.question, Seen.of(p)
    hints = 0
    if student.asks_every_hint:
        for _ in range(MAX_HINTS):
            given = s.hints_given()
            if given and given[-1].reveals:
                break
            s.hint()
        hints = len(s.hints_given())
    attempt, counted, uncounted, first, first_text, revealed = 0, 0, 0, None, "", False
    first_right = False
    while True:
        attempt += 1
        text = student.reply(q, attempt, rng, seen)
        if attempt == 1:
            first_text = text
            value = _as_int(text)
            if isinstance(student, Typist) and student.last_typo and value is not None:
                run.typos.append(diagnose(q, value).kind in ("named", "likely"))
            if student.mistake is not None and value is not None \
                    and value == mistake_value(q, student.mistake) and not q.is_right(value):
                run.shown.append((q.context.rule,
                                  diagnose(q, value).rule == student.mistake))
        fb = s.answer(text)
        if attempt == 1:
            first_right = fb.kind == "correct"
        if fb.counted:
            counted += 1
            if first is None:
                first = fb.kind == "correct"
        else:
            uncounted += 1
        if fb.done:
            break
        if attempt >= MAX_ATTEMPTS:
            s.reveal()
            revealed = True
            break
    return Reply(q, seen, hints, first_text, first, counted, uncounted, revealed,
                 first_right=first_right)


def simulate_one(lesson: Lesson | str, make: Callable[[], Learner], seed: int,
                 lang: str = "en", *, store: Store | None = None, name: str = "anon",
                 clock: Callable[[], datetime] | None = None) -> tuple[Run, frozenset[str]]:
    """Play ``lesson`` once with a fresh learner; return the run and the lesson's focus
    skills. Moves are chosen by a seeded greedy player; the lesson's own seed is replaced
    by ``seed`` so each student gets a different deal. With a progress ``store`` the
    attempts are recorded there as student ``name`` (at ``clock``'s times), as the page
    records a student's (see :func:`write_progress`)."""
    rng = random.Random(seed)
    student = make()
    s = Session.from_lesson(lesson, lang=lang, store=store, seed=seed, student=name,
                            clock=clock)
    run = Run()
    asked: Counter[str] = Counter()

    def note_mastery(reply: Reply) -> None:
        asked[reply.question.skill] += 1
        mastery = s.mastery
        for skill in SKILLS:
            if skill not in run.mastered_after and mastery.state(skill).mastered \
                    and asked[skill]:
                run.mastered_after[skill] = asked[skill]

    drive(s, student, rng, GreedyBot(seed), run, on_reply=note_mastery)
    run.rounds = s.lesson_rounds
    for skill in SKILLS:
        st = s.mastery.state(skill)
        run.final[skill], run.mastered[skill] = st.p_known, st.mastered
        run.knows[skill] = student.knows(skill)
    return run, s.plan.focus


def simulate_days(lessons: Sequence[tuple[float, Lesson | str]], student: Learner, store: Store, *,
                  seed: int = 1, clock: SimClock | None = None, name: str = "sim",
                  lang: str = "en") -> list[list[tuple[Question, bool]]]:
    """One simulated student across days, with one progress ``store``: for each
    ``(days, lesson)`` the clock moves on ``days`` days, then the lesson is played to its end
    (:func:`drive`; a :class:`~tutor.session.session.Session` on the same store and clock, so
    reviews fall due and are mixed in; moves by a greedy player seeded ``seed`` + the
    lesson's number). A :class:`~tutor.commands.learners.Forgetful` student gets the clock.
    Returns each lesson's questions with whether the first answer was right."""
    clock = clock or SimClock()
    if isinstance(student, Forgetful):
        student.clock = clock
    rng = random.Random(seed)
    out = []
    for k, (days, lesson) in enumerate(lessons):
        clock.advance(days)
        s = Session.from_lesson(lesson, lang=lang, student=name, store=store,
                                seed=seed * 1009 + k, clock=clock)
        run = drive(s, student, rng, GreedyBot(seed + k), Run())
        out.append([(r.question, r.first_right) for r in run.replies])
        s.flush()
    return out



def student_seed(seed: int, k: int) -> int:
    """The seed of the ``k``-th simulated student (from 0) of a run seeded ``seed``: its deal
    and its choices (:func:`simulate` and :func:`write_progress` play the same students)."""
    return seed * 100_003 + k


def _share(hits: int, of: int) -> float | None:
    return round(hits / of, 4) if of else None


class SkillReport(TypedDict):
    """One skill's line of a :func:`simulate` report."""

    target: bool
    questions: int
    share: float
    first_try_accuracy: float | None
    final_mastery: float
    mastered_share: float
    questions_to_mastery: float | None
    mastered_while_wrong: float | None
    mastered_when_unknown: float | None


class DiagnosisReport(TypedDict):
    """How often the tutor named the mistake a ``mistake:``/``scaffold:`` student made."""

    named: int
    of: int
    by_rule: dict[str, dict[str, int]]


class Report(TypedDict, total=False):
    """What :func:`simulate` returns and ``simulate-students`` prints as JSON (the module
    docstring says what each field means); ``diagnosis`` only for mistake profiles."""

    lesson: str
    profile: str
    students: int
    seed: int
    questions: int
    questions_per_student: float
    target_questions_per_student: float
    tiles_placed_per_student: float
    rounds_per_student: float
    uncounted_replies_per_student: float
    target_share: float
    non_arithmetic_share: float
    all_targets_mastered_share: float
    lesson_targets: list[str]
    rounds: int
    skills: dict[str, SkillReport]
    kinds: dict[str, int]
    diagnosis: DiagnosisReport
    typos: dict[str, int]
    """``slips:`` profiles: typos made (``of``) and named as a catalogue mistake (``named``)."""
    progress_files: list[dict[str, str | int]]
    """With ``--write-progress``: each student's file and how many attempts it holds."""


def simulate(lesson_id: str, students: int, profile: str, seed: int,
             lang: str = "en") -> Report:
    """Play ``lesson_id`` with ``students`` simulated students of ``profile``; the summary
    the command prints as JSON (see the module docstring)."""
    lesson = load_lesson(lesson_id, lang)
    make = learner(profile, lang)
    runs = []
    focus: frozenset[str] = frozenset()
    for k in range(students):
        run, focus = simulate_one(lesson, make, student_seed(seed, k), lang)
        runs.append(run)
    total = sum(len(r.questions) for r in runs)
    skills: dict[str, SkillReport] = {}
    for skill in SKILLS:
        firsts = [ok for r in runs for q, ok in r.questions if q.skill == skill]
        if not firsts and skill not in focus:
            continue
        to_mastery = [r.mastered_after[skill] for r in runs if skill in r.mastered_after]
        skills[skill] = {
            "target": skill in focus,
            "questions": len(firsts),
            "share": round(len(firsts) / total, 4) if total else 0.0,
            "first_try_accuracy": round(sum(firsts) / len(firsts), 4) if firsts else None,
            "final_mastery": round(statistics.mean(r.final[skill] for r in runs), 4),
            "mastered_share": round(sum(r.mastered[skill] for r in runs) / len(runs), 4),
            "questions_to_mastery": statistics.median(to_mastery) if to_mastery else None,
            "mastered_while_wrong": _share(
                sum(r.mastered[skill] and not r.knows[skill] for r in runs),
                sum(r.mastered[skill] for r in runs)),
            "mastered_when_unknown": _share(
                sum(r.mastered[skill] and not r.knows[skill] for r in runs),
                sum(not r.knows[skill] for r in runs)),
        }
    kinds: Counter[str] = Counter()
    for r in runs:
        for q, _ok in r.questions:
            kinds["T" if q.step == "T" else q.context.rule] += 1
    out: Report = {
        "lesson": lesson.id, "profile": profile, "students": students, "seed": seed,
        "questions": total,
        "questions_per_student": round(total / students, 2) if students else 0,
        "target_questions_per_student": round(
            sum(q.skill in focus for r in runs for q, _ in r.questions) / students, 2)
        if students else 0,
        "tiles_placed_per_student": round(sum(r.tiles_placed for r in runs) / students, 2)
        if students else 0,
        "rounds_per_student": round(sum(r.rounds for r in runs) / students, 2)
        if students else 0,
        "uncounted_replies_per_student": round(sum(a.uncounted for r in runs
                                                   for a in r.replies) / students, 2)
        if students else 0,
        "target_share": round(sum(q.skill in focus for r in runs for q, _ in r.questions)
                              / total, 4) if total else 0.0,
        "non_arithmetic_share": round(sum(not q.arithmetic for r in runs
                                          for q, _ in r.questions) / total, 4) if total
        else 0.0,
        "all_targets_mastered_share": round(sum(all(r.mastered[s] for s in focus)
                                                for r in runs) / len(runs), 4)
        if runs else 0.0,
        "lesson_targets": sorted(lesson.targets),
        "rounds": lesson.rounds,
        "skills": skills,
        "kinds": dict(sorted(kinds.items())),
    }
    if profile.startswith("slips:"):
        typos = [named for r in runs for named in r.typos]
        out["typos"] = {"named": sum(typos), "of": len(typos)}
    if profile.startswith(("mistake:", "scaffold:")):
        shown = [x for r in runs for x in r.shown]
        by_rule: dict[str, dict[str, int]] = {}
        for rule, named in shown:
            row = by_rule.setdefault(rule, {"named": 0, "of": 0})
            row["named"] += named
            row["of"] += 1
        out["diagnosis"] = {"named": sum(n for _, n in shown), "of": len(shown),
                            "by_rule": dict(sorted(by_rule.items()))}
    return out


# --- progress files of simulated students, for trying the teacher page (issue 33, part 6) ---

NAME_PREFIX = "sim"
"""The default start of the simulated students' names: ``sim-01``, ``sim-02`` …"""
_PREFIX = re.compile(r"[^\W_][\w.-]{0,39}")


class ProgressFilesError(TranslatableError):
    """Simulated students' progress files cannot be written where or as asked (nothing was
    simulated)."""


def student_names(count: int, prefix: str = NAME_PREFIX, lang: str = "en") -> list[str]:
    """The names of ``count`` simulated students: ``prefix-01`` … (as many digits as the
    largest number needs, at least two), so each file is one student's and they sort in
    order. A ``prefix`` that is not 1 to 40 letters, digits, ``.``, ``-`` or ``_`` (starting
    with a letter or a digit) raises :class:`ProgressFilesError` in ``lang``."""
    if not _PREFIX.fullmatch(prefix):
        raise ProgressFilesError(
            N_("The name prefix {prefix} cannot start a student's name and a file name: use "
               "1 to 40 letters, digits, dots, dashes or underscores, starting with a letter "
               "or a digit."), prefix=repr(prefix), lang=lang)
    width = max(2, len(str(count)))
    return [f"{prefix}-{k:0{width}d}" for k in range(1, count + 1)]


def progress_folder(folder: str | os.PathLike[str], lang: str = "en") -> Path:
    """``folder`` made ready for progress files (created if missing); a
    :class:`ProgressFilesError` in ``lang`` if it is a file or cannot be created or written
    in."""
    path = Path(folder).expanduser()
    if path.exists() and not path.is_dir():
        raise ProgressFilesError(N_("{folder} is a file, not a folder: give a folder for the "
                                    "progress files."), folder=str(path), lang=lang)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ProgressFilesError(N_("Cannot create the folder {folder}: {error}."),
                                 folder=str(path), error=err.strerror or str(err),
                                 lang=lang) from err
    try:  # writing is the only sure test (permissions, a read-only disk, root's rights)
        with tempfile.NamedTemporaryFile(dir=path, prefix=".leonard-", suffix=".tmp"):
            pass
    except OSError as err:
        raise ProgressFilesError(N_("Cannot write in the folder {folder}: {error}."),
                                 folder=str(path), error=err.strerror or str(err),
                                 lang=lang) from err
    return path


@dataclass(frozen=True)
class ProgressFile:
    """One simulated student's progress file."""

    student: str
    path: Path
    attempts: int
    """Rows written: every answer, hint and shown answer the tutor recorded."""


def write_progress(lesson_id: str, students: int, profile: str, seed: int,
                   folder: str | os.PathLike[str], *, lang: str = "en",
                   prefix: str = NAME_PREFIX,
                   clock: Callable[[], datetime] | None = None) -> list[ProgressFile]:
    """Play the same ``students`` simulated students as :func:`simulate` (same lesson,
    profile and seed) with the tutor recording their attempts, named by
    :func:`student_names`, in a temporary progress store; then write each student's
    attempts to ``folder`` as the CSV "Download my progress" gives a student
    (:meth:`tutor.storage.store.Store.export_csv`, named by
    :func:`tutor.storage.store_files.progress_file_name`). The teacher page merges these files as
    its students' (:func:`tutor.classroom.overview.merge_files`). A file of the same name is
    replaced. ``clock``: the time the attempts carry (default: the real time).

    The folder and the names are checked before anything is played
    (:class:`ProgressFilesError`); an unknown lesson or profile raises as :func:`simulate`.
    """
    names = student_names(students, prefix, lang)
    out_dir = progress_folder(folder, lang)
    lesson = load_lesson(lesson_id, lang)
    make = learner(profile, lang)
    files = []
    with tempfile.TemporaryDirectory(prefix="leonard-sim-") as tmp:
        store = Store(Path(tmp) / "progress.sqlite", lang=lang)
        try:
            for k, name in enumerate(names):
                simulate_one(lesson, make, student_seed(seed, k), lang, store=store, name=name,
                             clock=clock)
                path = out_dir / progress_file_name(name)
                try:
                    rows = store.export_csv(path, student=name)
                except OSError as err:
                    raise ProgressFilesError(N_("Cannot write {file}: {error}."),
                                             file=str(path), error=err.strerror or str(err),
                                             lang=lang) from err
                files.append(ProgressFile(name, path, rows))
        finally:
            store.close()
    return files
