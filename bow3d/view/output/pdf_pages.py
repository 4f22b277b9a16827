"""A PDF of picture pages: each page one RGB image filling the paper, nothing else.

Layer: view, pure Python (zlib). PDF 1.4, one image XObject (DeviceRGB, 8 bits, FlateDecode) per page,
drawn over the whole MediaBox; sizes in points (1/72 inch). Enough for printing the cards of
`bow3d cards`; no fonts (the words are in the pictures).
"""

from __future__ import annotations

import zlib

import numpy as np

MM_PER_INCH = 25.4
POINTS_PER_INCH = 72.0


def mm_to_points(mm: float) -> float:
    return mm / MM_PER_INCH * POINTS_PER_INCH


def format_pdf(pages: list[np.ndarray], paper_mm: tuple[float, float]) -> bytes:
    """The bytes of a PDF whose pages are `pages` ((H, W, 3) uint8 each) on paper `paper_mm` (width, height)."""
    width_pt, height_pt = (mm_to_points(v) for v in paper_mm)
    objects: list[bytes] = [b"", b""]  # 1: catalog, 2: page tree (filled in at the end)
    kids = []
    for image in pages:
        h, w, _ = image.shape
        data = zlib.compress(np.ascontiguousarray(image, np.uint8).tobytes(), 6)
        objects.append(b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceRGB "
                       b"/BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n" % (w, h, len(data))
                       + data + b"\nendstream")
        image_ref = len(objects)
        content = b"q %.2f 0 0 %.2f 0 0 cm /Im0 Do Q" % (width_pt, height_pt)
        objects.append(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
        content_ref = len(objects)
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f] /Contents %d 0 R "
                       b"/Resources << /XObject << /Im0 %d 0 R >> >> >>"
                       % (width_pt, height_pt, content_ref, image_ref))
        kids.append(len(objects))
    objects[0] = b"<< /Type /Catalog /Pages 2 0 R >>"
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % k for k in kids), len(kids))
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)
