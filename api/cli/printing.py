"""``arbitre print``: sheets of markers and calibration boards, at their exact size."""

from pathlib import Path
from typing import Annotated

import typer

from arbitre.api.cli.common import bad_input_exits_2, progress_bar
from arbitre.rules.answers import counted

app = typer.Typer(help="Printable sheets: markers and calibration boards.", no_args_is_help=True)


@app.command("markers")
@bad_input_exits_2
def print_markers(
    ids: Annotated[str, typer.Option(help="marker ids, e.g. 10-49 or 0,1,5-7")],
    size_mm: Annotated[
        float, typer.Option(help="side of the black square, 3 to 500 mm", min=3, max=500)
    ],
    out: Annotated[Path, typer.Option(help="sheet.pdf or sheet.svg")],
    dictionary: Annotated[str, typer.Option(help="ArUco dictionary")] = "DICT_4X4_250",
    paper: Annotated[str, typer.Option(help="paper size: a4 or letter")] = "a4",
    roster: Annotated[
        Path | None,
        typer.Option(help="roster.yaml: label each marker with its figure or terrain piece"),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="overwrite the sheet if it exists")
    ] = False,
) -> None:
    """Print markers at their exact size, each labelled with its id and dictionary."""
    from arbitre.calibration.printing import find_paper, marker_sheets, parse_ids, write_pages
    from arbitre.calibration.table import load_roster
    from arbitre.files import refuse_overwrite

    refuse_overwrite(out, force=force)
    sheet = find_paper(paper)
    marker_ids = parse_ids(ids)
    labels: list[str] = []
    if roster is not None:
        who = load_roster(roster)
        for marker_id in marker_ids:
            figure, piece = who.by_marker(marker_id), who.terrain_by_marker(marker_id)
            labels.append(
                figure.name if figure else f"terrain {piece.id} ({piece.kind})" if piece else ""
            )
    pages = marker_sheets(marker_ids, size_mm, dictionary, labels=labels, paper=sheet)
    with progress_bar("writing pages", quiet=len(pages) < 2) as progress:
        write_pages(pages, out, progress=progress, overwrite=force)
    typer.echo(
        f"{out}: {counted(len(pages), 'page')} of {sheet}; print at 100 % and check the 100 mm bar"
    )


@app.command("board")
@bad_input_exits_2
def print_board(
    board: Annotated[Path, typer.Argument(help="board.yaml")],
    out: Annotated[Path, typer.Option(help="board.pdf or board.svg")],
    paper: Annotated[str, typer.Option(help="paper size: a4 or letter")] = "a4",
    force: Annotated[
        bool, typer.Option("--force", help="overwrite the sheet if it exists")
    ] = False,
) -> None:
    """Print a calibration board (ChArUco or chessboard) at its exact size.

    A board too wide for the upright paper is turned a quarter turn on it.
    """
    from arbitre.calibration.board import load_board
    from arbitre.calibration.printing import (
        board_orientation,
        board_sheet,
        find_paper,
        write_pages,
    )
    from arbitre.files import refuse_overwrite

    refuse_overwrite(out, force=force)
    sheet, target = find_paper(paper), load_board(board)
    page = board_sheet(target, sheet)
    write_pages([page], out, overwrite=force)
    turned = ", board turned to fit" if board_orientation(target, sheet) == "turned" else ""
    typer.echo(f"{out}: {sheet}{turned}; print at 100 % and glue it flat")
