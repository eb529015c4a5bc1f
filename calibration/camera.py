"""Camera intrinsics: the pinhole matrix and lens distortion of one camera at one image size.

Four file formats are read by `load_camera`:

- the project's ``camera.yaml`` (see ``docs/formats.md``), also the only format written
  (`save_camera`)::

      image_size: [1920, 1080]
      camera_matrix: [[fx, 0, cx], [0, fy, cy], [0, 0, 1]]
      dist_coeffs: [k1, k2, p1, p2, k3]
      rms_px: 0.31

- OpenCV FileStorage YAML (``%YAML:1.0`` with ``!!opencv-matrix`` entries), as written by
  OpenCV's calibration samples: ``camera_matrix``, ``distortion_coefficients``,
  ``image_width`` and ``image_height``, ``avg_reprojection_error``;
- ROS ``camera_info`` YAML: ``image_width``, ``image_height``,
  ``camera_matrix: {rows, cols, data}``, ``distortion_model``,
  ``distortion_coefficients: {rows, cols, data}``;
- OpenCV FileStorage XML (``<opencv_storage>`` with ``type_id="opencv-matrix"``
  elements), the same fields as its YAML form.

Pixel coordinates follow OpenCV: the centre of the top-left pixel is (0, 0), u to the right,
v down.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import numpy as np
import yaml
from numpy.typing import ArrayLike, NDArray

from arbitre.calibration._files import parse_yaml, read_text
from arbitre.calibration.errors import CalibrationError, CalibrationFileError
from arbitre.files import BoundedLoader, FileWriteError, write_atomically

FloatArray = NDArray[np.float64]

DIST_COEFF_COUNTS = (4, 5, 8, 12, 14)
"""The numbers of distortion coefficients OpenCV's camera model accepts."""

MAX_IMAGE_SIDE_PX = 100_000
"""The widest or highest image a camera file may describe, pixels."""

FIELD_OF_VIEW_DEG = (1.0, 179.0)
"""The narrowest and widest field of view across the image (``2 atan(w / 2 fx)``) a camera
file may give: outside, ``fx`` or ``fy`` is no lens's (a focal length in mm, a typo)."""

_ARBITRE_FIELDS = ("image_size", "camera_matrix", "dist_coeffs", "rms_px", "covariance")


