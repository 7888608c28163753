"""What a placement scores at once: a power tile's effect (docs/rules.md §1.6) and the kind of a
capicúa (§1.8). Plain functions over a round, which :class:`~engine.round.Round`'s placement,
its ``play_points`` and the playout kernel call. (§1.7's pass bonuses are paid with the
pass, :mod:`engine.turns`.)"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import Play
from .events import PowerEffect

if TYPE_CHECKING:
    from .round import Round


def effect(rnd: Round, tid: int, other: int) -> tuple[str, int, int, int | None]:
    """§1.6 for tile ``tid`` placed with tile ``other`` at the other end (-1: none, an
    opening): the rule applied, gain, loss and T."""
    tab = rnd.tab
    if other < 0:
        return "neutralized", 0, 0, None
    k = tid * tab.n + other
    rule = "power-vs-power" if tab.power[other] else tab.rule[tid]
    return rule, tab.effect_gain[k], tab.effect_loss[k], tab.total[other]


def play_points(rnd: Round, play: Play) -> tuple[int, int]:
    """``(gain, loss inflicted)`` that placing ``play`` now would score at once from its power
    effect; ``(0, 0)`` for a basic tile or an opening. Reads only the line."""
    tid = rnd.tab.tileset.id(play.tile)
    if not rnd.tab.power[tid] or play.end is None:
        return 0, 0
    end = rnd.line.shape.index(play.end)
    _, gain, loss, _ = effect(rnd, tid, rnd.line.other_tip(end))
    return gain, loss


def power(rnd: Round, seat: int, tid: int, other: int) -> None:
    """``seat`` just placed power tile ``tid`` with ``other`` at the other end: it gains, and
    the next seat loses, by §1.6 (logged as the last placement's :class:`PowerEffect`)."""
    target = (seat + 1) % rnd.players
    rule, gain, loss, t = effect(rnd, tid, other)
    rnd.gains[seat] += gain
    rnd.losses[target] += loss
    if rnd.record:
        rnd.log.append(PowerEffect(seat, target, rnd.log[-1].tile,  # type: ignore[union-attr]
                                   rule, gain, loss, t, rnd.tile_of(other), rnd.tab.number[tid]))


def capicua_kind(rnd: Round, tid: int, end_tiles: tuple[int, int]) -> str:
    """The capicúa's kind when ``tid``, the last tile, fits both ends, whose tiles were
    ``end_tiles``: "KP" with a power tile (the last one, or one at an end, by the house rule),
    else "K"."""
    power = rnd.tab.power
    if rnd.rules.capicua_kind == "last-tile":
        return "KP" if power[tid] else "K"
    return "KP" if power[end_tiles[0]] or power[end_tiles[1]] else "K"

