"""``arbitre table``: a new table.yaml and its anchor sheet."""

from pathlib import Path
from typing import Annotated

import typer

from arbitre.api.cli.common import MAX_TABLE_MM, bad_input_exits_2, fail

app = typer.Typer(help="Set up a table: its size and anchor markers.", no_args_is_help=True)


@app.command("init")
@bad_input_exits_2
def table_init(
    width_mm: Annotated[
        float, typer.Option(help="table width (x), mm, at most 100 m", max=MAX_TABLE_MM)
    ],
    depth_mm: Annotated[
        float, typer.Option(help="table depth (y), mm, at most 100 m", max=MAX_TABLE_MM)
    ],
    out: Annotated[Path, typer.Option(help="table.yaml to write")] = Path("table.yaml"),
    anchor_size_mm: Annotated[
        float, typer.Option(help="side of the anchor markers, 5 to 500 mm", min=5, max=500)
    ] = 40.0,
    inset_mm: Annotated[
        float, typer.Option(help="from the table edges to the anchors' centres")
    ] = 35.0,
    dictionary: Annotated[str, typer.Option(help="ArUco dictionary")] = "DICT_4X4_250",
    anchors_count: Annotated[
        int | None,
        typer.Option(
            "--anchors",
            help="4 (the corners) or 6 (and the middles of the long edges); default 6 for a "
            "table 1.5 m long or more",
            min=4,
            max=6,
        ),
    ] = None,
    sheet: Annotated[
        Path | None, typer.Option(help="anchor sheet to print (.pdf: the guide and the cards)")
    ] = None,
    paper: Annotated[str, typer.Option(help="paper size of the sheet: a4 or letter")] = "a4",
    force: Annotated[
        bool, typer.Option("--force", help="overwrite table.yaml and the sheet if they exist")
    ] = False,
) -> None:
    """Write a table.yaml with anchors 0-3 at the corners (and 4-5 at the middles of the
    long edges of a big table), and the anchor sheet to print.

    An existing table.yaml (perhaps corrected by hand) or sheet is kept unless --force.
    """
    from arbitre.calibration.printing import anchor_sheets, find_paper, write_pages
    from arbitre.calibration.setup import EDGE_ANCHORS_FROM_MM, corner_anchors, write_table
    from arbitre.calibration.table import Anchor

    if anchors_count not in (None, 4, 6):
        raise fail(f"--anchors takes 4 or 6, not {anchors_count}")
    big = max(width_mm, depth_mm) >= EDGE_ANCHORS_FROM_MM
    middles = anchors_count == 6 or (anchors_count is None and big)
    from arbitre.files import refuse_overwrite

    page_size = find_paper(paper)
    sheet = sheet or out.with_name(out.stem + "-anchors.pdf")
    for path in (out, sheet):
        refuse_overwrite(path, force=force)
    # Both files are checked before either is written: a sheet of another kind, or the
    # sheet in the place of table.yaml, writes neither.
    if sheet.suffix.lower() != ".pdf":  # two pages: the set-up guide, then the cards
        raise fail(f"{sheet}: write the anchor sheet as a .pdf file (it has two pages)")
    if sheet.resolve() == out.resolve():
        raise fail(f"{sheet}: the sheet and table.yaml must be two files")
    anchors = corner_anchors(width_mm, depth_mm, anchor_size_mm, inset_mm, edge_middles=middles)
    placed = [Anchor(**anchor) for anchor in anchors]  # the set-up guide, then the anchors
    pages = anchor_sheets(width_mm, depth_mm, dictionary, placed, paper=page_size)
    sheet_was_there = sheet.exists()
    write_pages(pages, sheet, overwrite=force)
    try:
        write_table(out, width_mm, depth_mm, dictionary, anchors, overwrite=force)
    except BaseException:
        if not sheet_was_there:  # no sheet of a table.yaml that was not written
            sheet.unlink(missing_ok=True)
        raise
    where = "anchors 0-3 at the corners"
    if middles:
        where += ", 4-5 at the middles of the long edges"
    typer.echo(f"{out}: {width_mm:g} x {depth_mm:g} mm table, {where}; print {sheet} at 100 %")