@dataclass(frozen=True, slots=True, eq=False)
class CameraIntrinsics:
    """The intrinsics of a camera for images of one size.

    Attributes
    ----------
    image_size:
        ``(width, height)`` in pixels of the images the intrinsics describe.
    camera_matrix:
        ``(3, 3)`` float64 ``[[fx, s, cx], [0, fy, cy], [0, 0, 1]]``, pixels.
    dist_coeffs:
        ``(n,)`` float64 in OpenCV's order ``k1, k2, p1, p2[, k3[, k4, k5, k6[, s1..s4[, tx,
        ty]]]]``, n in 4, 5, 8, 12, 14.
    rms_px:
        The calibration's reprojection error, when known.
    covariance:
        ``(4 + n, 4 + n)`` covariance of ``(fx, fy, cx, cy, *dist_coeffs)`` from the
        calibration (pixels, and the coefficients' own units), when known: what the
        views left uncertain, with the correlations between the parameters.

    The arrays are read-only. Invalid values raise `CalibrationError`.

    >>> camera = CameraIntrinsics((640, 480), [[500, 0, 320], [0, 500, 240], [0, 0, 1]], [0] * 5)
    >>> camera.fx, camera.cy
    (500.0, 240.0)
    """

    image_size: tuple[int, int]
    camera_matrix: FloatArray
    dist_coeffs: FloatArray
    rms_px: float | None = None
    covariance: FloatArray | None = None

    def __post_init__(self) -> None:
        size, matrix, coeffs, rms = _validated(
            "CameraIntrinsics", self.image_size, self.camera_matrix, self.dist_coeffs, self.rms_px
        )
        object.__setattr__(self, "image_size", size)
        object.__setattr__(self, "camera_matrix", matrix)
        object.__setattr__(self, "dist_coeffs", coeffs)
        object.__setattr__(self, "rms_px", rms)
        if self.covariance is not None:
            covariance = _covariance("CameraIntrinsics", "covariance", self.covariance, coeffs.size)
            object.__setattr__(self, "covariance", covariance)

    @property
    def parameters(self) -> FloatArray:
        """``(fx, fy, cx, cy, *dist_coeffs)``, the order of `covariance`."""
        k = self.camera_matrix
        return np.concatenate([[k[0, 0], k[1, 1], k[0, 2], k[1, 2]], self.dist_coeffs])

    @property
    def fx(self) -> float:
        """Focal length along u, pixels."""
        return float(self.camera_matrix[0, 0])

    @property
    def fy(self) -> float:
        """Focal length along v, pixels."""
        return float(self.camera_matrix[1, 1])

    @property
    def cx(self) -> float:
        """Principal point u, pixels."""
        return float(self.camera_matrix[0, 2])

    @property
    def cy(self) -> float:
        """Principal point v, pixels."""
        return float(self.camera_matrix[1, 2])

    def for_image_size(self, image_size: tuple[int, int]) -> CameraIntrinsics:
        """The intrinsics for frames of another size taken by the same camera in the same mode.

        A frame resized from the calibrated size (same aspect ratio, to within one pixel of
        rounding) is served by scaling the camera matrix per axis, ``s_u = w' / w`` and
        ``s_v = h' / h``. Pixel centres follow OpenCV: pixel ``i`` covers ``[i - 0.5, i + 0.5]``,
        so a resize maps ``u' + 0.5 = s_u (u + 0.5)`` (what ``cv2.resize`` does for every
        interpolation but ``INTER_NEAREST``) and::

            fx' = s_u fx      skew' = s_u skew      cx' = s_u (cx + 0.5) - 0.5
            fy' = s_v fy                            cy' = s_v (cy + 0.5) - 0.5

        The distortion coefficients act on normalised coordinates and do not change;
        ``rms_px`` is scaled by the mean of the two factors.

        A frame of another aspect ratio usually comes from another sensor mode (cropped or
        binned differently): no scaling describes it, so it is refused with a
        `CalibrationError`.

        >>> camera = CameraIntrinsics((640, 480), [[500, 0, 319.5], [0, 500, 239.5], [0, 0, 1]],
        ...                           [0.0] * 5)
        >>> half = camera.for_image_size((320, 240))
        >>> half.fx, half.cx, half.cy
        (250.0, 159.5, 119.5)
        """
        width, height = _size_pair("image_size", image_size)
        if (width, height) == self.image_size:
            return self
        calibrated_w, calibrated_h = self.image_size
        expected_height = calibrated_h * width / calibrated_w
        if abs(height - expected_height) > 1.0:
            raise CalibrationError(
                f"image size {width}x{height} has another aspect ratio than the camera "
                f"calibration ({calibrated_w}x{calibrated_h}): calibrate the camera at this "
                f"size or set the camera to {calibrated_w}x{calibrated_h}"
            )
        scale_u = width / calibrated_w
        scale_v = height / calibrated_h
        matrix = self.camera_matrix.copy()
        matrix[0, :2] *= scale_u
        matrix[1, 1] *= scale_v
        matrix[0, 2] = scale_u * (matrix[0, 2] + 0.5) - 0.5
        matrix[1, 2] = scale_v * (matrix[1, 2] + 0.5) - 0.5
        rms = None if self.rms_px is None else self.rms_px * (scale_u + scale_v) / 2.0
        covariance = None
        if self.covariance is not None:
            scales = np.ones(len(self.covariance))
            scales[:4] = (scale_u, scale_v, scale_u, scale_v)
            covariance = self.covariance * np.outer(scales, scales)
        return CameraIntrinsics((width, height), matrix, self.dist_coeffs.copy(), rms, covariance)

    def to_json(self) -> dict[str, Any]:
        """The fields of ``camera.yaml`` as plain Python values."""
        data: dict[str, Any] = {
            "image_size": list(self.image_size),
            "camera_matrix": [[float(v) for v in row] for row in self.camera_matrix],
            "dist_coeffs": [float(v) for v in self.dist_coeffs],
        }
        if self.rms_px is not None:
            data["rms_px"] = self.rms_px
        if self.covariance is not None:
            data["covariance"] = [[float(v) for v in row] for row in self.covariance]
        return data


