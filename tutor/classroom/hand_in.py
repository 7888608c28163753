"""A progress file handed in, checked before anything of it counts: the teacher page's upload
(:func:`tutor.classroom.overview.merge_files`), a student loading their own file on the
lessons page (:func:`~tutor.classroom.overview.merge_student_files`) and ``python -m tutor
import`` all run :func:`seal_refusal`, then :func:`replay_refusal`, and a file either finds
fault with is **refused whole**: nothing of it is merged, so no student's mastery changes,
and one line names the file, the first lines at fault and what is wrong with them.

1. **The seal** (:mod:`tutor.storage.seal`). A file whose seal is broken was changed after the
   tutor wrote it (a spreadsheet edit: INCORRECT made CORRECT, a scaffold tag taken out, the
   name changed to another student's, rows removed or moved). A file with no seal at all
   (the column removed, a tutor older than the seal, a DataShop export) cannot be told from
   one edited and its seal column dropped, so it is refused too; a teacher who trusts such a
   file loads it with ``python -m tutor import --unsealed FILE`` (its rows are still checked
   as below). The lessons page never loads one: a student could otherwise load an edited
   file and download it again, sealed.
2. **The tutor's own replay** (:func:`replay_misfits`): rows the tutor could not have written,
   whoever sealed them (on Binder a student can run Python, so a seal proves less than it
   seems: the teacher guide says what). Each check is one the tutor's own code guarantees,
   so an honest file never fails it:

   * the answer typed reads (:func:`tutor.teaching.answers.read_answer`) as the number
     recorded, a right answer is the question's answer and a wrong one is not, with the
     feedback the tutor gives each (``correct`` only for a right one);
   * one question has one expected answer, its attempts are numbered from 1 with no gap
     and end with the first right answer (or the answer shown), and where the file holds T
     for a power play, the points of the play are the engine's for that tile and T
     (:func:`engine.rules.effect_from_total`);
   * a scaffold tag fits the lesson: ``blanks`` only in a lesson with that scaffold (or
     in a game opened from an assignment, which may turn scaffolds on), and ``T`` exactly
     on the steps of a play whose T was asked first in that session;
   * a session plays one lesson and asks one question at a time: a question shown before
     the one before it was over overlaps it (two sessions of one student may overlap:
     two tabs open at once);
   * an answer is not there twice with its time or session moved (shifted-time duplicates,
     in the file or against the answers already loaded for that student): the same
     question, answer and hints with the same seconds to answer, measured finer than a
     millisecond, is not given twice (on a clock that ticks coarser, two or more answers
     moved by the same time are);
   * a row's time is not later than now (:data:`FUTURE_SLACK`, or a day for a file: a
     student's own computer's clock may be set wrong);
   * the question is one the lesson's game can deal: a power play's tile is one of the
     game's tiles.

The class's store service (:mod:`tutor.hub.store_service`) runs the same replay on each
answer a page sends (:func:`stored_misfits`), in the context of the student's answers
already stored: the question's earlier attempts, the session's earlier questions.

Names are compared by :func:`tutor.storage.names.name_key` ("José" typed as NFC or NFD, or
"JOSÉ", is one student).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from functools import lru_cache
from typing import Literal

from engine.rules import RulesError, effect_from_total, effect_rule, number_half, variant
from engine.tiles import Tile, TileError, TileSet, parse_tile
from tutor.classroom.played_games import SentGames, game_misfits
from tutor.course.lessons import LessonError, load_lesson
from tutor.i18n import N_, Message, ngettext, translator
from tutor.storage.names import name_key
from tutor.storage.records import Attempt, Outcome, session_assignment
from tutor.storage.seal import Break
from tutor.storage.store_files import ProgressRows
from tutor.teaching.answers import AnswerError, read_answer
from tutor.teaching.asking import LONGEST_WAIT
from tutor.teaching.evidence import parse_step

__all__ = ["CLOCK_DRIFT", "CLOCK_SLACK", "FILE_CLOCK_SLACK", "FUTURE_SLACK", "Audience",
           "Misfit", "replay_misfits", "replay_refusal", "scaffolds_of", "seal_refusal",
           "stored_misfits"]

Audience = Literal["teacher", "student"]
"""Who reads the refusal: the teacher (the teacher page, ``import``) or the student (the
lessons page), told what to do in their own words."""

_ANSWER_LANGS = ("es", "en")
"""The languages an answer may have been read in (a row does not say which)."""
_SHOWN = 3
"""Lines named in a refusal; the rest are counted."""
CLOCK_SLACK = 1.0
"""Seconds two clocks of one computer may disagree by within a session: a row's time comes
from the wall clock, its seconds to answer from the monotonic clock (NTP slews the wall clock
by at most 0.5 ms per second, allowed for twice in :data:`CLOCK_DRIFT`, and a clock set while
the lesson ran moves it at once)."""
CLOCK_DRIFT = 0.001
"""The share of a question's seconds to answer the two clocks may drift apart over it."""
FUTURE_SLACK = timedelta(minutes=5)
"""How far a row's time may be ahead of the clock that checks it, for the store service: the
page's kernel and the service run on one class server, so their clocks agree but for a clock
being set (NTP) and the moment the answer takes to arrive; a few minutes is far more."""
FILE_CLOCK_SLACK = timedelta(days=1)
"""The same for a file handed in: it was written on the student's own computer, whose clock
may be set wrong by hours (a time zone chosen wrong moves it); a row a day or more ahead
is not a clock's error."""
_TILE = re.compile(r"(?:^|-)((?:[0-9]+|[x+\-])/(?:[0-9]+|[x+\-]))$")
"""A power play's tile at the end of its problem id (``m1r2t5-5/x``, ``m1r1-drill1-0--/6``)."""


