"""torch's compile-cache lookups (its `<cache>_cache_<hit|miss|bypass>` artifacts, FX graph and
AOTAutograd) as `CacheVerdict`s, and for a miss, what differs from the nearest other key.

A lookup's payload is JSON: the key, and the hash details it was made of (`components`: one
`[hash] name: value` line per part of the key, `FxGraphHashDetails` / AOTAutograd's). torch keeps no
details of the entries it stores, so a miss is compared with keys whose details were seen elsewhere:
the live capture's kept store (`tcdebug.capture.cache_verdicts.KeyStore`), or the earlier lookups of
the same TORCH_TRACE log (`LogKeys`). Plain Python: both the debuggee and the log reader use it."""

from __future__ import annotations

import json
from collections.abc import Mapping

from tcdebug.model.payloads import CACHE_NAMES, CacheVerdict

CACHES = ("fx_graph", "aotautograd")
RESULTS = ("hit", "miss", "bypass")
MAX_KEPT = 400  # keys compared with per cache when explaining a miss (the newest)
MAX_SHOWN = 8  # differing parts listed per miss
_MAX_POOLED = 100_000  # distinct parts `LogKeys` shares between keys before it starts afresh
NONE_KEPT = (
    "a first run, a cleared cache, or entries written without tcdebug (torch keeps no details of the "
    "entries it stores)"
)
NONE_IN_LOG = "a first run, or entries written by runs this log does not hold"
FROM_LOG = "compared with the hash details of the keys looked up earlier in this log"
# torch works out AOTAutograd's hash details (re-hashing each part of the key) only when this logger
# is enabled for DEBUG: `_get_debug_lines_for_cache_key` in torch/_functorch/_aot_autograd/autograd_cache.py
AOT_DETAILS_LOGGER = "torch._functorch._aot_autograd.autograd_cache"
NO_DETAILS = "torch gave no hash details for this key: nothing to compare"
AOT_DETAILS_HINT = (
    f"torch works out AOTAutograd's hash details only when its logger {AOT_DETAILS_LOGGER} logs at "
    f'DEBUG: run with TORCH_LOGS="+{AOT_DETAILS_LOGGER}" to have its misses explained'
)


def parse_line(line: str) -> tuple[str, str, str] | None:
    """A `[hash] name: value` line -> (name, hash, value); None for any other line.

    The hash runs to the first `]`, which a space follows; the name, to the first `:` (one
    character at least); the value is the rest, less one leading space."""
    if not line.startswith("["):
        return None
    close = line.find("]")
    if close < 0 or line[close + 1 : close + 2] != " ":
        return None
    colon = line.find(":", close + 2)
    if colon <= close + 2:
        return None
    value = line[colon + 1 :]
    return line[close + 2 : colon], line[1:close], value[1:] if value.startswith(" ") else value


def parse_components(lines: list[str]) -> dict[str, tuple[str, str]]:
    """`[hash] name: value` lines -> name -> (hash, value)."""
    out: dict[str, tuple[str, str]] = {}
    for line in lines:
        parsed = parse_line(line)
        if parsed is not None:
            name, h, value = parsed
            out[name] = (h, value)
    return out


