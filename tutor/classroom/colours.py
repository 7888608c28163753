"""Colours of the class heat map: a mastery scale whose every step carries its text with at
least the contrast WCAG AA asks of normal text (4.5:1), checked by the formulas of WCAG 2."""

from __future__ import annotations

__all__ = ["AA_CONTRAST", "DARK_TEXT", "LIGHT_TEXT", "MASTERY_STEPS", "MASTERED", "NOT_ASKED",
           "contrast_ratio", "mastery_colours", "relative_luminance"]

AA_CONTRAST = 4.5
DARK_TEXT = "#1f2933"
LIGHT_TEXT = "#ffffff"

MASTERY_STEPS: tuple[tuple[float, str], ...] = (
    (0.25, "#ffffcc"),
    (0.50, "#c7e9b4"),
    (0.75, "#7fcdbb"),
    (1.01, "#41b6c4"),
)
"""(upper bound of the chance known, background) for a skill not yet mastered: a light
sequential scale (yellow to blue-green, readable by colour-blind eyes; the numbers are in the
cells anyway)."""
MASTERED = "#225ea8"
"""A mastered skill: dark blue, white text."""
NOT_ASKED = ("#f4f5f7", "#52606d")
"""(background, text) of a skill the student was not asked."""


def relative_luminance(colour: str) -> float:
    """WCAG 2 relative luminance of ``#rrggbb``.

    >>> relative_luminance("#ffffff"), relative_luminance("#000000")
    (1.0, 0.0)
    """
    code = colour.lstrip("#")
    if len(code) != 6:
        raise ValueError(f"not a #rrggbb colour: {colour!r}")

    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(int(code[i:i + 2], 16) / 255) for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two colours (1 to 21).

    >>> round(contrast_ratio("#ffffff", "#000000"), 1)
    21.0
    """
    high, low = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _text_on(background: str) -> str:
    return max((DARK_TEXT, LIGHT_TEXT), key=lambda text: contrast_ratio(text, background))


def mastery_colours(p_known: float | None, mastered: bool = False) -> tuple[str, str]:
    """(background, text colour) of a heat-map cell: ``p_known`` None means not asked."""
    if p_known is None:
        return NOT_ASKED
    if mastered:
        return MASTERED, _text_on(MASTERED)
    for bound, background in MASTERY_STEPS:
        if p_known < bound:
            return background, _text_on(background)
    return MASTERY_STEPS[-1][1], _text_on(MASTERY_STEPS[-1][1])
