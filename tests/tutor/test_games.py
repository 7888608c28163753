"""A game is one tutor entry (issue 34 part 4; docs/rules.md §3 the games, §4 what the tutor asks):
every engine variant has exactly one entry in :mod:`tutor.games` and the entry has one per
variant; an entry's round-end questions and skills are those its game's rounds give; and no
other tutor module switches on a game's name (a static scan of the source, shown to catch
planted switches)."""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

import engine.variants  # noqa: F401 - completes the registry with the classic variants (§3)
from engine.bots import make_bot, play_match
from engine.events import RoundEnded
from engine.match import Match
from engine.rules import VARIANTS, HouseRules
from tutor import games
from tutor.games import GAMES, UnknownGameError, game
from tutor.teaching.mastery import SKILLS
from tutor.teaching.practice import Plan
from tutor.teaching.questions import collect_question, tens_question

TUTOR = Path(games.__file__).resolve().parent
GAME_NAMES = frozenset(VARIANTS)
AMBIGUOUS = {"block": "also the engine's kind of a closed game (Bonus 'block', the narration "
                      "of a block) and the count of the traditional block's differences"}
"""Variant names that are also words of another vocabulary: one of these is a switch on the
game only where what it is compared with names a game."""
_GAME_WORD = re.compile(r"variant|game", re.I)


# --- one entry per variant -------------------------------------------------------------------

def test_every_engine_variant_has_exactly_one_tutor_entry_and_each_entry_a_variant():
    names = Counter(g.name for g in games._ALL)
    assert [n for n, k in names.items() if k > 1] == []  # no game has two entries
    assert set(names) == set(VARIANTS), (set(VARIANTS) ^ set(names))
    for name, entry in GAMES.items():
        assert entry.name == name and game(name) is entry
        assert entry.label.strip()


def test_an_unknown_game_is_a_typed_error_that_names_the_games():
    with pytest.raises(UnknownGameError) as err:
        game("chess")
    assert isinstance(err.value, ValueError)
    assert "'chess'" in str(err.value) and "doble15" in str(err.value)
    assert "no es un juego" in err.value.message("es")


ROUND_END_SKILLS = {"collect": {"add", "subtract"}, "tens": {"round"}, "total": {"negative"}}


def test_each_entry_practises_known_skills_including_those_of_its_round_end_questions():
    """§4: free play practises what the game's scoring asks; a round-end question it asks is
    one of those skills (a traditional block's count subtracts, Ponce's rounds)."""
    for entry in GAMES.values():
        assert entry.skills and entry.skills <= set(SKILLS) - {"rules"}, entry.name
        assert entry.round_end <= set(ROUND_END_SKILLS), entry.name
        assert Plan(game=entry.name).focus == entry.skills
        assert Plan(targets=frozenset({"rules"}), game=entry.name).focus == {"rules"}
    assert "subtract" in game("traditional").skills and "round" in game("ponce").skills


def _round_end_kinds(name: str, seeds: int = 8) -> tuple[set[str], set[str]]:
    """The round-end questions seeded rounds of ``name`` give (without the entry's say), and
    the skills they ask."""
    var = VARIANTS[name]
    players = 4 if var.pairs else max(2, var.min_players)
    kinds: set[str] = set()
    skills: set[str] = set()
    for seed in range(seeds):
        match = play_match(Match(name, players, HouseRules(rounds=2), seed=seed),
                           [make_bot("random", s) for s in range(players)])
        for rnd in match.rounds:
            for end in (e for e in rnd.log if isinstance(e, RoundEnded)):
                if (q := collect_question(end, you=end.winner)) is not None:
                    kinds.add("collect")
                    skills.add(q.skill)
                if tens_question(end) is not None:
                    kinds.add("tens")
                    skills.add("round")
                if any(end.gains[s] and end.scores[s] < 0 for s in range(players)):
                    kinds.add("total")  # the asker's round total (a power game's losses)
                    skills.add("negative")
    return kinds, skills


@pytest.mark.parametrize("name", sorted(GAMES))
def test_an_entrys_round_end_questions_are_those_its_rounds_give(name):
    """The asker asks only the entry's round-end questions: so the entry must name every one
    its game's rounds give (else a question would be lost), and no other (its words would
    teach a count the game does not make: tens outside Ponce)."""
    kinds, skills = _round_end_kinds(name)
    assert kinds == game(name).round_end
    assert skills <= game(name).skills


# --- no other module switches on a game's name -----------------------------------------------

