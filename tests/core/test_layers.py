"""The layers: core at the bottom imports nothing above it (no game, bot, arena, web or rl module),
and the generic bots import nothing of the packages built on them (the bots <-> rl.policy_bot circle
stays broken). Every import statement of every module is read from its syntax tree, so an import
inside a function counts as much as one at the top."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import tabletown

SRC = Path(tabletown.__file__).parent


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in the module at ``path``."""
    package = ".".join(("tabletown", *path.relative_to(SRC).with_suffix("").parts))
    if path.name != "__init__.py":
        package = package.rpartition(".")[0]
    return _imports_in(path.read_text(encoding="utf-8"), package)


def _imports_in(source: str, package: str) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.append((node.lineno, module))
            if not node.module:  # ``from .. import x``: x may be a module of that package
                found += [
                    (node.lineno, f"{module}.{a.name}") for a in node.names if _is_module(module, a.name)
                ]
    return found


def _is_module(package: str, name: str) -> bool:
    folder = SRC.joinpath(*package.split(".")[1:], name)
    return folder.is_dir() or folder.with_suffix(".py").is_file()


def _offences(layer: str, allowed: tuple[str, ...]) -> list[str]:
    out = []
    for path in sorted((SRC / layer).rglob("*.py")):
        for line, module in _imports(path):
            if module.split(".")[0] != "tabletown" or module == "tabletown":
                continue
            if not any(module == a or module.startswith(a + ".") for a in allowed):
                out.append(f"{path.relative_to(SRC.parent)}:{line} imports {module}")
    return out


def test_core_imports_nothing_above_it():
    # The registry finds the game packages by name at run time (core.registry.GAMES_PACKAGE).
    assert _offences("core", ("tabletown.core",)) == []


def test_bots_import_only_core():
    assert _offences("bots", ("tabletown.core", "tabletown.bots")) == []


def test_the_check_sees_imports():
    """Relative imports are resolved against the module's package, inside functions too."""
    source = "import json\nfrom .game import Bot\n\ndef f():\n    from ..bots import make_bot\n    from .. import rl\n"
    assert _imports_in(source, "tabletown.core") == [
        (1, "json"),
        (2, "tabletown.core.game"),
        (5, "tabletown.bots"),
        (6, "tabletown"),
        (6, "tabletown.rl"),
    ]
    assert any(module == "tabletown.core.errors" for _, module in _imports(SRC / "core" / "game.py"))


@pytest.mark.parametrize("name", ["core", "bots"])
def test_every_layer_has_modules(name):
    assert list((SRC / name).glob("*.py"))
