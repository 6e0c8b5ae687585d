"""Holiday photos the persona mails home: small landscape JPEGs drawn from a named stream.

The world names a photo (``IMG_20260905_lisbon_01.jpg``); this draws a plain landscape for it
(a sky gradient, a sun, hills or sea, a horizon) so the attachment opens as a real image. Same
filename and seed, same bytes: Pillow's encoder is deterministic for a fixed image and quality.
"""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from builder.rng import rng

SIZE = (960, 720)


def photo_jpeg(seed: int, filename: str) -> bytes:
    """A ``SIZE`` JPEG (quality 82, no EXIF) for the photo ``filename``, from stream ``mail/photo/<filename>``."""
    r = rng(seed, f"mail/photo/{filename}")
    w, h = SIZE
    img = Image.new("RGB", SIZE)
    draw = ImageDraw.Draw(img)
    horizon = int(h * r.uniform(0.45, 0.65))
    top = (r.randint(40, 110), r.randint(110, 170), r.randint(190, 240))
    low = (r.randint(200, 250), r.randint(170, 220), r.randint(140, 200))
    for y in range(horizon):
        t = y / max(1, horizon - 1)
        draw.line([(0, y), (w, y)], fill=tuple(int(a + (b - a) * t) for a, b in zip(top, low)))
    sx, sy, sr = r.randint(80, w - 80), r.randint(40, horizon - 60), r.randint(22, 48)
    draw.ellipse([sx - sr, sy - sr, sx + sr, sy + sr], fill=(255, r.randint(215, 245), r.randint(150, 200)))
    ground = (r.randint(30, 90), r.randint(80, 140), r.randint(60, 150))
    # Two ridges of hills, or a calm sea, up to the horizon.
    for layer in range(2):
        shade = tuple(max(0, c - 25 * layer) for c in ground)
        points = [(0, h)]
        x = 0
        while x <= w:
            points.append((x, horizon + layer * 40 - r.randint(0, 90)))
            x += r.randint(60, 160)
        points += [(w, horizon + layer * 40), (w, h)]
        draw.polygon(points, fill=shade)
    draw.rectangle([0, int(h * 0.86), w, h], fill=tuple(max(0, c - 50) for c in ground))
    out = io.BytesIO()
    img.save(out, format="JPEG", quality=82, optimize=False, progressive=False)
    return out.getvalue()