def _names_a_game(node: ast.AST) -> bool:
    """Whether an expression reads as a game's name: it mentions a variant or a game
    (``view.variant``, ``plan.game``, ``s["variant"]``, ``variant_dd.value``) or is a
    ``name`` (``rnd.variant.name``, ``name``)."""
    last = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", None)
    if last == "name":
        return True
    for sub in ast.walk(node):
        words = [getattr(sub, "id", None), getattr(sub, "attr", None), getattr(sub, "arg", None)]
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            words.append(sub.value)
        if any(isinstance(w, str) and _GAME_WORD.search(w) for w in words):
            return True
    return False


def _literals(node: ast.AST) -> list[str]:
    """The variant names a compared value or a key spells: a string, or the strings of a
    tuple, list or set."""
    items = node.elts if isinstance(node, ast.Tuple | ast.List | ast.Set) else [node]
    return [i.value for i in items
            if isinstance(i, ast.Constant) and isinstance(i.value, str) and i.value in GAME_NAMES]


def _switch(names: list[str], other: ast.AST | None) -> list[str]:
    """Of ``names`` compared with ``other`` (None: a table's keys), those that switch on the
    game: any unambiguous name, an ambiguous one only against a game's name."""
    return [n for n in names if n not in AMBIGUOUS or (other is not None and _names_a_game(other))]


def switches(source: str, path: str = "<source>") -> Iterator[str]:
    """Each place in ``source`` that compares a game's name with a literal variant name or
    keys a table by one: ``path:line: name``."""
    for node in ast.walk(ast.parse(source)):
        found: list[str] = []
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            for left, right in zip(sides, sides[1:], strict=False):
                found += _switch(_literals(right), left) + _switch(_literals(left), right)
        elif isinstance(node, ast.Match):
            for case in node.cases:
                for sub in ast.walk(case.pattern):
                    if isinstance(sub, ast.MatchValue):
                        found += _switch(_literals(sub.value), node.subject)
        elif isinstance(node, ast.Dict):
            keys = [n for k in node.keys if k is not None for n in _literals(k)]
            if any(n not in AMBIGUOUS for n in keys):
                found += keys  # a table keyed by games
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "dict":
            keys = [k.arg for k in node.keywords if k.arg in GAME_NAMES]
            found += _switch(keys, None)
        for name in found:
            yield f"{path}:{node.lineno}: {name!r}"


def _tutor_sources() -> Iterator[tuple[str, str]]:
    for path in sorted(TUTOR.rglob("*.py")):
        if path != TUTOR / "games.py":
            yield str(path.relative_to(TUTOR.parent)), path.read_text(encoding="utf-8")


def test_no_tutor_module_but_the_games_module_switches_on_a_games_name():
    found = [hit for path, source in _tutor_sources() for hit in switches(source, path)]
    assert found == [], "a game's facts belong in its tutor.games entry:\n" + "\n".join(found)


PLANTED = [
    'if view.variant == "ponce":\n    pass\n',
    'x = "cuban" != rnd.variant.name\n',
    'ok = s["variant"] in ("traditional", "venezuela")\n',
    'if self.plan.game == "block":\n    pass\n',
    'if name == "block":\n    pass\n',
    'WHY = {"doble15": N_("…"), "leonard": N_("…")}\n',
    'LABEL = {"ponce": "Ponce"}\n',
    'LABEL = dict(cuban="Cuban")\n',
    'match game:\n    case "leonard":\n        pass\n',
    'def f(variant_dd):\n    return variant_dd.value == "block"\n',
]


@pytest.mark.parametrize("planted", PLANTED)
def test_the_scan_catches_a_planted_switch_in_a_real_module(planted):
    """A switch planted in a real panel (the round-end summary) is found, with its line."""
    path = TUTOR / "ui" / "play" / "round_end.py"
    source = path.read_text(encoding="utf-8")
    assert list(switches(source)) == []
    hits = list(switches(source + "\n" + planted, "ui/round_end.py"))
    lines = source.count("\n") + 2
    assert hits and all(h.startswith("ui/round_end.py:") for h in hits), hits
    assert min(int(h.split(":")[1]) for h in hits) >= lines


@pytest.mark.parametrize("innocent", [
    'if ctx.counted == "block":\n    pass\n',  # the traditional block's count (§3.1)
    'WHY = {"block": N_("closing the game (Ponce\'s tranque)")}\n',  # a bonus kind
    'ok = question.step == "collect" and ctx.counted in ("block", "pair", "all")\n',
    'variant: str = "leonard"\n',  # a default is no switch
    'text = "the block game"\n',
])
def test_the_scan_lets_other_words_that_spell_block_alone(innocent):
    assert list(switches(innocent)) == []