@dataclass(frozen=True)
class Misfit:
    """A row the tutor could not have written, and why."""

    line: int
    problem: Message


def seal_refusal(file: str, rows: ProgressRows, audience: Audience, lang: str,
                 allow_unsealed: bool = False) -> str | None:
    """The line refusing ``file`` for its seal (broken, or none and ``allow_unsealed`` not
    given), or None."""
    _ = translator(lang)
    if rows.seal.intact or not rows.attempts:
        return None  # a file of no rows adds nothing
    if not rows.seal.sealed:
        if allow_unsealed:
            return None
        text = _(N_("{file} has no seal: it is a DataShop export, a file saved by a tutor "
                    "older than the seal, or one whose seal column was removed, and such a "
                    "file cannot be told from an edited one. Nothing of it was loaded."))
        advice = (N_("If you trust it, load it with: python -m tutor import --unsealed FILE.")
                  if audience == "teacher"
                  else N_("Hand it to your teacher, who can load it if they trust it."))
        return text.format(file=file) + " " + _(advice)
    where = _seal_breaks(rows.seal.breaks, lang)
    text = _(N_("{file} was changed after the tutor saved it: {where}. Nothing of it was "
                "loaded.")).format(file=file, where=where)
    advice = (N_("Ask the student for the file exactly as “Download my progress” gave it (a "
                 "file opened and saved again in a spreadsheet changes too).")
              if audience == "teacher"
              else N_("Load the file exactly as “Download my progress” gave it (a file opened "
                      "and saved again in a spreadsheet changes too)."))
    return text + " " + _(advice)


def _seal_breaks(breaks: Sequence[Break], lang: str) -> str:
    _ = translator(lang)
    said = {
        "changed": N_("line {line} is not the row the tutor wrote there (changed, or rows "
                      "before it removed or moved)"),
        "ends_early": N_("the tutor wrote more rows after line {line}: they were removed"),
        "goes_on": N_("the tutor's file ended at line {line}: the rows after it were added"),
    }
    parts = [_(said[b.kind]).format(line=b.line) for b in breaks[:_SHOWN]]
    return "; ".join(parts) + _more(len(breaks) - _SHOWN, lang)


def _more(rest: int, lang: str) -> str:
    if rest <= 0:
        return ""
    return ngettext("; and {n} more line", "; and {n} more lines", rest, lang).format(n=rest)


