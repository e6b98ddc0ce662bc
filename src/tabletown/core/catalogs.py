"""Build the message catalogs: ``python -m tabletown.core.catalogs [update|compile|check]``.

``update`` extracts every marked message (core.i18n: ``tr``, ``trn``, ``trp``, ``N_``, and
``_``/``ngettext`` in templates) of each domain from its sources, merges it into the ``pl``, ``de``
and ``ru`` catalogs (new messages arrive untranslated, vanished ones are dropped) and compiles them;
``compile`` only compiles; ``check`` exits 1 when a compiled catalog is out of date with its ``.po``.
``make catalogs`` runs ``update``.
"""

from __future__ import annotations

import datetime
import io
import sys
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from .i18n import CORE_DOMAIN, LANGUAGES

PACKAGE = Path(__file__).resolve().parents[1]
KEYWORDS = {
    "tr": None,
    "trn": (1, 2),
    "trp": ((1, "c"), 2),
    "N_": None,
    "NP_": ((1, "c"), 2),
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    # A refused move's message (core.errors: the second argument, its fields by keyword).
    "IllegalAction": (2,),
    "MalformedAction": (2,),
    "ActionError": (2,),
    "OptionError": None,  # options refused: the first argument
}
SCRIPT_KEYWORDS = {"t": None}  # Tabletown.t("...") in the pages' scripts
METHODS = {".py": "python", ".html": "jinja2.ext:babel_extract", ".js": "javascript"}
FIXED_DATE = datetime.datetime(2026, 11, 27, tzinfo=datetime.UTC)
GAMES = ("machikoro", "lordsofvegas", "newlasvegas", "multicity")


def domain_folders() -> dict[str, Path]:
    """Every domain and the folder its catalogs live in."""
    folders = {CORE_DOMAIN: PACKAGE / "core" / "locale"}
    for game in GAMES:
        folders[game] = PACKAGE / "games" / game / "locale"
    return folders


def sources(domain: str) -> Iterator[Path]:
    """The files whose messages belong to ``domain``: a game's package and its board folder; for
    the core domain everything else (core, web pages and scripts' words, terminal, CLI)."""
    if domain in GAMES:
        yield from sorted((PACKAGE / "games" / domain).rglob("*.py"))
        yield from sorted((PACKAGE / "web" / "boards" / domain).glob("*.py"))
        yield from sorted((PACKAGE / "web" / "boards" / domain).glob("*.js"))  # the board's Tabletown.t
        return
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).parts
        if relative[0] == "games" or (relative[:2] == ("web", "boards") and len(relative) > 3):
            continue
        yield path
    yield from sorted((PACKAGE / "web" / "templates").rglob("*.html"))
    yield from sorted((PACKAGE / "web" / "boards").rglob("*.html"))
    # The pages' scripts (Tabletown.t); a board's scripts belong to its game's catalog, which the
    # page hands them with the board words (web/boards).
    yield from sorted((PACKAGE / "web" / "static").rglob("*.js"))


def extract(domain: str) -> Catalog:
    template = Catalog(domain=domain, project="Tabletown", charset="utf-8")
    for path in sources(domain):
        method = METHODS[path.suffix]
        options = {"extensions": "jinja2.ext.i18n"} if path.suffix == ".html" else {}
        keywords = SCRIPT_KEYWORDS if path.suffix == ".js" else KEYWORDS
        for lineno, message, comments, context in extract_from_file(
            method,
            str(path),
            keywords=keywords,
            options=options,
            strip_comment_tags=True,
            comment_tags=("i18n:",),
        ):
            where = (str(path.relative_to(PACKAGE)), lineno)
            template.add(message, locations=[where], auto_comments=comments, context=context)
    return template


def _po_path(folder: Path, domain: str, lang: str) -> Path:
    return folder / lang / "LC_MESSAGES" / f"{domain}.po"


def update(domain: str, folder: Path) -> None:
    template = extract(domain)
    for lang in LANGUAGES[1:]:
        po = _po_path(folder, domain, lang)
        if po.exists():
            with po.open("rb") as handle:
                catalog = read_po(handle, locale=lang, domain=domain)
            catalog.update(template, no_fuzzy_matching=True)
        else:
            catalog = Catalog(locale=lang, domain=domain, project="Tabletown", charset="utf-8")
            catalog.update(template, no_fuzzy_matching=True)
        catalog.fuzzy = False  # the header (with the plural rule) must reach the compiled catalog
        catalog.creation_date = catalog.revision_date = FIXED_DATE  # no churn from dates
        po.parent.mkdir(parents=True, exist_ok=True)
        with po.open("wb") as handle:
            write_po(handle, catalog, width=100, omit_header=False, ignore_obsolete=True, sort_output=False)
    compile_domain(domain, folder)


def compiled(po: Path, domain: str, lang: str) -> bytes:
    with po.open("rb") as handle:
        catalog = read_po(handle, locale=lang, domain=domain)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


def compile_domain(domain: str, folder: Path) -> None:
    for lang in LANGUAGES[1:]:
        po = _po_path(folder, domain, lang)
        if po.exists():
            po.with_suffix(".mo").write_bytes(compiled(po, domain, lang))


def stale() -> list[str]:
    """Compiled catalogs that do not match their ``.po`` (or are missing)."""
    out = []
    for domain, folder in domain_folders().items():
        for lang in LANGUAGES[1:]:
            po = _po_path(folder, domain, lang)
            if not po.exists():
                continue
            mo = po.with_suffix(".mo")
            if not mo.exists() or mo.read_bytes() != compiled(po, domain, lang):
                out.append(str(mo.relative_to(PACKAGE)))
    return out


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "update"
    only = set(argv[1:])
    for domain, folder in domain_folders().items():
        if only and domain not in only:
            continue
        if command == "update":
            update(domain, folder)
        elif command == "compile":
            compile_domain(domain, folder)
    if command == "check":
        problems = stale()
        for problem in problems:
            print(f"out of date: {problem} (run make catalogs)")
        return 1 if problems else 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
