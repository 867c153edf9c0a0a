"""The timeline: compiles, their stages in pipeline order, graph breaks and recompiles.

`build_rows` turns a `Session` into rows (pure, testable); `Timeline` is a Line-API
`ScrollView` that paints only the visible rows (from a cache of strips), keeps the cursor on
the same item across updates, and takes rows added at the end (a log streaming in, a live
run) without rebuilding the rows before them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import islice
from typing import Any, ClassVar

from rich.text import Span, Text
from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.visual import Visual, visualize

from tcdebug.analysis.live_ranks import divergence_notes, rank_state
from tcdebug.analysis.why import times_of
from tcdebug.errors import first_line
from tcdebug.model import stages as stage_catalog
from tcdebug.model.events import StanceEvent
from tcdebug.model.session import Compile, Session, Stage
from tcdebug.screens.ref import Ref  # re-exported: a Ref names a timeline row
from tcdebug.screens.widgets.time_chart import mini_bar
from tcdebug.textsafe import safe_line
from tcdebug.torchtext.dynamo_text import split_recompile_reasons
from tcdebug.torchtext.stage_text import plural

PART_TAGS = {"forward": "fwd", "backward": "bwd", "inference": "inf"}

LIVE_STATES = ("starting", "running", "paused")
ARTIFACTS = "#artifacts"  # the fold key of a compile's artifact stages (TORCH_TRACE `artifact` records)


# Every glyph the timeline, the status bar and the guard view paint, for the legend in help (`?`).
GLYPHS: tuple[tuple[str, str], ...] = (
    ("▶", "the pause point: the target waits at this stage"),
    ("●", "a breakpoint: pause at every stage of this kind (b toggles, B clears all)"),
    ("▾ ▸", "an open / a folded compile or group (enter, → and ← open and fold)"),
    ("▸N ▾N", "a stage's N kernels, folded / listed"),
    ("✓", "compiled; a guard that passes"),
    ("…", "compiling now"),
    ("?", "the recording ends inside this compile; a guard that could not be checked"),
    ("✗", "the compile failed; a guard that fails"),
    ("↻", "a recompile, with Dynamo's reason on the row below (compiled autograd: a cache miss)"),
    ("⚠N", "N graph breaks, each on a row of its own"),
    ("◆ ◇", "a compile cache hit / miss (FX graph, AOTAutograd), on a row of its own"),
    ("⊘", "not captured: the stage view says why"),
    ("⟲", "a compile Dynamo restarted; its next attempt (0/0_1) follows"),
    ("⇄", "torch.compiler.set_stance: a change of stance, or a call a stance ran eagerly or refused"),
    ("■", "a process of the script (when several compiled): how it runs"),
    ("md5!", "a TORCH_TRACE payload whose md5 does not match: shown as written"),
    ("≠", "ranks of a torchrun job differ here: d diffs this rank's version with another's"),
    ("grey", "a stage still to come (live)"),
    ("⠋", "the target is working (status bar)"),
)

# Long stage ids, shortened for the timeline (the stage header and breakpoints keep the full id).
SHORT_NAMES = {k.id: k.short for k in stage_catalog.STAGE_KINDS if k.short}


def part_tag(part: str) -> str:
    """The timeline's short part: `fwd`, `bwd 1` (backward of subgraph 1), `sub 1`."""
    base, subgraph = stage_catalog.split_part(part)
    tag = PART_TAGS.get(base, base) if base else "sub"
    return f"{tag} {subgraph}" if subgraph else tag


def short_stage_name(stage_id: str, part: str = "") -> str:
    """`inductor_post_grad_graph` of the forward: `post_grad (fwd)`."""
    name = SHORT_NAMES.get(stage_id, stage_id)
    return f"{name} ({part_tag(part)})" if part else name


def is_artifact(key: str) -> bool:
    return key.startswith("artifact_")


_AOT_TRAINING = set(stage_catalog.expected(stage_catalog.TRAINING))
_FITTING_ITEMS = ("", "pending", "artifacts")  # rows the pane's width fits (not the long reasons)


@dataclass(slots=True)
class Row:
    """One timeline row. Slotted: a 1 GB log has ~46,000 rows (a `__dict__` each cost ~200 bytes)."""

    ref: Ref
    label: Text
    id: str = field(init=False, compare=False, repr=False)  # `Ref.id`, computed once: rows are reused
    cells: int = field(init=False, compare=False, repr=False)  # width in cells, for the rows the pane fits

    def __post_init__(self) -> None:
        self.id = self.ref.id
        self.cells = self.label.cell_len if self.ref.item in _FITTING_ITEMS else 0


@dataclass
class TimelineState:
    """What the timeline shows besides the session itself."""

    paused_at: tuple[str, str] | None = None
    breakpoints: frozenset[str] = frozenset()
    collapsed: frozenset[str] = frozenset()  # compile ids
    expanded_kernels: frozenset[tuple[str, str]] = frozenset()  # (compile id, stage key)
    live: bool = False


