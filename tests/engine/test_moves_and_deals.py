"""Moves read back what they print, deals are values, and a variant's own moves and match
context live in its module (issue 34, parts 4 and 5).

* ``Play.parse(str(p)) == p`` (and the same text again) for every legal move of seeded random
  rounds of every variant (docs/rules.md §1.5 moves, §3 the variants' lines: L/R ends, Doble 15's
  arms); ``draw``, ``pass`` and Cuban's ``annul`` (§3.4) by their words;
* text that is not a move raises ``ActionError`` (a ValueError) saying what a move looks like;
* a round's deal (§1.4) is a ``Deal`` whose saved form is the game record's, unchanged, and
  which plays the same round again;
* the base ``Round`` names no variant: Cuban's redeal comes through the extra-moves hook and
  Ponce's match context (§3.3) through ``match_context``.
"""

from __future__ import annotations

import importlib.util
import json
import pickle
import random
from collections.abc import Mapping
from pathlib import Path

import pytest

import engine
from engine import (
    ANNUL,
    CUBAN,
    DRAW,
    PASS,
    VARIANTS,
    ActionError,
    Deal,
    DealError,
    Draw,
    HouseRules,
    IllegalMoveError,
    Match,
    Pass,
    Play,
    Round,
    Tile,
    parse_action,
)
from engine.match import round_record

SOME_PLAYERS = {"leonard": (2, 4, 5), "block": (2, 4), "traditional": (2, 5),
                "doble15": (2, 6)}
"""The player counts tried, where a game has more than the fewest and the most (a 4-player
Leonard deal has a table tile); Doble 15's 15 would be slow."""
PLAYERS = {name: SOME_PLAYERS.get(name, tuple(sorted({v.min_players, v.max_players})))
           for name, v in VARIANTS.items()}
"""Every variant the registry holds (a new variant's module is tested with no edit here)."""


def test_every_variant_is_covered():
    for name, counts in PLAYERS.items():
        for players in counts:
            VARIANTS[name].check_players(players)


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_every_legal_move_reads_back_what_it_prints(name):
    """§1.5/§3: seeded random rounds; at every step each legal move (and each extra move)
    prints to text that parses to the same move, with the tile in the orientation printed."""
    variant = VARIANTS[name]
    seen = 0
    ends: set[str | None] = set()
    for players in PLAYERS[name]:
        for seed in range(6):
            rng = random.Random(seed)
            rnd = Round.deal(variant, HouseRules(), players, rng, record=False)
            while not rnd.over:
                moves = rnd.legal_actions(extra=True)
                for move in moves:
                    text = str(move)
                    again = rnd.parse_move(text)
                    assert again == move and str(again) == text, (name, text)
                    if isinstance(move, Play):
                        assert Play.parse(text) == move
                        assert Play.parse(text, rnd.tileset) == move
                        ends.add(move.end)
                    seen += 1
                plain = rnd.legal_actions()
                rnd.apply(plain[int(rng.random() * len(plain))])
    assert seen > 100
    expected = {"1", "2", "3", "4", "5", "6"} if name == "doble15" else {"L", "R"}
    assert ends == expected | {None}


def test_the_longer_forms_people_write():
    assert Play.parse("5/x → R") == Play(Tile(5, "x"), "R")
    assert str(Play.parse("7/4 → arm 3")) == "7/4 3"
    assert Play.parse("5 | × at left") == Play(Tile(5, "x"), "L")
    assert Play.parse(" 6/6 ") == Play(Tile(6, 6), None)
    assert parse_action("DRAW") is DRAW and parse_action("pass") is PASS
    assert Draw.parse("draw") is DRAW and Pass.parse(" Pass") is PASS
    assert parse_action("annul", extra=[ANNUL]) is ANNUL


@pytest.mark.parametrize("text,says", [
    ("hello", "is not a move: write a tile and the end"),
    ("", "is not a move"),
    ("5/q R", "'5/q' is not a tile"),
    ("5/x Z", "'Z' is not an end of the line"),
    ("5/x R R", "is not a move"),
    ("annul", "is not a move"),  # not without the variant's extra moves
])
def test_text_that_is_not_a_move_says_what_a_move_looks_like(text, says):
    with pytest.raises(ActionError, match=says) as caught:
        parse_action(text)
    assert isinstance(caught.value, ValueError)