def replay_refusal(file: str, rows: ProgressRows, lang: str,
                   earlier: Sequence[Attempt] = ()) -> str | None:
    """The line refusing ``file`` (read into ``rows``) for rows that do not fit the tutor's
    replay (:func:`replay_misfits`), or None. ``earlier``: the answers already loaded for the
    file's students (:func:`tutor.classroom.overview.loaded_answers`)."""
    misfits = replay_misfits(rows.attempts, rows.lines, earlier=earlier,
                             answers=not rows.datashop,
                             latest=datetime.now(timezone.utc) + FILE_CLOCK_SLACK)
    if not misfits:
        return None
    _ = translator(lang)
    first: dict[int, Message] = {}
    for m in misfits:
        first.setdefault(m.line, m.problem)  # each line once, with its likeliest problem
    where = "; ".join(_(N_("line {line}: {problem}")).format(line=line,
                                                             problem=problem.translate(lang))
                      for line, problem in list(first.items())[:_SHOWN])
    return _(N_("{file} holds answers the tutor did not record so ({where}). Nothing of it was "
                "loaded.")).format(file=file, where=where + _more(len(first) - _SHOWN, lang))


# -- the replay ---------------------------------------------------------------------------------

def replay_misfits(attempts: Sequence[Attempt], lines: Sequence[int], *,
                   earlier: Sequence[Attempt] = (),
                   scaffolds: Callable[[str], frozenset[str] | None] | None = None,
                   answers: bool = True, latest: datetime | None = None,
                   judge_from: int | None = None,
                   games: SentGames | None = None) -> list[Misfit]:
    """The rows of a file (``attempts``, each ending on its line of ``lines``) that the
    tutor could not have written, each with why, in line order (a line may have several;
    the likeliest explanation first).

    ``earlier``: the answers already loaded for these students (checked for copies of the
    file's). ``scaffolds(lesson_id)``: a lesson's scaffolds, None for a lesson not installed
    here (default: the lessons folders'). ``answers``: the rows carry the expected and
    answered values (a DataShop export's do not). ``latest``: the latest time a row may
    carry (now and a clock's slack; None: not checked). ``judge_from``: the rows on lines
    before it are the context of the others (answers already stored): each is not checked
    on its own, and no misfit of theirs is given. ``games``: the records of the games a
    page sent with its answers (the store service): each answer about a move must be about
    that game's move (:func:`tutor.classroom.played_games.game_misfits`; None: a file, which
    carries no game record)."""
    rows = list(zip(lines, attempts, strict=True))
    found: list[Misfit] = []

    def note(line: int, problem: Message) -> None:
        if judge_from is None or line >= judge_from:
            found.append(Misfit(line, problem))

    judged = rows if judge_from is None else [r for r in rows if r[0] >= judge_from]
    for line, a in judged:
        for problem in _row_misfits(a, answers):
            note(line, problem)
        if latest is not None and _when(a) > latest:
            note(line, Message(N_("its time, {time}, is later than now"), time=a.time))
    _deal_misfits(judged, note)
    if games is not None:
        game_misfits(judged, games, note)

    def wanted(group: Sequence[_Row]) -> bool:  # a group with a row judged
        return judge_from is None or any(line >= judge_from for line, _ in group)

    _duplicates(rows, earlier, note)  # first: a copy explains what the others find in it
    _question_misfits(rows, note, wanted)
    _tag_misfits(rows, scaffolds or _lesson_scaffolds(), note, wanted)
    _session_misfits(rows, note)
    return sorted(found, key=lambda m: m.line)  # stable: a line's problems in that order


def _row_misfits(a: Attempt, answers: bool) -> Iterable[Message]:
    """What one row says against itself: its answer, outcome, feedback and numbering
    (``answers``: the row carries the expected and answered values)."""
    if a.first_attempt != (a.attempt_at_step == 1):
        yield Message(N_("it is attempt {n} at its question but marked {first}"),
                      n=a.attempt_at_step,
                      first=Message(N_("a first attempt") if a.first_attempt
                                    else N_("not a first attempt")))
    if not answers or a.outcome not in (Outcome.CORRECT, Outcome.INCORRECT):
        return
    if a.answered is None:
        yield Message(N_("it is marked {outcome} with no answer recorded"),
                      outcome=a.outcome.value)
        return
    readings = set()
    for lang in _ANSWER_LANGS:
        try:
            reading = read_answer(a.input, lang)
        except AnswerError:
            continue
        if not reading.working:
            readings.add(reading.value)
    if a.answered not in readings:
        if not readings:
            yield Message(N_("the answer typed, {input}, is not a number, yet {answered} was "
                             "recorded"), input=repr(a.input), answered=a.answered)
        else:
            yield Message(N_("the answer typed, {input}, is {value}, not the {answered} "
                             "recorded"), input=repr(a.input),
                          value=min(readings), answered=a.answered)
        return
    if a.expected is None:
        return
    right = abs(a.answered) == abs(a.expected)  # a loss may be written 15 or -15
    if a.outcome is Outcome.CORRECT and not right:
        yield Message(N_("the answer {answered} is marked CORRECT, but the question's answer "
                         "is {expected}"), answered=a.answered, expected=a.expected)
    elif a.outcome is Outcome.INCORRECT and a.answered == a.expected:
        yield Message(N_("the answer {answered} is marked INCORRECT, but it is the question's "
                         "answer"), answered=a.answered)
    elif (a.outcome is Outcome.CORRECT) != (a.feedback == "correct"):
        yield Message(N_("it is marked {outcome}, but its feedback is {feedback}"),
                      outcome=a.outcome.value, feedback=repr(a.feedback))