def expected_stages(comp: Compile) -> list[str]:
    """Catalogue stage ids still to come for a compile in progress."""
    arrived = {s.stage_id for s in comp.stages.values()}
    last = max(
        (
            stage_catalog.PIPELINE_ORDER.get(s.stage_id, -1)
            for s in comp.stages.values()
            if stage_catalog.part_base(s.part) != "backward"
        ),
        default=-1,
    )
    dynamo = comp.stages.get("dynamo_graph")
    aot_mode = str(dynamo.meta.get("aot_mode") or "") if dynamo is not None else ""
    capture = comp.is_ca_capture
    pending = []
    for kind in stage_catalog.STAGE_KINDS:
        sid, expect = kind.id, kind.expect
        if sid in arrived or stage_catalog.PIPELINE_ORDER[sid] <= last or expect == stage_catalog.GPU:
            continue
        if expect == stage_catalog.EXPORT and not comp.compile_id.startswith("-/"):
            continue  # only export / AOTInductor compiles (keyed -/-) have these
        if (expect == stage_catalog.CA_CAPTURE) != capture:
            continue  # compiled autograd's captures (keyed !N) have these, and only these
        if expect == stage_catalog.INFERENCE and arrived & _AOT_TRAINING:
            continue
        if sid in _AOT_TRAINING and "aot_inference" in arrived:
            continue
        if aot_mode == "inference" and sid in _AOT_TRAINING:
            continue  # the target saw no input that requires grad: AOTAutograd builds inference
        if aot_mode == "training" and expect == stage_catalog.INFERENCE:
            continue
        if sid in ("aot_joint", "aot_backward") and not arrived & _AOT_TRAINING and aot_mode != "training":
            continue  # undecided: show the two possible first AOT graphs only
        pending.append(sid)
    return pending


_RESUME_NAME = re.compile(r"^torch_dynamo_resume_in_(?P<fn>.+)_at_(?P<line>\d+)$")
_GLOBAL_STATE = re.compile(r"^GLOBAL_STATE changed: (?P<what>.+)$")
_TENSOR_REASON = re.compile(r"^tensor '(?P<name>[^']+)' ")


def row_name(comp: Compile) -> str:
    """The function as a compile row names it: a graph break's resume function by what tells the
    resume functions apart (`resume normalize:9`, for `torch_dynamo_resume_in_normalize_at_9`),
    which an 80-column timeline would cut off."""
    name = comp.shown_name or "?"
    match = _RESUME_NAME.match(name)
    return f"resume {match['fn']}:{match['line']}" if match else name


def short_recompile_reason(reason: str) -> str:
    """A recompile's first reason, its meaningful part first: `grad_mode changed` for
    `0/0: GLOBAL_STATE changed: grad_mode`, `x size mismatch at index 0. …` for `0/0: tensor 'x'
    size mismatch at index 0. …` (the entry's compile id dropped), `(+N)` for further entries."""
    reasons = split_recompile_reasons(reason)
    if not reasons:
        return first_line(reason)
    text = reasons[0].text
    match = _GLOBAL_STATE.match(text)
    if match:
        text = f"{match['what']} changed"
    text = _TENSOR_REASON.sub(r"\g<name> ", text)
    more = len({r.text for r in reasons[1:]} - {reasons[0].text})
    return first_line(text) + (f" (+{more})" if more else "")


def _reason_label(comp: Compile) -> str:
    """A Dynamo compile's reason is a recompile's; compiled autograd's capture (`!N`) has a cache miss."""
    return "cache miss" if comp.is_ca_capture else "recompile"


def _recompile_row_text(comp: Compile) -> str:
    """A Dynamo recompile's row says its reason shortly (the glyph says it is a recompile);
    compiled autograd's capture says `cache miss: ` and torch's text."""
    if comp.is_ca_capture:
        return f"{_reason_label(comp)}: {first_line(comp.recompile_reason, 60)}"
    return short_recompile_reason(comp.recompile_reason)[:80]


def _assemble(*parts: str | tuple[str, str]) -> Text:
    """`Text.assemble` for plain (text, style) parts, built in one go: the same plain text and
    spans, a fraction of the cost (a big session has thousands of rows, rebuilt on every event)."""
    plain: list[str] = []
    spans: list[Span] = []
    offset = 0
    for part in parts:
        text, style = (part, "") if isinstance(part, str) else part
        text = safe_line(text)  # names and reasons come from scripts, logs and dumps
        if not text:
            continue
        if style:
            spans.append(_span(offset, offset + len(text), style))
        plain.append(text)
        offset += len(text)
    return Text("".join(plain), spans=spans)  # text-safe: each piece made safe above


@lru_cache(maxsize=4096)
def _span(start: int, end: int, style: str) -> Span:
    """One shared `Span` per (start, end, style): rows of every compile repeat the same few (stage
    names, glyphs), and a log's ~46,000 rows held ~150,000 of them. Spans are immutable tuples."""
    return Span(start, end, style)


