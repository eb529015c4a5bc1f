"""``arbitre ask``: a rules question on a scene file, within a time limit."""

import json
import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer

from arbitre.api.cli import common
from arbitre.api.cli.common import bad_input_exits_2, fail
from arbitre.rules.errors import RulesError

PATH_QUESTIONS = frozenset({"move", "reach", "run", "pursuit"})
"""Questions that search paths: a move, a reachable area, M.U.S.G.'s run, Confrontation's
pursuit. (M.U.S.G.'s charge searches one too, but Smooth & Rifled's, a straight line, would
pay for loading the loops for nothing: a first M.U.S.G. charge after installing compiles
them within its own time limit.)"""


@bad_input_exits_2
def ask(
    scene: Annotated[Path, typer.Argument(help="scene.yaml to ask about")],
    question: Annotated[
        str,
        typer.Argument(help="distance, fire, move, reach...: `arbitre questions` lists them all"),
    ],
    args: Annotated[list[str] | None, typer.Argument(help="figure ids, group names, mm")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="answer as one JSON object")] = False,
    action: Annotated[
        str | None,
        typer.Option(help="the action: fire or close (impact), first or later (S&R move, charge)"),
    ] = None,
    die: Annotated[int | None, typer.Option(help="the die rolled (1-6)")] = None,
    bonus: Annotated[int | None, typer.Option(help="impact: group bonus")] = None,
    extra: Annotated[
        list[str] | None,
        typer.Option("--with", help="any other option of the question, KEY=VALUE (repeatable)"),
    ] = None,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang", envvar="ARBITRE_LANG", help="answer in en (default) or fr, as the page does"
        ),
    ] = None,
    time_limit: Annotated[
        float,
        typer.Option(
            help="give up after this many seconds (a reach across hundreds of obstacles)",
            min=1,
            max=3600,
        ),
    ] = 10.0,
) -> None:
    """Answer a rules question on a scene file."""

    from arbitre.rules.errors import shown, stopped_after
    from arbitre.rules.questions import ask as ask_question
    from arbitre.rules.scene import load_scene, read_scene_text

    language = _answer_language(lang)
    extras: dict[str, Any] = {}
    for item in extra or []:
        key, equals, value = item.partition("=")
        if not equals or not key.isidentifier() or len(key) > 100:
            raise fail(f"--with takes KEY=VALUE, got {shown(item)}")
        if key in extras:
            raise fail(f"--with {key}= is given twice")
        try:  # 3 -> int, 2.5 -> float, true -> bool, [1, 2] -> a list
            extras[key] = read_scene_text(value, f"--with {key}")
        except RulesError as error:
            raise fail(str(error)) from None
    shortcuts: tuple[tuple[str, object], ...] = (("action", action), ("die", die), ("bonus", bonus))
    for name, given in shortcuts:
        if given is not None:
            if name in extras:
                raise fail(f"--{name} and --with {name}= are both given")
            extras[name] = given
    loaded = load_scene(scene)
    if question in PATH_QUESTIONS:
        # The path search's compiled loops, loaded (or, once after installing, compiled:
        # seconds on a slow machine) before the time limit starts.
        from arbitre.rules.pathing.kernels import warm

        warm()
    from arbitre.api.limits import QUESTION_MEMORY_BYTES, cap_memory, too_costly

    if common.OWN_PROCESS:  # a process of its own: bound it (a caller's process keeps its own)
        cap_memory(QUESTION_MEMORY_BYTES)
    try:
        with within_time_limit(
            time_limit, f"{question}: {stopped_after(time_limit)} (see --time-limit)"
        ):
            answer = ask_question(loaded, question, args or [], extras)
    except MemoryError:
        raise fail(too_costly(question)) from None
    except RulesError as error:
        if language is None:
            raise
        from arbitre.api.i18n import phrase_error

        raise fail(phrase_error(error, language)) from None
    if as_json or language is None:
        typer.echo(
            json.dumps(answer.to_json()) if as_json else _with_warnings(answer.message, answer)
        )
        return
    from arbitre.api.i18n import phrase_answer

    data = answer.to_json()
    target = _move_target(args or []) if data["question"] == "move" else None
    typer.echo("\n".join(phrase_answer(data, language, target).lines()))


class OutOfTime(Exception):
    """The alarm of `within_time_limit` rang."""


RING_AGAIN_S = 0.1
"""After its time, `within_time_limit`'s alarm rings again at this interval until the work stops."""


@contextmanager
def within_time_limit(seconds: float, message: str) -> Iterator[None]:
    """Give up the work inside after ``seconds``: one line (``message``) and exit 2.

    The alarm is a signal of the main thread: where there is none (Windows, a thread)
    the work runs to its end."""
    import signal

    if (
        not hasattr(signal, "setitimer")
        or threading.current_thread() is not threading.main_thread()
    ):
        yield
        return

    def ring(_signal: int, _frame: object) -> None:
        raise OutOfTime

    previous = signal.signal(signal.SIGALRM, ring)
    # It rings again every tenth of a second: an exception raised where Python ignores it
    # (an object's __del__ run by the garbage collector) must not let the work run on.
    signal.setitimer(signal.ITIMER_REAL, seconds, RING_AGAIN_S)
    # A signal waits for the compiled loops (NumPy's, the path search's) to return to
    # Python: past `HARD_STOP_S` more, a watch says the same line and ends the process
    # (only a process of its own: never the process of a caller of `app`).
    watch = threading.Timer(seconds + HARD_STOP_S, _hard_stop, args=(message,))
    watch.daemon = True
    if common.OWN_PROCESS:
        watch.start()
    try:
        yield
    except OutOfTime:
        raise fail(message) from None
    except SystemError as error:
        # The alarm rang inside a compiled function's C caller (numba's dispatcher), which
        # then returned as if nothing had been raised: Python wraps the ring in this.
        if isinstance(error.__cause__, OutOfTime):
            raise fail(message) from None
        raise
    finally:
        watch.cancel()
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


HARD_STOP_S = 2.0
"""How long past its time limit a question stuck in compiled loops may run."""


def _hard_stop(message: str) -> None:
    """End the process at once with the time limit's line (exit 2): the work inside is
    in a loop no signal interrupts."""
    sys.stderr.write(f"arbitre: {message}\n")
    sys.stderr.flush()
    sys.stdout.flush()
    os._exit(2)


def _with_warnings(message: str, answer: object) -> str:
    """The answer's message, and a ``warning:`` line for each of its warnings that the
    message does not already give (as the page and ``--lang fr`` show them all)."""
    warnings = getattr(answer, "warnings", None) or ()
    missing = [w for w in warnings if isinstance(w, str) and f"warning: {w}" not in message]
    return message + "".join(f"\nwarning: {w}" for w in missing)


def _answer_language(lang: str | None) -> str | None:
    """The catalogue's language of ``--lang``, or None for the rules' own English words
    (the page's catalogue is read only for another language)."""
    if not lang:
        return None
    from arbitre.api.i18n import DEFAULT_LANGUAGE, LanguageError, find_language
    from arbitre.rules.errors import shown

    try:
        language = find_language(lang)
    except LanguageError as error:
        short = str(error) if len(str(error)) <= 200 else f"unknown language {shown(lang)}"
        raise fail(short) from None
    return None if language == DEFAULT_LANGUAGE else language


def _move_target(args: list[str]) -> tuple[float, float] | None:
    """The destination of ``move A X Y`` in table mm, or None if X Y are not numbers."""
    try:
        return float(args[1]), float(args[2])
    except (IndexError, ValueError):
        return None
