"""Teacher commands: ``python -m tutor export``, ``import`` and ``report`` (``fit-bkt``:
:mod:`tutor.commands.fit_bkt`).

The report is rebuilt from the attempts themselves (each question's first answer, replayed
through the lesson's knowledge tracing: :func:`tutor.teaching.replay.rebuild_mastery`), so it reads
the same in the student's progress file and in a teacher's file that imported it.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from tutor.classroom.hand_in import replay_refusal, seal_refusal
from tutor.classroom.identity import hub_user, is_teacher
from tutor.classroom.overview import loaded_answers
from tutor.commands.printed import decimal, say, text_table
from tutor.course.lessons import lesson_params
from tutor.i18n import N_, ngettext, normalize_lang, translate_error, translator, visible
from tutor.storage.progress_store import ProgressStore
from tutor.storage.records import Attempt, StoreError
from tutor.storage.store import default_location, is_database_address, open_store
from tutor.storage.store_files import read_progress
from tutor.teaching.counts import student_counts
from tutor.teaching.mastery import SKILL_NAMES, STREAK_TO_MASTER, default_params
from tutor.teaching.replay import first_answer_evidence, rebuild_mastery

__all__ = ["COMMANDS", "Subcommands", "add_commands", "first_answer_evidence", "lesson_params",
           "rebuild_mastery", "report_text", "run", "visible"]
# first_answer_evidence, lesson_params and rebuild_mastery live in tutor.teaching.replay (teaching:
# the pages use them and must not import this command-line module), visible in tutor.i18n;
# they are named here too, for callers of this module.

class Subcommands(Protocol):
    """``python -m tutor``'s subcommands (what ``ArgumentParser.add_subparsers`` returns,
    with the tutor's parser class, which takes the messages' language)."""

    def add_parser(self, name: str, *, lang: str, help: str, description: str
                   ) -> argparse.ArgumentParser: ...


COMMANDS = ("export", "import", "report")
_DATASHOP_SUFFIXES = (".tsv", ".txt")


def add_commands(sub: Subcommands, lang: str) -> None:
    """Add the teacher commands to the ``python -m tutor`` subparsers ``sub``."""
    _ = translator(lang)
    lang_help = _(N_("language of the messages: es or en (default: the system's, else es)"))
    db_help = _(N_("progress file (SQLite) or postgresql:// address; default: "
                   "$LEONARD_TUTOR_DB, else "
                   "~/.local/share/leonard-domino-tutor/progress.sqlite3"))

    export = sub.add_parser(
        "export", lang=lang, help=_(N_("write the students' attempts to a CSV or DataShop file")),
        description=_(N_("Write the attempts in the progress file to FILE, as CSV (for a "
                         "spreadsheet) or as a tab-separated DataShop file.")))
    export.add_argument("file", metavar=_(N_("FILE")), help=_(N_("the file to write")))
    export.add_argument("--format", choices=("csv", "datashop"), default=None,
                        help=_(N_("file format (default: datashop for .tsv and .txt files, "
                                  "else csv)")))
    export.add_argument("--student", metavar=_(N_("NAME")), default=None,
                        help=_(N_("only this student's attempts")))

    imp = sub.add_parser(
        "import", lang=lang, help=_(N_("add the attempts of an exported file")),
        description=_(N_("Add the attempts of a CSV or DataShop export (for example one "
                         "handed in from Binder) to the progress file. Attempts already "
                         "there are skipped, so importing a file twice adds nothing. A file "
                         "changed after the tutor wrote it (its seal broken), one without a "
                         "seal, and one holding answers the tutor could not have recorded "
                         "are refused whole, as on the teacher page.")))
    imp.add_argument("file", metavar=_(N_("FILE")), help=_(N_("the file to import")))
    imp.add_argument("--unsealed", action="store_true",
                     help=_(N_("also load a file without a seal (a DataShop export, or a file "
                               "saved by a tutor older than the seal) if you trust it; its "
                               "answers are still checked, and a broken seal is still "
                               "refused")))

    report = sub.add_parser(
        "report", lang=lang, help=_(N_("show each student's results per skill")),
        description=_(N_("Show, for each student and skill, the questions asked, the right "
                          "first answers, the hints, the time to answer and the mastery.")))
    report.add_argument("--student", metavar=_(N_("NAME")), default=None,
                        help=_(N_("only this student")))

    for p in (export, imp, report):
        p.add_argument("--db", metavar=_(N_("PATH")), default=None, help=db_help)
        p.add_argument("--lang", default=None, help=lang_help)


def command_lang(args: argparse.Namespace, default_lang: str) -> str | None:
    """The language of a command's messages (``--lang``, else ``default_lang``); None, with
    the reason printed, for a language the tutor does not speak."""
    try:
        return normalize_lang(args.lang) if args.lang is not None else default_lang
    except ValueError as err:
        say(str(err), error=True)
        return None


def run(args: argparse.Namespace, default_lang: str) -> int:
    """Run a teacher command; return the exit code (errors are one line on stderr)."""
    lang = command_lang(args, default_lang)
    if lang is None:
        return 2
    _ = translator(lang)
    if not is_teacher():
        say(_(N_("Only a teacher can read or change the class's progress here; {user} is "
                  "not one. (A teacher is a hub admin or someone named in "
                  "LEONARD_TEACHERS.)")).format(user=hub_user()), error=True)
        return 2
    try:
        location = (default_location(lang) if args.db is None
                    else args.db if is_database_address(args.db) else Path(args.db).expanduser())
    except StoreError as err:
        say(translate_error(err, lang), error=True)
        return 2
    path = location if isinstance(location, Path) else None
    if args.command != "import" and path is not None and not path.is_file():
        say(_(N_("There is no progress file at {path}.")).format(path=path), error=True)
        return 1
    try:
        if args.command == "import":
            # Every row is read and checked before the store is opened (or created), so a
            # bad file changes nothing.
            return _checked_import(Path(args.file), args.unsealed, location, lang)
        command = _export if args.command == "export" else _report
        with open_store(location, lang=lang) as store:
            return command(args, store, lang)
    except StoreError as err:  # also ProgressImportError: a file that is not an export
        say(translate_error(err, lang), error=True)
        return 2


def _check_student(store: ProgressStore, student: str | None, lang: str) -> bool:
    if student is None or student in store.students():
        return True
    _ = translator(lang)
    say(_(N_("There is no student {name} in {path}. The students are: {names}.")).format(
        name=repr(student), path=store.path, names=", ".join(store.students()) or "—"),
        error=True)
    return False


def _export(args: argparse.Namespace, store: ProgressStore, lang: str) -> int:
    _ = translator(lang)
    if not _check_student(store, args.student, lang):
        return 1
    path = Path(args.file)
    fmt = args.format or ("datashop" if path.suffix.lower() in _DATASHOP_SUFFIXES else "csv")
    try:
        if fmt == "datashop":
            written = store.export_datashop(path, args.student)
        else:
            written = store.export_csv(path, args.student)
    except OSError as err:
        say(_(N_("Cannot write {file}: {error}.")).format(
            file=path, error=err.strerror or err), error=True)
        return 1
    students = len({a.student for a in store.attempts(args.student)})
    say(ngettext("Wrote {attempts} attempt of {students} to {file}.",
                  "Wrote {attempts} attempts of {students} to {file}.", written, lang).format(
        attempts=written, file=path,
        students=ngettext("{n} student", "{n} students", students, lang).format(n=students)))
    return 0


def _checked_import(path: Path, unsealed: bool, location: str | Path, lang: str) -> int:
    """``import``: the file read and checked as the teacher page checks an upload
    (:mod:`tutor.classroom.hand_in`: its seal, then its rows, then its rows against the
    answers already in the store), then merged; a refused file is one line on stderr and
    exit code 2, and changes nothing."""
    progress = read_progress(path, lang)
    refusal = (seal_refusal(path.name, progress, "teacher", lang, allow_unsealed=unsealed)
               or replay_refusal(path.name, progress, lang))
    if refusal is None:
        with open_store(location, lang=lang) as store:
            earlier = loaded_answers(store, {a.student for a in progress.attempts})
            refusal = replay_refusal(path.name, progress, lang, earlier) if earlier else None
            if refusal is None:
                return _import(path, progress.attempts, store, lang)
    say(refusal, error=True)
    return 2


def _import(path: Path, rows: Sequence[Attempt], store: ProgressStore, lang: str) -> int:
    _ = translator(lang)
    added = store.merge(rows, from_file=True)
    known = len(rows) - added
    say(_(N_("{file}: {added}, {known}.")).format(
        file=path.name,
        added=ngettext("{n} new attempt added", "{n} new attempts added", added,
                       lang).format(n=added),
        known=ngettext("{n} was already there", "{n} were already there", known,
                       lang).format(n=known)))
    return 0


# -- the report ----------------------------------------------------------------------------

def report_text(store: ProgressStore, student: str | None = None, lang: str = "es") -> str:
    """The report of every student (or one), sorted by name, as plain text."""
    _ = translator(lang)
    names = sorted(store.students()) if student is None else [student]
    params = lesson_params()
    header = [_(N_("Skill")), _(N_("Asked")), _(N_("First try right")), _(N_("Hints")),
              _(N_("Shown the answer")), _(N_("Mean seconds")), _(N_("P(known)")),
              _(N_("Mastered")), _(N_("Still needed"))]
    out: list[str] = []
    for name in names:
        attempts = store.attempts(name)
        sessions = len({a.session for a in attempts})
        out.append(_(N_("{name} — {attempts} in {sessions}")).format(
            name=visible(name),
            attempts=ngettext("{n} attempt", "{n} attempts", len(attempts),
                              lang).format(n=len(attempts)),
            sessions=ngettext("{n} session", "{n} sessions", sessions, lang).format(n=sessions)))
        counts = student_counts(attempts, params, name)
        rows = []
        for c in counts.skills:
            right = ("" if not c.asked
                     else f" ({round(100 * c.first_try_right / c.asked)}%)")
            did = counts.for_skill(c.skill)
            rows.append([
                _(SKILL_NAMES[c.skill]), str(c.asked), f"{c.first_try_right}{right}",
                str(did.hints), str(did.revealed), decimal(c.mean_seconds, "0.0", lang),
                decimal(c.p_known, "0.00", lang), "✔" if c.mastered else "",
                "–" if c.mastered or c.to_master is None else str(c.to_master),
            ])
        if rows:
            out.extend("  " + line for line in text_table(header, rows))
        else:
            out.append("  " + _(N_("No question answered yet.")))
        out.append("")
    if not out:
        return _(N_("No student has played yet: the progress file {path} is empty.")).format(
            path=visible(store.path))
    out.append(_(N_("P(known): how likely the student knows the skill; ✔ means mastered "
                    "(at least {threshold}, and {streak} right first answers in a row with "
                    "no scaffold and no hint). First try right counts answers without "
                    "hints."))
               .format(threshold=decimal(default_params().mastery_threshold, "0.00", lang),
                       streak=STREAK_TO_MASTER))
    out.append(_(N_("Still needed: the right first answers in a row, with no scaffold and no "
                    "hint, that mastery still needs.")))
    return "\n".join(out)


def _report(args: argparse.Namespace, store: ProgressStore, lang: str) -> int:
    if not _check_student(store, args.student, lang):
        return 1
    print(report_text(store, args.student, lang))
    return 0