_name_key = lru_cache(maxsize=1024)(name_key)
"""The key of a student's name, worked out once per name (a replay asks it of every row)."""
_parse_step = lru_cache(maxsize=16_384)(parse_step)
"""A step's name read once (a replay reads each row's several times)."""
_Note = Callable[[int, Message], None]
_Row = tuple[int, Attempt]


def _group(rows: Iterable[_Row], key: Callable[[Attempt], object]) -> dict[object, list[_Row]]:
    out: dict[object, list[_Row]] = defaultdict(list)
    for row in rows:
        out[key(row[1])].append(row)
    return out


def _question_misfits(rows: Sequence[_Row], note: _Note,
                      wanted: Callable[[Sequence[_Row]], bool]) -> None:
    """One question (a student's step of a problem in a session): one expected answer,
    attempts numbered from 1 with no gap, and none after the question was over (answered
    right, or its answer shown)."""
    questions = _group(rows, lambda a: (_name_key(a.student), a.session, a.problem, a.step))
    for question in filter(wanted, questions.values()):
        first = next(((line, a) for line, a in question if a.expected is not None), None)
        for line, a in question:
            if first is not None and a.expected is not None and a.expected != first[1].expected:
                note(line, Message(N_("its question's answer is {expected} here, but {other} "
                                      "at line {at}, for the same question"),
                                   expected=a.expected, other=first[1].expected, at=first[0]))
        numbers = {a.attempt_at_step for _, a in question}
        missing = min(set(range(1, max(numbers) + 1)) - numbers, default=None)
        if missing is not None:
            line = min(line for line, a in question if a.attempt_at_step > missing)
            note(line, Message(N_("attempt {n} at its question is missing"), n=missing))
        over = min(((_when(a), line) for line, a in question
                    if a.outcome in (Outcome.CORRECT, Outcome.GIVEUP)), default=None)
        if over is not None:
            for line, a in question:
                if _when(a) > over[0]:
                    note(line, Message(N_("its question was over at line {at} (answered right, "
                                          "or its answer shown), yet it goes on here"),
                                       at=over[1]))


def _play_tile(problem: str) -> Tile | None:
    """The power tile a power play's problem id ends with (None: not a power play)."""
    found = _TILE.search(problem)
    if found is None:
        return None
    try:
        tile = parse_tile(found[1])
    except TileError:
        return None
    return tile if tile.is_power else None


def _tag_misfits(rows: Sequence[_Row], scaffolds: Callable[[str], frozenset[str] | None],
                 note: _Note, wanted: Callable[[Sequence[_Row]], bool]) -> None:
    """Scaffold tags against the lesson and the session, and a play's points against its T."""
    plays = _group(rows, lambda a: (_name_key(a.student), a.session, a.problem))
    for play in filter(wanted, plays.values()):
        t_rows = [(line, a) for line, a in play if _parse_step(a.step)[0] == "T"]
        for line, a in play:
            step, tags, _trivial = _parse_step(a.step)
            lesson = scaffolds(a.lesson)
            # An assignment may turn a lesson's scaffolds on (issue 45): its games' sessions
            # carry its id, and the blanks its lesson alone would not use are the tutor's.
            if "blanks" in tags and lesson is not None and "blanks" not in lesson \
                    and session_assignment(a.session) is None:
                note(line, Message(N_("the step {step} shows the formula with blanks, which "
                                      "lesson {lesson} does not use"),
                                   step=repr(a.step), lesson=a.lesson))
            if step == "T":
                continue
            if "T" in tags and not t_rows:
                note(line, Message(N_("the step {step} says T was asked first, but no answer "
                                      "to T of {problem} is in its session"),
                                   step=repr(a.step), problem=repr(a.problem)))
            elif "T" not in tags and t_rows:
                note(line, Message(N_("T of {problem} was asked first (line {at}), but the step "
                                      "{step} does not say so: its scaffold tag was removed"),
                                   problem=repr(a.problem), at=t_rows[0][0],
                                   step=repr(a.step)))
        _points_misfits(play, t_rows, note)


