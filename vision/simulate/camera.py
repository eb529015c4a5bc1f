"""The camera: OpenCV intrinsics and a pose over the table, and `look_at` to aim one."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
from numpy.typing import ArrayLike, NDArray

from arbitre.vision.errors import VisionError

FloatArray = NDArray[np.float64]


def _vector(values: ArrayLike, length: int, name: str) -> FloatArray:
    """A float64 vector of the given length, or VisionError."""
    array = np.asarray(values, dtype=np.float64).reshape(-1)
    if array.shape != (length,) or not np.all(np.isfinite(array)):
        raise VisionError(f"{name} must be {length} finite numbers, got {values!r}")
    return array


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class Camera:
    """A camera: OpenCV intrinsics and its pose over the table.

    ``camera_matrix`` (3, 3) and ``dist_coeffs`` (n,) in OpenCV's model and order
    (n = 0, 4, 5, 8, 12 or 14); ``image_size`` is (width, height) px; ``rvec`` and
    ``tvec`` (3,) are the table -> camera transform, mm.
    """

    camera_matrix: FloatArray
    dist_coeffs: FloatArray
    image_size: tuple[int, int]
    rvec: FloatArray
    tvec: FloatArray

    def __post_init__(self) -> None:
        matrix = np.asarray(self.camera_matrix, dtype=np.float64)
        if matrix.shape != (3, 3) or not np.all(np.isfinite(matrix)):
            raise VisionError(f"camera_matrix must be 3x3, got shape {matrix.shape!r}")
        dist = np.asarray(self.dist_coeffs, dtype=np.float64).reshape(-1)
        if dist.size not in (0, 4, 5, 8, 12, 14):
            raise VisionError(f"dist_coeffs must have 0, 4, 5, 8, 12 or 14 values, got {dist.size}")
        width, height = (int(v) for v in self.image_size)
        if width <= 0 or height <= 0:
            raise VisionError(f"image_size must be positive, got {self.image_size!r}")
        for name, value in (
            ("camera_matrix", matrix),
            ("dist_coeffs", dist),
            ("rvec", _vector(self.rvec, 3, "rvec")),
            ("tvec", _vector(self.tvec, 3, "tvec")),
        ):
            value.setflags(write=False)
            object.__setattr__(self, name, value)
        object.__setattr__(self, "image_size", (width, height))

    @property
    def rotation(self) -> FloatArray:
        """R (3, 3) of the table -> camera transform."""
        matrix, _ = cv2.Rodrigues(self.rvec)
        return np.asarray(matrix, dtype=np.float64)

    @property
    def position_mm(self) -> FloatArray:
        """The camera's optical centre (3,) in table mm."""
        return np.asarray(-self.rotation.T @ self.tvec, dtype=np.float64)

    def turned(self, angle_deg: float, axis: ArrayLike = (0.0, 1.0, 1.0)) -> Camera:
        """This camera turned by ``angle_deg`` about its own centre, about ``axis`` (in the
        camera's frame; the default mixes a pan and a roll): a bumped tripod.

        >>> camera = Camera(np.eye(3), np.zeros(5), (640, 480), np.zeros(3), [0, 0, 1000])
        >>> bumped = camera.turned(2.0)  # the same place, another direction
        >>> np.allclose(bumped.position_mm, camera.position_mm), np.allclose(bumped.rvec, 0)
        (True, False)
        """
        unit = np.asarray(axis, dtype=np.float64)
        turn, _ = cv2.Rodrigues(unit / np.linalg.norm(unit) * np.radians(angle_deg))
        rvec, _ = cv2.Rodrigues(turn @ self.rotation)
        return dataclasses.replace(
            self, rvec=np.asarray(rvec).reshape(3), tvec=np.asarray(turn @ self.tvec)
        )

    def around(self, centre_mm: ArrayLike, angle_deg: float) -> Camera:
        """This camera carried round the vertical line through ``centre_mm`` (table mm,
        x and y) by ``angle_deg``, counter-clockwise seen from above: another tripod
        looking at the same table (180: from the opposite edge).

        >>> camera = Camera(np.eye(3), np.zeros(5), (640, 480), np.zeros(3), [-100, 0, 1000])
        >>> opposite = camera.around((0, 0), 180)
        >>> (camera.position_mm + 0.0).tolist(), (opposite.position_mm.round(6) + 0.0).tolist()
        ([100.0, 0.0, -1000.0], [-100.0, 0.0, -1000.0])
        """
        c = np.array([*np.asarray(centre_mm, dtype=np.float64)[:2], 0.0])
        turn, _ = cv2.Rodrigues(np.array([0.0, 0.0, np.radians(angle_deg)]))
        # a point X is seen as the camera saw its image turned back: R Rz^-1 (X - c) + R c + t
        rotation = self.rotation @ turn.T
        tvec = self.rotation @ c - rotation @ c + self.tvec
        rvec, _ = cv2.Rodrigues(rotation)
        return dataclasses.replace(
            self, rvec=np.asarray(rvec, dtype=np.float64).reshape(3), tvec=tvec
        )

    def project(self, points_mm: ArrayLike, *, distorted: bool = True) -> FloatArray:
        """Project table points to the image.

        Parameters
        ----------
        points_mm : (N, 3) table mm
        distorted : False gives the ideal pinhole image of the same camera matrix

        Returns
        -------
        (N, 2) image px
        """
        points = np.asarray(points_mm, dtype=np.float64).reshape(-1, 3)
        dist = self.dist_coeffs if distorted else np.zeros(0)
        pixels, _ = cv2.projectPoints(points, self.rvec, self.tvec, self.camera_matrix, dist)
        return np.asarray(pixels, dtype=np.float64).reshape(-1, 2)


def look_at(
    eye_mm: ArrayLike, target_mm: ArrayLike, up: ArrayLike = (0.0, 1.0, 0.0)
) -> tuple[FloatArray, FloatArray]:
    """The pose (rvec, tvec) of a camera at ``eye_mm`` looking at ``target_mm``.

    ``up`` (table frame) is the direction that appears upwards in the image. Both
    returned vectors are (3,) and describe the table -> camera transform.

    >>> import cv2
    >>> import numpy as np
    >>> rvec, tvec = look_at((450, 300, 1000), (450, 300, 0))
    >>> np.round(cv2.Rodrigues(rvec)[0] @ [450, 400, 0] + tvec, 6)
    array([   0., -100., 1000.])
    """
    eye = _vector(eye_mm, 3, "eye_mm")
    forward = _vector(target_mm, 3, "target_mm") - eye
    up_vector = _vector(up, 3, "up")
    right = np.cross(forward, up_vector)
    if np.linalg.norm(forward) == 0.0 or np.linalg.norm(right) < 1e-9 * np.linalg.norm(forward):
        raise VisionError("look_at: the view direction is zero or parallel to 'up'")
    forward /= np.linalg.norm(forward)
    right /= np.linalg.norm(right)
    down = np.cross(forward, right)
    rotation = np.stack([right, down, forward])
    rvec, _ = cv2.Rodrigues(rotation)
    return np.asarray(rvec, dtype=np.float64).reshape(3), -rotation @ eye
