"""One number, from the code, in every document (issue 43, part 4; finding 6: the student
guide said mastery is "5 times in a row" while the code, the README, the teacher guide and
the page said 7).

Each number a teacher or a student acts on is read here from the code that decides it: the
right first answers in a row that mastery needs (and the longer row after a misconception),
the mastery threshold, a lesson's caps, the review days, a hub's page cap and idle minutes,
and the progress tables' version. Every sentence of the README, the guides (English and
Spanish), docs/teaching.md, docs/reference.md and deploy/ that states one of them is listed
below with the number's place in it; the test finds each sentence (line breaks do not matter)
and checks its numbers against the code's. A sentence reworded so that it is no longer found
fails too: update the pattern here with it, so that the number stays checked.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tutor.classroom import assignments, hand_in
from tutor.course.lesson_end import DEFAULT_MAX_MINUTES, DEFAULT_MAX_QUESTIONS
from tutor.hub import lockdown, store_service
from tutor.storage.store_schema import SCHEMA_VERSION
from tutor.teaching import mastery, review

ROOT = Path(__file__).resolve().parents[1]

STREAK = mastery.STREAK_TO_MASTER
AFTER_ONE = mastery.STREAK_AFTER_MISCONCEPTION
AFTER_TWO = min(mastery.MOST_STREAK, STREAK + 2 * mastery.STREAK_PER_MISCONCEPTION)
MOST = mastery.MOST_STREAK
THRESHOLD = mastery.BKTParams().mastery_threshold
DAYS = review.INTERVALS


def _n(value: float) -> str:
    """A whole number as the docs write it (40.0 -> "40")."""
    return str(int(value)) if float(value).is_integer() else str(value)


def _percent(value: float) -> str:
    return _n(round(value * 100, 6))


def _deploy_setting(name: str) -> str:
    """A school setting as deploy/tljh/leonard.py sets it (``NAME = value  # …``)."""
    text = (ROOT / "deploy" / "tljh" / "leonard.py").read_text(encoding="utf-8")
    found = re.search(rf"^{name} = ([0-9.]+)", text, re.MULTILINE)
    assert found, f"deploy/tljh/leonard.py sets no {name}"
    return found.group(1)


@dataclass(frozen=True)
class Claim:
    doc: str
    """The file, from the repository's root."""
    pattern: str
    """A regular expression over the file with its whitespace runs made one space; each
    group is one number."""
    expected: Callable[[], tuple[str, ...]]
    """The numbers, from the code."""
    what: str


def _claims() -> list[Claim]:
    streak = lambda: (str(STREAK),)  # noqa: E731
    longer = lambda: (str(AFTER_ONE), str(AFTER_TWO), str(MOST))  # noqa: E731
    caps = lambda: (str(DEFAULT_MAX_QUESTIONS), _n(DEFAULT_MAX_MINUTES))  # noqa: E731
    days = lambda: tuple(str(d) for d in DAYS)  # noqa: E731
    pages = lambda: (str(lockdown.KERNEL_CAP), _n(lockdown.IDLE_TAB_MINUTES))  # noqa: E731
    row = "the right first answers in a row mastery needs"
    return [
        # The row mastery needs, and the longer row after a misconception.
        Claim("docs/student-guide.md", r"\*\*(\d+) times in a row on your own\*\*", streak, row),
        Claim("docs/guia-estudiante.md", r"\*\*(\d+) veces seguidas por tu cuenta\*\*", streak,
              row),
        Claim("docs/student-guide.md",
              r"(\d+) in a row after one, (\d+) after two, at most (\d+)", longer,
              "the row after a typical mistake"),
        Claim("docs/guia-estudiante.md",
              r"(\d+) seguidas tras uno, (\d+) tras dos, (\d+) como mucho", longer,
              "the row after a typical mistake"),
        Claim("docs/teacher-guide.md", r"the last (\d+) answers were right at the first try",
              streak, row),
        Claim("docs/guia-docente.md", r"las últimas (\d+) respuestas fueron bien a la primera",
              streak, row),
        Claim("docs/teacher-guide.md", r"\(\"(\d+) in a row\"\)", streak, row),
        Claim("docs/guia-docente.md", r"\(«(\d+) seguidas»\)", streak, row),
        Claim("docs/teacher-guide.md", r"ruled out by (\d+) right answers", streak,
              "the right answers that rule a typical mistake out"),
        Claim("docs/guia-docente.md", r"descartado por (\d+) respuestas correctas", streak,
              "the right answers that rule a typical mistake out"),
        Claim("docs/teacher-guide.md", r"a mistake the student made: (\d+), (\d+), … at most (\d+)",
              longer, "the row after a typical mistake"),
        Claim("docs/guia-docente.md",
              r"un error que el estudiante cometió: (\d+), (\d+), … a lo sumo (\d+)", longer,
              "the row after a typical mistake"),
        Claim("docs/teacher-guide.md", r"the chance is at least (\d+)%",
              lambda: (_percent(THRESHOLD),), "the mastery threshold"),
        Claim("docs/guia-docente.md", r"la probabilidad es de al menos el (\d+) %",
              lambda: (_percent(THRESHOLD),), "the mastery threshold"),
        Claim("docs/teaching.md", r"the lesson's threshold \(([0-9.]+) unless",
              lambda: (_n(THRESHOLD),), "the mastery threshold"),
        Claim("docs/teaching.md", r"the last \*\*(\d+)\*\* first answers", streak, row),
        Claim("docs/teaching.md", r"adds (\d+) to the right answers in a row mastery needs\*\*: "
              r"(\d+) after one, (\d+) after two, at most (\d+)",
              lambda: (str(mastery.STREAK_PER_MISCONCEPTION), *longer()),
              "the row after a misconception"),
        Claim("docs/teaching.md", r"mastery needs (\d+) unscaffolded right answers in a row",
              streak, row),
        Claim("docs/teaching.md", r"\(at the default parameters, (\d+) in a row\)", streak, row),
        Claim("README.md", r"mastery at (\d+) in a row", streak, row),
        # A lesson's caps.
        Claim("docs/student-guide.md", r"\((\d+) questions on each of its skills, or (\d+) "
              r"minutes", caps, "a lesson's caps"),
        Claim("docs/guia-estudiante.md", r"\((\d+) preguntas de cada una de sus habilidades, o "
              r"(\d+) minutos", caps, "a lesson's caps"),
        Claim("docs/teacher-guide.md", r"questions per target skill, (\d+) by default\) or "
              r"`max_minutes` \((\d+) by default\)", caps, "a lesson's caps"),
        Claim("docs/guia-docente.md", r"preguntas por cada objetivo, (\d+) si no se dice otra "
              r"cosa\) o `max_minutes` \((\d+) si no se dice otra cosa\)", caps,
              "a lesson's caps"),
        Claim("docs/reference.md", r"questions per target skill, default (\d+)\) or "
              r"`tutor.max_minutes` \(default (\d+);", caps, "a lesson's caps"),
        # Review days.
        Claim("docs/teaching.md", r"stretches the next wait: (\d+), (\d+), (\d+), then (\d+) days",
              days, "the review days"),
        Claim("docs/student-guide.md", r"comes back for review (\d+) day later, then (\d+), "
              r"(\d+) and (\d+) days", days, "the review days"),
        Claim("docs/guia-estudiante.md", r"vuelve para repasarla (\d+) día después, y luego "
              r"(\d+), (\d+) y (\d+) días", days, "the review days"),
        Claim("docs/teacher-guide.md", r"comes back for review (\d+) day after mastery, then "
              r"(\d+), (\d+) and (\d+) days", days, "the review days"),
        Claim("docs/guia-docente.md", r"vuelve para repasarse (\d+) día después del dominio, y "
              r"luego (\d+), (\d+) y (\d+) días", days, "the review days"),
        # An assignment's limits, and when a due date without a time is due (issue 45).
        Claim("docs/teacher-guide.md", r"from \*Add a lesson\* \(at most (\d+)\)",
              lambda: (str(assignments.MAX_LESSONS),), "the lessons of one assignment"),
        Claim("docs/guia-docente.md", r"\*Añadir una lección\* \((\d+) como mucho\)",
              lambda: (str(assignments.MAX_LESSONS),), "the lessons of one assignment"),
        Claim("docs/teacher-guide.md", r"A title has at most (\d+) characters",
              lambda: (str(assignments.MAX_TITLE),), "an assignment's title"),
        Claim("docs/guia-docente.md", r"Un título tiene (\d+) caracteres como mucho",
              lambda: (str(assignments.MAX_TITLE),), "an assignment's title"),
        Claim("docs/teacher-guide.md", r"first column \(at most (\d+) students\)",
              lambda: (str(assignments.MAX_ROSTER),), "the students of a roster"),
        Claim("docs/guia-docente.md", r"primera columna \((\d+) estudiantes como mucho\)",
              lambda: (str(assignments.MAX_ROSTER),), "the students of a roster"),
        Claim("docs/teacher-guide.md", r"a date without a time is due at (\d+):(\d+)",
              lambda: tuple(assignments.DEFAULT_TIME.split(":")), "a due date's time"),
        Claim("docs/guia-docente.md", r"una fecha sin hora vence a las (\d+):(\d+)",
              lambda: tuple(assignments.DEFAULT_TIME.split(":")), "a due date's time"),
        # A hub's pages per student and idle tabs.
        Claim("README.md", r"at most (\d+) pages open at once, and a tab idle (\d+) minutes",
              pages, "a hub's pages per student and idle minutes"),
        Claim("docs/student-guide.md", r"you can have (\d+) pages of the tutor open at once",
              lambda: (str(lockdown.KERNEL_CAP),), "a hub's pages per student"),
        Claim("docs/student-guide.md", r"A page you leave (\d+) minutes without using closes",
              lambda: (_n(lockdown.IDLE_TAB_MINUTES),), "a hub's idle minutes"),
        Claim("docs/guia-estudiante.md", r"puedes tener (\d+) páginas del tutor abiertas a la "
              r"vez", lambda: (str(lockdown.KERNEL_CAP),), "a hub's pages per student"),
        Claim("docs/guia-estudiante.md", r"Una página que dejas (\d+) minutos sin usar se "
              r"cierra", lambda: (_n(lockdown.IDLE_TAB_MINUTES),), "a hub's idle minutes"),
        Claim("deploy/tljh/README.md", r"more than (\d+) minutes ahead of the server's clock",
              lambda: (_n(hand_in.FUTURE_SLACK.total_seconds() / 60),),
              "the store service's clock slack"),
        Claim("deploy/tljh/README.md", r"A request larger than (\d+) KiB",
              lambda: (str(store_service.MAX_BODY // 1024),), "the store service's body limit"),
        Claim("deploy/tljh/README.md", r"more than ([\d,]+) answers in a day",
              lambda: (f"{store_service.MAX_ROWS_PER_DAY:,}",), "the store service's day cap"),
        Claim("deploy/tljh/README.md", r"whose answers hold more than (\d+) MiB",
              lambda: (str(store_service.MAX_STORED_BYTES // 2**20),),
              "the store service's bytes cap"),
        Claim("deploy/tljh/README.md", r"`KERNEL_CAP` \((\d+)\)",
              lambda: (_deploy_setting("KERNEL_CAP"),), "deploy/tljh/leonard.py's page cap"),
        Claim("deploy/tljh/README.md", r"`IDLE_TAB_MINUTES` \((\d+)\)",
              lambda: (_deploy_setting("IDLE_TAB_MINUTES"),),
              "deploy/tljh/leonard.py's idle minutes"),
        Claim("deploy/z2jh/config.yaml", r'LEONARD_KERNEL_CAP: "(\d+)"',
              lambda: (_deploy_setting("KERNEL_CAP"),), "the page cap on Kubernetes"),
        Claim("deploy/z2jh/config.yaml", r'LEONARD_IDLE_TAB_MINUTES: "(\d+)"',
              lambda: (_deploy_setting("IDLE_TAB_MINUTES"),), "the idle minutes on Kubernetes"),
        # The progress tables' version, which a keeper compares with an old backup's.
        Claim("README.md", r"`tutor.storage.store.SCHEMA_VERSION`, now (\d+)\)",
              lambda: (str(SCHEMA_VERSION),), "the progress tables' version"),
    ]


def _text(doc: str) -> str:
    return re.sub(r"\s+", " ", (ROOT / doc).read_text(encoding="utf-8"))


CLAIMS = _claims()


@pytest.mark.parametrize("claim", CLAIMS, ids=[f"{c.doc}:{c.pattern[:40]}" for c in CLAIMS])
def test_each_document_states_the_codes_number(claim: Claim) -> None:
    found = [m.groups() for m in re.finditer(claim.pattern, _text(claim.doc))]
    assert found, (f"{claim.doc} no longer says {claim.what} where this test looks "
                   f"({claim.pattern!r}): say it again, or move the pattern with the sentence")
    want = claim.expected()
    wrong = [f for f in found if f != want]
    assert not wrong, f"{claim.doc} says {claim.what} is {wrong[0]}; the code says {want}"


def test_the_deploy_defaults_are_the_codes() -> None:
    """deploy/tljh/leonard.py writes the page cap and the idle minutes out; what it writes is
    what the code does without it (so the docs' one number is true either way)."""
    assert _deploy_setting("KERNEL_CAP") == str(lockdown.KERNEL_CAP)
    assert _deploy_setting("IDLE_TAB_MINUTES") == _n(lockdown.IDLE_TAB_MINUTES)


# A mastery row written anywhere in the guides or the README ("N times in a row", "N veces
# seguidas"): whatever sentence it is in, it is one the code can need.
_ROWS = re.compile(r"\b(\d+) (?:times in a row|veces seguidas)")
_GUIDES = ("README.md", "docs/teacher-guide.md", "docs/guia-docente.md",
           "docs/student-guide.md", "docs/guia-estudiante.md", "docs/reference.md")


def test_no_guide_states_another_row() -> None:
    possible = {min(MOST, STREAK + k * mastery.STREAK_PER_MISCONCEPTION) for k in range(20)}
    wrong = [(doc, m.group(0)) for doc in _GUIDES for m in _ROWS.finditer(_text(doc))
             if int(m.group(1)) not in possible]
    assert not wrong, f"the code needs {sorted(possible)} in a row, never {wrong}"