def test_a_tile_not_of_the_game_is_named():
    rnd = Round.deal(VARIANTS["block"], HouseRules(), 2, random.Random(1))
    with pytest.raises(ActionError, match="not a double-six tile"):
        rnd.parse_move("7/7 L")
    with pytest.raises(ActionError, match="is not 'draw'"):
        Draw.parse("pass")


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_a_round_deal_is_a_value_that_plays_the_same_round(name):
    """§1.4: the deal (hands, pile, table tile, starter) saved as the record saves it, read
    back, plays the same round."""
    variant = VARIANTS[name]
    players = PLAYERS[name][-1]
    rnd = Round.deal(variant, HouseRules(), players, random.Random(7))
    deal = rnd.dealt()
    assert isinstance(deal, Deal) and deal.players == players
    saved = deal.to_dict()
    assert list(saved) == ["hands", "pile", "table", "starter"]
    assert Deal.from_dict(saved) == deal
    record = round_record(rnd)
    assert {k: record[k] for k in saved} == saved  # the record's form, unchanged
    again = Round.from_deal(variant, HouseRules(), deal, opening="any"
                            if deal.table is None and rnd.open_tile is None else "rule")
    assert again.hands == rnd.hands and again.pile == rnd.pile and again.turn == rnd.turn
    assert type(again) is type(rnd)


def test_a_match_plays_deals_given_as_values_or_as_saved_dicts():
    first = Match("traditional", 3, seed=5)
    deal = first.current.dealt()
    for given in (deal, deal.to_dict()):
        m = Match("traditional", 3, seed=99, deals=[given])
        assert m.current.dealt() == deal


def test_a_deal_that_is_not_one_is_a_deal_error():
    with pytest.raises(DealError, match="one list of tiles per seat"):
        Deal.from_dict({"hands": "3/4"})
    with pytest.raises(DealError, match="needs its hands"):
        Deal.from_dict({"pile": []})
    with pytest.raises(DealError, match="is not a tile"):
        Deal.of([[3, 4]])
    with pytest.raises(DealError, match="seat number"):
        Deal.of([["3/4"]], starter="0")


def test_the_base_round_names_no_variant():
    """Part 4: Cuban's redeal and Ponce's context live in their modules; the round module,
    the kernel and the moves know no variant by name, nor do the bots, the player's view and
    the record's replay (a game's own moves reach them through ``extra_moves`` and
    ``recorded_extra``)."""
    folder = Path(engine.__file__).parent
    for module in ("round.py", "kernel.py", "actions.py", "deal.py", "opening.py",
                   "bots.py", "view.py", "game_file.py"):
        text = (folder / module).read_text(encoding="utf-8")
        for name in ("Annul", "ANNUL", "RoundContext", "ponce", "cuban_", "CubanRound"):
            assert name not in text, (module, name)
    assert not hasattr(engine.round, "ANNUL") and not hasattr(engine.round, "RoundContext")


def test_the_house_rules_name_no_variant():
    """Part 4: a variant's own house rules (D-11…D-16, D-19) are its module's; engine.rules
    holds the core rules and one field for the variants' options, and names no option and no
    game of engine.variants. The core modules a round runs name no option either."""
    folder = Path(engine.__file__).parent
    options = [name for v in VARIANTS.values() for name in v.options]
    assert len(options) >= 7
    games = [v for v in VARIANTS.values() if v.round_type is not None]
    assert {"cuban", "doble15", "traditional"} <= {v.name for v in games}
    text = (folder / "rules.py").read_text(encoding="utf-8")
    for name in [*options, "cuban_", "doble15_", *(v.name for v in games),
                 *(v.title for v in games), "from .variants"]:
        assert name.lower() not in text.lower(), name
    for module in ("round.py", "kernel.py", "actions.py", "deal.py", "opening.py",
                   "sheet.py", "match.py", "game_file.py"):
        text = (folder / module).read_text(encoding="utf-8")
        for name in [*options, "cuban_", "doble15_"]:
            assert name not in text, (module, name)


