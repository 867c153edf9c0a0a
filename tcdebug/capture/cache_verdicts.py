"""Each compile cache's answer (FX graph, AOTAutograd: torch's `<cache>_cache_<hit|miss|bypass>`
artifacts) as a `CacheResult` event, and for a miss, what differs from the nearest entry.

torch logs a lookup's key and the hash details it was made of (`components`: one
`[hash] name: value` line per part of the key, `FxGraphHashDetails` / AOTAutograd's), but not those
of the entries already in the cache. So this unit keeps the details of every key it sees, outside
torch's cache (`KeyStore`): a later miss is compared with the nearest entry whose details it kept
and that is still in torch's cache (the payload's reading and the comparison:
`tcdebug.torchtext.cache_keys`, which the log reader shares). Nothing here changes what torch caches
or compiles."""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable
from typing import Any

from tcdebug.capture.base import CaptureContext
from tcdebug.model.events import CacheResult
from tcdebug.model.payloads import CACHE_NAMES
from tcdebug.torchtext.cache_keys import CACHES, MAX_KEPT, RESULTS, Lookup, explain_miss

STAGES: tuple[str, ...] = ()
KEYS_DIR_ENV = "TCDEBUG_CACHE_KEYS_DIR"  # where the kept hash details go (default ~/.cache/tcdebug)


class KeyStore:
    """The hash details of keys seen, per torch cache folder and cache: kept in memory for this
    run and as one small JSON file per key, never following a symlink."""

    def __init__(self, torch_cache_dir: str) -> None:
        base = os.environ.get(KEYS_DIR_ENV) or os.path.join(
            os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "tcdebug", "cache-keys"
        )
        self.torch_cache_dir = torch_cache_dir
        self.folder = os.path.join(base, hashlib.sha256(torch_cache_dir.encode()).hexdigest()[:16])
        self.seen: dict[str, dict[str, list[str]]] = {}
        self.parts: dict[str, str] = {}  # key -> the part it was stored for

    def entry_exists(self, cache: str, key: str) -> bool:
        """Is the key's entry still in torch's cache folder? (An unknown layout counts as yes.)"""
        if not self.torch_cache_dir:
            return True
        if cache == "fx_graph":
            return os.path.isdir(os.path.join(self.torch_cache_dir, "fxgraph", key[1:3], key))
        if cache == "aotautograd":
            return os.path.isdir(os.path.join(self.torch_cache_dir, "aotautograd", key))
        return True

    def known(self, cache: str) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        folder = os.path.join(self.folder, cache)
        try:
            names = sorted(os.scandir(folder), key=lambda e: e.stat(follow_symlinks=False).st_mtime)[
                -MAX_KEPT:
            ]
        except OSError:
            names = []
        for entry in names:
            if not entry.name.endswith(".json") or not entry.is_file(follow_symlinks=False):
                continue
            try:
                with open(entry.path, encoding="utf-8") as fh:
                    data = json.load(fh)
            except (OSError, ValueError):
                continue
            if isinstance(data, dict) and isinstance(data.get("components"), list):
                found[entry.name[:-5]] = [str(x) for x in data["components"]]
                if isinstance(data.get("part"), str):
                    self.parts.setdefault(entry.name[:-5], data["part"])
        found.update(self.seen.get(cache, {}))
        return {k: v for k, v in found.items() if self.entry_exists(cache, k)}

    def part_of(self, cache: str, key: str) -> str:
        """The part (forward, backward, inference) a key was first stored for, or ""."""
        if key not in self.parts:
            self.known(cache)
        return self.parts.get(key, "")

    def remember(self, cache: str, key: str, components: list[str], part: str = "") -> None:
        self.seen.setdefault(cache, {})[key] = components
        self.parts.setdefault(key, part)
        if not re.fullmatch(r"[A-Za-z0-9_.-]{1,200}", key):
            return
        folder = os.path.join(self.folder, cache)
        try:
            os.makedirs(folder, mode=0o700, exist_ok=True)
            if os.path.islink(folder):
                return
            tmp = os.path.join(folder, f".{key}.{os.getpid()}.tmp")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump({"key": key, "part": self.parts.get(key, part), "components": components}, fh)
            os.replace(tmp, os.path.join(folder, f"{key}.json"))
        except OSError:
            pass  # kept in memory for this run only


def torch_cache_dir() -> str:
    try:
        from torch._inductor.runtime.cache_dir_utils import cache_dir

        return str(cache_dir())
    except Exception:  # noqa: BLE001 - a torch without it: entries cannot be checked
        return ""


def install(ctx: CaptureContext) -> None:
    rec = ctx.recorder
    stores: list[KeyStore] = []

    def store() -> KeyStore:
        if not stores:  # made at the first result: the script may set the cache folder first
            stores.append(KeyStore(torch_cache_dir()))
        return stores[0]

    def on_result(cache: str, result: str, cid: str, payload: str | None) -> None:
        lookup = Lookup.read(payload)
        key = lookup.key
        explanation: list[str] = []
        if result == "miss":
            explanation = explain_miss(key, lookup.components, store().known(cache), CACHE_NAMES[cache])
        part = ""
        if cache == "fx_graph":
            # A hit inside an AOTAutograd hit loads forward and backward before any stage says
            # which graph is compiling: the part the key was stored for, where it was seen before.
            part = (store().part_of(cache, key) if result == "hit" and key else "") or rec.inductor_part(cid)
        if lookup.kept and result in ("hit", "miss"):
            store().remember(cache, key, lookup.components, part)
        rec.emit(CacheResult(compile_id=cid, verdict=lookup.verdict(cache, result, part, explanation)))

    def route(cache: str, result: str) -> Callable[[str, dict[str, Any], str | None], None]:
        def on_record(cid: str, md: dict[str, Any], payload: str | None) -> None:
            on_result(cache, result, cid, payload)

        return on_record

    for cache in CACHES:
        for result in RESULTS:
            ctx.handler.on(f"artifact:{cache}_cache_{result}", route(cache, result))
