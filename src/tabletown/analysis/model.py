"""The learned win-chance model, kept in :mod:`tabletown.core.winmodel` since the search bot (a layer
that may import only core) judges play-outs with it too; this name stays for the analysis."""

from __future__ import annotations

from ..core.winmodel import FILE_PATTERN, WinModel, model_path, shipped_model, win_credit

__all__ = ["FILE_PATTERN", "WinModel", "model_path", "shipped_model", "win_credit"]
