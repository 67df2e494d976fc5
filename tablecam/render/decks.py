"""Card faces and backs rendered from the Debian SVG decks, cached on disk.

Two Debian packages ship whole decks as one SVG sheet each:
``kdegames-card-data-kf5`` (``/usr/share/carddecks/svg-*/``, card ids such as
``1_club``, ``king_heart``, ``back``) and ``gnome-cards-data``
(``/usr/share/aisleriot/cards/*.svgz``, ids such as ``club_1``, ``heart_king``).
resvg renders whole documents only, so one card is isolated by putting the
document's content into ``<defs>`` and drawing a single ``<use>`` of the card with
its ancestors' transforms; a coarse render of the whole sheet finds the card's box,
and a second render with the viewBox set to that box gives the face.

Three art families are reserved for evaluation (``RESERVED_FAMILIES``) and are
listed only with ``list_decks(include_reserved=True)``.  Decks whose corner indices
are not the standard French-suited A 2-10 J Q K with C D H S pips are left out
(``NONSTANDARD_DECKS`` says why for each).
"""

from __future__ import annotations

import gzip
import json
import os
import re
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

import cv2
import numpy as np
import numpy.typing as npt

from tablecam.cards import FULL_DECK, Card, Rank, Suit
from tablecam.errors import DeckArtError

KDE_DECK_DIR: Final = Path("/usr/share/carddecks")
GNOME_DECK_DIR: Final = Path("/usr/share/aisleriot/cards")
APT_PACKAGES: Final = ("kdegames-card-data-kf5", "gnome-cards-data")

RESERVED_FAMILIES: Final[dict[str, tuple[str, ...]]] = {
    "dondorf": ("kde-dondorf", "gnome-dondorf"),
    "tigullio": ("kde-tigullio-international", "gnome-tigullio"),
    "kennard": ("gnome-anglo_poker", "gnome-simplistic"),
}
"""Art families held out for evaluation: family -> deck names.  Never train on them."""

NONSTANDARD_DECKS: Final[dict[str, str]] = {
    "kde-future": "hexadecimal chip designs instead of ranks and suits",
    "kde-xskat-french": "German court letters (B D K) in the corners",
    "kde-xskat-german": "German suits (acorns, leaves, hearts, bells) and German court letters",
    "gnome-swiss-xvii": "Swiss suits (roses, shields, acorns, bells) without standard indices",
    "gnome-tarocco": "Italian court letters (F D R) in the corners",
    "gnome-atlasnye_skat": "German court letters (B D K) in the corners",
    "gnome-Атласные": "Russian corner letters (T for the ace, В Д К for the courts)",
    "gnome-slavic_costumes": "Russian corner letters (T for the ace, В Д К for the courts)",
    "gnome-berlin": "German court letters (B D K) in the corners",
    "gnome-lattmann": "German court letters (B D K) in the corners",
    "gnome-rheinland": "German court letters (B D K) in the corners",
    "gnome-ancient_french": "French corner letters (1 for the ace, V D R for the courts)",
    "gnome-guyenne-classic": "court cards carry no corner letters",
}
"""Decks left out of ``list_decks`` and the reason (checked by eye, see docs/rendering.md)."""

_FAMILY_ALIASES: Final = {
    "kde-tigullio-international": "tigullio",
    "gnome-anglo_poker": "kennard",
    "gnome-simplistic": "kennard",
    "kde-nicu-ornamental": "ornamental",
    "gnome-ornamental": "ornamental",
    "kde-oxygen-air": "oxygen",
    "kde-oxygen-white": "oxygen",
    "kde-oxygen": "oxygen",
    "kde-gm-paris": "paris",
    "gnome-anglo_modern_4_color": "anglo_modern",
    "gnome-neoclassical_4_color": "neoclassical",
    "gnome-gnomangelo_bitmap": "gnomangelo",
    "gnome-anglo_bitmap": "anglo",
    "gnome-tango_nuevo": "tango",
}

_RANK_WORDS: Final = {Rank.JACK: "jack", Rank.QUEEN: "queen", Rank.KING: "king"}
_SUIT_WORDS: Final = {Suit.CLUBS: "club", Suit.DIAMONDS: "diamond", Suit.HEARTS: "heart",
                      Suit.SPADES: "spade"}
