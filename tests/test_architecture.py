"""The shape of the code: the core's Discord-free part stays Discord-free, rules stay pure, no import cycle."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "cogs", "rules", "localdiscord")
DISCORD_FREE = (
    "bot.service",
    "bot.models",
    "bot.errors",
    "bot.registry",
    "bot.replay",
    "bot.storage",
    "bot.timers",
    "bot.deadlines",
    "bot.computers",
    "bot.names",
    "bot.clock",
    "bot.permissions",
)


def module_of(path: Path, root: Path = ROOT) -> str:
    """The dotted name of the module at ``path`` (a package's ``__init__.py`` is the package)."""
    return ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")


def imports_of(path: Path, root: Path = ROOT) -> set[str]:
    """Every module ``path`` imports (type-only imports included), as dotted names; a ``from`` import also names
    each imported name under its module, and relative imports (``from . import x``, ``from ..a import b``) are
    resolved against the package ``path`` is in."""
    package = module_of(path, root).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    tree = ast.parse(path.read_text())
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            anchor = package[: len(package) - node.level + 1] if node.level else []
            base = ".".join([*anchor, *([node.module] if node.module else [])])
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def test_imports_of_resolves_relative_imports(tmp_path: Path) -> None:
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text("from . import a\nfrom .a import b\n")
    (tmp_path / "pkg" / "sub" / "c.py").write_text("from .. import a\nfrom ..a import b\nfrom . import d\nimport x.y\n")
    assert imports_of(tmp_path / "pkg" / "__init__.py", tmp_path) == {"pkg", "pkg.a", "pkg.a.b"}
    assert imports_of(tmp_path / "pkg" / "sub" / "c.py", tmp_path) == {
        "pkg",
        "pkg.a",
        "pkg.a.b",
        "pkg.sub",
        "pkg.sub.d",
        "x.y",
    }


def test_the_service_and_its_collaborators_import_no_discord() -> None:
    code = "import sys, " + ", ".join(DISCORD_FREE) + "; print('discord' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


def test_rules_import_nothing_of_the_bot_or_discord() -> None:
    for path in (ROOT / "rules").rglob("*.py"):
        for name in imports_of(path):
            assert not name.startswith(("bot", "discord", "cogs")), f"{path.relative_to(ROOT)} imports {name}"


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of ``graph`` (its nodes in order, the first repeated at the end), or None: one depth-first walk,
    each node left once all it reaches is known to lead back to nothing on the current path."""
    done: set[str] = set()
    for root in sorted(graph):
        if root in done:
            continue
        path, children = [root], [iter(sorted(graph[root]))]
        while children:
            node = next(children[-1], None)
            if node is None:
                done.add(path.pop())
                children.pop()
            elif node in path:
                return [*path[path.index(node) :], node]
            elif node not in done:
                path.append(node)
                children.append(iter(sorted(graph[node])))
    return None


def test_find_cycle_finds_one_and_only_one() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set(), "d": {"b", "c"}}) is None
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c", "d"}, "c": set(), "d": {"b"}}) == ["b", "d", "b"]


def test_no_import_cycle_anywhere() -> None:
    """One graph of every module of the bot, the games, the rules and the local Discord, type-only imports
    included: a cycle among them, even one Python tolerates at run time, is a tangle to cut."""
    modules = {module_of(path): path for package in PACKAGES for path in (ROOT / package).rglob("*.py")}
    graph = {}
    for name, path in modules.items():
        imported = imports_of(path)
        graph[name] = {m for m in modules if m != name and any(i == m or i.startswith(f"{m}.") for i in imported)}
    # A package's __init__ importing its own submodules is not a cycle through the package.
    for name in graph:
        graph[name] = {m for m in graph[name] if not m.startswith(f"{name}.")}
    found = find_cycle(graph)
    assert found is None, " → ".join(found)


def test_the_bot_knows_nothing_of_the_local_discord() -> None:
    """The local Discord is a front beside the bot: each talks to the other only through the Discord API."""
    for package in ("bot", "cogs", "rules"):
        for path in (ROOT / package).rglob("*.py"):
            for name in imports_of(path):
                assert not name.startswith("localdiscord"), f"{path.relative_to(ROOT)} imports {name}"
    for path in (ROOT / "localdiscord").rglob("*.py"):
        for name in imports_of(path):
            assert not name.startswith(("bot", "cogs", "rules", "tests")), f"{path.relative_to(ROOT)} imports {name}"


def test_a_game_is_loaded_by_being_in_cogs() -> None:
    """No list of games to edit: every module or package in ``cogs/`` is an extension loaded by default, the
    core's own first."""
    from bot.app import CORE_COGS, default_extensions

    found = {f"cogs.{p.stem}" for p in (ROOT / "cogs").glob("*.py") if p.stem != "__init__"}
    found |= {f"cogs.{p.parent.name}" for p in (ROOT / "cogs").glob("*/__init__.py")}
    loaded = default_extensions()
    assert loaded[: len(CORE_COGS)] == CORE_COGS and set(loaded) == found and len(loaded) == len(found)
    for name in loaded:
        path = ROOT / Path(*name.split(".")).with_suffix(".py")
        source = path if path.exists() else ROOT / Path(*name.split(".")) / "__init__.py"
        assert "async def setup(" in source.read_text(), f"{name} has no setup(bot)"
