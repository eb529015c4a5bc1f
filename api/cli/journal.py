"""``arbitre journal``: a game journal read without a server (list, show, export)."""

import datetime
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from arbitre.api.cli.common import bad_input_exits_2, fail
from arbitre.rules.answers import counted

app = typer.Typer(
    help="Read a game journal (journal.sqlite): the questions of an evening, the table as it was.",
    no_args_is_help=True,
)

JournalFile = Annotated[Path, typer.Argument(help="the journal, e.g. journal.sqlite")]
AsJson = Annotated[bool, typer.Option("--json", help="answer as one JSON object")]


@app.command("list")
@bad_input_exits_2
def journal_list(
    journal: JournalFile,
    figure: Annotated[
        str | None, typer.Option(help="only the questions about this figure (its id)")
    ] = None,
    limit: Annotated[int, typer.Option(help="at most this many, 1 to 200", min=1, max=200)] = 50,
    before: Annotated[
        int | None, typer.Option(help="only the questions of id below this (the next page)", min=1)
    ] = None,
    as_json: AsJson = False,
) -> None:
    """The questions journaled, newest first: id, time, question, and the answer in words."""
    from arbitre.api.live.journal import JournalReader

    with JournalReader(journal) as reader:
        stats = reader.stats()
        questions = reader.questions(before=before, limit=limit, figure=figure)
    if as_json:
        typer.echo(json.dumps({"questions": questions, "journal": stats}, ensure_ascii=False))
        return
    typer.echo(_summary_line(journal, stats))
    for question in questions:
        typer.echo(f"{question['id']:>6}  {_local(question['time'])}  {_asked(question)}")
    if not questions:
        about = f" about {figure}" if figure else ""
        typer.echo(f"no question{about}" + (f" before {before}" if before else ""))


@app.command("show")
@bad_input_exits_2
def journal_show(
    journal: JournalFile,
    entry: Annotated[int, typer.Argument(help="the question's id (or the state's, --state)")],
    state: Annotated[
        bool, typer.Option("--state", help="show the settled state of that id instead")
    ] = False,
    frame: Annotated[
        Path | None, typer.Option(help="also write the question's camera picture (JPEG) here")
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="overwrite the picture's file if it exists")
    ] = False,
    as_json: AsJson = False,
) -> None:
    """A question journaled: its answer, the figures it was about and the table it was
    asked on (or a settled state, with --state)."""
    from arbitre.api.live.journal import JournalReader
    from arbitre.files import refuse_overwrite, write_atomically

    if frame is not None:
        if state:
            raise fail("--frame: a settled state keeps no picture (show a question)")
        refuse_overwrite(frame, force=force)
    with JournalReader(journal) as reader:
        found = reader.state(entry) if state else reader.question(entry)
        jpeg = reader.frame(entry) if frame is not None else None
    if found is None:
        raise fail(f"{journal}: no {'settled state' if state else 'question'} {entry}")
    if frame is not None:
        if jpeg is None:
            raise fail(f"{journal}: no picture was kept for question {entry}")
        write_atomically(frame, jpeg, overwrite=force)
    if as_json:
        typer.echo(json.dumps(found, ensure_ascii=False))
        return
    scene = found["scene"]
    if state:
        typer.echo(f"settled state {entry} at {_local(found['time'])}")
        typer.echo(f"came to rest: {', '.join(found['figures']) or '(not recorded)'}")
    else:
        typer.echo(f"question {entry} at {_local(found['time'])}: {_asked(found)}")
        typer.echo(f"about: {', '.join(found['figures'])}")
    typer.echo(f"table: {_table_words(scene)}")
    for figure in scene.get("figures", []):
        typer.echo(
            f"  {figure.get('id')}: x {figure.get('x_mm'):g} mm, y {figure.get('y_mm'):g} mm"
            f" (± {figure.get('sigma_mm', 0):g})"
        )
    if frame is not None:
        typer.echo(f"{frame}: the camera's picture")


@app.command("export")
@bad_input_exits_2
def journal_export(
    journal: JournalFile,
    scene: Annotated[
        Path | None,
        typer.Option(help="write the table of a moment (--at, --question or --state) as a scene"),
    ] = None,
    questions: Annotated[
        Path | None, typer.Option(help="write every question as OUT.csv or OUT.json")
    ] = None,
    at: Annotated[
        str | None,
        typer.Option(
            help="the moment: HH:MM[:SS] of the journal's evening, a date and time "
            "(2025-05-01T21:14) or seconds since 1970",
            metavar="TIME",
        ),
    ] = None,
    question: Annotated[
        int | None, typer.Option(help="the table a question was asked on (its id)", min=1)
    ] = None,
    state: Annotated[
        int | None, typer.Option(help="the table of a settled state (its id)", min=1)
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="overwrite the file if it exists")] = False,
) -> None:
    """Write the table of a moment as a scene file `arbitre ask` reads, or every question
    as CSV or JSON. A file is written whole through a temporary file beside it, and an
    existing one is kept unless --force."""
    from arbitre.api.live.journal import JournalReader
    from arbitre.files import refuse_overwrite

    moments = {"--at": at, "--question": question, "--state": state}
    given = [name for name, value in moments.items() if value is not None]
    if questions is not None and scene is None:
        if given:
            raise fail(f"--questions writes every question: no {given[0]} with it")
        if questions.suffix.lower() not in (".csv", ".json"):
            raise fail(f"{questions}: write the questions as a .csv or a .json file")
        refuse_overwrite(questions, force=force)
        with JournalReader(journal) as reader:
            every = list(reader.all_questions())
        _write_questions(questions, every, force=force)
        typer.echo(f"{questions}: {counted(len(every), 'question')}")
        return
    if scene is None or questions is not None:
        raise fail("export --scene OUT.yaml (with --at, --question or --state) or --questions OUT")
    if len(given) != 1:
        raise fail("--scene needs one moment: --at TIME, --question ID or --state ID")
    refuse_overwrite(scene, force=force)
    with JournalReader(journal) as reader:
        stats = reader.stats()
        if question is not None:
            found = reader.question(question)
            what = f"question {question}"
        elif state is not None:
            found = reader.state(state)
            what = f"settled state {state}"
        else:
            moment = moment_of(str(at), stats["first"], stats["last"])
            found = reader.scene_at(moment)
            if found is None:
                first = (
                    "" if stats["first"] is None else f" (it begins at {_local(stats['first'])})"
                )
                raise fail(f"{journal}: nothing journaled at or before {at}{first}")
            what = f"{'settled state' if found['kind'] == 'settled' else 'question'} {found['id']}"
    if found is None:
        raise fail(f"{journal}: no {what}")
    from arbitre.api.cli.common import write_scene

    write_scene(scene, found["scene"], force=force)
    figures = counted(len(found["scene"].get("figures", [])), "figure")
    typer.echo(f"{scene}: the table at {_local(found['time'])} ({what}), {figures}")