def test_the_sheet_names_no_variant():
    """Part 4: a game's own sheet marks (Cuban's ``5D``, Doble 15's ``H A R``, Ponce's ``P``,
    §2, §3) and whether the title names the game are its variant's; the sheet module reads
    them from the variant and names no game."""
    folder = Path(engine.__file__).parent
    text = (folder / "sheet.py").read_text(encoding="utf-8")
    for name in ("Annul", "ANNUL", "Special", "from .variants", '"leonard"', "variant.name",
                 "cuban", "doble15", "ponce", '"5D"', '"H"', '"P"'):
        assert name not in text, name
    assert VARIANTS["cuban"].sheet_marks == {"annul": "5D"}
    assert list(VARIANTS["doble15"].sheet_marks.values()) == ["H", "A", "R"]
    assert VARIANTS["ponce"].sheet_marks == {"pass": "P"}
    assert not VARIANTS["leonard"].sheet_named and VARIANTS["venezuela"].sheet_named


def test_cuban_redeal_comes_through_the_extra_moves_hook():
    """§3.4 (D-21): five doubles on one's first turn: ``annul`` is an extra move, listed with
    ``legal_actions(extra=True)`` and applied by ``apply``; other games have none."""
    from engine.variants.cuban import Annul

    free = [str(t) for t in CUBAN.tileset.tiles if t.a != t.b]
    doubles = ["0/0", "1/1", "2/2", "3/3", "4/4"]
    hands = [["9/9"] + free[:9], doubles + free[9:14], free[14:24], free[24:34]]
    m = Match("cuban", 4, deals=[{"hands": hands}], seed=3)
    rnd = m.current
    assert rnd.extra_moves() == []
    m.apply(Play(Tile(9, 9)))
    assert rnd.extra_moves() == [ANNUL] and isinstance(ANNUL, Annul)
    assert rnd.legal_actions(extra=True)[-1] == ANNUL and ANNUL not in rnd.legal_actions()
    assert rnd.parse_move("annul") is ANNUL
    m.apply(rnd.parse_move("annul"))
    assert rnd.over and rnd.ended.reason == "annulled"
    block = Round.deal(VARIANTS["block"], HouseRules(), 2, random.Random(2))
    assert block.extra_moves() == [] and block.legal_actions(extra=True) == block.legal_actions()
    with pytest.raises(IllegalMoveError, match="not a move of block game"):
        block.apply(ANNUL)


def test_ponce_context_comes_from_its_own_match_context():
    """§3.3: a Ponce round knows the match's scores, passes and target through its variant's
    ``match_context``; other games' rounds are given none."""
    from engine.variants.ponce import PonceContext

    m = Match("ponce", 4, seed=11, record=False)
    while not m.over and len(m.rounds) < 3:
        rnd = m.current
        while not rnd.over:
            rnd.playout(random.Random(len(m.rounds)))
        if not m._goal_reached():
            m.start_round()
    last = m.current
    context = last.context
    assert isinstance(context, PonceContext) and context.target == 20
    before = m.rounds[:-1]
    assert context.passes == sum(r.pass_count for r in before)
    assert context.scores == tuple(sum(r.gains[s] - r.losses[s] for r in before)
                                   for s in range(4))
    assert Match("block", 2, seed=1).current.context is None


def test_a_variants_own_house_rules_are_declared_and_checked_by_it():
    """D-11…D-16 (docs/rules.md §3.4, §3.5) and D-19: Cuban's, Doble 15's and the traditional
    game's own options are declared in their modules (``Variant.options``, default first),
    checked when HouseRules is made and read through ``HouseRules.option``; HouseRules has no
    field of its own for any of them."""
    from dataclasses import fields

    from engine import RulesError

    declared = {name: values for v in VARIANTS.values() for name, values in v.options.items()}
    assert set(declared) == {"cuban_opener", "cuban_count", "doble15_draw", "doble15_trigger",
                             "doble15_fifteen", "doble15_block", "opener_tie"}
    assert set(VARIANTS["cuban"].options) == {"cuban_opener", "cuban_count"}
    assert set(VARIANTS["traditional"].options) == {"opener_tie"}
    assert not set(declared) & {f.name for f in fields(HouseRules)}
    for name, values in declared.items():
        assert HouseRules().option(name) == values[0]
        for value in values:
            assert HouseRules(options={name: value}).option(name) == value
        with pytest.raises(RulesError, match=f"house rule {name} cannot be 'nonsense': "
                                             f"choose one of {values[0]!r}"):
            HouseRules(options={name: "nonsense"})
    with pytest.raises(RulesError, match="unknown house rule 'cuban_cont': a variant's own "
                                         "house rules are cuban_opener, cuban_count, "):
        HouseRules(options={"cuban_cont": "all"})
    with pytest.raises(RulesError, match="unknown house rule 'spinners'"):
        HouseRules().option("spinners")
    with pytest.raises(RulesError, match="unknown house rule\\(s\\): cuban_cont"):
        HouseRules.from_dict({"cuban_cont": "all"})
    assert HouseRules(options={"cuban_count": "all"}).to_dict()["cuban_count"] == "all"
    assert HouseRules.from_dict({"cuban_count": "all"}).option("cuban_count") == "all"


