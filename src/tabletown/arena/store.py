"""The arena's output folder: ``job.json`` (what is being played) and ``games.jsonl`` (one line per game).

Lines are appended and flushed as games finish, so an interrupted job loses at most the games still in
flight; a half-written last line (the process was killed mid-write) is dropped when the job resumes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TextIO

from ..core.errors import TabletownError
from .runner import Job

JOB_FILE = "job.json"
GAMES_FILE = "games.jsonl"


class ArenaError(TabletownError):
    """The output folder cannot be used for this job."""


class GameStore:
    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self._handle: TextIO | None = None

    def open(self, job: Job, settings: dict[str, Any] | None = None) -> dict[int, dict[str, Any]]:
        """Check or write the job file; return the games already played, by index.

        ``settings`` (each bot's settings, see ``runner.bot_settings``) must match too when the saved
        job has them; folders written before settings were recorded are checked without them."""
        if self.folder is None:
            return {}
        self.folder.mkdir(parents=True, exist_ok=True)
        job_path = self.folder / JOB_FILE
        identity = job.identity()
        if settings is not None:
            identity["bot_settings"] = settings
        if job_path.exists():
            saved = json.loads(job_path.read_text(encoding="utf-8"))
            if "bot_settings" not in saved:
                identity.pop("bot_settings", None)
            if saved != identity:
                raise ArenaError(
                    f"{self.folder} holds another job ({saved}); use a new --out folder to play this one"
                )
        else:
            job_path.write_text(json.dumps(identity, indent=1) + "\n", encoding="utf-8")
        done = self._load()
        self._handle = (self.folder / GAMES_FILE).open("a", encoding="utf-8")
        return done

    def _load(self) -> dict[int, dict[str, Any]]:
        assert self.folder is not None
        path = self.folder / GAMES_FILE
        if not path.exists():
            return {}
        done: dict[int, dict[str, Any]] = {}
        kept: list[str] = []
        damaged = False
        for raw in path.read_text(encoding="utf-8").splitlines():
            try:
                line = json.loads(raw)
                index = int(line["index"])
            except (json.JSONDecodeError, KeyError, TypeError, ValueError):
                damaged = True
                continue
            if index in done:
                damaged = True
                continue
            done[index] = line
            kept.append(raw)
        if damaged or (kept and not path.read_text(encoding="utf-8").endswith("\n")):
            # Rewrite without the broken or duplicate lines so appends start on a clean line.
            path.write_text("".join(raw + "\n" for raw in kept), encoding="utf-8")
        return done

    def add(self, line: dict[str, Any]) -> None:
        if self._handle is not None:
            self._handle.write(json.dumps(line, separators=(",", ":")) + "\n")
            self._handle.flush()

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None