# --- words and files -------------------------------------------------------------------


def _local(seconds: float) -> str:
    """A journal time in the machine's local time, to the second."""
    return datetime.datetime.fromtimestamp(seconds).strftime("%Y-%m-%d %H:%M:%S")


def _asked(question: Mapping[str, Any]) -> str:
    """A question and its answer in words: ``distance a b: a to b: 3.41 M``."""
    words = " ".join([question["question"], *question["args"]])
    refused = "" if question["status"] == 200 else "refused: "
    return f"{words}: {refused}{question.get('message') or '(no message)'}"


def _summary_line(journal: Path, stats: Mapping[str, Any]) -> str:
    span = ""
    if stats["first"] is not None:
        span = f", {_local(stats['first'])} to {_local(stats['last'])}"
    return (
        f"{journal}: {counted(stats['questions'], 'question')}, "
        f"{counted(stats['settled'], 'settled state')}, {counted(stats['frames'], 'picture')}, "
        f"{stats['size_bytes'] / 1e6:.1f} MB{span}"
    )


def _table_words(scene: Mapping[str, Any]) -> str:
    figures = scene.get("figures", [])
    terrain = scene.get("terrain", [])
    return (
        f"{scene.get('ruleset', '?')}, {counted(len(figures), 'figure')}, "
        f"{counted(len(terrain), 'terrain piece')}"
    )


def moment_of(text: str, first: float | None, last: float | None) -> float:
    """The moment ``--at`` names, in seconds since 1970: ``HH:MM[:SS]`` on the day of the
    journal's evening that puts it within the journal's span (an evening past midnight
    has two days), a local date and time, or seconds since 1970.

    >>> moment_of("1714590000", None, None)
    1714590000.0
    """
    text = text.strip()
    try:
        return float(text)
    except ValueError:
        pass
    try:
        clock = datetime.time.fromisoformat(text)
    except ValueError:
        clock = None
    if clock is not None and ":" in text:
        return _on_the_evening(clock, first, last)
    try:
        moment = datetime.datetime.fromisoformat(text)
    except ValueError:
        raise fail(
            f"--at: expected HH:MM[:SS], a date and time (2025-05-01T21:14) or seconds since "
            f"1970, got {text[:40]!r}"
        ) from None
    return moment.timestamp() if moment.tzinfo else moment.astimezone().timestamp()


def _on_the_evening(clock: datetime.time, first: float | None, last: float | None) -> float:
    """``clock`` (a time of day) on the day that puts it within [first, last], or nearest."""
    if first is None or last is None:
        today = datetime.date.today()
        return datetime.datetime.combine(today, clock).astimezone().timestamp()
    day = datetime.datetime.fromtimestamp(first).date()
    end = datetime.datetime.fromtimestamp(last).date()
    candidates = []
    while day <= end:
        candidates.append(datetime.datetime.combine(day, clock).astimezone().timestamp())
        day += datetime.timedelta(days=1)
    return min(candidates, key=lambda t: max(first - t, t - last, 0.0))


CSV_COLUMNS = ("id", "time", "at", "question", "args", "status", "message", "figures", "answer")


def _write_questions(out: Path, questions: Sequence[Mapping[str, Any]], *, force: bool) -> None:
    """Every question as CSV (one row each, the lists and the answer as JSON) or JSON."""
    import csv
    import io

    from arbitre.files import write_atomically

    if out.suffix.lower() == ".json":
        text = json.dumps({"questions": list(questions)}, ensure_ascii=False, indent=1)
    else:
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(CSV_COLUMNS)
        for question in questions:
            row = {
                **question,
                "args": json.dumps(question["args"], ensure_ascii=False),
                "figures": json.dumps(question["figures"], ensure_ascii=False),
                "answer": json.dumps(question["answer"], ensure_ascii=False),
            }
            writer.writerow([row[column] for column in CSV_COLUMNS])
        text = buffer.getvalue()
    write_atomically(out, text, overwrite=force)