def compile_label(comp: Compile, *, collapsed: bool, live: bool) -> Text:
    arrow = "▸" if collapsed else "▾"
    if comp.status == "failed":
        glyph, style = "✗", "bold red"
    elif comp.status == "compiling":
        glyph, style = ("…", "bold yellow") if live else ("?", "yellow")
    elif comp.status == "restarted":  # Dynamo restarted the analysis: the next attempt compiled
        glyph, style = "⟲", "yellow"
    else:
        glyph, style = "✓", "green"
    parts: list[str | tuple[str, str]] = [
        f"{arrow} ",
        (comp.compile_id, "bold"),
        " ",
        (row_name(comp), "bold"),
        " ",
        (glyph, style),
    ]
    if comp.recompile_reason:
        parts.append((" ↻", "magenta"))
    if comp.graph_breaks:
        parts.append((f" ⚠{len(comp.graph_breaks)}", "yellow"))
    glyph_style = cache_glyph(comp)
    if glyph_style is not None:
        parts.append((f" {glyph_style[0]}", glyph_style[1]))
    label = _assemble(*parts)
    times = times_of(comp)
    if times:  # where its compile time went, as a small stacked bar (t: the full chart)
        label.append(" ")
        label.append_text(mini_bar(times, width=6))
    return label


def cache_glyph(comp: Compile) -> tuple[str, str] | None:
    """◆ when a compile cache answered with a hit, ◇ when only misses (bypasses count as misses)."""
    if not comp.caches:
        return None
    if any(v.result == "hit" for v in comp.caches):
        return "◆", "green"
    return "◇", "dim"


def cache_summary(comp: Compile) -> str:
    """`FX graph hit (fwd), AOTAutograd miss`: the compile's cache row."""
    return ", ".join(
        f"{v.cache_name} {v.result}" + (f" ({part_tag(v.part)})" if v.part else "") for v in comp.caches
    )


# compile id -> (hash of its rows' signature, its rows). The hash, not the tuple: a 1 GB log's
# 4,800 signatures held ~5 MB of tuples; two signatures of one compile colliding is ~2**-64.
RowCache = dict[str, tuple[int, list[Row]]]


def _signature(comp: Compile, state: TimelineState) -> tuple[Any, ...]:
    """Everything a compile's rows depend on: equal signatures, equal rows."""
    cid = comp.compile_id
    paused = state.paused_at if state.paused_at is not None and state.paused_at[0] == cid else None
    return (
        comp.status,
        comp.function,  # with the id (the key), all `shown_name` depends on
        comp.recompile_reason,
        tuple((v.cache, v.result, v.part) for v in comp.caches),
        comp.error,
        _number(comp.times.get("wall_s")),  # a log's or dump's metric may be any JSON value
        _number(comp.metrics.get("dynamo_cumulative_compile_time_us")),
        tuple(gb.reason for gb in comp.graph_breaks),
        tuple((st.key, st.status, len(st.kernels)) for st in comp.stages.values()),
        paused,
        state.breakpoints,
        cid in state.collapsed,
        frozenset(
            (key, tuple(k.name for k in comp.stages[key].kernels) if key in comp.stages else ())
            for c, key in state.expanded_kernels
            if c == cid
        ),
        state.live,
    )


def _number(value: object) -> float | None:
    """`value` if it is a number (what a row shows of it), else None."""
    return float(value) if isinstance(value, int | float) else None


def build_rows(session: Session, state: TimelineState, cache: RowCache | None = None) -> list[Row]:
    """The timeline's rows, top to bottom.

    With `cache`, a compile whose signature did not change reuses its rows: a session of hundreds
    of compiles is rebuilt on every event and every fold, and only one compile changes at a time.
    """
    rows: list[Row] = []
    grouped = len(session.compile_processes()) > 1
    group: object = object()
    diverging = divergence_notes(session) if session.divergences else {}
    stances = stance_rows(session)
    rows.extend(stances.pop("", ()))
    for comp in session.ordered_compiles():
        if grouped and (session.is_child(comp), comp.pid if session.is_child(comp) else None) != group:
            group = (session.is_child(comp), comp.pid if session.is_child(comp) else None)
            rows.append(process_row(session, comp, live=state.live))
        if cache is None:
            comp_rows = compile_rows(comp, state)
        else:
            signature = hash(_signature(comp, state))
            cached = cache.get(comp.compile_id)
            if cached is None or cached[0] != signature:
                cached = cache[comp.compile_id] = (signature, compile_rows(comp, state))
            comp_rows = cached[1]
        notes = diverging.get(comp.compile_id)
        if notes:  # the ranks differ here: a warning right under the compile's row
            warn = [
                Row(
                    Ref(comp.compile_id, item=f"divergence:{i}"),
                    Text(safe_line(f"  ≠ {first_line(n, 70)}"), "bold yellow"),
                )
                for i, n in enumerate(notes)
            ]
            comp_rows = [*comp_rows[:1], *warn, *comp_rows[1:]]
        rows.extend(comp_rows)
        rows.extend(stances.pop(comp.compile_id, ()))
    for left in stances.values():  # after a compile no longer in the session
        rows.extend(left)
    return rows


