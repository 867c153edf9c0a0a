"""The one sanitizer: no control character or escape reaches a terminal."""

from hypothesis import given
from hypothesis import strategies as st

from tcdebug.textsafe import safe_line, safe_text

HOSTILE = "f\x1b]52;c;QUFB\x07\x1b]2;PWNED\x07\x1b[2J\u202eevil"


def test_escape_sequences_become_visible() -> None:
    out = safe_text(HOSTILE)
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
    assert out == "f␛]52;c;QUFB\\x07␛]2;PWNED\\x07␛[2J\\u202eevil"


def test_tabs_and_newlines_kept_only_in_text() -> None:
    assert safe_text("a\tb\nc\r\nd") == "a\tb\nc\nd"
    assert safe_line("a\tb\nc\rd") == "a\tb\\nc\\rd"


@given(st.text())
def test_nothing_unsafe_survives(text: str) -> None:
    for out in (safe_text(text), safe_line(text)):
        assert not any(
            (ord(ch) < 0x20 and ch not in "\t\n") or 0x7F <= ord(ch) <= 0x9F or 0x202A <= ord(ch) <= 0x202E
            for ch in out
        )
    assert "\n" not in safe_line(text)


def test_invisible_characters_and_lone_surrogates_become_visible() -> None:
    text = "a\u200bb\u200cc\u200dd\u2060e\ufefff\u00adg\u2028h\u2029i\ud800j"
    assert safe_line(text) == "a\\u200bb\\u200cc\\u200dd\\u2060e\\ufefff\\xadg\\u2028h\\u2029i\\ud800j"
    safe_line(text).encode("utf-8")  # nothing left that UTF-8 cannot write


def test_text_fits_a_terminal_that_is_not_utf8() -> None:
    from tcdebug.textsafe import fit_encoding

    bar = "Codegen ███▌   1.0s · ␛]2;x é"
    assert fit_encoding(bar, "utf-8") == bar
    assert fit_encoding(bar, "ascii") == "Codegen ###=   1.0s - \\x1b]2;x \\xe9"
    assert fit_encoding(bar, "latin-1") == "Codegen ###=   1.0s - \\x1b]2;x é"
    assert fit_encoding(bar, "no-such-codec") == fit_encoding(bar, "ascii")
