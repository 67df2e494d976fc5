#!/usr/bin/env python3
"""Evaluate the card reader (models/card_reader.onnx) and print the figures of its model card.

    nice -n 10 .venv/bin/python benchmarks/eval_classifier.py [--per-card 4] [--json]

Measures, per deck family, the share of face-up cards read correctly, read wrongly and
left unknown (``null``) on synthetic camera views (``tablecam.reading.synth``) at two
levels of disturbance: ``mild`` (a clean overhead camera, close to rendered stills) and
``hard`` (the full training augmentation: blur, glare, shadows, occluded corner, JPEG).
Training decks use a seed never used in training; the reserved families (Dondorf,
Tigullio, Kennard) are never trained on.  Then the real photos of
``poker_cards_fmjio/valid`` (cards cut out from their label boxes: read given found),
back and none recognition, speed on one core, model size and peak memory.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tablecam.cards import FULL_DECK, Card  # noqa: E402
from tablecam.errors import DeckArtError  # noqa: E402
from tablecam.reading import synth  # noqa: E402
from tablecam.reading.classifier import CardClassifier, CardRead  # noqa: E402

FACE_HEIGHT = 200
SEED = 424242  # never used by training (training uses 0 and 1000 + its seed)


def _score(reads: list[CardRead], truth: list[Card]) -> dict[str, float]:
    n = len(truth)
    right = sum(r.card == t for r, t in zip(reads, truth, strict=True))
    unknown = sum(r.card is None for r in reads)
    return {"cards": n, "correct": right / n, "wrong": (n - right - unknown) / n,
            "unknown": unknown / n}


def _family(name: str) -> str:
    from tablecam.render.decks import RESERVED_FAMILIES

    for family, names in RESERVED_FAMILIES.items():
        if name in names:
            return f"{family} (reserved)"
    return "training decks (held-out seed)"


def synthetic_eval(reader: CardClassifier, per_card: int, decks_wanted: list[str] | None,
                   ) -> dict[str, dict[str, dict[str, float]]]:
    """Accuracy per family and disturbance level on synthetic views."""
    from tablecam.render.decks import list_decks, load_deck

    decks = list_decks(include_reserved=True)
    if decks_wanted:
        decks = [d for d in decks if d.name in decks_wanted]
    pools: dict[str, synth.SceneCards] = {}
    for deck in decks:
        try:
            art = load_deck(deck)
            pools[deck.name] = synth.SceneCards(
                [art.face(c, FACE_HEIGHT) for c in FULL_DECK], [art.back(FACE_HEIGHT)], [])
        except DeckArtError as exc:
            print(f"skipping deck {deck.name}: {exc}", file=sys.stderr)
    rng = np.random.default_rng(SEED)
    others = [pool.faces[int(i)] for pool in pools.values() for i in rng.choice(52, 6)]
    results: dict[str, dict[str, dict[str, float]]] = {}
    per_deck: dict[str, dict[str, float]] = {}
    for level, strength in (("mild", 0.3), ("hard", 1.0)):
        grouped: dict[str, tuple[list[CardRead], list[Card]]] = {}
        for name, own in pools.items():
            pool = synth.SceneCards(own.faces, own.backs, others)
            samples = [synth.face_sample(rng, pool, i, strength)
                       for i in range(52) for _ in range(per_card)]
            reads = reader.read([s.image for s in samples])
            truth = [Card.from_index(s.suit * 13 + s.rank) for s in samples]
            per_deck[f"{level} {name}"] = _score(reads, truth)
            bucket = grouped.setdefault(_family(name), ([], []))
            bucket[0].extend(reads)
            bucket[1].extend(truth)
        results[level] = {fam: _score(r, t) for fam, (r, t) in sorted(grouped.items())}
        # backs and non-cards of every deck, at this level
        pool_all = synth.SceneCards([], [p.backs[0] for p in pools.values()], others)
        backs = [synth.back_sample(rng, pool_all, strength) for _ in range(20 * len(pools))]
        nones = [synth.none_sample(rng, pool_all, strength) for _ in range(20 * len(pools))]
        back_reads = reader.read([s.image for s in backs])
        none_reads = reader.read([s.image for s in nones])
        results[level]["backs"] = {
            "cards": len(backs), "as_back": float(np.mean([r.kind == "back" for r in back_reads])),
            "read_as_a_card": float(np.mean([r.card is not None for r in back_reads]))}
        results[level]["none"] = {
            "cards": len(nones), "as_none": float(np.mean([r.kind == "none" for r in none_reads])),
            "read_as_a_card": float(np.mean([r.card is not None for r in none_reads]))}
    results["per_deck"] = per_deck
    return results


def real_eval(reader: CardClassifier) -> dict[str, float] | None:
    """Read-given-found on poker_cards_fmjio/valid (crops from the label boxes)."""
    from tablecam.reading import realdata

    if not (realdata.fmjio_dir() / "valid").is_dir():
        print(f"skipping real photos: {realdata.fmjio_dir() / 'valid'} is absent", file=sys.stderr)
        return None
    crops = list(realdata.iter_crops("valid"))
    reads = reader.read([c.image for c in crops])
    score = _score(reads, [c.card for c in crops])
    wrong = [(c.photo, c.card.code, r.card.code if r.card else None)
             for c, r in zip(crops, reads, strict=True) if r.card is not None and r.card != c.card]
    return {**score, "wrong_examples": wrong[:10]}  # type: ignore[dict-item]


def speed(reader: CardClassifier, repeats: int = 200) -> dict[str, float]:
    """Median milliseconds on one thread: one card, a batch of 12, and a batch of 12
    doubtful faces that all take the second looks (the worst case)."""
    from tablecam.render.decks import find_deck, load_deck

    rng = np.random.default_rng(0)
    cards = [rng.integers(0, 255, (140, 100, 3), dtype=np.uint8) for _ in range(12)]
    art = load_deck(find_deck("kde-standard"))
    faces = [synth.clean_view(art.face(c, 140)) for c in FULL_DECK[:12]]
    doubtful = CardClassifier(reader.model_path)
    doubtful.threshold = 1.0  # every first look falls short: all twelve get second looks
    out = {}
    for label, who, batch in (("ms_per_card_batch1", reader, cards[:1]),
                              ("ms_per_batch12", reader, cards),
                              ("ms_per_batch12_faces", reader, faces),
                              ("ms_per_batch12_all_second_looks", doubtful, faces)):
        who.read(batch)
        times = []
        for _ in range(repeats):
            t = time.perf_counter()
            who.read(batch)
            times.append((time.perf_counter() - t) * 1000)
        out[label] = float(np.median(times))
    return out


def runtime_peak_memory(model: Path) -> float:
    """Peak resident memory (MB) of a fresh process that loads the reader and reads 12 cards.

    VmHWM, not ru_maxrss: the latter keeps the high-water mark of the forking parent.
    """
    import subprocess

    code = (
        "import resource, numpy as np\n"
        "from pathlib import Path\n"
        "from tablecam.reading.classifier import CardClassifier\n"
        f"reader = CardClassifier(Path({str(model)!r}))\n"
        "cards = [np.full((140, 100, 3), 200, np.uint8)] * 12\n"
        "for _ in range(50):\n    reader.read(cards)\n"
        "hwm = [ln for ln in open('/proc/self/status') if ln.startswith('VmHWM')]\n"
        "print(int(hwm[0].split()[1]) / 1024 if hwm else "
        "resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=REPO)
    return round(float(out.stdout.strip().splitlines()[-1]), 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=None)
    parser.add_argument("--per-card", type=int, default=4, help="views per card per deck")
    parser.add_argument("--decks", nargs="*", default=None, help="only these deck names")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    import cv2

    cv2.setNumThreads(1)
    reader = CardClassifier(args.model)
    report: dict[str, object] = {
        "model": str(reader.model_path),
        "model_mb": round(reader.model_path.stat().st_size / 1e6, 3),
        "threshold": reader.threshold,
        "tta_threshold": reader.tta_threshold,
        "input": f"2 x {reader.input_width}x{reader.input_height}",
    }
    report["speed"] = speed(reader)
    report["real_fmjio_valid"] = real_eval(reader)
    report["synthetic"] = synthetic_eval(reader, args.per_card, args.decks)
    report["runtime_peak_memory_mb"] = runtime_peak_memory(reader.model_path)
    report["eval_peak_memory_mb"] = round(
        resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"model {report['model']}: {report['model_mb']} MB, input {report['input']}, "
          f"threshold {report['threshold']:.4f}, second looks {report['tta_threshold']}")
    for k, v in report["speed"].items():  # type: ignore[attr-defined]
        print(f"speed {k}: {v:.2f}")
    real = report["real_fmjio_valid"]
    if real:
        print(f"real fmjio/valid: {real['cards']} cards, correct {real['correct']:.2%}, "  # type: ignore[index]
              f"wrong {real['wrong']:.2%}, unknown {real['unknown']:.2%}")  # type: ignore[index]
    synthetic = report["synthetic"]
    for level in ("mild", "hard"):
        for fam, s in synthetic[level].items():  # type: ignore[index]
            if "correct" in s:
                print(f"{level:4} {fam:32} {s['cards']:6d} cards  correct {s['correct']:.2%}  "
                      f"wrong {s['wrong']:.2%}  unknown {s['unknown']:.2%}")
            else:
                print(f"{level:4} {fam:32} {s['cards']:6d} samples  "
                      + "  ".join(f"{k} {v:.2%}" for k, v in s.items() if k != "cards"))
    print("per deck (correct / wrong):")
    for name, s in synthetic["per_deck"].items():  # type: ignore[index]
        print(f"  {name:40} {s['correct']:.2%} / {s['wrong']:.2%}")
    print(f"peak memory of a process that loads the reader and reads: "
          f"{report['runtime_peak_memory_mb']} MB (this evaluation, with all deck art loaded: "
          f"{report['eval_peak_memory_mb']} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