def _short(text: str, limit: int = 160) -> str:
    """One line (a graph's text folded), cut at `limit`."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _part_id(name: str, h: str) -> str:
    return f"{name}]{h}"


class KeyDetails:
    """A key's hash details, parsed: name -> (hash, value), and each part as one `name]hash`
    string (a hash holds no `]`), so two keys compare at C speed (a key has hundreds of parts; a
    log, thousands of keys; a string caches its hash, a tuple does not)."""

    __slots__ = ("parts", "hashes")

    def __init__(self, parts: dict[str, tuple[str, str]], hashes: frozenset[str]) -> None:
        self.parts = parts
        # the part ids, or their symmetric difference with one reference key's (`LogKeys`): either
        # way, two keys' symmetric difference is the parts that differ
        self.hashes = hashes

    @classmethod
    def of(cls, parts: dict[str, tuple[str, str]]) -> KeyDetails:
        return cls(parts, frozenset(_part_id(name, h) for name, (h, _) in parts.items()))

    @classmethod
    def parse(cls, lines: list[str]) -> KeyDetails:
        return cls.of(parse_components(lines))

    def differing(self, other: KeyDetails) -> list[str]:
        """The parts whose hash differs, or that only one of the two keys has."""
        return sorted({part.rpartition("]")[0] for part in self.hashes ^ other.hashes})


def explain_miss(key: str, components: list[str], known: dict[str, list[str]], cache_name: str) -> list[str]:
    """What differs between a missed key's hash details and the nearest of `known` (key -> details
    of entries still in the cache)."""
    if not components:
        return explain_details(key, None, {}, cache_name)
    parsed = {k: KeyDetails.parse(v) for k, v in known.items() if k != key}
    return explain_details(key, KeyDetails.parse(components), parsed, cache_name)


def explain_details(
    key: str,
    mine: KeyDetails | None,
    known: Mapping[str, KeyDetails],
    cache_name: str,
    none_known: str = NONE_KEPT,
) -> list[str]:
    """`explain_miss` on parsed details (`mine` None: torch gave none); `none_known` says why no
    other key may be known."""
    if mine is None:
        return [NO_DETAILS, AOT_DETAILS_HINT] if cache_name == CACHE_NAMES["aotautograd"] else [NO_DETAILS]
    others = {k: v for k, v in known.items() if k != key}
    if not others:
        return [f"no earlier {cache_name} cache entry with known hash details: {none_known}"]
    best: tuple[int, str, list[str]] | None = None
    for other_key, details in others.items():
        differ = mine.differing(details)
        if best is None or len(differ) < best[0]:
            best = (len(differ), other_key, differ)
    assert best is not None
    count, other_key, differ = best
    theirs = others[other_key].parts
    now_parts = mine.parts
    out = [
        f"nearest entry {other_key[:16]}…: {count} of {len(now_parts.keys() | theirs.keys())} parts of the key differ"
    ]
    for name in differ[:MAX_SHOWN]:
        now = now_parts.get(name)
        was = theirs.get(name)
        if now is None:
            out.append(f"{name}: only in the entry ({_short(was[1]) if was else ''})")
        elif was is None:
            out.append(f"{name}: new in this key ({_short(now[1])})")
        else:
            out.append(f"{name}: {_short(now[1])}  (entry: {_short(was[1])})")
    if len(differ) > MAX_SHOWN:
        out.append(f"… and {len(differ) - MAX_SHOWN} more: {', '.join(differ[MAX_SHOWN:])}")
    return out


class Lookup:
    """What a `<cache>_cache_<result>` artifact's payload says (empty where it is not JSON)."""

    __slots__ = ("key", "components", "reason", "time_saved_s")

    def __init__(
        self,
        key: str = "",
        components: list[str] | None = None,
        reason: str = "",  # a bypass's
        time_saved_s: float | None = None,  # a hit's
    ) -> None:
        self.key = key
        self.components = components if components is not None else []
        self.reason = reason
        self.time_saved_s = time_saved_s

    @classmethod
    def read(cls, payload: str | None) -> Lookup:
        try:
            info = json.loads(payload or "{}")
        except ValueError:
            info = {}
        if not isinstance(info, dict):
            info = {}
        saved_ns, saved_ms = info.get("time_saved_ns"), info.get("time_saved_ms")  # FX graph's / AOTAutograd's
        components = info.get("components")
        return cls(
            key=str(info.get("key") or ""),
            components=[x for x in components if isinstance(x, str)] if isinstance(components, list) else [],
            reason=str(info.get("cache_bypass_reason") or ""),
            time_saved_s=(
                saved_ns / 1e9
                if isinstance(saved_ns, int | float)
                else saved_ms / 1e3
                if isinstance(saved_ms, int | float)
                else None
            ),
        )

    def verdict(self, cache: str, result: str, part: str, explanation: list[str]) -> CacheVerdict:
        return CacheVerdict(
            cache=cache,
            result=result,
            key=self.key,
            part=part,
            reason=self.reason,
            explanation=explanation,
            time_saved_s=self.time_saved_s,
        )

    @property
    def kept(self) -> bool:
        """Has it a key and hash details, to compare a later miss with?"""
        return bool(self.key and self.components)


