"""The fonts a PDF is laid out with: whether a Chinese one is installed, and which files.

WeasyPrint finds fonts through fontconfig (via Pango). Without a font covering Chinese, a zh
PDF comes out with every character a box and no error at all, so a PDF of a zh report is
checked first (`missing_fonts`): the question asked is fontconfig's own (`fc-list :lang=zh`),
through the same libfontconfig WeasyPrint loads, with the same FONTCONFIG_FILE/_PATH.

The font files themselves are part of a PDF's cache key (`fonts_key`): installing a font
later changes the key, so a PDF laid out without it is made again, not kept for good.

Both answers are worked out once per process: fontconfig reads its cache in a few
milliseconds, but a site build asks for every report.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import hashlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any, NamedTuple

from tidings.common.config import Lang
from tidings.errors import TidingsError

# The families the print CSS names (render/pdf.py PRINT_CSS), in its order.
PRINT_FAMILIES = ("Noto Sans CJK SC", "Noto Sans", "sans-serif")

CJK_PACKAGES = (
    "fonts-noto-cjk (Debian, Ubuntu), google-noto-sans-cjk-fonts (Fedora), "
    "noto-fonts-cjk (Arch), font-noto-cjk (Alpine)"
)

_MATCH = 0  # FcResultMatch
_MATCH_PATTERN = 0  # FcMatchPattern


class _FontSet(ctypes.Structure):
    _fields_ = [
        ("nfont", ctypes.c_int),
        ("sfont", ctypes.c_int),
        ("fonts", ctypes.POINTER(ctypes.c_void_p)),
    ]


@cache
def _fontconfig() -> Any | None:
    """libfontconfig, or None where it cannot be loaded (then WeasyPrint cannot run either)."""
    name = ctypes.util.find_library("fontconfig") or "libfontconfig.so.1"
    try:
        lib = ctypes.CDLL(name)
    except OSError:
        return None
    lib.FcInitLoadConfigAndFonts.restype = ctypes.c_void_p
    lib.FcConfigDestroy.argtypes = [ctypes.c_void_p]
    lib.FcNameParse.restype = ctypes.c_void_p
    lib.FcNameParse.argtypes = [ctypes.c_char_p]
    lib.FcPatternDestroy.argtypes = [ctypes.c_void_p]
    lib.FcObjectSetBuild.restype = ctypes.c_void_p
    lib.FcObjectSetDestroy.argtypes = [ctypes.c_void_p]
    lib.FcFontList.restype = ctypes.POINTER(_FontSet)
    lib.FcFontList.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
    lib.FcFontSetDestroy.argtypes = [ctypes.POINTER(_FontSet)]
    lib.FcPatternGetString.argtypes = [
        ctypes.c_void_p,
        ctypes.c_char_p,
        ctypes.c_int,
        ctypes.POINTER(ctypes.c_char_p),
    ]
    lib.FcConfigSubstitute.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int]
    lib.FcDefaultSubstitute.argtypes = [ctypes.c_void_p]
    lib.FcFontMatch.restype = ctypes.c_void_p
    lib.FcFontMatch.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]
    return lib


@contextmanager
def _config(lib: Any) -> Iterator[int]:
    config = lib.FcInitLoadConfigAndFonts()
    try:
        yield config
    finally:
        if config:
            lib.FcConfigDestroy(config)


def _file_of(lib: Any, pattern: int) -> str | None:
    value = ctypes.c_char_p()
    if lib.FcPatternGetString(pattern, b"file", 0, ctypes.byref(value)) != _MATCH:
        return None
    raw = value.value
    return os.fsdecode(raw) if raw else None


def _listed(lib: Any, config: int, query: bytes) -> list[str]:
    """The font files fontconfig lists for `query`: `fc-list QUERY file`."""
    pattern = lib.FcNameParse(query)
    objects = lib.FcObjectSetBuild(b"file", None)
    found = lib.FcFontList(config, pattern, objects)
    try:
        if not found:
            return []
        fonts = found.contents
        files = (_file_of(lib, fonts.fonts[k]) for k in range(fonts.nfont))
        return sorted({f for f in files if f})
    finally:
        if found:
            lib.FcFontSetDestroy(found)
        lib.FcObjectSetDestroy(objects)
        lib.FcPatternDestroy(pattern)


def _matched(lib: Any, config: int, family: str) -> str | None:
    """The font file fontconfig picks for a family: `fc-match FAMILY file`."""
    pattern = lib.FcNameParse(family.encode("utf-8"))
    try:
        lib.FcConfigSubstitute(config, pattern, _MATCH_PATTERN)
        lib.FcDefaultSubstitute(pattern)
        result = ctypes.c_int()
        match = lib.FcFontMatch(config, pattern, ctypes.byref(result))
        if not match:
            return None
        try:
            return _file_of(lib, match)
        finally:
            lib.FcPatternDestroy(match)
    finally:
        lib.FcPatternDestroy(pattern)


class _Survey(NamedTuple):
    chinese: tuple[str, ...] | None  # None: fontconfig could not be asked
    key: str


@cache
def _survey() -> _Survey:
    """One look at fontconfig per process: the files covering Chinese and the fonts' key."""
    lib = _fontconfig()
    if lib is None:
        return _Survey(None, "no-fontconfig")
    with _config(lib) as config:
        if not config:
            return _Survey(None, "no-fontconfig")
        chinese = tuple(_listed(lib, config, b":lang=zh"))
        files = {_matched(lib, config, family) for family in PRINT_FAMILIES} | set(chinese)
    stamps = sorted(_stamp(f) for f in files if f)
    return _Survey(chinese, hashlib.sha256("\n".join(stamps).encode("utf-8")).hexdigest())


def _stamp(path: str) -> str:
    try:
        info = os.stat(path)
    except OSError:
        return f"{os.path.basename(path)}:gone"
    return f"{os.path.basename(path)}:{info.st_size}:{info.st_mtime_ns}"


def chinese_fonts() -> tuple[str, ...] | None:
    """The font files that cover Chinese (`fc-list :lang=zh`); None when fontconfig cannot
    be asked, so nobody is refused on a guess."""
    return _survey().chinese


def fonts_key() -> str:
    """What a PDF's glyphs come from: the files fontconfig picks for the print CSS's
    families and every file that covers Chinese (name, size, mtime), hashed. A font
    installed, removed or upgraded changes it."""
    return _survey().key


def missing_fonts(lang: str) -> str | None:
    """Why a PDF in `lang` cannot be read on this machine (one line), or None when it can.
    English needs no more than any font; Chinese needs one that covers it."""
    if lang != "zh" or chinese_fonts() != ():
        return None
    return "no font on this machine covers Chinese, so a zh PDF would show boxes"


def fonts_error(lang: Lang) -> TidingsError | None:
    """The refusal of a PDF the user asked for, or None when its fonts are there."""
    why = missing_fonts(lang)
    if why is None:
        return None
    return TidingsError(
        why, f"install a CJK font: {CJK_PACKAGES}; or ask for --lang en or Markdown"
    )