def stance_row_text(ev: StanceEvent) -> str:
    """A stance event's row, what tells it apart first (the view shows `stance_line`, in full):
    `stance eager_on_recompile (train.py:9)`, `f ran eagerly: x dtype mismatch. …`."""
    if ev.action == "set":
        where = f" ({ev.user.file.rsplit('/', 1)[-1]}:{ev.user.line})" if ev.user is not None else ""
        return f"stance {ev.stance}{where}"
    if ev.stance == "force_eager" and not ev.guard.strip():
        return f"{ev.function or 'a compiled function'} runs eagerly: force_eager"
    did = "ran eagerly" if ev.action == "ran_eager" else f"refused ({ev.stance})"
    guard = short_recompile_reason(ev.guard) if ev.guard.strip() else "no failing guard found"
    return f"{ev.function or 'a compiled function'} {did}: {guard}"


def stance_rows(session: Session) -> dict[str, list[Row]]:
    """A row per stance event, keyed by the compile whose rows it follows ("" before the first):
    each change of stance and each call a stance ran eagerly or refused, where it happened."""
    if not session.stance_events or not session.compiles:
        return {}
    first = next(iter(session.compiles))
    out: dict[str, list[Row]] = {}
    for i, ev in enumerate(session.stance_events):
        place = ev.after if ev.after in session.compiles else ""
        style = "cyan" if ev.action == "set" else ("bold red" if ev.action == "failed" else "yellow")
        text = safe_line(f"  ⇄ {first_line(stance_row_text(ev), 90)}")
        out.setdefault(place, []).append(Row(Ref(place or first, item=f"stance:{i}"), Text(text, style)))
    return out


def _process_of(session: Session, comp: Compile) -> int | None:
    """The process group a compile's rows go under (None: the main process), as `build_rows` groups."""
    return comp.pid if session.is_child(comp) else None


def process_state(session: Session, pid: int | None, *, live: bool) -> str:
    """`stepping`, `runs free` or `ended` (live runs only); "" otherwise."""
    info = session.processes.get(session.main_pid if pid is None else pid)  # type: ignore[arg-type]
    if info is None or not live:
        return ""
    if info.rank is not None:  # a rank of a torchrun job: paused where, or how it ended
        return rank_state(info, session)
    if info.ended:
        return "ended"
    return "stepping" if info.stepping else "runs free"


def process_row(session: Session, first: Compile, *, live: bool) -> Row:
    """The header above one process's compiles, when several processes compiled."""
    pid = first.pid if session.is_child(first) else None
    parts: list[str | tuple[str, str]] = [("■ ", "bold blue"), (session.process_label(pid), "bold blue")]
    state = process_state(session, pid, live=live)
    if state:
        style = {"stepping": "bold green", "runs free": "cyan"}.get(state, "dim")
        if state.startswith(("paused", "running")):
            style = "bold green"
        elif state.startswith(("failed", "died")):
            style = "bold red"
        parts += [" · ", (state, style)]
    return Row(Ref(first.compile_id, item="process"), _assemble(*parts))


