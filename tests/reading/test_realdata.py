"""Reading the labels of the real photo datasets."""

from pathlib import Path

import cv2
import numpy as np

from tablecam.cards import Rank
from tablecam.reading import realdata

VOC = """<annotation><filename>{name}</filename>
<object><name>queen</name><bndbox><xmin>10</xmin><ymin>20</ymin><xmax>110</xmax><ymax>160</ymax></bndbox></object>
<object><name>joker</name><bndbox><xmin>0</xmin><ymin>0</ymin><xmax>5</xmax><ymax>5</ymax></bndbox></object>
<object><name> Ace </name><bndbox><xmin>200</xmin><ymin>30</ymin><xmax>300</xmax><ymax>170</ymax></bndbox></object>
</annotation>"""


def test_rank_only_boxes_are_read_and_unknown_names_skipped(tmp_path: Path) -> None:
    xml = tmp_path / "a.xml"
    xml.write_text(VOC.format(name="a.jpg"))
    boxes = realdata.read_voc(xml)
    assert [(b.rank, b.x0, b.y0, b.x1, b.y1) for b in boxes] == [
        (Rank.QUEEN, 10, 20, 110, 160), (Rank.ACE, 200, 30, 300, 170)]


def test_edje_photos_are_the_labelled_ones_and_every_third_is_kept_for_dev(tmp_path: Path) -> None:
    split = tmp_path / "train"
    split.mkdir()
    blank = np.zeros((8, 8, 3), np.uint8)
    for name in ("c.JPG", "a.jpg", "b.jpg", "d.jpg", "unlabelled.jpg"):
        cv2.imwrite(str(split / name), blank)
        if name != "unlabelled.jpg":
            (split / name).with_suffix(".xml").write_text(VOC.format(name=name))
    photos = realdata.edje_photos("train", tmp_path)
    assert [p.name for p in photos] == ["a.jpg", "b.jpg", "c.JPG", "d.jpg"]
    dev = [p.name for i, p in enumerate(photos) if realdata.edje_dev_photo(i)]
    assert dev == ["a.jpg", "d.jpg"]
    assert realdata.edje_photos("test", tmp_path) == []
