"""Screen recordings of an episode: the guest's screen as an H.264 MP4, taken on the host.

OSWorld's controller asks for one with ``POST /start_recording`` and fetches it with ``POST /end_recording``
(the answer is the MP4 itself), and its runners keep it as ``recording.mp4`` beside the trajectory. The guest in
this project has no ffmpeg and needs none: the host takes the frames with QEMU's ``screendump`` (PPM, through the
machine's QMP lock, so a reset and a recording never talk over each other) and encodes them with PyAV (FFmpeg's
libraries; ``pip install av``).

Frames are taken :data:`FPS` times a second. The video runs in real time: a frame that comes late (the guest's
display thread was busy, a reset held QMP) repeats the previous one for the time it missed, which costs H.264
almost nothing. Bounded: recording stops taking frames after :data:`MAX_SECONDS`; x264 at preset ``veryfast``,
CRF 30, so an hour of a desktop is tens of MB.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

from ..image.boot import parse_ppm

#: Frames per second taken from the guest's screen.
FPS = 2
#: Longest recording: later frames are not taken (the MP4 ends there).
MAX_SECONDS = 3600
#: x264's constant rate factor: 30 keeps text readable at 1280x800 and a still desktop near zero bytes.
CRF = 30


class VideoUnavailable(RuntimeError):
    """PyAV (``av``) is not installed: recordings cannot be encoded here."""


def _av():
    try:
        import av
    except ImportError:
        raise VideoUnavailable("recording the screen needs PyAV: pip install av") from None
    return av


class ScreenRecorder:
    """Record the screen into ``out`` (an MP4) from :meth:`start` until :meth:`stop`.

    ``grab(path)`` writes the current screen to ``path`` as a binary PPM (P6) or raises; a frame it fails to
    take repeats the last one. Raises :class:`VideoUnavailable` at construction without PyAV.
    """

    def __init__(self, grab: Callable[[Path], None], out: Path, fps: int = FPS, max_seconds: float = MAX_SECONDS):
        self._av = _av()
        self.grab, self.out, self.fps, self.max_seconds = grab, Path(out), fps, max_seconds
        self.out.parent.mkdir(parents=True, exist_ok=True)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.frames = 0  # frames written, repeats included
        self.grabbed = 0  # screens taken
        self.failed = 0  # grabs that failed
        self.error: str | None = None
        self.started = 0.0

    def start(self) -> None:
        self.started = time.monotonic()
        self._thread = threading.Thread(target=self._run, name="screen-recorder", daemon=True)
        self._thread.start()

    def stop(self) -> Path:
        """Stop taking frames, finish the file and return its path. Raises ``RuntimeError`` when no frame could be
        taken or encoding failed (with why)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if self.error:
            raise RuntimeError(self.error)
        return self.out

    def summary(self) -> dict:
        return {
            "file": self.out.name,
            "fps": self.fps,
            "frames": self.frames,
            "screens": self.grabbed,
            "failed_grabs": self.failed,
            "seconds": round(self.frames / self.fps, 1),
            "bytes": self.out.stat().st_size if self.out.exists() else 0,
        }

    def _take(self, ppm: Path) -> tuple[int, int, bytes] | None:
        """One screen as (width, height, RGB bytes), or None when it could not be taken."""
        try:
            self.grab(ppm)
            screen = parse_ppm(ppm.read_bytes())
            self.grabbed += 1
            return screen
        except Exception:  # noqa: BLE001 -- a missed frame repeats the last one
            self.failed += 1
            return None

    def _frame(self, screen: tuple[int, int, bytes], width: int, height: int):
        """An rgb24 frame of ``width`` x ``height`` (the screen's even part: H.264's 4:2:0 wants even sizes)."""
        w, _h, pix = screen
        frame = self._av.VideoFrame(width, height, "rgb24")
        plane = frame.planes[0]
        if plane.line_size == w * 3 == width * 3:
            plane.update(pix[: width * height * 3])
        else:
            pad = bytes(plane.line_size - width * 3)
            plane.update(b"".join(pix[y * w * 3 : y * w * 3 + width * 3] + pad for y in range(height)))
        return frame

    def _run(self) -> None:
        av = self._av
        ppm = self.out.with_suffix(".frame.ppm")
        container = None
        stream = None
        last = None
        size = (0, 0)
        try:
            while not self._stop.is_set():
                elapsed = time.monotonic() - self.started
                if elapsed > self.max_seconds:
                    break
                screen = self._take(ppm)
                if screen is not None and container is None:
                    size = screen[:2]
                    container = av.open(str(self.out), mode="w", format="mp4")
                    stream = container.add_stream("libx264", rate=self.fps)
                    stream.width, stream.height = size[0] - size[0] % 2, size[1] - size[1] % 2
                    stream.pix_fmt = "yuv420p"
                    stream.options = {"crf": str(CRF), "preset": "veryfast"}
                if screen is not None and screen[:2] == size:
                    last = screen  # a screen of another size (a mode change) repeats the last one instead
                if last is not None:
                    # Catch up to real time: one frame per 1/fps second since the start, the last screen repeated.
                    due = int((time.monotonic() - self.started) * self.fps) + 1
                    while self.frames < due:
                        frame = self._frame(last, stream.width, stream.height)
                        frame.pts = self.frames
                        for packet in stream.encode(frame):
                            container.mux(packet)
                        self.frames += 1
                self._stop.wait(max(0.0, (self.frames / self.fps) - (time.monotonic() - self.started)))
            if container is None:
                self.error = f"no screen could be taken ({self.failed} tries)"
                return
            for packet in stream.encode():
                container.mux(packet)
        except Exception as e:  # noqa: BLE001 -- reported by stop()
            self.error = f"recording failed: {type(e).__name__}: {e}"
        finally:
            if container is not None:
                container.close()
            ppm.unlink(missing_ok=True)