def _points_misfits(play: Sequence[_Row], t_rows: Sequence[_Row], note: _Note) -> None:
    """A power play whose T is in the file: its points are the engine's for the tile and T."""
    t_values = {a.expected for _, a in t_rows if a.expected is not None}
    tile = _play_tile(play[0][1].problem)
    if len(t_values) != 1 or tile is None:
        return  # no T to work from (or two: the questions' check names them)
    t = t_values.pop()
    gain, loss = effect_from_total(effect_rule(tile), number_half(tile), t)
    for line, a in play:
        step = _parse_step(a.step)[0]
        right = {"gain": gain, "loss": loss}.get(step)
        if right is not None and a.expected is not None and a.expected != right:
            note(line, Message(N_("the question's answer is {expected}, but {tile} played with "
                                  "T = {t} (line {at}) gives {right}"),
                               expected=a.expected, tile=str(tile), t=t, at=t_rows[0][0],
                               right=right))


_GAMES: dict[str, TileSet | None] = {}
"""Each lesson's game's tiles by lesson id, read once."""


def _game_tiles(lesson_id: str) -> TileSet | None:
    """The tiles of lesson ``lesson_id``'s game (None: no such lesson here, nothing to check
    against)."""
    if lesson_id not in _GAMES:
        try:
            _GAMES[lesson_id] = variant(load_lesson(lesson_id).variant).tileset
        except (LessonError, RulesError):
            return None  # not installed here (yet): looked for again next time
    return _GAMES[lesson_id]


def _deal_misfits(rows: Sequence[_Row], note: _Note) -> None:
    """Questions the lesson's game cannot deal: a play whose tile (at the end of its problem
    id) is not one of the game's tiles (a play's points are checked against its T by
    :func:`_points_misfits`)."""
    for line, a in rows:
        found = _TILE.search(a.problem)
        tiles = None if found is None else _game_tiles(a.lesson)
        if found is None or tiles is None:
            continue
        try:
            tiles.parse(found[1])
        except TileError:
            note(line, Message(N_("the tile {tile} of its question is not a tile of lesson "
                                  "{lesson}'s game"), tile=found[1], lesson=a.lesson))


def _when(a: Attempt) -> datetime:
    return datetime.fromisoformat(a.time.replace("Z", "+00:00"))


def _session_misfits(rows: Sequence[_Row], note: _Note) -> None:
    """A session plays one lesson and asks one question at a time."""
    for session in _group(rows, lambda a: a.session).values():
        lesson_line, lesson = session[0][0], session[0][1].lesson
        for line, a in session:
            if a.lesson != lesson:
                note(line, Message(N_("its session plays lesson {lesson} here but {other} at "
                                      "line {at}: a session plays one lesson"),
                                   lesson=a.lesson, other=lesson, at=lesson_line))
        spans = []
        for question in _group(session, lambda a: (_name_key(a.student), a.problem,
                                                   a.step)).values():
            ends = [_when(a).timestamp() for _, a in question]
            shown = min(end - a.duration for end, (_, a) in zip(ends, question, strict=True))
            longest = max(a.duration for _, a in question)
            spans.append((shown, max(ends), longest, min(line for line, _ in question)))
        spans.sort()
        over_at, over_line = float("-inf"), 0
        for shown, end, longest, line in spans:
            if shown < over_at - CLOCK_SLACK - CLOCK_DRIFT * min(longest, LONGEST_WAIT):
                note(line, Message(N_("its question was shown before the question at line "
                                      "{at} was over, in the same session: a session asks "
                                      "one question at a time"), at=over_line))
            if end > over_at:
                over_at, over_line = end, line


