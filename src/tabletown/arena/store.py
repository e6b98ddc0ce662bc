"""The arena's output folder: ``job.json`` (what is being played) and ``games.jsonl`` (one line per game).

Lines are appended and flushed as games finish, so an interrupted job loses at most the games still in
flight; a half-written last line (the process was killed mid-write) is dropped when the job resumes.

A folder is trusted only as far as it checks out. Every line carries the key of the job it belongs to
(a hash of the job's identity) and a checksum of its own content, so a line cannot be separated from
its job (deleting ``job.json`` does not let another job adopt the games) and an edited line is noticed.
On resuming, each line must also agree with the job: its index inside the job, the seed and seats that
index gets, and a result of the right shape. A line that fails any check is dropped (and its game is
played again); the first valid line of an index wins, so no game is ever counted twice.
"""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path
from typing import Any, TextIO, TypeGuard

from ..core.errors import TabletownError
from .runner import Job

JOB_FILE = "job.json"
GAMES_FILE = "games.jsonl"
MAX_LINE = 1_000_000


class ArenaError(TabletownError):
    """The output folder cannot be used for this job."""


def job_key(identity: dict[str, Any]) -> str:
    blob = json.dumps(identity, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def line_check(line: dict[str, Any]) -> str:
    body = {key: value for key, value in line.items() if key != "check"}
    blob = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def _is_int(value: Any) -> TypeGuard[int]:
    return type(value) is int


def _is_number(value: Any) -> bool:
    return type(value) in (int, float) and math.isfinite(value)


def line_problem(job: Job, key: str, line: Any) -> str | None:
    """Why ``line`` cannot be a game of ``job`` (None when it can)."""
    if not isinstance(line, dict):
        return "not a JSON object"
    if line.get("job") != key:
        return "belongs to another job"
    if line.get("check") != line_check(line):
        return "was altered after it was written"
    index = line.get("index")
    if not _is_int(index) or not index >= 0:
        return "has no valid index"
    if line.get("seed") != job.game_seed(index):
        return "has the wrong seed for its index"
    entries = job.entries(index)
    if line.get("entries") != entries or line.get("seats") != [job.bots[e] for e in entries]:
        return "has the wrong seats for its index"
    result = line.get("result")
    if not isinstance(result, dict):
        return "has no result"
    ranks, scores = result.get("ranks"), result.get("scores")
    players = job.players
    # A solo game ranks its one seat 1 (won) or 2 (lost to the game itself, e.g. ACME).
    worst = max(players, 2)
    if not (
        isinstance(ranks, list)
        and len(ranks) == players
        and all(_is_int(r) and 1 <= r <= worst for r in ranks)
    ):
        return "has malformed ranks"
    if not (isinstance(scores, list) and len(scores) == players and all(_is_number(s) for s in scores)):
        return "has malformed scores"
    if min(ranks) != 1 and players > 1:
        return "has nobody in first place"
    if not _is_int(line.get("length")) or line["length"] < 0:
        return "has no valid length"
    return None


class GameStore:
    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self._handle: TextIO | None = None
        self._key = ""
        self.dropped: list[str] = []

    def open(self, job: Job, settings: dict[str, Any] | None = None) -> dict[int, dict[str, Any]]:
        """Check or write the job file; return the valid games already played, by index.

        ``settings`` (each bot's settings, see ``runner.bot_settings``) are part of the job's identity,
        so a folder played with other settings is not silently extended."""
        if self.folder is None:
            return {}
        identity = job.identity()
        if settings is not None:
            identity["bot_settings"] = settings
        try:
            identity = self._prepare(identity)
            self._key = job_key(identity)
            done = self._load(job)
            self._handle = (self.folder / GAMES_FILE).open("a", encoding="utf-8")
        except OSError as exc:
            raise ArenaError(
                f"cannot use {self.folder} as the output folder: {exc.strerror or exc}"
            ) from None
        return done

    def _prepare(self, identity: dict[str, Any]) -> dict[str, Any]:
        """Check the folder and its job file against ``identity``; returns the identity in force
        (folders from before bot settings were recorded are matched without them)."""
        assert self.folder is not None
        if self.folder.exists() and not self.folder.is_dir():
            raise ArenaError(f"--out {self.folder} is a file, not a folder")
        self.folder.mkdir(parents=True, exist_ok=True)
        job_path = self.folder / JOB_FILE
        if job_path.exists():
            saved = self._read_job(job_path)
            if isinstance(saved, dict) and "bot_settings" not in saved:
                identity = {key: value for key, value in identity.items() if key != "bot_settings"}
            if saved != identity:
                raise ArenaError(f"{self.folder} holds another job; use a new --out folder to play this one")
            return identity
        games = self.folder / GAMES_FILE
        if games.exists() and games.stat().st_size > 0:
            raise ArenaError(
                f"{self.folder} has games but no {JOB_FILE}: it cannot be told which job they belong to; "
                "restore the file or use a new --out folder"
            )
        job_path.write_text(json.dumps(identity, indent=1) + "\n", encoding="utf-8")
        return identity

    def _read_job(self, path: Path) -> Any:
        try:
            raw = path.read_bytes()[:MAX_LINE]
            return json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise ArenaError(f"{path} is damaged (not a job description); use a new --out folder") from None

    def _load(self, job: Job) -> dict[int, dict[str, Any]]:
        assert self.folder is not None
        path = self.folder / GAMES_FILE
        if not path.exists():
            return {}
        done: dict[int, dict[str, Any]] = {}
        kept: list[str] = []
        raw_lines = path.read_bytes().split(b"\n")
        clean_end = raw_lines[-1] == b""
        for number, raw in enumerate(raw_lines, 1):
            if not raw:
                continue
            problem, line = self._parse(job, raw)
            if problem is None and line["index"] in done:
                problem = "repeats a game already counted"
            if problem is not None:
                self.dropped.append(f"line {number} {problem}")
                continue
            done[line["index"]] = {k: v for k, v in line.items() if k not in ("job", "check")}
            kept.append(raw.decode("utf-8"))
        if self.dropped or not clean_end:
            # Rewrite without the dropped lines so appends start on a clean line.
            path.write_text("".join(text + "\n" for text in kept), encoding="utf-8")
        return done

    def _parse(self, job: Job, raw: bytes) -> tuple[str | None, Any]:
        if len(raw) > MAX_LINE:
            return "is too long", None
        try:
            line = json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError:
            return "is not UTF-8", None
        except (ValueError, RecursionError):
            return "is not JSON", None
        return line_problem(job, self._key, line), line

    def add(self, line: dict[str, Any]) -> None:
        if self._handle is not None:
            line = {**line, "job": self._key}
            line["check"] = line_check(line)
            self._handle.write(json.dumps(line, separators=(",", ":")) + "\n")
            self._handle.flush()

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None