def load_camera(path: str | Path, *, image_size: tuple[int, int] | None = None) -> CameraIntrinsics:
    """Read camera intrinsics: ``camera.yaml``, OpenCV FileStorage (YAML, XML), ROS camera_info.

    Parameters
    ----------
    path:
        The file.
    image_size:
        ``(width, height)`` to use when the file does not give the image size (some OpenCV
        files do not). A size given by the file always wins.

    Raises
    ------
    CalibrationFileError
        One line naming the file and the field:
        ``camera.yaml: camera_matrix: expected 3x3, got 3x2``.
    """
    return camera_from_text(read_text(path), str(path), image_size=image_size)


def camera_from_text(
    text: str, source: str = "camera.yaml", *, image_size: tuple[int, int] | None = None
) -> CameraIntrinsics:
    """Camera intrinsics from the text of a file `load_camera` reads; ``source`` names it
    in the errors."""
    if text.lstrip().startswith("<"):
        return _from_foreign(source, _opencv_xml_fields(source, text), image_size)
    is_opencv = text.lstrip().startswith("%YAML:") or "!!opencv-matrix" in text
    if is_opencv:
        text = "\n".join("" if line.startswith("%YAML:") else line for line in text.splitlines())
    data = parse_yaml(text, source, _OpenCVLoader)
    if not isinstance(data, Mapping):
        kind = "empty" if data is None else f"a {type(data).__name__}"
        raise CalibrationFileError(source, "", f"expected a mapping of fields, the file is {kind}")
    fields = {str(key): value for key, value in data.items()}
    if is_opencv or isinstance(fields.get("camera_matrix"), Mapping):
        return _from_foreign(source, fields, image_size)
    return _from_arbitre(source, fields)


def save_camera(intrinsics: CameraIntrinsics, path: str | Path, *, overwrite: bool = True) -> None:
    """Write ``camera.yaml`` in the format of ``docs/formats.md`` (full float precision).

    The text is read back by `load_camera`'s reader and must give the same numbers before
    it replaces the file, through a temporary file beside it (`arbitre.files`): the file
    is never half-written. ``overwrite=False`` refuses an existing file
    (`FileExistsError`); a file that cannot be written is a `CalibrationFileError`.
    """

    def row(values: Sequence[float] | FloatArray) -> str:
        return "[" + ", ".join(repr(float(v)) for v in values) + "]"

    width, height = intrinsics.image_size
    lines = [
        f"image_size: [{width}, {height}]",
        "camera_matrix:",
        *(f"  - {row(r)}" for r in intrinsics.camera_matrix),
        f"dist_coeffs: {row(intrinsics.dist_coeffs)}",
    ]
    if intrinsics.rms_px is not None:
        lines.append(f"rms_px: {intrinsics.rms_px!r}")
    if intrinsics.covariance is not None:
        lines.append("covariance:  # of fx, fy, cx, cy, then dist_coeffs")
        lines.extend(f"  - {row(r)}" for r in intrinsics.covariance)

    def reads_back(data: bytes) -> None:
        again = camera_from_text(data.decode("utf-8"), str(path))
        if again.to_json() != intrinsics.to_json():
            raise CalibrationFileError(str(path), "", "the text written does not read back")

    try:
        write_atomically(path, "\n".join(lines) + "\n", validate=reads_back, overwrite=overwrite)
    except FileWriteError as error:
        raise CalibrationFileError(
            str(path), "", f"cannot write the file ({error.reason})"
        ) from None


# ---------------------------------------------------------------------------------------------
# Reading


class _OpenCVLoader(BoundedLoader):
    """YAML loader that reads OpenCV's ``!!opencv-*`` tags as plain mappings."""


def _construct_tagged_mapping(
    loader: BoundedLoader, _suffix: str, node: yaml.Node
) -> dict[Any, Any]:
    if not isinstance(node, yaml.MappingNode):
        raise yaml.constructor.ConstructorError(
            None, None, f"expected a mapping for tag {node.tag}", node.start_mark
        )
    return loader.construct_mapping(node, deep=True)


_OpenCVLoader.add_multi_constructor("tag:yaml.org,2002:opencv-", _construct_tagged_mapping)


