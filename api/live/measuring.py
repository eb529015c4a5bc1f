"""A camera's frames measured in a process of its own.

Locating the markers of a frame is mostly OpenCV, but a good part of it is Python and
small NumPy arrays, which hold the interpreter's lock: two cameras measured by two
threads of one process wait on each other, and on the server's own work. A table
watched by several cameras therefore measures each camera's frames in a process of its
own (`MeasuringProcess`), as a drop-in for `arbitre.calibration.frame.locate_frame`
with that camera's tracker and pose memory: the frame goes through shared memory (no
copy through a pipe), the located `Frame` comes back pickled (about 20 kB for 80
markers). The process keeps the camera's `MarkerTracker` and `AnchorMemory`, so it
follows the markers and holds the table's pose from frame to frame exactly as the
in-process chain does.

A process that dies (killed, out of memory) is started again at the next frame; the
frame it died on is reported as a `VisionError`, which the camera's loop treats as a
frame it could not read.
"""

from __future__ import annotations

import multiprocessing
import signal
import threading
import traceback
from multiprocessing.connection import Connection
from multiprocessing.shared_memory import SharedMemory
from typing import Any

import numpy as np
from numpy.typing import NDArray

from arbitre.calibration.anchors import AnchorMemory
from arbitre.calibration.camera import CameraIntrinsics
from arbitre.calibration.errors import CalibrationError
from arbitre.calibration.frame import Frame, locate_frame
from arbitre.calibration.table import Roster, Table
from arbitre.vision.detect import MarkerTracker
from arbitre.vision.errors import VisionError

REPLY_TIMEOUT_S = 20.0
"""A frame not measured within this long: the process is taken as hung, and replaced."""


class CameraMeasure:
    """Locates one camera's frames in this process, as `locate_frame` with the camera's
    own tracker and pose memory, kept from frame to frame."""

    def __init__(self, camera: CameraIntrinsics, table: Table, roster: Roster) -> None:
        self._setup = (camera, table, roster)
        self._tracker = MarkerTracker(
            table.dictionary,
            camera_matrix=camera.camera_matrix,
            dist_coeffs=camera.dist_coeffs,
            scan_beside=True,  # the periodic full scan never holds a frame up
        )
        self._anchors = AnchorMemory(table.anchor_ids)

    def locate(self, image: NDArray[np.uint8]) -> Frame:
        """The frame located (VisionError or CalibrationError as `locate_frame` raises)."""
        return locate_frame(image, *self._setup, tracker=self._tracker, anchors=self._anchors)

    def close(self) -> None:
        """Nothing to release: for the camera's loop, as `MeasuringProcess.close`."""


class MeasuringProcess:
    """Locates one camera's frames in a child process (see the module's notes)."""

    def __init__(self, camera: CameraIntrinsics, table: Table, roster: Roster) -> None:
        self._setup = (camera, table, roster)
        self._context = multiprocessing.get_context("forkserver")
        self._conn: Connection | None = None
        self._process: Any = None
        self._memory: SharedMemory | None = None
        self._busy = threading.Lock()  # held while a frame is measured
        self._closed = False
        self.restarts = 0
        """How many times the process was started again after it died."""

    def locate(self, image: NDArray[np.uint8]) -> Frame:
        """The frame located, as `locate_frame` with this camera's tracker and pose memory
        would (VisionError or CalibrationError as it would raise them; VisionError once
        closed)."""
        with self._busy:
            try:
                return self._locate(image)
            finally:
                if self._closed:  # closed while this frame was measured: tidy up now
                    self._release()

    def _locate(self, image: NDArray[np.uint8]) -> Frame:
        if self._closed:
            raise VisionError("the measuring process was stopped")
        if self._conn is None:
            self._start()
        conn = self._conn
        assert conn is not None
        memory = self._memory
        if memory is None or memory.size < image.nbytes:
            self._release_memory()
            memory = self._memory = SharedMemory(create=True, size=max(image.nbytes, 1))
        np.ndarray(image.shape, image.dtype, buffer=memory.buf)[...] = image
        try:
            conn.send((memory.name, image.shape, image.dtype.str))
            if not conn.poll(REPLY_TIMEOUT_S):
                raise TimeoutError
            kind, value = conn.recv()
        except (EOFError, OSError, TimeoutError):
            self._stop_process()
            self.restarts += 1
            raise VisionError("the measuring process stopped; it is started again") from None
        if kind == "frame":
            frame: Frame = value
            return frame
        if kind == "calibration":
            raise CalibrationError(value)
        raise VisionError(value)

    def close(self) -> None:
        """Stop the process and free the shared memory; a frame being measured meanwhile
        (a camera's loop that did not stop in time) does so when it ends, and no frame
        is measured after."""
        self._closed = True
        if self._busy.acquire(timeout=1.0):
            try:
                self._release()
            finally:
                self._busy.release()

    def _release(self) -> None:
        self._stop_process()
        self._release_memory()

    def _start(self) -> None:
        parent, child = self._context.Pipe()
        process = self._context.Process(
            target=_serve, args=(child, *self._setup), name="arbitre-measuring", daemon=True
        )
        try:
            process.start()
        except Exception as error:  # no process could be made: this frame is not measured
            parent.close()
            raise VisionError(f"cannot start the measuring process ({error})") from None
        finally:
            child.close()
        self._process, self._conn = process, parent

    def _stop_process(self) -> None:
        if self._conn is not None:
            try:
                self._conn.send(None)  # asks the process to end
            except OSError:
                pass
            self._conn.close()
            self._conn = None
        if self._process is not None:
            self._process.join(timeout=2)
            if self._process.is_alive():
                self._process.kill()
                self._process.join(timeout=2)
            self._process = None

    def _release_memory(self) -> None:
        if self._memory is not None:
            self._memory.close()
            self._memory.unlink()
            self._memory = None


def _serve(conn: Connection, camera: CameraIntrinsics, table: Table, roster: Roster) -> None:
    """The child's loop: a frame's place in shared memory in, the located frame out."""
    # Ctrl+C in a terminal reaches the whole process group: the server ends this process
    # itself (an empty message, or its pipe closing), without a traceback from here.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    measure = CameraMeasure(camera, table, roster)
    attached: SharedMemory | None = None
    try:
        while True:
            try:
                message = conn.recv()
            except (EOFError, OSError):
                return
            if message is None:
                return
            name, shape, dtype = message
            if attached is None or attached.name != name:
                if attached is not None:
                    attached.close()
                attached = SharedMemory(name)
            # No copy: the next frame is written there only once this one is answered, and
            # the chain keeps grey copies of what it needs from one frame to the next.
            image = np.ndarray(shape, np.dtype(dtype), buffer=attached.buf)
            try:
                reply: tuple[str, Any] = ("frame", measure.locate(image))
            except VisionError as error:
                reply = ("vision", str(error))
            except CalibrationError as error:
                reply = ("calibration", str(error))
            except Exception as error:  # a bug must not leave the camera's loop waiting
                last = traceback.format_exception_only(error)[-1].strip()
                reply = ("vision", f"measuring failed: {last}")
            del image  # no view of the memory is left when it is closed
            conn.send(reply)
    finally:
        if attached is not None:
            attached.close()
