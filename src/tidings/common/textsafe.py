"""Control characters out of everything tidings shows: one function, `clean`, for every output.

Titles, bodies, logins, labels, paths and branch names are written by strangers and stored as
they came (the store stays lossless). On the way out they may carry bytes a reader never sees
but a program obeys: an ESC or OSC sequence makes a terminal retitle its window, draw a
hyperlink or rewrite the screen; NUL and other C0/C1 codes confuse terminals, XML (which forbids
most of them) and PDF text; bidirectional overrides make text display in a different order from
the one it is read in ("Trojan Source"). `clean` removes all of these and keeps tab and newline.
Markdown, HTML, the Atom feed, PDFs and terminal tables call it before they escape text.
"""

from __future__ import annotations

import re
from typing import Any

# Whole escape sequences first, so "\x1b[31mred" shows as "red" rather than "[31mred": CSI
# (ESC [ or 8-bit 0x9B, parameters, one final byte), and string sequences (OSC, DCS, SOS, PM,
# APC; ESC-introduced or 8-bit) up to their terminator, BEL or ST. An unterminated one is left
# to the character pass below, which removes its introducer and keeps the text.
_SEQUENCE = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]"
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)"
)
# C0 except tab and newline (carriage returns become newlines first), DEL, C1, and the bidi
# embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069). Also what no UTF-8 file
# or XML document can hold: lone surrogates (JSON's "\ud800" decodes to one) and U+FFFE/FFFF.
_CONTROL = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufffe\uffff]"
)
_CR = re.compile(r"\r\n?")
# What JSON leaves literal but a terminal or an editor may act on: DEL, C1, bidi controls,
# and the two line separators JavaScript treats as line ends. JSON escapes C0 itself.
_JSON_RISKY = re.compile("[\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def clean(text: str) -> str:
    """`text` without control characters (tab and newline kept; CR and CRLF become newline)."""
    if _CONTROL.search(text) is None:
        return text
    text = _CR.sub("\n", text)
    return _CONTROL.sub("", _SEQUENCE.sub("", text))


def json_safe(text: str) -> str:
    """JSON text with every risky character inside its strings written as a `\\uXXXX` escape.

    The same JSON value (a reader gets the same strings back, so nothing is lost), but `cat`
    on a terminal shows escapes instead of obeying them. Such characters can only occur inside
    JSON strings, where an escape means the same character, so a plain substitution is exact.
    """
    return _JSON_RISKY.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


_SURROGATE = re.compile("[\ud800-\udfff]")


def without_surrogates(value: Any) -> Any:
    """`value` (a str, or dicts and lists of them, as `model_dump()` gives) with each lone
    surrogate as U+FFFD: what a UTF-8 file can hold. The store keeps the original
    (store/types.py); a snapshot or a report file, read by others, gets the replacement."""
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, dict):
        return {without_surrogates(k): without_surrogates(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(without_surrogates(v) for v in value)
    return value