_CACHE_VERSION: Final = "v1"
_LOCATE_WIDTH: Final = 1000  # pixels across twice the sheet when first finding a card
_REFINE_HEIGHT: Final = 700  # pixels down a card when measuring its exact box
CANONICAL_HEIGHT: Final = 480
"""Faces are rendered (and cached on disk) at this height; smaller ones are scaled down."""
_XLINK: Final = "http://www.w3.org/1999/xlink"


@dataclass(frozen=True)
class DeckArt:
    """One installed SVG deck: ``name`` is unique (``kde-oxygen``, ``gnome-anglo``)."""

    name: str
    family: str
    source: Literal["kde", "gnome"]
    path: Path
    reserved: bool


def _family_of(name: str) -> str:
    if name in _FAMILY_ALIASES:
        return _FAMILY_ALIASES[name]
    return name.split("-", 1)[1]


def _deck_dirs(kde_dir: Path | None, gnome_dir: Path | None) -> tuple[Path, Path]:
    """The deck folders: arguments, else ``TABLECAM_KDE_DECKS``/``TABLECAM_GNOME_DECKS``."""
    kde = kde_dir or Path(os.environ.get("TABLECAM_KDE_DECKS", str(KDE_DECK_DIR)))
    gnome = gnome_dir or Path(os.environ.get("TABLECAM_GNOME_DECKS", str(GNOME_DECK_DIR)))
    return kde, gnome


def _kde_svg(folder: Path) -> Path | None:
    desktop = folder / "index.desktop"
    if desktop.is_file():
        for line in desktop.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("SVG="):
                candidate = folder / line[4:].strip()
                if candidate.is_file():
                    return candidate
    found = sorted(folder.glob("*.svgz")) + sorted(folder.glob("*.svg"))
    return found[0] if found else None


def all_decks(kde_dir: Path | None = None, gnome_dir: Path | None = None) -> list[DeckArt]:
    """Every installed SVG deck, standard or not, reserved or not, sorted by name."""
    kde, gnome = _deck_dirs(kde_dir, gnome_dir)
    reserved_names = {n for names in RESERVED_FAMILIES.values() for n in names}
    decks: list[DeckArt] = []
    if kde.is_dir():
        for folder in sorted(kde.glob("svg-*")):
            svg = _kde_svg(folder)
            if svg is None:
                continue
            name = "kde-" + folder.name[4:]
            decks.append(DeckArt(name, _family_of(name), "kde", svg, name in reserved_names))
    if gnome.is_dir():
        for svg in sorted(list(gnome.glob("*.svgz")) + list(gnome.glob("*.svg"))):
            name = "gnome-" + svg.name.split(".")[0]
            decks.append(DeckArt(name, _family_of(name), "gnome", svg, name in reserved_names))
    return sorted(decks, key=lambda d: d.name)


def list_decks(include_reserved: bool = False, *, kde_dir: Path | None = None,
               gnome_dir: Path | None = None) -> list[DeckArt]:
    """The installed decks with standard French-suited indices, for training and rendering.

    Reserved evaluation decks appear only with ``include_reserved=True``.  Raises
    ``DeckArtError`` naming the apt packages when no deck is installed.
    """
    found = all_decks(kde_dir, gnome_dir)
    if not found:
        kde, gnome = _deck_dirs(kde_dir, gnome_dir)
        raise DeckArtError(
            f"no SVG card decks found in {kde} or {gnome}; install them with "
            f"'sudo apt-get install {' '.join(APT_PACKAGES)}'")
    return [d for d in found
            if d.name not in NONSTANDARD_DECKS and (include_reserved or not d.reserved)]


def find_deck(name: str, include_reserved: bool = False) -> DeckArt:
    """The installed deck called ``name``; a reserved one only with ``include_reserved``."""
    decks = list_decks(include_reserved=True)
    for deck in decks:
        if deck.name == name:
            if deck.reserved and not include_reserved:
                raise DeckArtError(
                    f"deck {name!r} is reserved for evaluation and is drawn only for held-out "
                    "tests (--decks reserved, or include_reserved=True)")
            return deck
    known = ", ".join(d.name for d in decks if include_reserved or not d.reserved)
    raise DeckArtError(f"no standard deck named {name!r}; installed decks: {known}")


def element_id(deck: DeckArt, card: Card | None) -> str:
    """The SVG id of ``card`` (``None``: the back) in this deck's sheet."""
    if card is None:
        return "back"
    rank = _RANK_WORDS.get(card.rank, str(card.rank.value))
    suit = _SUIT_WORDS[card.suit]
    return f"{rank}_{suit}" if deck.source == "kde" else f"{suit}_{rank}"


