"""``build-image``: persona spec -> world -> persona layer -> task bundle -> bootable qcow2.

Every stage writes into a staging folder ``<out>/.<persona-id>.partial``; only when
the requested stages all succeed does it replace ``<out>/<persona-id>`` in one atomic
exchange, so a failed, interrupted or killed build never leaves half-written output
where a good one was. Builds of one persona into one ``<out>`` take turns on the lock
``<out>/.<persona-id>.lock`` (see :mod:`builder.output`).
"""

from __future__ import annotations

import signal
import sys

# Ctrl-C while the imports below load (about half a second): exit 130 quietly, not with a traceback.
signal.signal(signal.SIGINT, lambda *_: sys.exit(130))

import os  # noqa: E402
import shutil  # noqa: E402
import time  # noqa: E402
from enum import Enum  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Annotated, Callable  # noqa: E402

import typer  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn  # noqa: E402
from rich.table import Table  # noqa: E402

from . import apps as app_registry  # noqa: E402
from . import output  # noqa: E402
from .bundle import write_bundle  # noqa: E402
from .image.thin import image_record, is_base_file  # noqa: E402
from .layer import build_layer  # noqa: E402
from .persona import SpecError, complete, load  # noqa: E402
from .world import SpecNotHonoured, simulate, write_world  # noqa: E402

signal.signal(signal.SIGINT, signal.default_int_handler)  # from here on Ctrl-C is KeyboardInterrupt again

STAGES = ["world", "layer", "bundle", "image"]


class Until(str, Enum):
    """The last stage to run."""

    world = "world"
    layer = "layer"
    bundle = "bundle"
    image = "image"


def _default_cache() -> Path:
    return Path(os.environ.get("PERSONA_CACHE", Path(__file__).resolve().parent.parent / ".cache"))


app = typer.Typer(add_completion=False, rich_markup_mode="rich")


def _human(size: int) -> str:
    for unit in ["B", "KiB", "MiB", "GiB"]:
        if size < 1024 or unit == "GiB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return str(size)


@app.command(
    help="""Build a persona's desktop: a bootable qcow2 plus its task bundle, from a persona spec (JSON).

Stages, each writing into OUT/<persona-id>/:

  [bold]world[/]   simulate the persona's timeline: world/events.jsonl, stats.json, planted.json, persona.completed.json
  [bold]layer[/]   project it: app databases, Firefox profile, home files (layer/ = the guest's /)
  [bold]bundle[/]  tasks/tasks.jsonl with rubrics, manifest.json, SHA256SUMS
  [bold]image[/]   bake layer/ into the cached base image: persona.qcow2, a delta on base-<hash>.qcow2 beside it
          (minutes; the first run builds the base; --full-image for one standalone qcow2)

Examples:

  build-image personas/dana-whitfield.json
  build-image personas/jordan-lee.json --until layer --out /tmp/try

A bad spec prints one line per problem (file: JSON path: message) and exits with status 2;
a failed build exits with status 1 and leaves any earlier OUT/<persona-id>/ untouched."""
)
def build(
    persona: Annotated[
        Path, typer.Argument(help="Persona spec, e.g. personas/dana-whitfield.json", metavar="PERSONA.json")
    ],
    out: Annotated[Path, typer.Option("--out", "-o", help="Output folder; results go to OUT/<persona-id>/")] = Path(
        "out"
    ),
    until: Annotated[Until, typer.Option("--until", help="Stop after this stage")] = Until.image,
    cache: Annotated[
        Path,
        typer.Option(
            "--cache", help="Cache for the shared base image and app builds (default: .cache/ or $PERSONA_CACHE)"
        ),
    ] = None,
    publish: Annotated[
        Path,
        typer.Option(
            "--publish",
            metavar="INDEX.json",
            help="After the image stage, copy the build beside this index "
            "(<persona>/<tag>/) and add its entry, for pull-image",
        ),
    ] = None,
    tag: Annotated[str, typer.Option("--tag", help="Tag of the --publish entry")] = "latest",
    full_image: Annotated[
        bool,
        typer.Option(
            "--full-image",
            help="Write persona.qcow2 standalone (~800 MB) instead of a delta on the shared base "
            "(tens of MB, with base-<hash>.qcow2 hard-linked beside it)",
        ),
    ] = False,
) -> None:
    console = Console(stderr=True)
    if publish is not None and until is not Until.image:
        print("build-image: --publish needs the image stage (drop --until)", file=sys.stderr)
        raise typer.Exit(2)
    try:
        spec = load(persona)
    except SpecError as err:
        # Plain print: one problem per line, never wrapped by the terminal width.
        print("\n".join(err.lines), file=sys.stderr)
        raise typer.Exit(2)
    cache = cache or _default_cache()
    completed = complete(spec)
    wanted = STAGES[: STAGES.index(until.value) + 1]
    timings: dict[str, float] = {}
    try:
        slot = output.plan(out, completed.id)  # checks only: nothing is written before this passes
        output.create(slot)
        with output.locked(
            slot,
            on_wait=lambda: print(
                f"build-image: waiting for another build of {completed.id} in {slot.out} to finish",
                file=sys.stderr,
                flush=True,
            ),
        ):
            # Re-check under the lock: another build may have changed OUT/<id> meanwhile.
            output.plan(out, completed.id)
            for line in output.recover(slot):
                print(f"build-image: {line} (left by an interrupted build)", file=sys.stderr)
            _build_locked(console, completed, persona, slot, wanted, cache, timings, thin=not full_image)
            _summary(console, out / slot.id, timings)  # still under the lock: OUT/<id> is ours
            if publish is not None:
                from .runtime.pull import PullError
                from .runtime.pull import publish as publish_build

                try:
                    entry = publish_build(out / slot.id, publish, tag=tag, copy=True)
                except (PullError, OSError) as err:
                    print(f"build-image: publishing to {publish} failed: {err}", file=sys.stderr)
                    raise typer.Exit(1) from None
                print(f"build-image: published {entry['persona']}:{entry['tag']} in {publish}", file=sys.stderr)
    except output.OutputError as err:
        print(f"build-image: {err}", file=sys.stderr)
        raise typer.Exit(2) from None


