"""Tests for tutor.teaching.answers: what a student may type, what is refused, and that nothing
hangs.

docs/rules.md §4, "The answer is a number": a final answer is an integer as a person writes it;
text with an operation in it is the working, not the answer (docs/teaching.md)."""

from __future__ import annotations

import doctest
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tutor.teaching.answers as answers
from tutor.teaching.answers import AnswerError, Reading, is_correct, parse_answer, read_answer


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("45", 45), ("  45  ", 45), ("+45", 45), ("-15", -15), ("−15", -15), ("0", 0),
        ("5x9", 45), ("5X9", 45), ("5 x 9 =", 45), ("5×9", 45), ("5*9", 45), ("2·9", 18),
        ("7^2", 49), ("7²", 49), ("2³", 8), ("2¹⁰", 1024), ("7**2", 49),
        ("-(6+9)", -15), ("−(6 + 9)", -15), ("(3+4)x2", 14), ("3+4x2", 11), ("10-4-3", 3),
        ("-7^2", -49), ("(-7)^2", 49), ("(-7)²", 49), ("2^3^2", 512), ("5*-3", -15),
        ("5--3", 8), ("--5", 5), ("45=", 45), ("45.", 45), ("5x9=45", 45), ("= 45", 45),
        ("1,000", 1000), ("٤٥", 45), ("４５", 45), ("0^0", 1), ("((((7))))", 7),
        ("6 x (−3)", -18), ("10^12", 10**12), ("-10^12", -(10**12)),
    ],
)
def test_accepted_answers(text: str, expected: int) -> None:
    assert parse_answer(text) == expected


@pytest.mark.parametrize(
    ("text", "lang", "expected"),
    [("1.000", "es", 1000), ("1.234.567", "es", 1234567), ("1,234,567", "en", 1234567),
     ("5 x 9 =", "es", 45), ("45", "es_MX", 45)],
)
def test_thousands_separators_follow_the_language(text: str, lang: str, expected: int) -> None:
    assert parse_answer(text, lang) == expected


@pytest.mark.parametrize(
    ("text", "lang", "code"),
    [
        ("", "en", "empty"), ("   ", "es", "empty"), ("=", "en", "empty"), ("=.", "en", "empty"),
        ("4.5", "en", "not_whole"), ("4,5", "es", "not_whole"), ("4.5", "es", "not_whole"),
        ("4,5", "en", "not_whole"), ("1.000", "en", "not_whole"), ("1,000", "es", "not_whole"),
        (".5", "en", "not_whole"), ("2^-1", "en", "not_whole"),
        ("abc", "en", "letters"), ("cuarenta", "es", "letters"), ("1e5", "en", "letters"),
        ("9" * 201, "en", "too_long"), ("9" * 14, "en", "too_big"), ("10^12+1", "en", "too_big"),
        ("999999x999999x9", "en", "too_big"), ("9^13", "en", "exponent"),
        ("9^9^9", "en", "exponent"), ("9**9**9", "en", "exponent"), ("2^100", "en", "exponent"),
        ("45/5", "en", "division"), ("45÷5", "es", "division"), ("45:5", "es", "division"),
        ("(" * 30 + "1" + ")" * 30, "en", "nesting"),
        ("5 9", "en", "syntax"), ("(5", "en", "syntax"), ("5)", "en", "syntax"),
        ("5+", "en", "syntax"), ("x5", "en", "syntax"), ("²", "en", "syntax"),
        ("5,", "en", "syntax"), ("\x00", "en", "syntax"), ("5 % 2", "en", "syntax"),
        ("()", "en", "syntax"), ("5(3)", "en", "syntax"),
    ],
)
def test_refused_answers_say_why(text: str, lang: str, code: str) -> None:
    with pytest.raises(AnswerError) as info:
        parse_answer(text, lang)
    assert info.value.code == code
    assert isinstance(info.value, ValueError)


