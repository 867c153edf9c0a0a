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
