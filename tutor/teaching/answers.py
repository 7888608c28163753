"""Safe reading of a student's typed reply: a final answer ("45", "-15") or working ("5x9").

docs/rules.md §4, "The answer is a number": a final answer is an integer as a person writes it;
text with an operation in it (``4*8``, ``7^2``, ``12-15``) is the student's working, which
the tutor never computes for them. :func:`read_answer` says which of the two a reply is (and
what the working would come to, for diagnosis); :func:`parse_answer` is the older reading that
evaluates either.

The parser is a small tokenizer plus a recursive-descent parser over a fixed
whitelist of symbols; it never hands text to Python.  Every size is capped
(text length, digits per number, exponent, every intermediate result, nesting
depth), so no input can hang or exhaust memory.

Choices a teacher may want to know:

* ``x X × * · ⋅ ∙`` multiply; ``^`` and ``**`` are powers (never XOR);
  ``²``, ``³`` and other superscript digits are powers too.
* ``−`` (unicode minus) and dashes count as minus.
* Decimal digits of other scripts (``٤٥``, full-width ``４５``) are read as
  the same digits, so a student on another keyboard layout is not blocked.
* The decimal sign of the student's language (``.`` in English, ``,`` in
  Spanish) means "not a whole number".  The other sign followed by groups of
  exactly three digits is a thousands separator (``1,000`` / ``1.000``).
* A trailing ``=`` or full stop is ignored; with ``5x9=45`` the part after ``=`` is the answer.
* Division is refused with an explanation: every answer here is a whole number.

What :func:`read_answer` calls a final answer: one number, with at most one sign before it
(``-15``, ``−15``, ``+15``: a gain is often written with its plus), spaces anywhere, in any
number of parentheses (``(−3)``: nothing is computed). Everything else the parser reads is
working: two numbers or more (``0+32``, ``7²``, ``5x9``), or a sign on a sign (``--5``).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from tutor.i18n import N_, format_number, normalize_lang, translator

__all__ = [
    "MAX_ABS",
    "MAX_EXPONENT",
    "MAX_LENGTH",
    "MAX_NESTING",
    "AnswerError",
    "Reading",
    "is_correct",
    "parse_answer",
    "read_answer",
]

MAX_LENGTH = 200
MAX_ABS = 10**12
MAX_DIGITS = 13  # more digits than this is above MAX_ABS whatever they are
MAX_EXPONENT = 12
MAX_NESTING = 20

MESSAGES: dict[str, str] = {
    "empty": N_("Write your answer as a whole number, like 45."),
    "not_whole": N_("Write a whole number, like 45 (no decimals)."),
    "letters": N_("Use digits, not letters: write a whole number, like 45."),
    "too_long": N_("That answer is too long. Write a whole number, like 45."),
    "too_big": N_("That number is too big. The answer here is at most {limit}."),
    "exponent": N_("Use a power from 0 to {limit}, like 7^2."),
    "division": N_("Division is not used here; write the whole number, like 45."),
    "nesting": N_("Too many parentheses. Write a whole number, like 45."),
    "syntax": N_("I could not read that. Write a whole number, like 45."),
}


class AnswerError(ValueError):
    """A typed answer that is not a whole number; ``str()`` speaks the student's language.

    ``code`` names the problem for tests and the UI: one of the keys of ``MESSAGES``.
    """

    def __init__(self, code: str, lang: str = "en", **params: object) -> None:
        self.code = code
        self.lang = lang
        self.params = params
        super().__init__(translator(lang)(MESSAGES[code]).format(**params))


_TIMES = frozenset("xX×*·⋅∙✕")
_MINUS = frozenset("-−–‐‑—")
_PLUS = frozenset("+＋")
_DIVIDE = frozenset("/÷:∕")
_SUPERSCRIPT = {c: i for i, c in enumerate("⁰¹²³⁴⁵⁶⁷⁸⁹")}
_SPACES = frozenset(" \t\u00a0\u202f\u2009")

# Token kinds: "num" (int value), "op" ('+', '-', '*', '^', '(', ')').
Token = tuple[str, int | str]


def _digit(ch: str) -> int | None:
    if "0" <= ch <= "9":
        return ord(ch) - 48
    if ch.isascii():
        return None
    value = unicodedata.decimal(ch, None)
    return value


def _read_number(text: str, i: int, lang: str) -> tuple[int, int]:
    """Read digits (with thousands separators) starting at ``i``; return (value, next index)."""
    decimal_sign, group_sign = (",", ".") if lang == "es" else (".", ",")
    n = len(text)
    digits: list[int] = []
    while True:
        while i < n and (d := _digit(text[i])) is not None:
            digits.append(d)
            i += 1
        if i < n and text[i] in ".,":
            j = i + 1
            while j < n and _digit(text[j]) is not None:
                j += 1
            run = j - i - 1
            if text[i] == decimal_sign or run != 3:
                if run or text[i] == decimal_sign:
                    raise AnswerError("not_whole", lang)
                raise AnswerError("syntax", lang)
            i += 1
            continue
        break
    if len(digits) > MAX_DIGITS:
        raise AnswerError("too_big", lang, limit=_limit(lang))
    value = 0
    for d in digits:
        value = value * 10 + d
    return value, i


def _limit(lang: str) -> str:
    return format_number(MAX_ABS, lang)


def _tokenize(text: str, lang: str) -> list[Token]:
    tokens: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in _SPACES:
            i += 1
        elif _digit(ch) is not None:
            value, i = _read_number(text, i, lang)
            tokens.append(("num", value))
        elif ch in ".,":
            if i + 1 < n and _digit(text[i + 1]) is not None:
                raise AnswerError("not_whole", lang)
            raise AnswerError("syntax", lang)
        elif ch in _TIMES:
            if ch == "*" and text.startswith("**", i):
                tokens.append(("op", "^"))
                i += 2
            else:
                tokens.append(("op", "*"))
                i += 1
        elif ch == "^":
            tokens.append(("op", "^"))
            i += 1
        elif ch in _SUPERSCRIPT:
            exponent = 0
            while i < n and text[i] in _SUPERSCRIPT:
                exponent = min(exponent * 10 + _SUPERSCRIPT[text[i]], MAX_EXPONENT + 1)
                i += 1
            tokens += [("op", "^"), ("num", exponent)]
        elif ch in _MINUS:
            tokens.append(("op", "-"))
            i += 1
        elif ch in _PLUS:
            tokens.append(("op", "+"))
            i += 1
        elif ch in "()":
            tokens.append(("op", ch))
            i += 1
        elif ch in _DIVIDE:
            raise AnswerError("division", lang)
        elif ch.isalpha():
            raise AnswerError("letters", lang)
        else:
            raise AnswerError("syntax", lang)
    return tokens


class _Parser:
    """Recursive descent over: expr = term {(+|-) term}; term = power {* power};
    power = unary [^ power]; unary = {+|-} atom; atom = num | ( expr ).
    Sign binds looser than power, so -7^2 is -49 as in school algebra."""

    def __init__(self, tokens: list[Token], lang: str) -> None:
        self.tokens = tokens
        self.pos = 0
        self.lang = lang
        self.depth = 0

    def peek(self) -> Token | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> Token:
        tok = self.peek()
        if tok is None:
            raise AnswerError("syntax", self.lang)
        self.pos += 1
        return tok

    def check(self, value: int) -> int:
        if abs(value) > MAX_ABS:
            raise AnswerError("too_big", self.lang, limit=_limit(self.lang))
        return value

    def expr(self) -> int:
        value = self.term()
        while (tok := self.peek()) is not None and tok[1] in ("+", "-"):
            self.pos += 1
            right = self.term()
            value = self.check(value + right if tok[1] == "+" else value - right)
        return value

    def term(self) -> int:
        value = self.power()
        while (tok := self.peek()) is not None and tok[1] == "*":
            self.pos += 1
            value = self.check(value * self.power())
        return value

    def power(self) -> int:
        # Right-associative a^b^c, done with a loop so long chains cannot recurse deeply.
        sign, operands = self.signed_atom()
        stack: list[tuple[int, int]] = [(sign, operands)]
        while (tok := self.peek()) is not None and tok[1] == "^":
            self.pos += 1
            stack.append(self.signed_atom())
        sign, result = stack.pop()
        result *= sign
        while stack:
            sign, base = stack.pop()
            if result < 0:
                raise AnswerError("not_whole", self.lang)
            if result > MAX_EXPONENT:
                raise AnswerError("exponent", self.lang, limit=MAX_EXPONENT)
            result = sign * self.check(base**result)
        return result

    def signed_atom(self) -> tuple[int, int]:
        sign = 1
        while (tok := self.peek()) is not None and tok[1] in ("+", "-"):
            self.pos += 1
            if tok[1] == "-":
                sign = -sign
        return sign, self.atom()

    def atom(self) -> int:
        kind, value = self.take()
        if kind == "num":
            assert isinstance(value, int)
            return self.check(value)
        if value != "(":
            raise AnswerError("syntax", self.lang)
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise AnswerError("nesting", self.lang)
        inner = self.expr()
        if self.take()[1] != ")":
            raise AnswerError("syntax", self.lang)
        self.depth -= 1
        return inner


@dataclass(frozen=True)
class Reading:
    """What a student's reply is: a final answer, or working (docs/rules.md §4)."""

    value: int
    """The number written; for working, the number the working comes to (for diagnosis
    only: the tutor never takes it as the student's answer)."""
    working: bool
    """The reply has an operation in it (``4*8``, ``7^2``, ``12-15``): it is not an answer."""
    text: str
    """The part of the reply that was read (after a final ``=``, the part after it)."""