def _build_locked(
    console: Console,
    completed,
    persona: Path,
    slot: output.Slot,
    wanted: list[str],
    cache: Path,
    timings: dict[str, float],
    thin: bool = True,
) -> None:
    """Build into the staging folder and swap it into place; the caller holds the lock.

    ``thin``: the image stage writes persona.qcow2 as a delta on the base placed beside it
    (:mod:`builder.image.thin`), else standalone."""
    staging, final = slot.staging, slot.final
    for sig in (signal.SIGTERM, signal.SIGHUP):
        # Like Ctrl-C: unwind, so the staging folder is removed (a SIGKILL is repaired by the next build).
        signal.signal(sig, _terminate)
    staging.mkdir()
    try:
        # Not a terminal (CI, a pipe, a log file): no live display, which would only be drawn at the end, but a
        # line per step as it happens.
        plain = not console.is_terminal
        with Progress(
            SpinnerColumn(),
            TextColumn("[bold]{task.fields[stage]:<7}[/] {task.description}"),
            TimeElapsedColumn(),
            console=console,
            transient=False,
            disable=plain,
        ) as progress:

            def stage(name: str, fn: Callable[[Callable[[str], None]], object]) -> object:
                tid = progress.add_task("", stage=name)
                started = time.monotonic()

                def say(msg: str) -> None:
                    progress.update(tid, description=msg)
                    if plain:
                        print(f"build-image: {name:<7} {msg}", file=sys.stderr, flush=True)

                result = fn(say)
                timings[name] = time.monotonic() - started
                if plain:
                    print(f"build-image: {name:<7} done in {timings[name]:.1f}s", file=sys.stderr, flush=True)
                progress.update(tid, description="[green]done[/]", completed=1, total=1)
                return result

            apps = app_registry.discover()
            world = stage("world", lambda say: _world(completed, staging, say))
            if "layer" in wanted:
                stage(
                    "layer",
                    lambda say: (
                        say("app databases, Firefox profile, files"),
                        build_layer(world, apps, staging / "layer"),
                    ),
                )
            if "bundle" in wanted:
                stage(
                    "bundle",
                    lambda say: (
                        say("tasks and rubrics"),
                        write_bundle(world, apps, persona, staging, with_image=False),
                    ),
                )
            if "image" in wanted:
                from .image.pipeline import build_persona_image

                stage(
                    "image",
                    lambda say: build_persona_image(
                        staging / "layer", staging / "persona.qcow2", world, cache, say, thin=thin
                    ),
                )
                write_bundle(world, apps, persona, staging, with_image=True, image=image_record(staging))
    except BaseException as err:
        shutil.rmtree(staging, ignore_errors=True)
        if isinstance(err, SpecNotHonoured):
            # A spec fact the world cannot honour: one line naming the file and the JSON path, as a refused spec.
            print(f"{persona}: {err}", file=sys.stderr)
            raise typer.Exit(2) from None
        if _is_build_error(err):
            # A failed tool or guest check: say what failed (its log is named in the message), no traceback.
            print(f"build-image: {err}", file=sys.stderr)
            raise typer.Exit(1) from None
        raise
    # No signal may interrupt the swap and the removal of the previous build half-way.
    blocked = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
    signal.pthread_sigmask(signal.SIG_BLOCK, blocked)
    try:
        output.swap_into_place(staging, final, slot.old)
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, blocked)


def _terminate(signum, _frame) -> None:
    raise SystemExit(128 + signum)


def _is_build_error(err: BaseException) -> bool:
    """Errors of the pipeline's own tools and checks (as opposed to bugs)."""
    from .apps import AppError
    from .image.bake import BakeError
    from .image.base import BaseImageError
    from .image.boot import BootError
    from .image.thin import ThinImageError

    return isinstance(err, (AppError, BakeError, BaseImageError, BootError, ThinImageError))


def _world(completed, staging: Path, say: Callable[[str], None]):
    say("simulating the timeline")
    world = simulate(completed)
    write_world(world, staging / "world")
    (staging / "world" / "persona.completed.json").write_text(
        completed.model_dump_json(indent=2, by_alias=True, exclude_none=True) + "\n", encoding="utf-8"
    )
    return world


def _summary(console: Console, final: Path, timings: dict[str, float]) -> None:
    table = Table(title=f"Built {final}", show_lines=False)
    table.add_column("artifact")
    table.add_column("size", justify="right")
    for path in sorted(p for p in final.iterdir() if not p.name.startswith(".")):
        size = sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) if path.is_dir() else path.stat().st_size
        note = (
            " (shared base, hard link)"
            if path.is_file() and path.stat().st_nlink > 1 and is_base_file(path.name)
            else ""
        )
        table.add_row(str(path) + ("/" if path.is_dir() else ""), _human(size) + note)
    console.print(table)
    console.print("  ".join(f"{k} {v:.1f}s" for k, v in timings.items()))


def main() -> None:
    """Console-script entry point of ``build-image``."""
    app(prog_name="build-image")


if __name__ == "__main__":
    main()