def compile_rows(comp: Compile, state: TimelineState) -> list[Row]:
    """The rows of one compile: its own row, then (unless folded) its stages, breaks and errors."""
    rows: list[Row] = []
    cid = comp.compile_id
    collapsed = cid in state.collapsed
    rows.append(Row(Ref(cid), compile_label(comp, collapsed=collapsed, live=state.live)))
    if collapsed:
        return rows
    if comp.recompile_reason:
        rows.append(
            Row(
                Ref(cid, item="recompile"),
                Text(safe_line(f"  ↻ {_recompile_row_text(comp)}"), "magenta"),
            )
        )
    glyph_style = cache_glyph(comp)
    if glyph_style is not None:
        rows.append(
            Row(
                Ref(cid, item="cache"),
                Text(
                    safe_line(f"  {glyph_style[0]} cache: {first_line(cache_summary(comp), 70)}"),
                    glyph_style[1],
                ),
            )
        )
    stages = comp.ordered_stages()
    artifacts = [st for st in stages if is_artifact(st.key)]
    shown: list[Stage | None] = [st for st in stages if not is_artifact(st.key)]  # None: the group row
    if artifacts:
        open_ = (cid, ARTIFACTS) in state.expanded_kernels
        shown.append(None)
        if open_:
            shown.extend(artifacts)
    for stage in shown:
        if stage is None:
            arrow = "▾" if (cid, ARTIFACTS) in state.expanded_kernels else "▸"
            label = _assemble("   ", (f"{arrow} {plural(len(artifacts), 'artifact')}", "dim cyan"))
            rows.append(Row(Ref(cid, item="artifacts"), label))
            continue
        paused = state.paused_at == (cid, stage.key)
        parts: list[str | tuple[str, str]] = [
            " ",
            ("▶", "bold reverse") if paused else " ",
            ("●", "red") if stage.stage_id in state.breakpoints else " ",
            (
                SHORT_NAMES.get(stage.stage_id, stage.stage_id),
                ("bold" if paused else "") if stage.captured else "dim italic",
            ),
        ]
        if stage.part:
            parts.append((f" ({part_tag(stage.part)})", "dim"))
        if not stage.captured:
            parts.append((" ⊘", "dim"))
        if stage.meta.get("md5_mismatch"):
            parts.append((" md5!", "bold red"))
        n_kernels = len(stage.kernels)
        expanded = (cid, stage.key) in state.expanded_kernels
        if n_kernels:
            parts.append((f" {'▾' if expanded else '▸'}{n_kernels}", "cyan"))
        rows.append(Row(Ref(cid, stage.key), _assemble(*parts)))
        if expanded:
            for kernel in stage.kernels:
                rows.append(
                    Row(Ref(cid, stage.key, kernel=kernel.name), _assemble("     ", (kernel.name, "cyan")))
                )
    if state.live and comp.status == "compiling":
        for sid in expected_stages(comp):
            bp = ("●", "red dim") if sid in state.breakpoints else " "
            rows.append(
                Row(Ref(cid, sid, item="pending"), _assemble("  ", bp, (short_stage_name(sid), "dim")))
            )
    for number, gb in enumerate(comp.graph_breaks):
        rows.append(
            Row(
                Ref(cid, item=f"break:{number}"),
                Text(safe_line(f"  ⚠ graph break: {first_line(gb.reason, 60)}"), "yellow"),
            )
        )
    if comp.status == "failed" and comp.error:
        rows.append(Row(Ref(cid, item="error"), Text(safe_line(f"  ✗ {first_line(comp.error, 60)}"), "red")))
    return rows