class LogKeys:
    """The hash details of the keys one log looked up, in its order (the newest `MAX_KEPT` per
    cache), so a miss is explained by the keys before it. Held in memory only.

    Values are kept as shown (`_short`), one copy per part for all keys: most parts (the Inductor
    config) are equal. A key's part ids are kept as their symmetric difference with the cache's
    first key (a few parts: the graph, the inputs), which compares two keys the same."""

    def __init__(self) -> None:
        self.seen: dict[str, dict[str, KeyDetails]] = {}  # cache -> key -> details
        self.parts: dict[tuple[str, str], str] = {}  # (cache, key) -> the part first looked up for
        self._first: dict[str, frozenset[str]] = {}  # cache -> its first key's part ids
        # (name, hash) -> the one copy of the name, (hash, value as shown) and part id
        self._pool: dict[tuple[str, str], tuple[str, tuple[str, str], str]] = {}
        # a line of hash details -> its pooled part, () for none (most lines recur key after key)
        self._lines: dict[str, tuple[str, tuple[str, str], str] | tuple[()]] = {}

    def part_of(self, cache: str, key: str) -> str:
        """The part (forward, backward, inference) the key was first looked up for, or ""."""
        return self.parts.get((cache, key), "")

    def add(self, cache: str, result: str, lookup: Lookup, part: str) -> list[str]:
        """A lookup, in log order: a miss's explanation by the keys before it (`FROM_LOG` first,
        where torch gave the key's hash details); a hit's or a miss's key is kept."""
        mine = self._details(cache, lookup.components) if lookup.kept else None
        explanation: list[str] = []
        if result == "miss":
            known = self.seen.get(cache, {})
            explanation = explain_details(lookup.key, mine, known, CACHE_NAMES[cache], NONE_IN_LOG)
            if mine is not None:
                explanation.insert(0, FROM_LOG)
        if mine is not None and result in ("hit", "miss"):
            keys = self.seen.setdefault(cache, {})
            keys.pop(lookup.key, None)  # the newest last
            keys[lookup.key] = mine
            while len(keys) > MAX_KEPT:
                del keys[next(iter(keys))]
            self.parts.setdefault((cache, lookup.key), part)
        return explanation

    def _details(self, cache: str, components: list[str]) -> KeyDetails:
        if len(self._pool) > _MAX_POOLED or len(self._lines) > _MAX_POOLED:
            self._pool.clear()  # the kept keys hold what they share
            self._lines.clear()
        parts: dict[str, tuple[str, str]] = {}
        ids: dict[str, str] = {}  # name -> part id (the last line of a name wins, as in `parts`)
        for line in components:
            shared = self._lines.get(line)
            if shared is None:
                shared = self._lines[line] = self._share(line)
            if shared:
                parts[shared[0]] = shared[1]
                ids[shared[0]] = shared[2]
        part_ids = frozenset(ids.values())
        # copied from a list: `^` keeps the table of its left side, and iterating a set walks it all
        return KeyDetails(parts, frozenset([*part_ids ^ self._first.setdefault(cache, part_ids)]))

    def _share(self, line: str) -> tuple[str, tuple[str, str], str] | tuple[()]:
        """A line's pooled (name, (hash, value as shown), part id); () when it is no part."""
        parsed = parse_line(line)
        if parsed is None:
            return ()
        name, h, value = parsed
        shared = self._pool.get((name, h))
        if shared is None:  # one hash, one value: the hash is the value's
            shared = self._pool[name, h] = (name, (h, _short(value)), _part_id(name, h))
        return shared
