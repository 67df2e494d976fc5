"""The committed card reader: reads training-deck cards, refuses what is not a card."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tablecam.cards import FULL_DECK, Card
from tablecam.errors import DeckArtError, ModelError, TablecamError
from tablecam.reading.classifier import (
    TRAIN_COMMAND,
    CardClassifier,
    corner_pair,
    default_model_path,
    judge,
    postprocess,
    preprocess,
    side_pairs,
    tta_views,
)
from tablecam.reading.synth import clean_view
from tablecam.render.decks import DeckFaces

MODEL = default_model_path()
needs_model = pytest.mark.skipif(not MODEL.exists(), reason=f"{MODEL} is not trained yet")


@pytest.fixture(scope="module")
def reader() -> CardClassifier:
    return CardClassifier()


@pytest.fixture(scope="module")
def standard_deck() -> tuple[list[np.ndarray], np.ndarray]:
    """Clean canonical views of kde-standard (a training deck) and its back."""
    from tablecam.render.decks import find_deck, load_deck

    try:
        art = load_deck(find_deck("kde-standard"))
        faces = [clean_view(art.face(card, 140)) for card in FULL_DECK]
        return faces, clean_view(art.back(140))
    except DeckArtError as exc:  # pragma: no cover - only without the Debian card art
        pytest.skip(f"deck art unavailable: {exc}")


@needs_model
def test_reads_every_card_of_a_training_deck_upright_and_upside_down(
        reader: CardClassifier, standard_deck: tuple[list[np.ndarray], np.ndarray]) -> None:
    faces, _ = standard_deck
    views = faces + [np.ascontiguousarray(f[::-1, ::-1]) for f in faces]
    truth = list(FULL_DECK) * 2
    reads = reader.read(views)
    correct = sum(r.card == t for r, t in zip(reads, truth, strict=True))
    wrong = [(t.code, r.card.code) for r, t in zip(reads, truth, strict=True)
             if r.card is not None and r.card != t]
    assert wrong == []
    assert correct >= 0.95 * len(truth)
    assert all(r.kind == "face" for r in reads if r.card is not None)


@needs_model
def test_a_card_back_is_a_back_and_never_a_card(
        reader: CardClassifier, standard_deck: tuple[list[np.ndarray], np.ndarray]) -> None:
    _, back = standard_deck
    (read,) = reader.read([back])
    assert read.card is None
    assert read.kind == "back"


@needs_model
def test_noise_and_blank_views_are_not_read_as_cards(reader: CardClassifier) -> None:
    rng = np.random.default_rng(3)
    views = [
        rng.integers(0, 256, (140, 100, 3), dtype=np.uint8),
        np.full((140, 100, 3), 255, dtype=np.uint8),
        np.zeros((140, 100, 3), dtype=np.uint8),
        np.full((140, 100, 3), (40, 120, 30), dtype=np.uint8),  # green felt
    ]
    reads = reader.read(views)
    assert [r.card for r in reads] == [None] * len(views)


@needs_model
def test_batches_of_any_size_and_odd_views(reader: CardClassifier,
                                           standard_deck: tuple[list[np.ndarray], np.ndarray],
                                           ) -> None:
    faces, _ = standard_deck
    assert reader.read([]) == []
    # a grey view and a bigger view of the same card read like the canonical one
    queen = faces[Card.parse("QH").index]
    bigger = np.repeat(np.repeat(queen, 2, axis=0), 2, axis=1)
    reads = reader.read([queen, bigger])
    assert reads[0].card == reads[1].card == Card.parse("QH")
    with pytest.raises(TablecamError):
        reader.read([np.zeros((5,), dtype=np.uint8)])


def test_missing_model_names_the_file_and_the_training_command(tmp_path: Path) -> None:
    missing = tmp_path / "nothing.onnx"
    with pytest.raises(ModelError) as err:
        CardClassifier(missing)
    assert str(missing) in str(err.value)
    assert TRAIN_COMMAND in str(err.value)


def test_corrupt_model_is_a_model_error(tmp_path: Path) -> None:
    corrupt = tmp_path / "card_reader.onnx"
    corrupt.write_bytes(b"not a model at all")
    with pytest.raises(ModelError) as err:
        CardClassifier(corrupt)
    assert str(corrupt) in str(err.value)


def test_preprocess_turns_an_upside_down_card_into_swapped_corners() -> None:
    rng = np.random.default_rng(0)
    view = rng.integers(0, 256, (140, 100, 3), dtype=np.uint8)
    pair = corner_pair(view, 40, 60)
    turned = corner_pair(np.ascontiguousarray(view[::-1, ::-1]), 40, 60)
    assert pair.shape == (60, 80, 3)
    assert np.array_equal(pair[:, :40], turned[:, 40:])
    assert np.array_equal(pair[:, 40:], turned[:, :40])
    batch = preprocess([view, view[::-1, ::-1]], 40, 60)
    assert batch.shape == (2, 6, 60, 40)
    assert abs(float(batch[0].mean())) < 1e-3  # normalised per card


def test_a_card_s_network_input_does_not_depend_on_the_rest_of_its_batch() -> None:
    rng = np.random.default_rng(4)
    views = [rng.integers(0, 256, (140, 100, 3), dtype=np.uint8) for _ in range(5)]
    views.append(rng.integers(0, 256, (150, 90), dtype=np.uint8))  # grey, another size
    batch = preprocess(views, 40, 60)
    for view, row in zip(views, batch, strict=True):
        assert np.array_equal(preprocess([view], 40, 60)[0], row)
    # channels: the top-left corner's B, G, R, then the turned bottom-right corner's
    pair = corner_pair(views[0], 40, 60).astype(np.float32)
    scaled = (pair - pair.mean()) / (pair.std() + 8.0)
    assert np.allclose(batch[0, 2], scaled[:, :40, 2], atol=1e-5)
    assert np.allclose(batch[0, 3], scaled[:, 40:, 0], atol=1e-5)


def test_postprocess_gives_unknown_below_the_threshold() -> None:
    sure = np.array([[0.0] * 12 + [9.0]], dtype=np.float32)  # K
    unsure = np.zeros((1, 13), dtype=np.float32)
    suit = np.array([[0, 0, 9.0, 0]], dtype=np.float32)  # H
    face = np.array([[9.0, 0, 0]], dtype=np.float32)
    back = np.array([[0, 9.0, 0]], dtype=np.float32)
    (confident,) = postprocess(sure, suit, face, threshold=0.9)
    (doubtful,) = postprocess(unsure, suit, face, threshold=0.9)
    (turned,) = postprocess(sure, suit, back, threshold=0.9)
    assert confident.card == Card.parse("KH") and confident.kind == "face"
    assert doubtful.card is None and doubtful.kind == "face" and doubtful.confidence < 0.2
    assert turned.card is None and turned.kind == "back"


def test_candidates_list_the_likeliest_faces_even_when_unknown() -> None:
    rank = np.array([[0.0] * 11 + [3.0, 3.2]], dtype=np.float32)  # Q or K, K a little likelier
    suit = np.array([[0, 0, 9.0, 0]], dtype=np.float32)  # H
    face = np.array([[9.0, 0, 0]], dtype=np.float32)
    (read,) = postprocess(rank, suit, face, threshold=0.9)
    assert read.card is None
    codes = [card.code for card, _ in read.candidates]
    assert codes[:2] == ["KH", "QH"]
    probabilities = [p for _, p in read.candidates]
    assert probabilities == sorted(probabilities, reverse=True)
    assert probabilities[0] == pytest.approx(read.confidence)
    assert sum(probabilities) <= 1.0


def test_ranks_are_given_for_a_face_whatever_doubt_that_it_is_a_face() -> None:
    # a court card sure of its rank and not of its suit, in a view the kind head doubts a
    # little: its faces add up to less than its rank (dev game 2045's queens)
    rank = np.array([[0.0] * 11 + [9.0, 0.0]], dtype=np.float32)  # Q
    suit = np.array([[0, 3.0, 3.2, 0]], dtype=np.float32)  # D or H
    face = np.array([[2.0, 0.0, 0.0]], dtype=np.float32)  # face 0.78
    (read,) = postprocess(rank, suit, face, threshold=0.9)
    assert read.card is None and read.kind == "face"
    assert sum(p for _, p in read.candidates) < 0.8
    (best, p), *others = read.ranks
    assert best == Card.parse("QH").rank and p > 0.99
    assert [q for _, q in others] == sorted((q for _, q in others), reverse=True)
    (turned,) = postprocess(rank, suit, np.array([[0, 9.0, 0]], dtype=np.float32), threshold=0.9)
    assert turned.ranks == ()  # a back has no rank


def test_second_looks_are_the_view_slightly_zoomed_and_shifted() -> None:
    view = np.zeros((140, 100, 3), dtype=np.uint8)
    view[60:80, 40:60] = 255  # a bright square in the middle
    looks = tta_views(view)
    assert len(looks) == 4 and all(v.shape == view.shape for v in looks)
    centres = [np.argwhere(v[..., 0] > 128).mean(axis=0) for v in looks]
    sizes = [int((v[..., 0] > 128).sum()) for v in looks]
    assert sizes[0] < 400 < sizes[1]  # zoomed out, zoomed in
    assert np.allclose(centres[0], (69.5, 49.5), atol=1) and np.allclose(centres[1], (69.5, 49.5), atol=1)
    assert np.allclose(centres[2] - (69.5, 49.5), (3, 3), atol=1)  # shifted down right
    assert np.allclose(centres[3] - (69.5, 49.5), (-3, -3), atol=1)


@needs_model
def test_a_doubtful_face_gets_second_looks_only_when_calibrated_for_them(
        reader: CardClassifier, standard_deck: tuple[list[np.ndarray], np.ndarray]) -> None:
    faces, back = standard_deck
    first = CardClassifier(reader.model_path)
    first.threshold = 1.0  # no first look is ever sure enough: every face is doubtful
    first.tta_threshold = None
    plain = first.read([faces[10], back])
    assert plain[0].card is None and plain[0].kind == "face"
    second = CardClassifier(reader.model_path)
    second.threshold = 1.0
    second.tta_threshold = 0.0  # any averaged answer is accepted
    again = second.read([faces[10], back])
    assert again[0].card == FULL_DECK[10]
    assert again[0].candidates[0][0] == again[0].card
    assert again[1].card is None and again[1].kind == "back"  # a back gets no second look


def test_the_side_look_shows_the_top_right_corner_mirrored_as_an_index_corner() -> None:
    view = np.full((140, 100, 3), 255, dtype=np.uint8)
    view[5:15, 80:90] = 0  # a sign at the top right, 10 px in from the right edge
    pair = side_pairs(view[None], 40, 60)[0]
    assert pair.shape == (60, 80, 3)
    assert (pair[5:15, 10:20] == 0).all() and int((pair[:, :40] == 0).sum()) == 300
    assert (pair[:, 40:] == 255).all()
    # turned upside down, the sign is at the bottom left, and shows in the other half
    turned = side_pairs(np.ascontiguousarray(view[::-1, ::-1])[None], 40, 60)[0]
    assert (turned[5:15, 50:60] == 0).all() and (turned[:, :40] == 255).all()


@pytest.fixture(scope="module")
def tango_nuevo() -> DeckFaces:
    """gnome-tango_nuevo, a training deck that prints the suit sign beside the rank, at
    the top right, so its index corners show the rank alone."""
    from tablecam.render.decks import find_deck, load_deck

    try:
        return load_deck(find_deck("gnome-tango_nuevo"))
    except DeckArtError as exc:  # pragma: no cover - only without the Debian card art
        pytest.skip(f"deck art unavailable: {exc}")


@needs_model
def test_a_deck_with_the_suit_beside_the_rank_is_read_by_its_side_corners(
        tango_nuevo: DeckFaces) -> None:
    from tablecam.reading import synth

    faces = [tango_nuevo.face(card, 280) for card in FULL_DECK]
    pool = synth.SceneCards(faces, [tango_nuevo.back(280)], faces)
    rng = np.random.default_rng(7)
    # two views of each card as a camera a metre up sees it: 35-57 px wide
    views = [synth.face_sample(rng, pool, i, 0.6, (50.0, 80.0)).image
             for i in range(52) for _ in range(2)]
    truth = [card for card in FULL_DECK for _ in range(2)]
    tallies = []
    for side in (False, True):
        reads = CardClassifier(second_opinion=False, side_look=side).read(views)
        tallies.append((sum(r.card == t for r, t in zip(reads, truth, strict=True)),
                        sum(r.card not in (None, t) for r, t in zip(reads, truth, strict=True))))
    (before, wrong_before), (after, wrong_after) = tallies
    assert after >= before + 12 and wrong_after == wrong_before == 0


@needs_model
def test_the_side_look_names_only_a_suit_the_index_corners_liked(
        reader: CardClassifier, tango_nuevo: DeckFaces) -> None:
    king = clean_view(tango_nuevo.face(Card.parse("KC"), 140))
    rank = np.eye(13, dtype=np.float32)[12:13]  # sure it is a king
    face = np.array([[1.0, 0.0, 0.0]], np.float32)
    for suits, named in (([0.55, 0.0, 0.0, 0.45], "KC"), ([0.45, 0.0, 0.0, 0.55], "KC"),
                         ([0.1, 0.5, 0.4, 0.0], None)):  # clubs not among the two liked
        p_suit = np.array([suits], np.float32)
        reads = judge(rank, p_suit, face, 1.01)
        assert reads[0].card is None
        reader.look_aside([king], reads, [0], rank, p_suit, face)
        assert (reads[0].card.code if reads[0].card else None) == named


class _Sure:
    """A stand-in second model, sure of one card whatever it is shown."""

    def __init__(self, card: Card) -> None:
        self.card = card

    def probabilities(self, cards: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        n = len(cards)
        rank, suit, kind = np.zeros((n, 13), np.float32), np.zeros((n, 4), np.float32), \
            np.zeros((n, 3), np.float32)
        index = FULL_DECK.index(self.card)
        suit[:, index // 13], rank[:, index % 13], kind[:, 0] = 1.0, 1.0, 1.0
        return rank, suit, kind


@needs_model
def test_a_face_still_unknown_is_named_by_a_sure_second_opinion_that_agrees(
        reader: CardClassifier, standard_deck: tuple[list[np.ndarray], np.ndarray]) -> None:
    faces, back = standard_deck
    first = CardClassifier(reader.model_path, second_opinion=False)
    first.threshold = first.tta_threshold = 1.0  # never sure by itself
    assert first.read([faces[10]])[0].card is None
    first.second = CardClassifier(reader.model_path, second_opinion=False)
    first.second_threshold = 0.0
    named = first.read([faces[10], back])
    assert named[0].card == FULL_DECK[10] and named[0].kind == "face"
    assert named[1].card is None and named[1].kind == "back"  # a back is not asked about
    # a second opinion for a face the first model does not think likely is not taken
    unlikely = next(c for c in FULL_DECK if c not in {x for x, _ in named[0].candidates})
    first.second = _Sure(unlikely)  # type: ignore[assignment]
    assert first.read([faces[10]])[0].card is None
    first.second_threshold = 1.01  # nor one below its threshold
    first.second = _Sure(FULL_DECK[10])  # type: ignore[assignment]
    assert first.read([faces[10]])[0].card is None


@needs_model
def test_a_second_opinion_named_in_the_metadata_is_loaded_and_a_missing_one_is_skipped(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    onnx = pytest.importorskip("onnx")
    proto = onnx.load(str(MODEL))
    for key, value in (("second_opinion", "other.onnx"), ("second_threshold", "0.7")):
        entry = proto.metadata_props.add()
        entry.key, entry.value = key, value
    onnx.save(proto, str(tmp_path / "main.onnx"))
    alone = CardClassifier(tmp_path / "main.onnx")
    assert alone.second is None
    assert "other.onnx" in caplog.text
    (tmp_path / "other.onnx").write_bytes(MODEL.read_bytes())
    paired = CardClassifier(tmp_path / "main.onnx")
    assert paired.second is not None and paired.second_threshold == 0.7
    assert paired.second.second is None


@needs_model
def test_real_photos_are_read_or_left_unknown_but_rarely_wrong(reader: CardClassifier) -> None:
    from tablecam.reading import realdata

    if not (realdata.fmjio_dir() / "valid").is_dir():
        pytest.skip(f"real photo dataset absent at {realdata.fmjio_dir()}")
    crops = list(realdata.iter_crops("valid"))
    reads = reader.read([c.image for c in crops])
    right = sum(r.card == c.card for r, c in zip(reads, crops, strict=True))
    wrong = sum(r.card is not None and r.card != c.card for r, c in zip(reads, crops, strict=True))
    # the committed model reads 36 % and misreads 1 % (2 of 197); guard against regressions
    assert right >= 0.3 * len(crops)
    assert wrong <= 0.02 * len(crops)


TRAINED = MODEL.with_name("card_reader.onnx")


@pytest.mark.skipif(not TRAINED.exists(), reason=f"{TRAINED} is not trained yet")
def test_the_8_bit_copy_keeps_the_thresholds_and_reads_as_the_trained_model(tmp_path: Path) -> None:
    pytest.importorskip("onnx")
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location(
        "quantize_card_reader", Path(__file__).resolve().parents[2] / "scripts" / "quantize_card_reader.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["quantize_card_reader"] = module
    spec.loader.exec_module(module)
    out = tmp_path / "card_reader.int8.onnx"
    try:
        assert module.main(["--model", str(TRAINED), "--out", str(out), "--views", "128"]) == 0
    except SystemExit as exc:  # no training deck art on this machine
        pytest.skip(str(exc))
    trained, small = CardClassifier(TRAINED), CardClassifier(out)
    assert (small.threshold, small.tta_threshold) == (trained.threshold, trained.tta_threshold)
    assert out.stat().st_size < TRAINED.stat().st_size / 3
    batches = module.calibration_batches(trained, 64, seed=99)
    agree = total = 0
    for batch in batches:
        a, b = trained.run(*batch), small.run(*batch)
        for head_a, head_b in zip(a, b, strict=True):
            agree += int((head_a.argmax(axis=1) == head_b.argmax(axis=1)).sum())
            total += len(head_a)
    assert agree / total >= 0.97


def test_a_view_of_one_flat_colour_gives_a_flat_input_not_nan() -> None:
    # a bare table or an overexposed card: no spread at all
    batch = preprocess([np.full((140, 100, 3), 200, np.uint8)], 40, 60)
    assert np.isfinite(batch).all() and float(np.abs(batch).max()) == 0.0
