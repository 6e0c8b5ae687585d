"""The screen recorder encodes real H.264 MP4 with PyAV from PPM screens, in real time, and says when no screen
could be taken (the guest's own recording endpoints are tested on a booted clone: test_run_image_clones.py)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from builder.runtime.video import ScreenRecorder

av = pytest.importorskip("av")


def _ppm(path: Path, width: int, height: int, shade: int) -> None:
    path.write_bytes(b"P6\n%d %d\n255\n" % (width, height) + bytes([shade, 255 - shade, 90]) * (width * height))


def test_recording_is_an_mp4_in_real_time_with_late_frames_repeated(tmp_path):
    taken = []

    def grab(path: Path) -> None:
        n = len(taken)
        taken.append(n)
        if n == 2:
            raise RuntimeError("QMP busy")  # a missed screen repeats the last one
        _ppm(path, 321, 200, (n * 40) % 256)  # an odd width: H.264's 4:2:0 wants even sizes

    rec = ScreenRecorder(grab, tmp_path / "r.mp4", fps=4)
    rec.start()
    time.sleep(2.2)
    out = rec.stop()
    summary = rec.summary()
    assert out == tmp_path / "r.mp4" and summary["bytes"] > 0 and summary["failed_grabs"] == 1
    assert 8 <= summary["frames"] <= 11 and summary["screens"] >= summary["frames"] - 2
    with av.open(str(out)) as container:
        stream = container.streams.video[0]
        assert stream.codec_context.name == "h264" and (stream.width, stream.height) == (320, 200)
        frames = list(container.decode(stream))
    assert len(frames) == summary["frames"]
    assert float(frames[-1].pts * stream.time_base) == pytest.approx((len(frames) - 1) / 4, abs=0.01)
    first = frames[0].to_image().getpixel((10, 10))
    assert abs(first[0] - 0) < 12 and abs(first[1] - 255) < 12  # the first screen's colours survive encoding
    assert not (tmp_path / "r.frame.ppm").exists()


def test_no_screen_at_all_is_an_error_not_an_empty_file(tmp_path):
    def grab(path: Path) -> None:
        raise RuntimeError("no machine")

    rec = ScreenRecorder(grab, tmp_path / "r.mp4", fps=4)
    rec.start()
    time.sleep(0.6)
    with pytest.raises(RuntimeError, match=r"no screen could be taken \(\d+ tries\)"):
        rec.stop()
    assert not (tmp_path / "r.mp4").exists()
