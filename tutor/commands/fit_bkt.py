"""``python -m tutor fit-bkt``: knowledge-tracing parameters per skill, fitted from the
tutor's own exports or from another tutor's response log (a DataShop transaction export, or
a CSV/TSV table of student, skill and right/wrong), written where the tutor reads them.

The tutor's exports are judged by the live evidence rule (:func:`tutor.teaching.fitting.sequences`);
a log is streamed (:mod:`tutor.storage.response_logs`). Every skill is fitted, whatever its
label; the tutor's own skills go in ``skills`` of the parameters file, the others in
``other_skills``, which the tutor does not read.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Sequence
from pathlib import Path

from tutor.commands.printed import decimal, say, text_table
from tutor.commands.teacher import Subcommands, command_lang
from tutor.i18n import N_, ngettext, translate_error, translator
from tutor.storage.records import StoreError
from tutor.storage.response_logs import (
    ROLES,
    SKIP_REASONS,
    Columns,
    LogError,
    ResponseLog,
    log_kind,
    read_logs,
)
from tutor.storage.store_files import read_attempts
from tutor.teaching.fitting import (
    LOW,
    MIN_GAP,
    MIN_OBSERVATIONS,
    NUM_FITS,
    SkillFit,
    fit_enough,
    sequences,
)
from tutor.teaching.mastery import SKILLS

__all__ = ["add_fit_command", "fit_json", "run"]

_NAMES = ("p_init", "p_learn", "p_slip", "p_guess")
_MOST_FITS = 100
_LISTED = 10
"""Skills not fitted are listed one a line up to this many, then in one line."""


def add_fit_command(sub: Subcommands, lang: str) -> None:
    """Add ``fit-bkt`` to the ``python -m tutor`` subparsers ``sub``."""
    _ = translator(lang)
    lang_help = _(N_("language of the messages: es or en (default: the system's, else es)"))
    fit = sub.add_parser(
        "fit-bkt", lang=lang, help=_(N_("fit the knowledge-tracing parameters of each skill")),
        description=_(N_("Fit p_init, p_learn, p_slip and p_guess of each skill (by "
                         "expectation-maximisation, from several starting points) to the "
                         "first answers in the tutor's CSV or DataShop exports, in DataShop "
                         "transaction exports, or in a CSV or TSV table with a student, a "
                         "skill and a right/wrong column (found by their names, or named "
                         "with the options below). Prints them with the log-likelihood and "
                         "the number of students and answers, and what was left out. "
                         "--write-params writes them where the tutor reads them "
                         "(LEONARD_BKT_PARAMS, or a lesson's mastery setting).")))
    fit.add_argument("files", nargs="+", metavar=_(N_("FILE")),
                     help=_(N_("the tutor's exports, DataShop exports or CSV/TSV tables")))
    fit.add_argument("--json", action="store_true", help=_(N_("print JSON")))
    fit.add_argument("--write-params", metavar=_(N_("FILE")), default=None,
                     help=_(N_("write the parameters to FILE, for LEONARD_BKT_PARAMS or a "
                               "lesson's mastery setting (skills the tutor does not know go "
                               "under other_skills)")))
    fit.add_argument("--forgets", action="store_true",
                     help=_(N_("also fit forgetting (p_forget, as pyBKT's forgets); the "
                               "tutor does not forget, so such a fit is printed, not written")))
    fit.add_argument("--num-fits", type=int, default=NUM_FITS, metavar="N",
                     help=_(N_("starting points per skill; the most likely fit is kept "
                               "(default: {n})")).format(n=NUM_FITS))
    column_help = {
        "student": N_("the column of the student (default: found by its name, e.g. user_id)"),
        "skill": N_("the column of the skill (default: found by its name, e.g. skill_name)"),
        "correct": N_("the column saying right (1) or wrong (0) (default: found by its "
                      "name, e.g. correct)"),
        "order": N_("the column of the answers' order or time (default: found by its "
                    "name, e.g. order_id; none: the file's order)"),
        "item": N_("the column of the item; a student's later answers at an item are left "
                   "out (default: found by its name, e.g. problem_id)"),
    }
    for role in ROLES:
        fit.add_argument(f"--{role}", metavar=_(N_("COLUMN")), default=None,
                         help=_(column_help[role]))
    fit.add_argument("--lang", default=None, help=lang_help)


def run(args: argparse.Namespace, default_lang: str) -> int:
    """Run ``fit-bkt``; return the exit code (errors are one line on stderr)."""
    lang = command_lang(args, default_lang)
    if lang is None:
        return 2
    try:
        return _fit(args, lang)
    except (StoreError, LogError) as err:  # a file that is not an export or a log
        say(translate_error(err, lang), error=True)
        return 2


def _fit(args: argparse.Namespace, lang: str) -> int:
    _ = translator(lang)
    if not 1 <= args.num_fits <= _MOST_FITS:
        say(_(N_("--num-fits must be a whole number from 1 to {most}, not {value}.")).format(
            most=_MOST_FITS, value=args.num_fits), error=True)
        return 2
    if args.forgets and args.write_params:
        say(_(N_("--forgets fits a model the tutor does not run (its knowledge tracing "
                  "has no forgetting), so its parameters are not written: leave out "
                  "--forgets to write a parameters file.")), error=True)
        return 2
    paths = [Path(name) for name in args.files]
    data: dict[str, list[Sequence[int] | bytes]] = {}
    log = ResponseLog()
    columns = Columns(**{role: getattr(args, role) for role in ROLES})
    for path in paths:
        if log_kind(path, lang) == "progress":
            for skill, seqs in sequences(read_attempts(path, lang)).items():
                data.setdefault(skill, []).extend(seqs)
        else:
            read_logs([path], columns, lang, log)
    for skill, found in log.sequences().items():
        data.setdefault(skill, []).extend(found)
    ordered = {s: data[s] for s in SKILLS if s in data}
    ordered.update((s, data[s]) for s in data if s not in ordered)
    fits, skipped = fit_enough(ordered, num_fits=args.num_fits, forgets=args.forgets)
    info = args.json  # with --json, stdout is the JSON alone: the rest goes to stderr
    if not fits:
        _say_skipped(log, skipped, lang, error=True)
        say(_(N_("No skill has {n} first answers to fit in these files.")).format(
            n=MIN_OBSERVATIONS), error=True)
        return 1
    out = fit_json(fits, skipped, log, forgets=args.forgets)
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        _print_table(list(fits.values()), args.forgets, lang)
    _say_skipped(log, skipped, lang, error=info)
    other = [s for s in fits if s not in SKILLS]
    if other:
        say(ngettext("{n} skill is not one of the tutor's ({names}): it goes under "
                      "other_skills, which the tutor does not read.",
                      "{n} skills are not the tutor's ({names}): they go under other_skills, "
                      "which the tutor does not read.", len(other), lang).format(
            n=len(other), names=_some(other)), error=info)
    unused = [s for s, f in fits.items() if s in SKILLS and _useless(f)]
    for skill in unused:
        say(_(N_("{skill}: not used by the tutor: p_guess + p_slip reached {most}, so its "
                  "answers hardly tell a student who knows it from one who does not; the "
                  "tutor keeps its own parameters for it.")).format(
            skill=skill, most=decimal(1 - MIN_GAP, "0.00", lang)), error=info)
    if args.write_params:
        target = Path(args.write_params)
        try:
            _write_json(target, out)
        except OSError as err:
            say(_(N_("Cannot write {file}: {error}.")).format(
                file=target, error=err.strerror or err), error=True)
            return 1
        own = len([s for s in fits if s in SKILLS]) - len(unused)
        say(_(N_("Wrote the parameters of {own} to {file}: set LEONARD_BKT_PARAMS={file} "
                  "on the server, or paste its skills into a lesson's mastery setting."))
             .format(own=_(N_("{n} of the tutor's skills")).format(n=own),
                     file=target.resolve()), error=info)
    return 0


def _some(names: Sequence[str]) -> str:
    shown = ", ".join(names[:_LISTED])
    return shown + (", …" if len(names) > _LISTED else "")


def _row(f: SkillFit, forgets: bool) -> dict[str, float | int]:
    row: dict[str, float | int] = {k: round(getattr(f.params, k), 4) for k in _NAMES}
    if forgets:
        row["p_forget"] = round(f.p_forget, 4)
    row.update(log_likelihood=round(f.log_likelihood, 3), students=f.students,
               attempts=f.attempts)
    return row


def fit_json(fits: dict[str, SkillFit], skipped: dict[str, int], log: ResponseLog, *,
             forgets: bool = False) -> dict[str, object]:
    """The parameters file: ``skills`` (the tutor's, which it reads), ``not_used`` (the
    tutor's skills whose guess + slip ended at its limit: their answers do not tell a
    student who knows from one who does not, so the tutor keeps its own parameters),
    ``other_skills``, ``at_bound`` (the parameters that ended at a bound, per skill),
    ``skipped`` (skills with too few answers: how many they had) and ``skipped_rows`` (rows
    left out, by reason). The tutor reads ``skills`` alone."""
    out: dict[str, object] = {
        "skills": {s: _row(f, forgets) for s, f in fits.items() if s in SKILLS
                   and not _useless(f)},
        "not_used": {s: _row(f, forgets) for s, f in fits.items() if s in SKILLS
                     and _useless(f)},
        "other_skills": {s: _row(f, forgets) for s, f in fits.items() if s not in SKILLS},
        "at_bound": {s: list(f.at_bound) for s, f in fits.items() if f.at_bound},
        "skipped": skipped,
        "skipped_rows": {reason: s.rows for reason, s in log.skipped.items()},
    }
    return out


def _useless(f: SkillFit) -> bool:
    """Guess + slip at its limit: a right answer is (almost) no evidence of knowing."""
    return "p_guess+p_slip" in f.at_bound


def _write_json(path: Path, data: dict[str, object]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, path)  # a half-written file never replaces a good one


def _print_table(fits: list[SkillFit], forgets: bool, lang: str) -> None:
    _ = translator(lang)
    names = [*_NAMES, *(["p_forget"] if forgets else [])]

    def cell(f: SkillFit, name: str) -> str:
        value = f.p_forget if name == "p_forget" else getattr(f.params, name)
        bound = name in f.at_bound or (name in ("p_slip", "p_guess")
                                       and "p_guess+p_slip" in f.at_bound)
        return decimal(value, "0.000", lang) + ("*" if bound else "")

    header = [_(N_("Skill")), *names, _(N_("Log-likelihood")), _(N_("Students")),
              _(N_("Attempts"))]
    table = [[f.skill, *(cell(f, n) for n in names), decimal(f.log_likelihood, "0.0", lang),
              str(f.students), str(f.attempts)] for f in fits]
    print("\n".join(text_table(header, table)))
    if any(f.at_bound for f in fits):
        say(_(N_("* at a bound of the fit: a probability at {low} or {high}, or p_guess + "
                  "p_slip at {most} (the data would push it further; the model cannot "
                  "describe them well).")).format(
            low=decimal(LOW, "0.0000", lang), high=decimal(1 - LOW, "0.0000", lang),
            most=decimal(1 - MIN_GAP, "0.00", lang)))


def _say_skipped(log: ResponseLog, skipped: dict[str, int], lang: str, error: bool) -> None:
    _ = translator(lang)
    for reason, s in log.skipped.items():
        what = _(SKIP_REASONS[reason])
        if s.line and s.value is not None:
            say(ngettext("{file}: {n} row left out: {reason} (line {line}: {value}).",
                          "{file}: {n} rows left out: {reason} (the first at line {line}: "
                          "{value}).", s.rows, lang).format(
                file=s.file, n=s.rows, reason=what, line=s.line, value=repr(s.value)),
                error=error)
        elif s.line:
            say(ngettext("{file}: {n} row left out: {reason} (line {line}).",
                          "{file}: {n} rows left out: {reason} (the first at line {line}).",
                          s.rows, lang).format(file=s.file, n=s.rows, reason=what,
                                               line=s.line), error=error)
        else:
            say(ngettext("{n} answer left out: {reason}.", "{n} answers left out: {reason}.",
                          s.rows, lang).format(n=s.rows, reason=what), error=error)
    small = list(skipped)
    if len(small) <= _LISTED:
        for skill, n in skipped.items():
            say(_(N_("{skill}: not fitted, {n} first answers (at least {min} are needed)."))
                 .format(skill=skill, n=n, min=MIN_OBSERVATIONS), error=error)
    else:
        say(ngettext("{n} skill not fitted, with fewer than {min} first answers: {names}.",
                      "{n} skills not fitted, each with fewer than {min} first answers: "
                      "{names}.", len(small), lang).format(
            n=len(small), min=MIN_OBSERVATIONS, names=_some(small)), error=error)
