"""The web page players use at the table."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

router = APIRouter()
INDEX = Path(__file__).resolve().parents[1] / "static" / "index.html"


@router.get("/", include_in_schema=False)
def get_page() -> FileResponse:
    """The web page: camera view, map of the table, questions."""
    return FileResponse(INDEX, media_type="text/html")
