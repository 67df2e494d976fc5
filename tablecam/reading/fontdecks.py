"""Made-up decks drawn from the machine's fonts, for training the card reader.

The SVG decks of the Debian card-art packages are only a couple of dozen index designs,
and a reader trained on them alone learns those designs rather than what a rank and a
suit look like.  Real decks print their corner indices in many more type faces.  This
module draws whole decks in the standard French pattern with a random type face, size,
weight, spacing and ink for the index, suit signs taken from a font that has them, pips
laid out as on ordinary number cards and a framed picture on the court cards (the parts
of a face that reach into the index corners the reader looks at).  They are faces like
``tablecam.render.decks.DeckFaces.face`` gives: H x W x 4 BGRA, portrait, transparent
outside the rounded corners.

Nothing here copies a deck's art: the glyphs are the installed fonts' own, and the
layout is drawn from random parameters.  ``font_files`` lists what the machine has
(Debian's ``fonts-*`` packages); a deck is reproducible from its seed on the same fonts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt
from PIL import Image, ImageDraw, ImageFont

from tablecam.cards import FULL_DECK, Card, Rank, Suit

BGRA = npt.NDArray[np.uint8]

FONT_DIRS: Final = (Path("/usr/share/fonts"),)
#: fonts whose letters are pictures or symbols, not Latin letters and digits
_NOT_TEXT: Final = ("D050000L", "StandardSymbols", "Math", "dingbat", "Dingbat", "Symbol")
SUIT_SIGNS: Final = {Suit.CLUBS: "\u2663", Suit.DIAMONDS: "\u2666", Suit.HEARTS: "\u2665",
                     Suit.SPADES: "\u2660"}
RANK_TEXT: Final = {Rank.ACE: "A", Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K"}
#: pip centres of the number cards on a unit card (x, y in 0..1 of the pip area)
PIPS: Final[dict[int, tuple[tuple[float, float], ...]]] = {
    2: ((0.5, 0.0), (0.5, 1.0)),
    3: ((0.5, 0.0), (0.5, 0.5), (0.5, 1.0)),
    4: ((0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)),
    5: ((0.0, 0.0), (1.0, 0.0), (0.5, 0.5), (0.0, 1.0), (1.0, 1.0)),
    6: ((0.0, 0.0), (1.0, 0.0), (0.0, 0.5), (1.0, 0.5), (0.0, 1.0), (1.0, 1.0)),
    7: ((0.0, 0.0), (1.0, 0.0), (0.5, 0.25), (0.0, 0.5), (1.0, 0.5), (0.0, 1.0), (1.0, 1.0)),
    8: ((0.0, 0.0), (1.0, 0.0), (0.5, 0.25), (0.0, 0.5), (1.0, 0.5), (0.5, 0.75), (0.0, 1.0),
        (1.0, 1.0)),
    9: ((0.0, 0.0), (1.0, 0.0), (0.0, 1 / 3), (1.0, 1 / 3), (0.5, 0.5), (0.0, 2 / 3),
        (1.0, 2 / 3), (0.0, 1.0), (1.0, 1.0)),
    10: ((0.0, 0.0), (1.0, 0.0), (0.5, 1 / 6), (0.0, 1 / 3), (1.0, 1 / 3), (0.0, 2 / 3),
         (1.0, 2 / 3), (0.5, 5 / 6), (0.0, 1.0), (1.0, 1.0)),
}


def font_files(dirs: Sequence[Path] = FONT_DIRS) -> list[Path]:
    """The installed TrueType and OpenType fonts, sorted (so seeds give the same decks)."""
    out: list[Path] = []
    for folder in dirs:
        if folder.is_dir():
            out += [p for p in folder.rglob("*") if p.suffix.lower() in (".ttf", ".otf")]
    return sorted(p for p in out if not any(word in p.name for word in _NOT_TEXT))


@lru_cache(maxsize=512)
def _font(path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size)


def _glyph_mask(path: Path, text: str, height: int) -> npt.NDArray[np.uint8] | None:
    """``text`` drawn in the font at ``path`` and cropped to its ink, ``height`` px tall;
    None when the font has no such glyph (it would draw an empty box or nothing)."""
    probe = _font(str(path), 120)
    try:
        mask = probe.getmask(text)
        missing = probe.getmask("\U0010fffd")
    except (OSError, ValueError):
        return None
    if mask.getbbox() is None or bytes(mask) == bytes(missing):
        return None
    image = Image.new("L", (int(probe.getlength(text)) + 80, 220), 0)
    ImageDraw.Draw(image).text((40, 40), text, fill=255, font=probe)
    ink = np.asarray(image)
    ys, xs = np.nonzero(ink > 40)
    if len(ys) == 0:
        return None
    crop = ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    scale = height / crop.shape[0]
    width = max(1, int(round(crop.shape[1] * scale)))
    return np.asarray(cv2.resize(crop, (width, height), interpolation=cv2.INTER_AREA),
                      dtype=np.uint8)


def fonts_with_suits(fonts: Sequence[Path]) -> list[Path]:
    """The fonts among ``fonts`` that draw all four suit signs."""
    return [f for f in fonts if _draws_suits(f)]


@lru_cache(maxsize=1024)
def _draws_suits(font: Path) -> bool:
    return all(_glyph_mask(font, s, 24) is not None for s in SUIT_SIGNS.values())


@dataclass(frozen=True)
class DeckStyle:
    """The random choices that make one made-up deck."""

    rank_font: Path
    suit_font: Path
    pip_font: Path
    aspect: float  # width / height
    index_height: float  # rank height / card height
    index_x: float  # left margin of the index / card width
    index_y: float  # top margin / card height
    suit_scale: float  # suit sign height / rank height
    suit_gap: float  # gap under the rank / rank height
    ten_squeeze: float  # the width of "10" against its natural width
    pip_size: float  # pip height / card height
    paper: tuple[int, int, int]  # BGR
    black: tuple[int, int, int]
    red: tuple[int, int, int]
    court_frame: float  # inset of the court picture's frame / card width
    four_corners: bool  # an index in all four corners, not two


def random_style(rng: np.random.Generator, rank_fonts: Sequence[Path],
                 suit_fonts: Sequence[Path]) -> DeckStyle:
    tint = rng.normal(0, 4, size=3)
    paper = tuple(int(np.clip(v, 200, 255)) for v in rng.uniform(232, 255) + tint)
    black = tuple(int(v) for v in rng.integers(0, 45, size=3))
    red = (int(rng.integers(0, 70)), int(rng.integers(0, 60)), int(rng.integers(150, 235)))
    return DeckStyle(
        rank_font=rank_fonts[int(rng.integers(len(rank_fonts)))],
        suit_font=suit_fonts[int(rng.integers(len(suit_fonts)))],
        pip_font=suit_fonts[int(rng.integers(len(suit_fonts)))],
        aspect=float(rng.uniform(0.64, 0.73)),
        index_height=float(rng.uniform(0.075, 0.15)),
        index_x=float(rng.uniform(0.03, 0.09)),
        index_y=float(rng.uniform(0.03, 0.07)),
        suit_scale=float(rng.uniform(0.5, 0.95)),
        suit_gap=float(rng.uniform(0.05, 0.35)),
        ten_squeeze=float(rng.uniform(0.6, 1.0)),
        pip_size=float(rng.uniform(0.09, 0.15)),
        paper=paper,  # type: ignore[arg-type]
        black=black,  # type: ignore[arg-type]
        red=red,
        court_frame=float(rng.uniform(0.17, 0.26)),
        four_corners=bool(rng.random() < 0.15),
    )


def _overlap(target_shape: tuple[int, ...], mask_shape: tuple[int, ...], x: int, y: int,
             ) -> tuple[tuple[slice, slice], tuple[slice, slice]] | None:
    """Where a mask placed with its top left at (x, y) overlaps a target image: the
    target's rows and columns and the mask's, or None when they do not meet."""
    h, w = mask_shape[:2]
    x0, y0 = max(x, 0), max(y, 0)
    x1, y1 = min(x + w, target_shape[1]), min(y + h, target_shape[0])
    if x1 <= x0 or y1 <= y0:
        return None
    return ((slice(y0, y1), slice(x0, x1)), (slice(y0 - y, y1 - y), slice(x0 - x, x1 - x)))


def _stamp(canvas: npt.NDArray[np.float32], mask: npt.NDArray[np.uint8], x: int, y: int,
           colour: tuple[int, int, int]) -> None:
    """Ink ``mask`` onto the BGR float ``canvas`` with its top left at (x, y), clipped."""
    where = _overlap(canvas.shape, mask.shape, x, y)
    if where is None:
        return
    alpha = mask[where[1]][..., None].astype(np.float32) / 255
    region = canvas[where[0]]
    region[:] = region * (1 - alpha) + np.array(colour, np.float32) * alpha


def _put(target: npt.NDArray[np.uint8], mask: npt.NDArray[np.uint8], x: int, y: int) -> None:
    """Add ``mask`` into the ink mask ``target`` with its top left at (x, y), clipped."""
    where = _overlap(target.shape, mask.shape, x, y)
    if where is not None:
        part = target[where[0]]
        np.maximum(part, mask[where[1]], out=part)


def _court_picture(rng: np.random.Generator, canvas: npt.NDArray[np.float32], box: tuple[int, int, int, int],
                   ink: tuple[int, int, int], red: tuple[int, int, int]) -> None:
    """A framed, busy picture standing for a court card's figure."""
    x0, y0, x1, y1 = box
    art = canvas[y0:y1, x0:x1]
    u8 = np.ascontiguousarray(art.astype(np.uint8))
    palette = [ink, red, (40, 150, 220), (160, 90, 30), (60, 140, 60), (30, 200, 230)]
    for _ in range(int(rng.integers(12, 30))):
        colour = palette[int(rng.integers(len(palette)))]
        p = (int(rng.integers(0, x1 - x0)), int(rng.integers(0, y1 - y0)))
        if rng.random() < 0.5:
            axes = (int(rng.integers(2, max(3, (x1 - x0) // 3))),
                    int(rng.integers(2, max(3, (y1 - y0) // 5))))
            cv2.ellipse(u8, p, axes, float(rng.uniform(0, 180)), 0, 360, colour, -1)
        else:
            q = (int(rng.integers(0, x1 - x0)), int(rng.integers(0, y1 - y0)))
            cv2.line(u8, p, q, colour, int(rng.integers(1, 4)))
    cv2.rectangle(u8, (0, 0), (x1 - x0 - 1, y1 - y0 - 1), ink, max(1, (x1 - x0) // 60))
    art[:] = u8


def draw_face(style: DeckStyle, card: Card, height: int, rng: np.random.Generator) -> BGRA:
    """One face of the deck ``style`` describes, ``height`` px tall, BGRA."""
    h = height
    w = int(round(h * style.aspect))
    canvas = np.empty((h, w, 3), np.float32)
    canvas[:] = style.paper
    colour = style.red if card.suit in (Suit.HEARTS, Suit.DIAMONDS) else style.black
    sign = SUIT_SIGNS[card.suit]
    rank_px = max(6, int(round(style.index_height * h)))
    text = RANK_TEXT.get(card.rank, str(card.rank.value))
    rank_mask = _glyph_mask(style.rank_font, text, rank_px)
    suit_mask = _glyph_mask(style.suit_font, sign, max(4, int(round(rank_px * style.suit_scale))))
    if rank_mask is None or suit_mask is None:
        raise ValueError(f"{style.rank_font.name} or {style.suit_font.name} cannot draw {card}")
    if card.rank == Rank.TEN:
        squeezed = max(4, int(round(rank_mask.shape[1] * style.ten_squeeze)))
        rank_mask = np.asarray(cv2.resize(rank_mask, (squeezed, rank_px),
                                          interpolation=cv2.INTER_AREA), dtype=np.uint8)
    # the index, and its copy turned half round in the opposite corner
    x = int(round(style.index_x * w))
    y = int(round(style.index_y * h))
    index_w = max(rank_mask.shape[1], suit_mask.shape[1])
    centre = x + index_w / 2
    index = np.zeros((h, w), np.uint8)
    _put(index, rank_mask, int(centre - rank_mask.shape[1] / 2), y)
    sy = y + rank_px + int(round(style.suit_gap * rank_px))
    _put(index, suit_mask, int(centre - suit_mask.shape[1] / 2), sy)
    clear = x + index_w + 0.03 * w  # the centre keeps clear of the index column
    # the centre: pips, one big pip, or a court picture
    pip_px = max(5, int(round(style.pip_size * h)))
    if card.rank == Rank.ACE:
        pip = _glyph_mask(style.pip_font, sign, int(pip_px * rng.uniform(1.6, 2.6)))
        if pip is not None:
            _stamp(canvas, pip, (w - pip.shape[1]) // 2, (h - pip.shape[0]) // 2, colour)
    elif card.rank.value <= 10:
        pip = _glyph_mask(style.pip_font, sign, pip_px)
        room = 2 * (0.36 * w - clear)  # widest pip whose column stays clear of the index
        if pip is not None and pip.shape[1] > room:
            pip = _glyph_mask(style.pip_font, sign, max(5, int(pip_px * max(room, 4) / pip.shape[1])))
        if pip is not None:
            flipped = pip[::-1, ::-1]
            left = max(0.28 * w, clear + pip.shape[1] / 2)
            right = w - left
            top, bottom = 0.2 * h, 0.8 * h
            for u, v in PIPS[card.rank.value]:
                cx, cy = left + u * (right - left), top + v * (bottom - top)
                mask = flipped if v > 0.5 else pip
                _stamp(canvas, mask, int(cx - mask.shape[1] / 2), int(cy - mask.shape[0] / 2),
                       colour)
    else:
        inset = int(max(style.court_frame * w, clear))
        if w - 2 * inset > 8:
            top = int(style.court_frame * w * 0.8)
            _court_picture(rng, canvas, (inset, top, w - inset, h - top), style.black, style.red)
    corners = np.maximum(index, index[::-1, ::-1])
    if style.four_corners:
        corners = np.maximum(corners, corners[:, ::-1])
    _stamp(canvas, corners, 0, 0, colour)
    bgr = np.clip(canvas, 0, 255).astype(np.uint8)
    alpha = _rounded_alpha(h, w)
    edge = np.array(style.paper, np.float32) * 0.75  # a faint printed border
    cv2.rectangle(bgr, (0, 0), (w - 1, h - 1), tuple(int(v) for v in edge), 1)
    return np.dstack([bgr, alpha])


def font_deck(seed: int, height: int, fonts: Sequence[Path] | None = None,
              suit_fonts: Sequence[Path] | None = None) -> tuple[DeckStyle, list[BGRA]]:
    """A made-up deck from ``seed``: its style and its 52 faces in ``Card.index`` order."""
    rank_fonts = list(fonts) if fonts is not None else font_files()
    suits = list(suit_fonts) if suit_fonts is not None else fonts_with_suits(rank_fonts)
    if not rank_fonts or not suits:
        raise ValueError("no usable fonts installed (Debian: fonts-dejavu-core and others)")
    rng = np.random.default_rng([seed, 7919])
    for _ in range(20):
        style = random_style(rng, rank_fonts, suits)
        try:
            faces = [draw_face(style, card, height, rng) for card in FULL_DECK]
        except ValueError:
            continue  # a font without one of the glyphs: draw another style
        return style, faces
    raise ValueError("no font among those installed draws a whole deck")


def _rounded_alpha(h: int, w: int) -> npt.NDArray[np.uint8]:
    """Opaque inside a card's rounded outline, transparent in the cut corners."""
    alpha = np.zeros((h, w), np.uint8)
    radius = max(2, int(0.05 * w))
    cv2.rectangle(alpha, (radius, 0), (w - 1 - radius, h - 1), 255, -1)
    cv2.rectangle(alpha, (0, radius), (w - 1, h - 1 - radius), 255, -1)
    for cx, cy in ((radius, radius), (w - 1 - radius, radius), (radius, h - 1 - radius),
                   (w - 1 - radius, h - 1 - radius)):
        cv2.circle(alpha, (cx, cy), radius, 255, -1, lineType=cv2.LINE_AA)
    return alpha


#: the kinds of pattern ``drawn_back`` fills a back's panel with
BACK_PATTERNS: Final = ("lattice", "dots", "checks", "frames", "plain")


def drawn_back(seed: int, height: int, aspect: float = 0.7) -> BGRA:
    """A made-up card back, ``height`` px tall, BGRA like the faces: a white margin or
    none, a panel of one ink with a repeated pattern in a second (a diamond lattice,
    dots, checks, nested frames, or plain with a central emblem), the same when turned
    half round, as printed backs are.  Reproducible from ``seed``."""
    rng = np.random.default_rng([seed, 104729])
    h = height
    w = int(round(h * aspect))
    ink = tuple(int(v) for v in rng.integers(0, 200, size=3))
    other = tuple(int(v) for v in np.clip(np.array(ink) + rng.choice([-1, 1]) * rng.integers(
        50, 160, size=3), 0, 255))
    bgr = np.full((h, w, 3), 245, np.uint8)
    margin = int(round(w * rng.uniform(0.04, 0.1))) if rng.random() < 0.7 else 0
    panel = np.empty((h - 2 * margin, w - 2 * margin, 3), np.uint8)
    panel[:] = ink
    ph, pw = panel.shape[:2]
    pattern = BACK_PATTERNS[int(rng.integers(len(BACK_PATTERNS)))]
    step = max(3, int(round(w * rng.uniform(0.04, 0.14))))
    thick = max(1, step // int(rng.integers(3, 7)))
    if pattern == "lattice":
        for k in range(-ph, pw + ph, step):
            cv2.line(panel, (k, 0), (k + ph, ph), other, thick, cv2.LINE_AA)
            cv2.line(panel, (k, ph), (k + ph, 0), other, thick, cv2.LINE_AA)
    elif pattern == "dots":
        for y in range(step // 2, ph, step):
            for x in range(step // 2 + (y // step % 2) * step // 2, pw, step):
                cv2.circle(panel, (x, y), max(1, step // 3), other, -1, cv2.LINE_AA)
    elif pattern == "checks":
        ys, xs = np.mgrid[0:ph, 0:pw]
        panel[((ys // step + xs // step) % 2).astype(bool)] = other
    elif pattern == "frames":
        for k in range(0, min(ph, pw) // 2, step):
            cv2.rectangle(panel, (k, k), (pw - 1 - k, ph - 1 - k), other, thick)
    else:
        cv2.ellipse(panel, (pw // 2, ph // 2), (pw // 4, ph // 5), 0, 0, 360, other, -1,
                    cv2.LINE_AA)
    half = ph // 2  # the lower half is the upper turned half round
    panel[ph - half:] = panel[:half][::-1, ::-1]
    bgr[margin:h - margin, margin:w - margin] = panel
    alpha = _rounded_alpha(h, w)
    return np.dstack([bgr, np.minimum(alpha, alpha[::-1, ::-1])])
