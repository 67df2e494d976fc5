#!/usr/bin/env python3
"""Make the 8-bit card reader (``models/card_reader.int8.onnx``) from the trained one.

    nice -n 10 .venv/bin/python scripts/quantize_card_reader.py [--seed 7] [--views 1536]

onnxruntime's static quantisation: weights to signed 8 bits per output channel,
activations to unsigned 8 bits with ranges measured on calibration inputs.  The
calibration views are made as the training views are (``tablecam.reading.synth``) from
the *training* decks only (``list_decks()`` leaves the reserved families out), with a seed
of their own, and go through the classifier's own pre-processing (two index corners,
normalised per card).  The trained model's metadata (thresholds, decks, seed) is copied.

The 8-bit model reads a batch about twice as fast on one core; whether it reads as well
is judged on the dev sets (``benchmarks/eval_recognize.py --dev --model ...`` and
``benchmarks/eval_classifier.py --model ... --decks <training decks>``), and the figures
are in the model card.  Needs the ``onnx`` package (``pip install -e .[train]``).
Deterministic for a given seed; about a minute on one core.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tablecam.cards import FULL_DECK  # noqa: E402
from tablecam.errors import DeckArtError  # noqa: E402
from tablecam.reading import synth  # noqa: E402
from tablecam.reading.classifier import CardClassifier  # noqa: E402

FACE_HEIGHT = 200
BATCH = 64


Inputs = tuple[np.ndarray, np.ndarray | None]


def calibration_batches(reader: CardClassifier, views: int, seed: int) -> list[Inputs]:
    """Network inputs of ``views`` synthetic views (faces, backs and none in the training
    mix's proportions) from the training decks."""
    from tablecam.render.decks import list_decks, load_deck

    rng = np.random.default_rng(seed)
    pools = []
    for deck in list_decks():
        try:
            art = load_deck(deck)
        except DeckArtError as exc:
            print(f"skipping deck {deck.name}: {exc}", file=sys.stderr)
            continue
        pools.append(synth.SceneCards([art.face(c, FACE_HEIGHT) for c in FULL_DECK],
                                      [art.back(FACE_HEIGHT)], []))
    if not pools:
        raise SystemExit("no training deck art found: install kdegames-card-data-kf5 and "
                         "gnome-cards-data (scripts/setup_training.sh)")
    others = [pool.faces[int(i)] for pool in pools for i in rng.choice(52, 6)]
    images = []
    for k in range(views):
        own = pools[k % len(pools)]
        pool = synth.SceneCards(own.faces, own.backs, others)
        strength = float(rng.uniform(0.3, 1.0))
        kind = rng.random()
        if kind < 0.8:
            sample = synth.face_sample(rng, pool, int(rng.integers(52)), strength)
        elif kind < 0.9:
            sample = synth.back_sample(rng, pool, strength)
        else:
            sample = synth.none_sample(rng, pool, strength)
        images.append(sample.image)
    batches = []
    for start in range(0, len(images), BATCH):
        batches.append(reader.inputs(images[start:start + BATCH]))
    return batches


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", type=Path, default=REPO / "models" / "card_reader.onnx")
    parser.add_argument("--out", type=Path, default=REPO / "models" / "card_reader.int8.onnx")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--views", type=int, default=1536)
    args = parser.parse_args(argv)

    import onnx
    from onnxruntime.quantization import (
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    reader = CardClassifier(args.model)
    batches = calibration_batches(reader, args.views, args.seed)

    class Views(CalibrationDataReader):
        def __init__(self) -> None:
            self._it: Iterator[Inputs] = iter(batches)

        def get_next(self) -> dict[str, np.ndarray] | None:
            batch = next(self._it, None)
            return None if batch is None else reader.feeds(*batch)

    prepared = args.out.with_suffix(".pre.onnx")
    try:
        quant_pre_process(str(args.model), str(prepared))
        quantize_static(str(prepared), str(args.out), Views(), quant_format=QuantFormat.QDQ,
                        per_channel=True, activation_type=QuantType.QUInt8,
                        weight_type=QuantType.QInt8,
                        calibrate_method=CalibrationMethod.Percentile,
                        extra_options={"CalibPercentile": 99.99})
    finally:
        prepared.unlink(missing_ok=True)
    source, quantized = onnx.load(str(args.model)), onnx.load(str(args.out))
    meta = {p.key: p.value for p in source.metadata_props}
    meta.update({"quantized": "int8 static, per-channel weights", "quantize_seed": str(args.seed),
                 "quantize_views": str(args.views)})
    del quantized.metadata_props[:]
    for key, value in sorted(meta.items()):
        quantized.metadata_props.add(key=key, value=value)
    onnx.save(quantized, str(args.out))
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.2f} MB) from {args.model}, "
          f"{args.views} calibration views, seed {args.seed}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
