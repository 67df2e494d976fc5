"""The full read of ``tablecam bench reader`` timed against another commit, read by read.

    .venv/bin/python benchmarks/paired_reader.py --against f3fbff2 --pairs 300
    .venv/bin/python benchmarks/paired_reader.py --against HEAD --frame piles
    .venv/bin/python benchmarks/paired_reader.py --against ee257b1 --frame search --pairs 60

``--frame piles`` times the bench stream's frame in which both centre piles change at
once (a card on each; the reader glimpses both under the moving hands) instead of the
full read.  ``--frame search`` times the thorough search of the reader's layout hunt
(``find_cards`` on the whole full-read frame, as ``TableReader._search`` calls it), with
the finder's fit cache emptied first where the commit has one.

A shared machine's speed can swing by half between runs minutes apart, more than most
changes to the reader; two runs of ``tablecam bench reader`` one after the other then
say little.  Here two worker processes, one on this tree and one on the other commit's
``tablecam`` and ``models`` (``git archive`` into a temporary folder), are driven in
turns: each pair is one full read by each, in random order, so that both see the same
spell of the machine.  Prints each side's quickest, 10th percentile and median (CPU
time, one thread, as the benchmark), and the median of the pairs' ratios.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

# run in a tree's root, so that ``import tablecam`` is that tree's
WORKER = """
import sys, time
import cv2
from tablecam.capture import Frame
from tablecam.reading import bench, finder
from tablecam.reading.table_reader import TableReader
cv2.setNumThreads(1)
classifier, _ = bench._classifier()
frames = bench._frames()
piles = sys.argv[1] == "piles"
search = sys.argv[1] == "search"
# the bench's stream: the deal, then a card played every ten frames; its frame 20 is
# the one on which both centre piles change
stream = [frames[min(1 + i // 10, len(frames) - 1)] for i in range(21)]


def one():
    if search:
        getattr(finder, "_fits", {}).clear()
        image = frames[2]
        start = time.process_time()
        finder.find_cards(image, min_width=min(image.shape[:2]) / 28, piles=False, backs=True)
        return time.process_time() - start
    if not piles:
        reader = TableReader(classifier)
        start = time.process_time()
        reader.read(Frame(0.0, frames[2]))
        return time.process_time() - start
    reader = TableReader(classifier)
    reader.read(Frame(0.0, frames[0]))
    for i, image in enumerate(stream[:-1]):
        reader.read(Frame(0.1 * (i + 1), image))
    start = time.process_time()
    reader.read(Frame(0.1 * len(stream), stream[-1]))
    return time.process_time() - start


for _ in range(3):
    one()
print("ready", flush=True)
for line in sys.stdin:
    print(1000 * one(), flush=True)
"""


def _export(revision: str, into: Path) -> None:
    archive = subprocess.run(["git", "archive", revision, "tablecam", "models"], cwd=ROOT,
                             check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")


def _start(tree: Path, frame: str) -> subprocess.Popen[str]:
    worker = subprocess.Popen([sys.executable, "-c", WORKER, frame], cwd=tree, text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert worker.stdout is not None
    if worker.stdout.readline().strip() != "ready":
        raise SystemExit(f"the worker in {tree} did not start")
    return worker


def _read(worker: subprocess.Popen[str]) -> float:
    assert worker.stdin is not None and worker.stdout is not None
    worker.stdin.write("go\n")
    worker.stdin.flush()
    return float(worker.stdout.readline())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", required=True, help="the other commit")
    parser.add_argument("--pairs", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--frame", choices=("full", "piles", "search"), default="full",
                        help="what to time: a full read, the frame where both piles change, "
                             "or the thorough search of a whole frame")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        other = Path(folder)
        _export(args.against, other)
        workers = {"this tree": _start(ROOT, args.frame), args.against: _start(other, args.frame)}
        times: dict[str, list[float]] = {name: [] for name in workers}
        try:
            for _ in range(args.pairs):
                order = list(workers)
                rng.shuffle(order)
                for name in order:
                    times[name].append(_read(workers[name]))
        finally:
            for worker in workers.values():
                worker.kill()
    for name, values in times.items():
        ms = np.array(values)
        print(f"{name:>12}: {args.frame} quickest {ms.min():.2f} ms, 10th percentile "
              f"{np.percentile(ms, 10):.2f} ms, median {np.median(ms):.2f} ms")
    ours, theirs = (np.array(v) for v in times.values())
    print(f"median of the pairs' ratios (this tree / {args.against}): "
          f"{float(np.median(ours / theirs)):.3f} over {args.pairs} pairs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