def test_messages_speak_the_students_language() -> None:
    with pytest.raises(AnswerError) as es:
        parse_answer("4,5", "es")
    assert str(es.value) == "Escribe un número entero, como 45 (sin decimales)."
    with pytest.raises(AnswerError) as en:
        parse_answer("4.5", "en")
    assert str(en.value) == "Write a whole number, like 45 (no decimals)."
    with pytest.raises(AnswerError) as big:
        parse_answer("10^12 + 1", "es")
    assert "1.000.000.000.000" in str(big.value)
    with pytest.raises(AnswerError) as division:
        parse_answer("10/2", "es")
    assert "división" in str(division.value)


def test_every_error_code_has_a_message_in_both_languages() -> None:
    for code in answers.MESSAGES:
        en = str(AnswerError(code, "en", limit=12))
        es = str(AnswerError(code, "es", limit=12))
        assert en and es and en != es


def test_is_correct() -> None:
    assert is_correct("45", 45) and is_correct("5x9=45", 45) and is_correct("-3", -3)
    assert not is_correct("44", 45)
    assert not is_correct("5x9", 45)  # docs/rules.md §4: the working is not the answer


# docs/rules.md §4 "The answer is a number": (reply, language, what it is: the number written, or
# ("working", what the working comes to), or the AnswerError code).
READINGS: list[tuple[str, str, object]] = [
    # final answers: a number as a person writes it
    ("32", "en", 32), (" 32 ", "en", 32), ("32=", "en", 32), ("32 =", "en", 32),
    ("32.", "en", 32), ("-3", "en", -3), ("−3", "en", -3), ("- 3", "en", -3),
    ("+5", "en", 5), ("0", "en", 0), ("-0", "en", 0), ("(−3)", "en", -3),
    ("((7))", "en", 7), ("1,000", "en", 1000), ("1.000", "es", 1000),
    ("1.234.567", "es", 1234567), ("٣٢", "en", 32), ("３２", "en", 32), ("٣٢", "es", 32),
    ("5x9=45", "en", 45), ("= 45", "en", 45), ("10^12=1000000000000", "en", 10**12),
    ("45", "es_MX", 45), (" 32 ", "en", 32),
    # working: an operation in it; what it comes to is kept for diagnosis only
    ("4*8", "en", ("working", 32)), ("4 x 8", "en", ("working", 32)),
    ("4×8", "es", ("working", 32)), ("5x9", "en", ("working", 45)),
    ("5x9=", "en", ("working", 45)), ("7^2", "en", ("working", 49)),
    ("7²", "en", ("working", 49)), ("7**2", "en", ("working", 49)),
    ("12-15", "en", ("working", -3)), ("12 − 15", "es", ("working", -3)),
    ("0+32", "en", ("working", 32)), ("32+0", "en", ("working", 32)),
    ("32*1", "en", ("working", 32)), ("5*(4+5)", "en", ("working", 45)),
    ("-(6+9)", "en", ("working", -15)), ("--5", "en", ("working", 5)),
    ("+-5", "en", ("working", -5)), ("(3+4)x2", "en", ("working", 14)),
    ("1.000+1", "es", ("working", 1001)), ("2·16", "en", ("working", 32)),
    ("45=5x9", "en", ("working", 45)), ("٤×٨", "en", ("working", 32)),
    # refused: unreadable or hostile, with the existing messages
    ("", "en", "empty"), ("=", "en", "empty"), ("abc", "en", "letters"),
    ("treinta", "es", "letters"), ("__import__('os')", "en", "syntax"),
    ("4.5", "en", "not_whole"), ("4,5", "es", "not_whole"), ("1,000", "es", "not_whole"),
    ("32/1", "en", "division"), ("64÷2", "es", "division"), ("9" * 14, "en", "too_big"),
    ("10^12+1", "en", "too_big"), ("9^13", "en", "exponent"),
    ("(" * 30 + "1" + ")" * 30, "en", "nesting"), ("1" * 10_000, "en", "too_long"),
    ("3 2", "en", "syntax"), ("4*", "en", "syntax"), ("x", "en", "syntax"),
]


@pytest.mark.parametrize(("text", "lang", "want"), READINGS,
                         ids=[f"{i}-{t[:12]!r}" for i, (t, _, _) in enumerate(READINGS)])