def test_house_rules_equal_in_effect_are_equal_however_written():
    """A default spelled out is no change: equality and the hash do not see it, and
    ``dataclasses.replace`` keeps a variant's options."""
    from dataclasses import replace

    plain = HouseRules(options={"cuban_count": "all"})
    spelled = HouseRules(options={"doble15_draw": "one", "cuban_count": "all",
                                  "opener_tie": "seat-order"})
    assert plain == spelled and hash(plain) == hash(spelled)
    assert plain == HouseRules.from_dict(spelled.to_dict())
    assert HouseRules(options={"cuban_count": "opponents"}) == HouseRules()
    assert plain != HouseRules()
    assert plain.options == {"cuban_count": "all"} and dict(plain.options) == {"cuban_count": "all"}
    assert isinstance(plain.options, Mapping) and "cuban_count" in plain.options
    assert pickle.loads(pickle.dumps(plain)) == plain
    longer = replace(plain, rounds=5)
    assert longer.rounds == 5 and longer.option("cuban_count") == "all"
    assert len({plain, spelled, HouseRules()}) == 2


FIXTURES = Path(__file__).parent / "data"


def test_saved_rules_keep_their_keys_in_their_order():
    """A record's "rules" is the flat form it always was: the core rules, then the variants'
    own in alphabetical order of the variant (cuban, doble15, traditional), each in its
    declared order, whatever order the variant modules registered in."""
    saved = json.loads((FIXTURES / "cuban_domino.json").read_text(encoding="utf-8"))["rules"]
    assert list(HouseRules().to_dict()) == list(saved)
    assert list(saved)[-7:] == ["cuban_opener", "cuban_count", "doble15_draw",
                                "doble15_trigger", "doble15_fifteen", "doble15_block",
                                "opener_tie"]
    assert [v.name for v in VARIANTS.values()].index("traditional") < \
        [v.name for v in VARIANTS.values()].index("cuban")  # registry order is not the order
    for path in sorted(FIXTURES.glob("*.json")):
        records = json.loads(path.read_text(encoding="utf-8"))
        for record in records if isinstance(records, list) else [records]:
            rules = HouseRules.from_dict(record["rules"])
            if list(record["rules"]) == list(saved):  # a complete record: written the same
                assert json.dumps(rules.to_dict()) == json.dumps(record["rules"]), path.name


def test_regenerated_fixtures_are_the_same_bytes(tmp_path, monkeypatch):
    """tests/engine/data/make_fixtures.py writes every frozen record byte for byte again."""
    spec = importlib.util.spec_from_file_location("make_fixtures",
                                                  FIXTURES / "make_fixtures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "HERE", tmp_path)
    module.main()
    written = sorted(p.name for p in tmp_path.iterdir())
    assert len(written) == 9
    for name in written:
        assert (tmp_path / name).read_bytes() == (FIXTURES / name).read_bytes(), name


def test_a_games_own_end_reasons_are_its_modules():
    """Issue 46 part 3: the base engine's EndReason names only how every game ends (§1.8); a
    game's own ways (Ponce's match point mid-hand, Cuban's redeal) are its module's
    END_REASONS, named by no other game, and a redeal counts for nobody (void_ends)."""
    import pkgutil
    from typing import get_args

    import engine.variants
    from engine.events import EndReason

    own = {}
    for info in pkgutil.iter_modules(engine.variants.__path__):
        module = importlib.import_module(f"engine.variants.{info.name}")
        own.update({reason: info.name for reason in getattr(module, "END_REASONS", ())})
    assert set(get_args(EndReason)) == {"domino", "tranque"}
    assert own == {"target": "ponce", "annulled": "cuban"}
    assert VARIANTS["cuban"].void_ends == ("annulled",)
    assert all(not v.void_ends for name, v in VARIANTS.items() if name != "cuban")