_Content = tuple[object, ...]


def _content(a: Attempt) -> _Content:
    """What an answer is, leaving out when and in which session it was given."""
    return (_name_key(a.student), a.problem, a.step, a.outcome, a.input, a.feedback, a.kc,
            a.attempt_at_step, a.hints, a.duration, a.expected, a.answered)


def _fine(seconds: float) -> bool:
    """Seconds measured finer than a millisecond (a clock that ticks coarser, as some do,
    could give two answers the same seconds)."""
    return abs(seconds * 1000 - round(seconds * 1000)) > 1e-6


def _duplicates(rows: Sequence[_Row], earlier: Sequence[Attempt], note: _Note) -> None:
    """Answers given again with their time or session moved: the same content (question,
    answer, hints, the same seconds to answer) at another time or in another session. One
    such row is a copy when its seconds are measured finer than a millisecond; rows whose
    seconds are coarser are copies when two or more were moved by the same time."""
    seen: dict[_Content, tuple[int | None, Attempt]] = {}
    for a in earlier:
        seen.setdefault(_content(a), (None, a))
    moved: dict[tuple[str, str, timedelta], list[tuple[int, int | None, Attempt]]] = (
        defaultdict(list))
    for line, a in rows:
        if a.duration >= LONGEST_WAIT:
            continue  # a day or more: every such wait is recorded as one day
        first = seen.setdefault(_content(a), (line, a))
        other = first[1]
        if first[0] == line or (other.session == a.session and other.time == a.time):
            continue  # itself, or the very same row again (a merge skips it)
        moved[(other.session, a.session, _when(a) - _when(other))].append(
            (line, first[0], other))
    for copies in moved.values():
        for line, at, other in copies:
            if len(copies) < 2 and not _fine(other.duration):
                continue
            if at is None:
                note(line, Message(N_("the same answer, with the same seconds to answer, as one "
                                      "already loaded (given at {time}), again with its time "
                                      "or session moved"), time=other.time))
            else:
                note(line, Message(N_("the same answer, with the same seconds to answer, as at "
                                      "line {at}, again with its time or session moved"), at=at))


def stored_misfits(sent: Sequence[Attempt], stored: Sequence[Attempt], *,
                   now: datetime, games: SentGames | None = None) -> list[Misfit]:
    """The answers a page ``sent`` that the tutor could not have recorded, judged as
    :func:`replay_misfits` judges a file's, in the context of the student's answers already
    ``stored`` (oldest first): those of the sent rows' sessions go before them in the replay
    (a question's attempt 2 follows its stored attempt 1; a question shown while a stored
    one was open overlaps it), the others are checked for copies. A row sent again that is
    stored already (a reply lost on the way back) fits. Lines count the sessions' stored
    answers first (1 to their number), then the sent ones; each misfit is of a sent row.
    ``now``: the checking clock's time (a row later than it by more than
    :data:`FUTURE_SLACK` is refused). ``games``: as :func:`replay_misfits`'s."""
    sessions = {a.session for a in sent}
    before = [a for a in stored if a.session in sessions]
    others = [a for a in stored if a.session not in sessions]
    rows = [*before, *sent]
    return replay_misfits(rows, range(1, len(rows) + 1), earlier=others,
                          latest=now + FUTURE_SLACK, judge_from=len(before) + 1,
                          games=games)


def _lesson_scaffolds() -> Callable[[str], frozenset[str] | None]:
    """Each lesson's scaffolds by id, read once when first asked (None: no such lesson here,
    or a broken file: nothing to check against)."""
    known: dict[str, frozenset[str] | None] = {}

    def scaffolds(lesson_id: str) -> frozenset[str] | None:
        if lesson_id not in known:
            try:
                known[lesson_id] = load_lesson(lesson_id).scaffold
            except LessonError:
                known[lesson_id] = None
        return known[lesson_id]

    return scaffolds


def scaffolds_of(lessons: Mapping[str, frozenset[str]]) -> Callable[[str], frozenset[str] | None]:
    """:func:`replay_misfits`'s ``scaffolds`` from a mapping (lessons not installed)."""
    return lessons.get