def test_a_reply_is_a_number_working_or_refused(text: str, lang: str, want: object) -> None:
    if isinstance(want, str):
        with pytest.raises(AnswerError) as info:
            read_answer(text, lang)
        assert info.value.code == want and str(info.value)
        with pytest.raises(AnswerError):  # the older reading refuses the same text
            parse_answer(text, lang)
        return
    reading = read_answer(text, lang)
    assert isinstance(reading, Reading)
    if isinstance(want, tuple):
        assert reading.working and reading.value == want[1]
        assert not is_correct(text, want[1], lang)
    else:
        assert not reading.working and reading.value == want
        assert is_correct(text, want, lang)  # type: ignore[arg-type]
    assert parse_answer(text, lang) == reading.value  # working is still read for diagnosis


def test_the_table_covers_each_kind() -> None:
    kinds = [type(w).__name__ for *_, w in READINGS]
    assert len(READINGS) >= 40
    assert kinds.count("int") >= 15 and kinds.count("tuple") >= 15 and kinds.count("str") >= 15


def test_a_reading_is_frozen_and_keeps_the_text_read() -> None:
    reading = read_answer(" 5 x 9 = ")
    assert reading == Reading(45, True, "5 x 9")
    with pytest.raises(AttributeError):
        reading.value = 1  # type: ignore[misc]
    assert read_answer("5x9=45").text == "45"


HOSTILE = [
    "__import__('os')", "__import__('os').system('ls')", "9**9**9", "9^9^9^9", "().__class__",
    "9" * 1_000_000, "٣", "٣" * 500, "\x00", "1\x00", "lambda: 0", "open('/etc/passwd')",
    "[x for x in ()]", "1 if 1 else 0", "-" * 199 + "1", "(" * 199, "2^" * 99 + "2",
    "(" * 20 + "9" + ")" * 20, "9x" * 99 + "9", "1" + "²" * 199, "\ud800", "𝟗𝟗", "1_000",
    "0x1F", "1e308", "NaN", "inf", "∞", "½", "Ⅻ", "\u202e45", "4\u200b5", " " * 10_000,
]


MAX_WORK = 20_000
"""Lines of tutor/teaching/answers.py one parse may run: the parser's work is bounded by the input's
length limit, whatever the input (counted, not timed, so a busy machine cannot fail it)."""


def parse_with_work(text: str, lang: str,
                    read: Any = parse_answer) -> tuple[int | AnswerError, int]:
    """The parse's result (or error) and how many lines of tutor/teaching/answers.py it ran
    (``read``
    is parse_answer, or read_answer whose value is taken)."""
    lines = 0
    source = answers.__file__

    def local(frame, event, arg):  # type: ignore[no-untyped-def]
        nonlocal lines
        if event == "line":
            lines += 1
        return local

    def trace(frame, event, arg):  # type: ignore[no-untyped-def]
        return local if frame.f_code.co_filename == source else None

    sys.settrace(trace)
    try:
        got = read(text, lang)
        result: int | AnswerError = got.value if isinstance(got, Reading) else got
    except AnswerError as err:
        result = err
    finally:
        sys.settrace(None)
    return result, lines


@pytest.mark.parametrize("text", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_input_is_an_int_or_answer_error_with_bounded_work(text: str) -> None:
    for lang, read in (("en", parse_answer), ("es", parse_answer), ("en", read_answer),
                       ("es", read_answer)):
        result, work = parse_with_work(text, lang, read)
        if not isinstance(result, AnswerError):
            assert isinstance(result, int) and abs(result) <= answers.MAX_ABS
        assert work < MAX_WORK, (text[:40], work)


_ANSWERISH = st.text(alphabet="0123456789+-−x×*·^²³()., =/٣\x00ab", max_size=60)


@pytest.mark.slow
@settings(max_examples=10_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(max_size=250), _ANSWERISH), st.sampled_from(["en", "es"]))
def test_fuzz_only_int_or_answer_error(text: str, lang: str) -> None:
    result, work = parse_with_work(text, lang, read_answer)
    if isinstance(result, AnswerError):
        assert result.code in answers.MESSAGES and str(result)
    else:
        assert type(result) is int and abs(result) <= answers.MAX_ABS
    assert work < MAX_WORK, (text, work)


def test_doctests() -> None:
    assert doctest.testmod(answers).failed == 0