def cache_root() -> Path:
    """Where rendered faces are kept: ``$XDG_CACHE_HOME/tablecam/decks`` (or ~/.cache)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tablecam" / "decks" / _CACHE_VERSION


def _write_atomic(path: Path, data: bytes) -> None:
    """Write so that engineers rendering the same deck at once never see half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


class _Sheet:
    """One deck's SVG document, able to render a single element by id."""

    def __init__(self, deck: DeckArt) -> None:
        try:
            raw = deck.path.read_bytes()
            text = (gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw).decode("utf-8")
        except (OSError, UnicodeDecodeError, gzip.BadGzipFile) as exc:
            raise DeckArtError(f"cannot read deck {deck.name} at {deck.path}: {exc}") from exc
        root_tag = re.search(r"<svg\b[^>]*>", text)
        close = text.rfind("</svg>")
        if root_tag is None or close < root_tag.end():
            raise DeckArtError(f"deck {deck.name} at {deck.path} is not an SVG document")
        self.deck = deck
        self.head = text[:root_tag.start()]
        self.body = text[root_tag.end():close]
        tag = root_tag.group(0)
        self.root_attrs = re.sub(r"\s(width|height|viewBox|preserveAspectRatio)\s*=\s*"
                                 r"(\"[^\"]*\"|'[^']*')", "", tag)[len("<svg"):-1].rstrip("/")
        self.viewbox = self._viewbox(tag)
        self.wrappers = self._ancestor_wrappers(text)
        self._content: tuple[float, float, float, float] | None = None

    def _viewbox(self, tag: str) -> tuple[float, float, float, float]:
        def attr(name: str) -> str | None:
            found = re.search(rf"\s{name}\s*=\s*[\"']([^\"']*)[\"']", tag)
            return found.group(1) if found else None

        box = attr("viewBox")
        if box:
            numbers = [float(v) for v in _NUMBER.findall(box)]
            if len(numbers) == 4 and numbers[2] > 0 and numbers[3] > 0:
                return numbers[0], numbers[1], numbers[2], numbers[3]
        width, height = attr("width"), attr("height")
        if width and height and _NUMBER.match(width) and _NUMBER.match(height):
            w = float(_NUMBER.findall(width)[0])
            h = float(_NUMBER.findall(height)[0])
            if w > 0 and h > 0:
                return 0.0, 0.0, w, h
        raise DeckArtError(f"deck {self.deck.name} has no usable size or viewBox")

    def _ancestor_wrappers(self, text: str) -> dict[str, tuple[str, str]]:
        """For each id: the opening and closing ``<g>`` tags that repeat its ancestors'
        transforms and styles, so that a ``<use>`` of it lands where it is drawn."""
        try:
            root = ET.fromstring(text.encode("utf-8"))
        except ET.ParseError as exc:
            raise DeckArtError(f"deck {self.deck.name} is not valid XML: {exc}") from exc
        wrappers: dict[str, tuple[str, str]] = {}

        def visit(node: ET.Element, chain: list[str]) -> None:
            for child in node:
                ident = child.get("id")
                if ident is not None and ident not in wrappers:
                    wrappers[ident] = ("".join(chain), "</g>" * len(chain))
                attrs = []
                transform = child.get("transform")
                if transform:
                    attrs.append(f'transform="{_escape(transform)}"')
                style = child.get("style")
                if style:
                    kept = ";".join(p for p in style.split(";")
                                    if p.split(":")[0].strip() not in ("display", "visibility"))
                    if kept:
                        attrs.append(f'style="{_escape(kept)}"')
                visit(child, [*chain, f"<g {' '.join(attrs)}>"])

        visit(root, [])
        return wrappers

    def render(self, ident: str | None, box: tuple[float, float, float, float],
               width: int, height: int) -> npt.NDArray[np.uint8]:
        """Render element ``ident`` (``None``: the whole sheet) with the viewBox ``box``
        to a ``width`` x ``height`` BGRA image."""
        import resvg_py

        x, y, w, h = box
        header = (f'{self.head}<svg{self.root_attrs} width="{width}" height="{height}" '
                  f'viewBox="{x:.5f} {y:.5f} {w:.5f} {h:.5f}" preserveAspectRatio="none">')
        if ident is None:
            document = f"{header}{self.body}</svg>"
        else:
            if ident not in self.wrappers:
                raise DeckArtError(f"deck {self.deck.name} has no element with id {ident!r}")
            opening, closing = self.wrappers[ident]
            document = (
                f"{header}<defs>{self.body}</defs>{opening}"
                f'<use xmlns:xlink="{_XLINK}" xlink:href="#{ident}" href="#{ident}"/>'
                f"{closing}</svg>")
        try:
            png = resvg_py.svg_to_bytes(svg_string=document)
        except ValueError as exc:
            raise DeckArtError(f"deck {self.deck.name}: resvg could not render {ident}: {exc}"
                               ) from exc
        image = cv2.imdecode(np.frombuffer(bytes(png), np.uint8), cv2.IMREAD_UNCHANGED)
        if image is None or image.ndim != 3 or image.shape[2] != 4:
            raise DeckArtError(f"deck {self.deck.name}: rendering {ident} gave no RGBA image")
        return np.asarray(image, dtype=np.uint8)

    def locate(self, ident: str) -> tuple[float, float, float, float]:
        """The box of element ``ident`` in sheet units: a coarse render of the whole
        sheet finds it, a finer render of that neighbourhood gives its exact edges."""
        cx, cy, cw, ch = self.content_box()
        coarse = self._alpha_box(ident, (cx, cy, cw, ch), _LOCATE_WIDTH)
        x, y, w, h = coarse
        pad = 2.0 * cw / _LOCATE_WIDTH
        return self._alpha_box(ident, (x - pad, y - pad, w + 2 * pad, h + 2 * pad),
                               max(64, round(_REFINE_HEIGHT * (w + 2 * pad) / (h + 2 * pad))))

    def content_box(self) -> tuple[float, float, float, float]:
        """Where the sheet draws anything, padded: some sheets draw cards partly or wholly
        outside their own viewBox, so look around it, wider until nothing touches the edge."""
        if self._content is None:
            vx, vy, vw, vh = self.viewbox
            for reach in (2, 12, 60):
                window = (vx - reach * vw, vy - reach * vh, (2 * reach + 1) * vw,
                          (2 * reach + 1) * vh)
                x, y, w, h = self._alpha_box(None, window, 2 * _LOCATE_WIDTH, threshold=1)
                margin = window[2] / _LOCATE_WIDTH
                if (x > window[0] + margin and y > window[1] + margin
                        and x + w < window[0] + window[2] - margin
                        and y + h < window[1] + window[3] - margin):
                    break
            pad = 0.02 * max(w, h)
            self._content = (x - pad, y - pad, w + 2 * pad, h + 2 * pad)
        return self._content

    def _alpha_box(self, ident: str | None, box: tuple[float, float, float, float],
                   width: int, threshold: int = 128) -> tuple[float, float, float, float]:
        x0, y0, w, h = box
        height = max(1, round(width * h / w))
        image = self.render(ident, box, width, height)
        ys, xs = np.nonzero(image[:, :, 3] >= threshold)
        if len(xs) == 0:
            raise DeckArtError(f"deck {self.deck.name}: element {ident!r} draws nothing")
        sx, sy = w / width, h / height
        return (float(x0 + xs.min() * sx), float(y0 + ys.min() * sy),
                float((xs.max() + 1 - xs.min()) * sx), float((ys.max() + 1 - ys.min()) * sy))


