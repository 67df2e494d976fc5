"""``tablecam mat --out mat.pdf``: print the ArUco mat that fixes the table geometry."""

from __future__ import annotations

import argparse
from pathlib import Path

HELP = "write the printable ArUco mat (PDF, or PNG of the whole mat) that marks every zone"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", type=Path, required=True, metavar="FILE",
                        help="where to write the mat: .pdf (sheets to print) or .png (one image)")
    parser.add_argument("--paper", choices=("a3", "a4"), default="a3",
                        help="sheet size: two A3 sheets or four A4 sheets (default a3)")
    parser.add_argument("--dpi", type=float, default=150.0, help="print resolution (default 150)")


def run(args: argparse.Namespace) -> int:
    import cv2

    from tablecam.geometry.mat import MAT_MM, MatError, render_mat, write_mat_pdf

    if not 30 <= args.dpi <= 600:
        raise MatError(f"--dpi must be between 30 and 600, not {args.dpi:g}")
    out: Path = args.out
    if out.parent and not out.parent.exists():
        raise MatError(f"cannot write {out}: the folder {out.parent} does not exist")
    suffix = out.suffix.lower()
    if suffix == ".pdf":
        pages = write_mat_pdf(out, args.paper, args.dpi)
        print(f"wrote {out}: {pages} {args.paper.upper()} sheets; print at 100% scale and "
              f"tape them edge to edge into one {MAT_MM[0]:.0f} x {MAT_MM[1]:.0f} mm mat")
    elif suffix == ".png":
        if not cv2.imwrite(str(out), render_mat(args.dpi)):
            raise MatError(f"cannot write the mat image to {out}")
        print(f"wrote {out}: the whole {MAT_MM[0]:.0f} x {MAT_MM[1]:.0f} mm mat at {args.dpi:g} dpi")
    else:
        raise MatError(f"--out must end in .pdf or .png, not {out.name!r}")
    return 0