def _opencv_xml_fields(source: str, text: str) -> dict[str, Any]:
    """The top-level fields of an OpenCV FileStorage XML file, as its YAML form reads.

    A matrix becomes ``{rows, cols, dt, data}``; a number its value; anything else
    its text. The parser refuses entity declarations: nothing in such a file needs them.
    """
    if "<!ENTITY" in text or "<!DOCTYPE" in text:
        raise CalibrationFileError(source, "", "XML with a DOCTYPE or entities is not read")
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError as error:
        raise CalibrationFileError(source, "", f"not valid XML ({error})") from None
    if root.tag != "opencv_storage":
        raise CalibrationFileError(source, root.tag, "expected <opencv_storage>")
    fields: dict[str, Any] = {}
    for element in root:
        if element.get("type_id") == "opencv-matrix":
            parts = {child.tag: (child.text or "").split() for child in element}
            try:
                fields[element.tag] = {
                    "rows": int(parts["rows"][0]),
                    "cols": int(parts["cols"][0]),
                    "data": [float(value) for value in parts.get("data", [])],
                }
            except (KeyError, IndexError, ValueError):
                raise CalibrationFileError(
                    source, element.tag, "expected an opencv-matrix with rows, cols and data"
                ) from None
            continue
        fields[element.tag] = _number_or_text((element.text or "").strip())
    return fields


def _number_or_text(text: str) -> int | float | str:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            continue
    return text


def _from_arbitre(source: str, fields: dict[str, Any]) -> CameraIntrinsics:
    for key in fields:
        if key not in _ARBITRE_FIELDS:
            raise CalibrationFileError(source, key, "unknown field")
    for key in _ARBITRE_FIELDS[:3]:
        if key not in fields:
            raise CalibrationFileError(source, key, "missing")
    matrix = _matrix(source, "camera_matrix", fields["camera_matrix"])
    coeffs = _matrix(source, "dist_coeffs", fields["dist_coeffs"])
    camera = _build(
        source, fields["image_size"], matrix, coeffs, fields.get("rms_px"), _FieldNames()
    )
    if fields.get("covariance") is None:
        return camera
    covariance = _covariance(source, "covariance", fields["covariance"], camera.dist_coeffs.size)
    return CameraIntrinsics(
        camera.image_size, camera.camera_matrix, camera.dist_coeffs, camera.rms_px, covariance
    )


def _covariance(source: str, field: str, value: Any, dist_count: int) -> FloatArray:
    """A symmetric, finite ``(4 + n, 4 + n)`` matrix with a non-negative diagonal."""
    matrix = _numbers(source, field, value)
    size = 4 + dist_count
    if matrix.shape != (size, size):
        raise CalibrationFileError(
            source,
            field,
            f"expected {size}x{size} (fx, fy, cx, cy and {dist_count} "
            f"coefficients), got {_shape_text(matrix.shape)}",
        )
    if not np.all(np.isfinite(matrix)) or np.any(np.diag(matrix) < 0):
        raise CalibrationFileError(source, field, "values must be finite, variances >= 0")
    if not np.allclose(matrix, matrix.T, rtol=1e-6, atol=1e-12):
        raise CalibrationFileError(source, field, "expected a symmetric matrix")
    matrix = ((matrix + matrix.T) / 2.0).astype(np.float64)
    matrix.setflags(write=False)
    return matrix


_MATRIX_NAMES = ("camera_matrix", "cameraMatrix", "K")
_DIST_NAMES = ("distortion_coefficients", "dist_coeffs", "distCoeffs", "D")
_RMS_NAMES = ("avg_reprojection_error", "rms_px", "rms")
_UNSUPPORTED_MODELS = {"equidistant", "fisheye", "kannala_brandt"}