class Timeline(ScrollView, can_focus=True):
    """The list of compiles and stages; the highlighted row is what the stage view shows.

    A Line-API widget: `render_line` paints one visible row from a cache of strips, so the cost
    of a frame does not grow with the session; `sync` appends rows added at the end in O(new
    rows) and repaints only rows whose label changed. It looks and moves like the `OptionList`
    it replaced (same styles, the cursor wraps around at either end).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down", "cursor_down", "Down", id="timeline_down", show=False),
        Binding("up", "cursor_up", "Up", id="timeline_up", show=False),
        Binding("home", "first", "First", id="timeline_first", show=False),
        Binding("end", "last", "Last", id="timeline_last", show=False),
        Binding("pageup", "page_up", "Page up", id="timeline_page_up", show=False),
        Binding("pagedown", "page_down", "Page down", id="timeline_page_down", show=False),
        Binding("enter", "select", "Fold / open", id="timeline_select", show=False),
        Binding("left", "collapse", "Collapse", id="timeline_collapse", show=False),
        Binding("right", "expand", "Expand", id="timeline_expand", show=False),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "timeline--row",
        "timeline--row-highlighted",
        "timeline--row-hover",
    }

    # The OptionList's own look (Textual 8), so the screen is painted as it was.
    DEFAULT_CSS = """
    Timeline {
        height: auto;
        max-height: 100%;
        color: $foreground;
        overflow-x: hidden;
        border: tall $border-blurred;
        padding: 0 1;
        background: $surface;
        text-wrap: nowrap;
        text-overflow: ellipsis;
        & > .timeline--row-highlighted {
            color: $block-cursor-blurred-foreground;
            background: $block-cursor-blurred-background;
            text-style: $block-cursor-blurred-text-style;
        }
        &:focus {
            border: tall $border;
            background-tint: $foreground 5%;
            & > .timeline--row-highlighted {
                color: $block-cursor-foreground;
                background: $block-cursor-background;
                text-style: $block-cursor-text-style;
            }
        }
        & > .timeline--row-highlighted {
            color: $foreground;
            background: $block-cursor-blurred-background;
        }
        & > .timeline--row-hover {
            background: $block-hover-background;
        }
    }
    """

    highlighted: reactive[int | None] = reactive(None, repaint=False)
    """The index of the highlighted row, or None (its watcher repaints the two rows it moved between)."""

    class RefHighlighted(Message):
        """The cursor moved onto a row (by the user or by `select_ref`)."""

        def __init__(self, ref: Ref) -> None:
            super().__init__()
            self.ref = ref

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.collapsed: set[str] = set()
        self.expanded_kernels: set[tuple[str, str]] = set()
        self._rows: list[Row] = []
        self._index: dict[str, int] = {}  # row id -> row index
        self._widest: list[int] = []  # the widest fitting row so far, row by row (content_width)
        self._noted: set[str | None] | None = None  # compiles changed since the last sync (None: unknown)
        self._built_state = TimelineState()
        # The compiles in timeline order and their sort keys, as last built (None: grouped by process).
        self._order: tuple[list[Compile], list[tuple[Any, ...]]] | None = None
        self._row_cache: RowCache = {}
        self._session: Session | None = None
        self._state = TimelineState()
        self._hover: int | None = None
        # (row id, component class, width) -> (the label it was painted from, the strip): a row
        # keeps its strip when rows above it come or go (a fold, a pending row that arrived)
        self._strips: LRUCache[tuple[str, str, int], tuple[Text, Strip]] = LRUCache(maxsize=1024)
        self.content_width = 0  # cells of the widest compile/stage/kernel row: the pane fits it

    # ----- content -------------------------------------------------------------------
    def _rows_of_noted(
        self, session: Session, state: TimelineState, noted: set[str | None] | None
    ) -> list[Row] | None:
        """The rows, rebuilding only the `noted` compiles; None where that would not be exact
        (an unknown change, a new state, several processes, ranks differing, compiles out of order,
        stance events)."""
        if noted is None or None in noted or state != self._built_state or session.divergences:
            return None
        if session.stance_events:  # rows between compiles (`stance_rows`): rare, built in full
            return None
        if self._order is None:
            return None
        order, keys = self._order
        known = len(order)
        if known > len(session.compiles):
            return None
        processes = {_process_of(session, order[0])} if order else set()
        for comp in islice(session.compiles.values(), known, None):
            key = session.order_key(comp)
            processes.add(_process_of(session, comp))
            if len(processes) > 1 or (keys and key < keys[-1]):
                return None  # a second process (its group header), or not simply after the others
            order.append(comp)
            keys.append(key)
        if any(cid is not None and session.compiles.get(cid) is None for cid in noted):
            return None
        cache = self._row_cache
        rows: list[Row] = []
        for comp in order:
            cid = comp.compile_id
            cached = cache.get(cid)
            if cached is None or cid in noted:
                signature = hash(_signature(comp, state))
                if cached is None or cached[0] != signature:
                    cached = cache[cid] = (signature, compile_rows(comp, state))
            rows.extend(cached[1])
        return rows

    def note_changes(self, compile_ids: Iterable[str | None]) -> None:
        """The compiles that events changed since the last `sync` (None: something else changed),
        for a `sync(..., only_noted=True)` that rebuilds just their rows (a log streaming in)."""
        if self._noted is not None:
            self._noted.update(compile_ids)

    def sync(self, session: Session, state: TimelineState | None = None, *, only_noted: bool = False) -> None:
        """Show the session; the highlighted item stays highlighted when it still exists.

        With `only_noted`, only the compiles given to `note_changes` since the last sync are
        looked at (their rows rebuilt, new ones placed in order): O(changed), not O(compiles).
        """
        if session is not self._session:
            self._row_cache = {}
            self._noted = None
        self._session = session
        if state is not None:
            self._state = state
        full = TimelineState(
            paused_at=self._state.paused_at,
            breakpoints=self._state.breakpoints,
            collapsed=frozenset(self.collapsed),
            expanded_kernels=frozenset(self.expanded_kernels),
            live=self._state.live,
        )
        noted, self._noted = self._noted, set()
        rows = self._rows_of_noted(session, full, noted) if only_noted else None
        if rows is None:
            rows = build_rows(session, full, self._row_cache)
            order = session.ordered_compiles()
            processes = {_process_of(session, c) for c in order}
            self._order = None if len(processes) > 1 else (order, [session.order_key(c) for c in order])
        self._built_state = full
        old = self._rows
        lo = next(
            (
                i
                for i, (new, row) in enumerate(zip(rows, old, strict=False))
                if new is not row and (new.label is not row.label or new.id != row.id)
            ),
            min(len(rows), len(old)),
        )  # rows before `lo` are the rows painted
        if lo == len(rows) == len(old):
            return
        appended = len(rows) >= len(old) and all(
            new.id == row.id for new, row in zip(rows[lo : len(old)], old[lo:], strict=True)
        )
        hi = len(rows)  # rows from `lo` to `hi` differ (to the end, unless only some rows changed)
        if len(rows) == len(old):
            hi = len(rows) - next(
                (
                    i
                    for i, (new, row) in enumerate(zip(reversed(rows), reversed(old), strict=True))
                    if new is not row
                ),
                0,
            )
        current = self.highlighted_ref  # before the rows change
        self._set_rows(rows, lo)
        if appended:  # the same rows, maybe relabelled, maybe more at the end: the cursor stays
            self._repaint(lo, hi)
            return
        # Rows inserted or removed (a fold, a new compile in a process's group, the streaming
        # compile's new stages): the cursor stays on its item, the scroll position where it was.
        scroll_y = self.scroll_y
        self._hover = None
        with self.prevent(self.RefHighlighted):
            self.highlighted = None
            if current is not None:
                self._highlight_ref(current)
        self.scroll_y = scroll_y
        self.scroll_to_highlight()
        self._repaint(lo, max(hi, len(old)))

    def _set_rows(self, rows: list[Row], lo: int) -> None:
        """Take `rows`, of which those before `lo` are unchanged: O(rows from `lo`)."""
        index = self._index
        for row in self._rows[lo:]:
            if index.get(row.id, -1) >= lo:
                del index[row.id]
        for number in range(lo, len(rows)):
            index[rows[number].id] = number
        widest = self._widest  # widest[i]: the widest fitting row among rows[: i + 1]
        del widest[lo:]
        width = widest[-1] if widest else 0
        for row in rows[lo:]:
            width = max(width, row.cells)
            widest.append(width)
        self._rows = rows
        self.content_width = width
        self._update_virtual_size()

    def _repaint(self, lo: int, hi: int) -> None:
        """Repaint the visible rows from `lo` to `hi`: rows above and below stay as painted."""
        top = max(lo, self.scroll_offset.y)
        bottom = min(hi, self.scroll_offset.y + self.size.height)
        if top < bottom:
            self.refresh_lines(top, bottom - top)

    def _update_virtual_size(self) -> None:
        region = self.scrollable_content_region
        if not region:
            return
        size = Size(region.width, len(self._rows))
        if size != self.virtual_size:
            # Without a layout of the screen unless the scrollbar comes or goes (`_scroll_update`
            # asks for one then): the timeline's own size does not depend on its rows.
            self.set_reactive(Timeline.virtual_size, size)
            self._scroll_update(size)
            self.refresh()

    def refs(self) -> list[Ref]:
        return [row.ref for row in self._rows]

    def labels(self) -> list[Text]:
        """The rows' labels, top to bottom, as painted (before the cursor's colours)."""
        return [row.label for row in self._rows]

    @property
    def row_count(self) -> int:
        return len(self._rows)

    @property
    def highlighted_ref(self) -> Ref | None:
        if self.highlighted is None or self.highlighted >= len(self._rows):
            return None
        return self._rows[self.highlighted].ref

    def _highlight_ref(self, ref: Ref) -> bool:
        index = self._index.get(ref.id)
        if index is None and ref.key:
            index = self._index.get(Ref(ref.compile_id, ref.key, item="pending").id)
            if index is None:
                index = self._index.get(Ref(ref.compile_id, ref.key).id)
        if index is None:
            return False
        self.highlighted = index
        return True

    def select_ref(self, ref: Ref) -> bool:
        """Move the cursor to `ref`, expanding what hides it; False if it is not shown."""
        changed = False
        if ref.compile_id in self.collapsed and (ref.key or ref.item):  # a row inside the fold
            self.collapsed.discard(ref.compile_id)
            changed = True
        if ref.kernel and (ref.compile_id, ref.key) not in self.expanded_kernels:
            self.expanded_kernels.add((ref.compile_id, ref.key))
            changed = True
        if is_artifact(ref.key) and (ref.compile_id, ARTIFACTS) not in self.expanded_kernels:
            self.expanded_kernels.add((ref.compile_id, ARTIFACTS))
            changed = True
        if changed and self._session is not None:
            self.sync(self._session)
        return self._highlight_ref(ref)

    # ----- the cursor ----------------------------------------------------------------
    def validate_highlighted(self, highlighted: int | None) -> int | None:
        if highlighted is None or not self._rows:
            return None
        return min(max(highlighted, 0), len(self._rows) - 1)

    def watch_highlighted(self, old: int | None, highlighted: int | None) -> None:
        for number in (old, highlighted):
            if number is not None:
                self._refresh_row(number)
        if highlighted is None:
            return
        self.scroll_to_highlight()
        self.post_message(self.RefHighlighted(self._rows[highlighted].ref))

    def scroll_to_highlight(self, top: bool = False) -> None:
        """Scroll the highlighted row into view."""
        highlighted = self.highlighted
        if highlighted is None or not self.is_mounted:
            return
        self._update_virtual_size()
        self.scroll_to_region(
            Region(0, highlighted, self.scrollable_content_region.width, 1),
            force=True,
            animate=False,
            top=top,
            immediate=True,
        )

    def action_cursor_down(self) -> None:
        """The next row; from the last, the first (as the OptionList did)."""
        if self._rows:
            self.highlighted = 0 if self.highlighted is None else (self.highlighted + 1) % len(self._rows)

    def action_cursor_up(self) -> None:
        if self._rows:
            last = len(self._rows) - 1
            self.highlighted = last if self.highlighted is None else (self.highlighted - 1) % len(self._rows)

    def action_first(self) -> None:
        if self._rows:
            self.highlighted = 0

    def action_last(self) -> None:
        if self._rows:
            self.highlighted = len(self._rows) - 1

    def _move_page(self, direction: int) -> None:
        if not self._rows:
            return
        height = self.scrollable_content_region.height
        self.highlighted = min(max((self.highlighted or 0) + direction * height, 0), len(self._rows) - 1)

    def action_page_up(self) -> None:
        if self.highlighted is None:
            self.action_first()
        else:
            self._move_page(-1)

    def action_page_down(self) -> None:
        if self.highlighted is None:
            self.action_last()
        else:
            self._move_page(1)

    def action_select(self) -> None:
        """Enter: fold or open the row under the cursor."""
        ref = self.highlighted_ref
        if ref is None:
            return
        if self._expandable(ref) and self._is_expanded(ref):
            self.action_collapse()
        else:
            self.action_expand()

    # ----- the mouse -----------------------------------------------------------------
    def _row_at(self, event: events.MouseEvent) -> int | None:
        offset = event.get_content_offset(self)
        if offset is None:
            return None
        number = offset.y + self.scroll_offset.y
        return number if 0 <= number < len(self._rows) else None

    async def _on_click(self, event: events.Click) -> None:
        number = self._row_at(event)
        if number is not None:
            self.highlighted = number
            self.action_select()

    def _on_mouse_move(self, event: events.MouseMove) -> None:
        self._set_hover(self._row_at(event))

    def _on_leave(self, _: events.Leave) -> None:
        self._set_hover(None)

    def _set_hover(self, number: int | None) -> None:
        if number != self._hover:
            for row in (self._hover, number):
                if row is not None:
                    self._refresh_row(row)
            self._hover = number

    # ----- painting ------------------------------------------------------------------
    def _refresh_row(self, number: int) -> None:
        if 0 <= number - self.scroll_offset.y < self.size.height:
            self.refresh_line(number)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._strips.clear()
        self.refresh()

    def _on_resize(self, _: events.Resize) -> None:
        self._strips.clear()
        self._update_virtual_size()

    def on_show(self) -> None:
        self.scroll_to_highlight()

    def render_lines(self, crop: Region) -> list[Strip]:
        self._update_virtual_size()
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        number = self.scroll_offset.y + y
        width = self.scrollable_content_region.width
        if number >= len(self._rows):
            return Strip.blank(width, self.get_visual_style("timeline--row").rich_style)
        if number == self.highlighted:
            component = "timeline--row-highlighted"
        elif number == self._hover:
            component = "timeline--row-hover"
        else:
            component = ""
        row = self._rows[number]
        label = row.label
        key = (row.id, component, width)
        cached = self._strips.get(key)
        if cached is not None and cached[0] is label:
            return cached[1]
        style = (
            self.get_visual_style("timeline--row", component)
            if component
            else self.get_visual_style("timeline--row")
        )
        visual = visualize(self, label, markup=False)
        strips = Visual.to_strips(self, visual, width, None, style)
        strip = strips[0].extend_cell_length(width, style.rich_style) if strips else Strip.blank(width)
        self._strips[key] = (label, strip)
        return strip

    # ----- folding -------------------------------------------------------------------
    def _expandable(self, ref: Ref) -> bool:
        if (not ref.key and not ref.item) or ref.item == "artifacts":
            return True
        return ref.is_stage and self._kernel_count(ref) > 0

    def _is_expanded(self, ref: Ref) -> bool:
        if ref.item == "artifacts":
            return (ref.compile_id, ARTIFACTS) in self.expanded_kernels
        if not ref.key:
            return ref.compile_id not in self.collapsed
        return (ref.compile_id, ref.key) in self.expanded_kernels

    def _kernel_count(self, ref: Ref) -> int:
        stage = self._session.stage(ref.compile_id, ref.key) if self._session else None
        return len(stage.kernels) if stage else 0

    def action_expand(self) -> None:
        ref = self.highlighted_ref
        if ref is None or self._session is None:
            return
        if not ref.key and not ref.item:
            self.collapsed.discard(ref.compile_id)
        elif ref.item == "artifacts":
            self.expanded_kernels.add((ref.compile_id, ARTIFACTS))
        elif ref.is_stage and self._kernel_count(ref):
            self.expanded_kernels.add((ref.compile_id, ref.key))
        self.sync(self._session)

    def action_collapse(self) -> None:
        ref = self.highlighted_ref
        if ref is None or self._session is None:
            return
        if ref.kernel:
            self.expanded_kernels.discard((ref.compile_id, ref.key))
            self.sync(self._session)
            self.select_ref(Ref(ref.compile_id, ref.key))
        elif ref.is_stage and (ref.compile_id, ref.key) in self.expanded_kernels:
            self.expanded_kernels.discard((ref.compile_id, ref.key))
            self.sync(self._session)
        elif (ref.item == "artifacts" or is_artifact(ref.key)) and (
            ref.compile_id,
            ARTIFACTS,
        ) in self.expanded_kernels:
            self.expanded_kernels.discard((ref.compile_id, ARTIFACTS))
            self.sync(self._session)
            self.select_ref(Ref(ref.compile_id, item="artifacts"))
        else:
            self.collapsed.add(ref.compile_id)
            self.sync(self._session)
            self.select_ref(Ref(ref.compile_id))

    def kernel_refs(self, compile_id: str, key: str) -> Iterable[Ref]:
        stage = self._session.stage(compile_id, key) if self._session else None
        return [Ref(compile_id, key, kernel=k.name) for k in (stage.kernels if stage else [])]