def _body(text: str, lang: str) -> str:
    """The part of ``text`` to read: without a final ``=`` or full stop, and after an ``=``
    (``5x9=45`` answers 45)."""
    if not isinstance(text, str):
        raise AnswerError("syntax", lang)
    if len(text) > MAX_LENGTH:
        raise AnswerError("too_long", lang)
    # A final "=" or a full stop closing the sentence is not part of the number.
    body = text.strip().rstrip("=.").strip()
    if "=" in body:
        body = body.rsplit("=", 1)[1].strip()
    if not body:
        raise AnswerError("empty", lang)
    return body


def _evaluate(tokens: list[Token], lang: str) -> int:
    if not tokens:
        raise AnswerError("empty", lang)
    parser = _Parser(tokens, lang)
    value = parser.expr()
    if parser.pos != len(tokens):
        raise AnswerError("syntax", lang)
    return value


def _is_number(tokens: list[Token]) -> bool:
    """One number with at most one sign before it, parentheses aside: nothing to compute."""
    rest = [t for t in tokens if t[1] not in ("(", ")")]
    if len(rest) == 2 and rest[0][1] in ("+", "-"):
        rest = rest[1:]
    return len(rest) == 1 and rest[0][0] == "num"


def read_answer(text: str, lang: str = "en") -> Reading:
    """A reply read as a final answer or as working; :class:`AnswerError` if it is neither
    (unreadable or hostile text, decimals, division, a number too big).

    >>> read_answer("45")
    Reading(value=45, working=False, text='45')
    >>> read_answer("5 x 9 =")
    Reading(value=45, working=True, text='5 x 9')
    >>> read_answer("5x9=45").working, read_answer("−(6+9)").working, read_answer("(−3)").value
    (False, True, -3)
    """
    lang = normalize_lang(lang)
    body = _body(text, lang)
    tokens = _tokenize(body, lang)
    # The common reply, a number with or without its sign, needs no parser.
    n = len(tokens)
    if n == 1 and tokens[0][0] == "num":
        value = tokens[0][1]
    elif n == 2 and tokens[0][1] in ("+", "-") and tokens[1][0] == "num":
        number = tokens[1][1]
        assert isinstance(number, int)  # a "num" token holds its int
        value = number if tokens[0][1] == "+" else -number
    else:  # working, unless only parentheses wrap the number: "(−3)"
        working = ("op", "(") not in tokens or not _is_number(tokens)
        return Reading(_evaluate(tokens, lang), working, body)
    assert isinstance(value, int)
    if abs(value) > MAX_ABS:
        raise AnswerError("too_big", lang, limit=_limit(lang))
    return Reading(value, False, body)


def parse_answer(text: str, lang: str = "en") -> int:
    """The whole number a reply comes to, working included, or :class:`AnswerError` saying
    what to fix. The tutor's questions take a final answer only: see :func:`read_answer`.

    >>> parse_answer("5 x 9 =")
    45
    >>> parse_answer("-(6+9)")
    -15
    >>> parse_answer("4,5", lang="es")
    Traceback (most recent call last):
    ...
    tutor.teaching.answers.AnswerError: Escribe un número entero, como 45 (sin decimales).
    """
    lang = normalize_lang(lang)
    return _evaluate(_tokenize(_body(text, lang), lang), lang)


def is_correct(text: str, expected: int, lang: str = "en") -> bool:
    """Whether ``text`` is the final answer ``expected``: working (``5x9``) is not an answer,
    whatever it comes to (docs/rules.md §4). Unreadable text raises :class:`AnswerError`."""
    reading = read_answer(text, lang)
    return not reading.working and reading.value == expected