def _from_foreign(
    source: str, fields: dict[str, Any], image_size: tuple[int, int] | None
) -> CameraIntrinsics:
    """OpenCV FileStorage or ROS camera_info fields."""
    matrix_name = _first_present(fields, _MATRIX_NAMES)
    if matrix_name is None:
        raise CalibrationFileError(source, "camera_matrix", "missing")
    matrix = _matrix(source, matrix_name, fields[matrix_name])

    model = fields.get("distortion_model")
    if isinstance(model, str) and model.lower() in _UNSUPPORTED_MODELS:
        raise CalibrationFileError(
            source,
            "distortion_model",
            f"{model!r} (fisheye) is not supported; expected plumb_bob or rational_polynomial",
        )
    dist_name = _first_present(fields, _DIST_NAMES)
    if dist_name is None:
        raise CalibrationFileError(source, "distortion_coefficients", "missing")
    coeffs = _matrix(source, dist_name, fields[dist_name])
    if coeffs.size == 0:
        coeffs = np.zeros(5)  # ROS writes an empty list for a camera without distortion

    size: Any
    if "image_width" in fields or "image_height" in fields:
        for key in ("image_width", "image_height"):
            if key not in fields:
                raise CalibrationFileError(source, key, "missing")
        size = [fields["image_width"], fields["image_height"]]
        size_field = "image_width, image_height"
    elif "cameraResolution" in fields:
        size, size_field = fields["cameraResolution"], "cameraResolution"
    elif "image_size" in fields:
        size, size_field = fields["image_size"], "image_size"
    elif image_size is not None:
        size, size_field = list(image_size), "image_size"
    else:
        raise CalibrationFileError(
            source, "image_width", "missing (the file gives no image size; pass it explicitly)"
        )
    rms_name = _first_present(fields, _RMS_NAMES)
    rms = fields[rms_name] if rms_name is not None else None
    names = _FieldNames(size_field, matrix_name, dist_name, rms_name or "rms_px")
    return _build(source, size, matrix, coeffs, rms, names)


def _first_present(fields: Mapping[str, Any], names: Sequence[str]) -> str | None:
    return next((name for name in names if name in fields), None)


def _matrix(source: str, field: str, value: Any) -> FloatArray:
    """A matrix given as nested lists, a flat list or a ``{rows, cols, data}`` mapping."""
    if isinstance(value, Mapping):
        for key in ("rows", "cols", "data"):
            if key not in value:
                raise CalibrationFileError(source, f"{field}.{key}", "missing")
        rows, cols = value["rows"], value["cols"]
        if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in (rows, cols)):
            raise CalibrationFileError(
                source, field, f"rows and cols must be counts, got {rows!r} and {cols!r}"
            )
        data = _numbers(source, f"{field}.data", value["data"])
        if data.ndim != 1 or data.size != rows * cols:
            raise CalibrationFileError(
                source,
                f"{field}.data",
                f"expected {rows}x{cols} = {rows * cols} values, got {data.size}",
            )
        return data.reshape(rows, cols)
    return _numbers(source, field, value)


def _numbers(source: str, field: str, value: Any) -> FloatArray:
    if isinstance(value, str | bytes | bool) or value is None:
        raise CalibrationFileError(source, field, f"expected numbers, got {value!r}")
    try:
        array = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise CalibrationFileError(
            source, field, f"expected a list (of rows) of numbers, got {value!r}"
        ) from None
    return array


# ---------------------------------------------------------------------------------------------
# Validation


@dataclass(frozen=True, slots=True)
class _FieldNames:
    """How the file being read names each value, for the error messages."""

    size: str = "image_size"
    matrix: str = "camera_matrix"
    dist: str = "dist_coeffs"
    rms: str = "rms_px"


def _build(
    source: str, size: Any, matrix: FloatArray, coeffs: FloatArray, rms: Any, names: _FieldNames
) -> CameraIntrinsics:
    """Validate with messages naming ``source``; the dataclass re-validates (cheaply).

    A file's focal lengths must also give a field of view a lens has (`FIELD_OF_VIEW_DEG`);
    a calibration's are judged by the calibration, which says why the views gave no lens.
    """
    size_px, k, d, rms_px = _validated(source, size, matrix, coeffs, rms, names)
    for name, value, side in (("fx", k[0, 0], size_px[0]), ("fy", k[1, 1], size_px[1])):
        view = math.degrees(2 * math.atan(side / (2 * float(value))))
        if not FIELD_OF_VIEW_DEG[0] <= view <= FIELD_OF_VIEW_DEG[1]:
            raise CalibrationFileError(
                source,
                names.matrix,
                f"{name} {float(value):g} px gives a field of view of {view:.3g}° across the "
                f"{side} px image, outside {FIELD_OF_VIEW_DEG[0]:g}°-{FIELD_OF_VIEW_DEG[1]:g}°: "
                "no lens has it",
            )
    return CameraIntrinsics(size_px, k, d, rms_px)


MAX_DISTORTION = 1e6
"""The largest distortion coefficient read: lenses fit well within ±1,000 (a rational
model's k4-k6 included); a larger one is a broken file, not a lens."""