def _escape(value: str) -> str:
    return value.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


class DeckFaces:
    """Rendered faces and back of one deck at any height, cached on disk.

    ``face(card, height)`` and ``back(height)`` return H x W x 4 BGRA uint8 images,
    portrait, with alpha 0 outside the card's rounded corners.  Every image of a
    deck at one height has the same width (the deck's median aspect ratio).
    """

    def __init__(self, deck: DeckArt, cache_dir: Path | None = None) -> None:
        self.deck = deck
        self.cache_dir = (cache_dir or cache_root()) / deck.name
        self._sheet: _Sheet | None = None
        self._boxes: dict[str, tuple[float, float, float, float]] | None = None
        self._memory: dict[tuple[str, int], npt.NDArray[np.uint8]] = {}

    def __repr__(self) -> str:
        return f"DeckFaces({self.deck.name!r})"

    @property
    def sheet(self) -> _Sheet:
        if self._sheet is None:
            self._sheet = _Sheet(self.deck)
        return self._sheet

    def boxes(self) -> dict[str, tuple[float, float, float, float]]:
        """Each card's (and the back's) box in sheet units, located once and cached."""
        if self._boxes is not None:
            return self._boxes
        path = self.cache_dir / "boxes.json"
        stamp = f"{self.deck.path.stat().st_size}:{int(self.deck.path.stat().st_mtime)}"
        if path.is_file():
            try:
                stored = json.loads(path.read_text())
                if stored.get("stamp") == stamp:
                    self._boxes = {k: (v[0], v[1], v[2], v[3]) for k, v in stored["boxes"].items()}
                    return self._boxes
            except (ValueError, KeyError, TypeError, IndexError):
                pass
        idents = [element_id(self.deck, card) for card in FULL_DECK] + ["back"]
        boxes = {ident: self.sheet.locate(ident) for ident in idents}
        _write_atomic(path, json.dumps({"stamp": stamp, "boxes": boxes}).encode())
        self._boxes = boxes
        return boxes

    def aspect(self) -> float:
        """The deck's card width / height (median over the faces)."""
        boxes = self.boxes()
        return float(np.median([w / h for w, h in ((b[2], b[3]) for b in boxes.values())]))

    def face(self, card: Card, height: int) -> npt.NDArray[np.uint8]:
        """The face of ``card`` as an H x W x 4 BGRA image ``height`` pixels tall."""
        return self._image(element_id(self.deck, card), card.code, height)

    def back(self, height: int) -> npt.NDArray[np.uint8]:
        """The deck's back as an H x W x 4 BGRA image ``height`` pixels tall."""
        return self._image("back", "back", height)

    def faces(self, height: int, cards: Iterable[Card] = FULL_DECK
              ) -> dict[Card, npt.NDArray[np.uint8]]:
        """Several faces at one height."""
        return {card: self.face(card, height) for card in cards}

    def _image(self, ident: str, code: str, height: int) -> npt.NDArray[np.uint8]:
        if not isinstance(height, int) or not 8 <= height <= 4096:
            raise DeckArtError(f"card height must be 8..4096 pixels, not {height!r}")
        key = (code, height)
        if key in self._memory:
            return self._memory[key].copy()
        if height < CANONICAL_HEIGHT:
            # smaller faces come from one canonical render per card: resvg parses the
            # whole sheet for every render, which costs up to a second on big decks
            big = self._image(ident, code, CANONICAL_HEIGHT)
            width = max(1, round(height * self.aspect()))
            small = np.asarray(cv2.resize(big, (width, height), interpolation=cv2.INTER_AREA),
                               np.uint8)
            self._memory[key] = small
            return small.copy()
        path = self.cache_dir / str(height) / f"{code}.png"
        image: npt.NDArray[np.uint8] | None = None
        if path.is_file():
            loaded = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
            if loaded is not None and loaded.ndim == 3 and loaded.shape[2] == 4:
                image = np.asarray(loaded, dtype=np.uint8)
        if image is None:
            image = self._render(ident, height)
            ok, encoded = cv2.imencode(".png", image)
            if ok:
                _write_atomic(path, encoded.tobytes())
        self._memory[key] = image
        return image.copy()

    def _render(self, ident: str, height: int) -> npt.NDArray[np.uint8]:
        boxes = self.boxes()
        if ident not in boxes:
            raise DeckArtError(f"deck {self.deck.name} has no card {ident!r}")
        x, y, w, h = boxes[ident]
        # the box is exact to a fraction of a pixel at _REFINE_HEIGHT: pad it by two of
        # those, render 2x oversampled, crop to the card's opaque outline
        pad = 2.0 * h / _REFINE_HEIGHT
        box = (x - pad, y - pad, w + 2 * pad, h + 2 * pad)
        scale = 2.0 * height / h
        big = self.sheet.render(ident, box, max(1, round(box[2] * scale)),
                                max(1, round(box[3] * scale)))
        ys, xs = np.nonzero(big[:, :, 3] >= 128)
        if len(xs) == 0:
            raise DeckArtError(f"deck {self.deck.name}: element {ident!r} draws nothing")
        crop = big[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
        width = max(1, round(height * self.aspect()))
        small = cv2.resize(crop, (width, height), interpolation=cv2.INTER_AREA)
        return np.asarray(small, dtype=np.uint8)


def load_deck(deck: DeckArt, cache_dir: Path | None = None) -> DeckFaces:
    """The faces of ``deck``; the SVG is read only when a face is not yet cached."""
    if not deck.path.is_file():
        raise DeckArtError(
            f"deck file {deck.path} is missing; install it with "
            f"'sudo apt-get install {' '.join(APT_PACKAGES)}'")
    return DeckFaces(deck, cache_dir)