def _validated(
    source: str,
    size: Any,
    matrix: ArrayLike,
    coeffs: ArrayLike,
    rms: Any,
    names: _FieldNames | None = None,
) -> tuple[tuple[int, int], FloatArray, FloatArray, float | None]:
    names = names or _FieldNames()
    try:
        width, height = _size_pair(names.size, size)
    except CalibrationError as error:
        raise CalibrationFileError(source, names.size, str(error).split(": ", 1)[1]) from None

    k = _numbers(source, names.matrix, matrix)
    if k.shape != (3, 3):
        if k.size == 9 and k.ndim == 1:
            k = k.reshape(3, 3)
        else:
            raise CalibrationFileError(
                source, names.matrix, f"expected 3x3, got {_shape_text(k.shape)}"
            )
    if not np.all(np.isfinite(k)):
        raise CalibrationFileError(source, names.matrix, f"values must be finite, got {k.tolist()}")
    for name, value in (("fx", k[0, 0]), ("fy", k[1, 1])):
        if value <= 0:
            raise CalibrationFileError(
                source, names.matrix, f"{name} must be positive, got {float(value)!r}"
            )
    if k[1, 0] != 0 or k[2, 0] != 0 or k[2, 1] != 0 or k[2, 2] != 1:
        raise CalibrationFileError(
            source,
            names.matrix,
            f"expected [[fx, s, cx], [0, fy, cy], [0, 0, 1]], got {k.tolist()}",
        )
    if not (0 <= k[0, 2] <= width and 0 <= k[1, 2] <= height):
        raise CalibrationFileError(
            source,
            names.matrix,
            f"principal point ({float(k[0, 2]):g}, {float(k[1, 2]):g}) lies outside the "
            f"{width}x{height} image: are the intrinsics for another image size?",
        )

    d = _numbers(source, names.dist, coeffs)
    if d.ndim > 2 or (d.ndim == 2 and 1 not in d.shape):
        raise CalibrationFileError(
            source, names.dist, f"expected a list of numbers, got shape {_shape_text(d.shape)}"
        )
    d = d.reshape(-1)
    if d.size not in DIST_COEFF_COUNTS:
        raise CalibrationFileError(
            source, names.dist, f"expected 4, 5, 8, 12 or 14 values, got {d.size}"
        )
    if not np.all(np.isfinite(d)) or np.any(np.abs(d) > MAX_DISTORTION):
        raise CalibrationFileError(
            source,
            names.dist,
            f"values must be finite, within ±{MAX_DISTORTION:,.0f}, got {str(d.tolist())[:120]}",
        )

    rms_px: float | None = None
    if rms is not None:
        if isinstance(rms, bool) or not isinstance(rms, int | float | np.floating):
            raise CalibrationFileError(source, names.rms, f"expected a number, got {rms!r}")
        rms_px = float(rms)
        if not math.isfinite(rms_px) or rms_px < 0:
            raise CalibrationFileError(
                source, names.rms, f"expected a non-negative number, got {rms!r}"
            )

    k = k.astype(np.float64, copy=True)
    d = d.astype(np.float64, copy=True)
    k.setflags(write=False)
    d.setflags(write=False)
    return (width, height), k, d, rms_px


def _size_pair(field: str, value: Any) -> tuple[int, int]:
    """``(width, height)`` from two positive whole numbers."""
    problem = f"{field}: expected [width, height] in whole pixels > 0, got {value!r}"
    if isinstance(value, str | bytes) or not isinstance(value, Sequence | np.ndarray):
        raise CalibrationError(problem)
    if len(value) != 2:
        raise CalibrationError(problem)
    pair: list[int] = []
    for item in value:
        if isinstance(item, bool) or not isinstance(item, int | float | np.integer | np.floating):
            raise CalibrationError(problem)
        if not math.isfinite(float(item)) or float(item) != int(item) or int(item) <= 0:
            raise CalibrationError(problem)
        if int(item) > MAX_IMAGE_SIDE_PX:
            raise CalibrationError(
                f"{field}: {int(item)} px is larger than any camera's image "
                f"(at most {MAX_IMAGE_SIDE_PX:,})"
            )
        pair.append(int(item))
    return pair[0], pair[1]


def _shape_text(shape: tuple[int, ...]) -> str:
    if len(shape) == 0:
        return "a single number"
    return "x".join(str(n) for n in shape)
