"""Finding every commit path in ``bot/`` and ``cogs/`` and what it says afterwards (for ``test_outbox_paths``).

A *commit* is a call of a store method declared ``OUTBOX`` or ``AUTHOR`` (``bot.storage.writes``), of a Service
method that makes one (found in ``bot/service.py``, not listed by hand), or of a function of ``bot/`` or ``cogs/``
that makes one (to a fixed point). After a commit, in the same function or in one that called it, a message the
code sends itself is *told outside the outbox* unless it is private (``ephemeral=True``, a refusal) or goes through
the delivery pipeline (the publisher, the news desk, the outbox desk), whose own modules are not scanned.

"After" follows the code's order: the rest of the block and the blocks after it, each branch of an ``if`` on its
own, a loop's body twice, not past a ``return`` or ``raise``, never into a nested function or lambda (it runs
later, if at all).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PIPELINE = ("bot/publisher.py", "bot/news.py", "bot/outbox.py", "bot/replies.py")
"""The delivery pipeline: what it sends is the outbox's (or a drawing's) delivery, not a commit's telling."""
NOT_SCANNED = ("bot/storage/", "bot/service.py")
"""The store and the service make the commits; the service imports no discord (tests/test_architecture.py)."""
PIPELINE_OBJECTS = frozenset({"publisher", "outbox", "news"})
"""A message call on one of these (``bot.publisher.post_view``, ``bot.outbox.tell``) goes through the pipeline."""
MESSAGES = frozenset({"send", "send_message", "edit", "edit_message", "edit_original_response", "reply"})
"""Calls that post or edit a message (or send a direct one), on whatever they are called."""
REPLY_UPDATE = "update"
"""``Reply.update``: edits the message clicked (only on something named like a reply: ``dict.update`` isn't)."""


@dataclass
class Function:
    """A function or method of ``bot/`` or ``cogs/``."""

    path: str
    name: str
    cls: str | None
    node: ast.FunctionDef | ast.AsyncFunctionDef
    imports: dict[str, str]
    """Names imported into its module from project modules: local name → defined name."""
    bases: tuple[str, ...] = ()

    @property
    def where(self) -> str:
        """``path:Class.function``."""
        return f"{self.path}:{f'{self.cls}.' if self.cls else ''}{self.name}"


@dataclass(frozen=True)
class Told:
    """A message sent after a commit, outside the outbox."""

    where: str
    line: int
    call: str
    after: str


@dataclass
class Paths:
    """Every commit call site found, and every message told after a commit outside the outbox."""

    commits: dict[str, set[str]] = field(default_factory=dict)
    """Call site (``path:function``) → the commits it makes directly."""
    told: list[Told] = field(default_factory=list)


def chain(node: ast.expr) -> list[str]:
    """``self.bot.service.act`` → ``["self", "bot", "service", "act"]``; a call in the chain is ``name()``."""
    parts: list[str] = []
    while True:
        if isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        elif isinstance(node, ast.Call):
            inner = chain(node.func)
            parts.append(f"{inner[-1] if inner else '?'}()")
            node = node.func.value if isinstance(node.func, ast.Attribute) else ast.Constant(None)
            if not isinstance(node, ast.Attribute | ast.Name | ast.Call):
                break
        elif isinstance(node, ast.Name):
            parts.append(node.id)
            break
        else:
            break
    return list(reversed(parts))


def calls_in(node: ast.AST) -> Iterator[ast.Call]:
    """The calls ``node`` makes when it runs, inner ones first, not those of nested functions or lambdas."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            continue
        yield from calls_in(child)
    if isinstance(node, ast.Call):
        yield node


def functions(root: Path = ROOT) -> list[Function]:
    """Every function of the scanned modules of ``bot/`` and ``cogs/``."""
    found: list[Function] = []
    for path in sorted([*root.glob("bot/**/*.py"), *root.glob("cogs/**/*.py")]):
        relative = path.relative_to(root).as_posix()
        if relative.startswith(NOT_SCANNED) or relative in PIPELINE:
            continue
        found += module_functions(relative, ast.parse(path.read_text()))
    return found


def module_functions(path: str, tree: ast.Module) -> list[Function]:
    """The functions and methods of one module (nested ones too: a closure is scanned on its own)."""
    imports = {
        alias.asname or alias.name: alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(("bot", "cogs"))
        for alias in node.names
    }
    found: list[Function] = []

    def visit(node: ast.AST, cls: ast.ClassDef | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                visit(child, child)
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                bases = tuple(b.id for b in cls.bases if isinstance(b, ast.Name)) if cls else ()
                found.append(Function(path, child.name, cls.name if cls else None, child, imports, bases))
                visit(child, None)
            else:
                visit(child, cls)

    visit(tree, None)
    return found


class Scanner:
    """Commits and what follows them, over ``functions``, given the store's and the service's commit methods."""

    def __init__(self, fns: list[Function], store_commits: Iterable[str], service_commits: Iterable[str]) -> None:
        self.fns = fns
        self.store_commits = frozenset(store_commits)
        self.service_commits = frozenset(service_commits)
        self.by_name: dict[str, list[Function]] = {}
        for fn in fns:
            self.by_name.setdefault(fn.name, []).append(fn)
        self._calls = {id(fn): list(calls_in(fn.node)) for fn in fns}
        self._resolved: dict[int, list[Function]] = {}
        self.committers: set[int] = set()
        self.senders: set[int] = set()
        self._fixed_point()

    def resolve(self, fn: Function, call: ast.Call) -> list[Function]:
        """The project functions ``call`` (made in ``fn``) may run: a name defined or imported in its module, a
        method of its class or of a base class, or a method called on anything else whose name is defined once."""
        known = self._resolved.get(id(call))
        if known is None:
            known = self._resolved[id(call)] = self._resolve(fn, call)
        return known

    def _resolve(self, fn: Function, call: ast.Call) -> list[Function]:
        parts = chain(call.func)
        if not parts:
            return []
        name = parts[-1]
        candidates = self.by_name.get(fn.imports.get(name, name), [])
        if len(parts) == 1:
            return [c for c in candidates if c.cls is None and (c.path == fn.path or name in fn.imports)]
        if parts[0] in ("self", "cls") and len(parts) == 2:
            owners = {fn.cls, *fn.bases}
            return [c for c in candidates if c.cls in owners and (c.path == fn.path or c.cls in fn.bases)]
        return candidates if len(candidates) == 1 else []

    def commit(self, fn: Function, call: ast.Call) -> str | None:
        """What ``call`` commits, if it does (a store or Service commit, or a function that makes one)."""
        parts = chain(call.func)
        if len(parts) >= 2 and parts[-1] in self.store_commits and _is_store(parts[-2]):
            return f"store.{parts[-1]}"
        if len(parts) >= 2 and parts[-1] in self.service_commits and parts[-2] == "service":
            return f"service.{parts[-1]}"
        made = [c for c in self.resolve(fn, call) if id(c) in self.committers]
        return f"{made[0].where}()" if made else None

    def message(self, fn: Function, call: ast.Call) -> bool:
        """Whether ``call`` says something that isn't private, itself: not through the pipeline."""
        parts = chain(call.func)
        if not parts or PIPELINE_OBJECTS & set(parts[:-1]):
            return False
        name = parts[-1]
        private = any(k.arg == "ephemeral" and _true(k.value) for k in call.keywords)
        if name in MESSAGES or (name == REPLY_UPDATE and len(parts) >= 2 and parts[-2].endswith(("reply", "of()"))):
            return not private
        return any(id(c) in self.senders for c in self.resolve(fn, call))

    def _fixed_point(self) -> None:
        changed = True
        while changed:
            changed = False
            for fn in self.fns:
                calls = self._calls[id(fn)]
                if id(fn) not in self.committers and any(self.commit(fn, c) for c in calls):
                    self.committers.add(id(fn))
                    changed = True
                if id(fn) not in self.senders and any(self.message(fn, c) for c in calls):
                    self.senders.add(id(fn))
                    changed = True

    def paths(self) -> Paths:
        """Every commit call site, and what is told after a commit outside the outbox."""
        found = Paths()
        for fn in self.fns:
            for call in self._calls[id(fn)]:
                direct = self.commit(fn, call)
                if direct and not direct.endswith("()"):
                    found.commits.setdefault(fn.where, set()).add(direct)
            _Walk(self, fn, found).block(fn.node.body, None)
        return found


class _Walk:
    """One function's statements in order, carrying the commit that came before (if any)."""

    def __init__(self, scanner: Scanner, fn: Function, found: Paths) -> None:
        self.scanner = scanner
        self.fn = fn
        self.found = found

    def block(self, body: list[ast.stmt], after: str | None) -> tuple[str | None, bool]:
        """Walk ``body`` with ``after`` the commit made before it; returns the commit made by its end (if any), and
        whether it always ends the function (a ``return`` or ``raise``)."""
        for stmt in body:
            after, ended = self.statement(stmt, after)
            if ended:
                return after, True
        return after, False

    def statement(self, stmt: ast.stmt, after: str | None) -> tuple[str | None, bool]:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            return after, False
        if isinstance(stmt, ast.If):
            after = self.expression(stmt.test, after)
            return _either(self.block(stmt.body, after), self.block(stmt.orelse, after))
        if isinstance(stmt, ast.For | ast.AsyncFor | ast.While):
            after = self.expression(stmt.iter if not isinstance(stmt, ast.While) else stmt.test, after)
            once, _ = self.block(stmt.body, after)
            twice, _ = self.block(stmt.body, once)  # what one pass commits comes before the next pass
            return _either((twice, False), self.block(stmt.orelse, twice))
        if isinstance(stmt, ast.With | ast.AsyncWith):
            for item in stmt.items:
                after = self.expression(item.context_expr, after)
            return self.block(stmt.body, after)
        if isinstance(stmt, ast.Try | ast.TryStar):
            tried, ended = self.block(stmt.body, after)
            outcomes = [(tried, ended)] + [self.block(h.body, tried or after) for h in stmt.handlers]
            if stmt.orelse and not ended:
                outcomes[0] = self.block(stmt.orelse, tried)
            merged = _either(*outcomes)
            if stmt.finalbody:
                final, final_ended = self.block(stmt.finalbody, merged[0])
                return final, merged[1] or final_ended
            return merged
        if isinstance(stmt, ast.Match):
            after = self.expression(stmt.subject, after)
            return _either(*(self.block(case.body, after) for case in stmt.cases))
        after = self.expression(stmt, after)
        return after, isinstance(stmt, ast.Return | ast.Raise)

    def expression(self, node: ast.AST, after: str | None) -> str | None:
        for call in calls_in(node):
            if after is not None and self.scanner.message(self.fn, call):
                text = ".".join(chain(call.func))
                self.found.told.append(Told(self.fn.where, call.lineno, text, after))
            after = self.scanner.commit(self.fn, call) or after
        return after


def _either(*outcomes: tuple[str | None, bool]) -> tuple[str | None, bool]:
    """Branches joined: what any branch that goes on committed, and whether every branch ended."""
    going_on = [commit for commit, ended in outcomes if not ended]
    return next((c for c in going_on if c is not None), None), not going_on


def _is_store(receiver: str) -> bool:
    return receiver.endswith("store") or receiver in ("store_of()", "store()")


def _true(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is True


SERVICE_PARTS = ("bot/service.py", "bot/commit.py", "bot/lifecycle.py", "bot/undo.py")
"""The Service and the collaborators it commits through."""


def service_commits(root: Path = ROOT, store_commits: Iterable[str] = ()) -> set[str]:
    """The Service's public methods that commit: they reach a store commit through its own methods and those of
    its collaborators (the committer, the lifecycle, undo), including the collaborators' methods it offers as its
    own (``self.create = self.sessions.create``)."""
    methods: dict[str, list[ast.AST]] = {}
    service: set[str] = set()
    aliases: dict[str, str] = {}
    for part in SERVICE_PARTS:
        tree = ast.parse((root / part).read_text())
        for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
            for fn in (n for n in cls.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)):
                methods.setdefault(fn.name, []).append(fn)
                if cls.name == "Service":
                    service.add(fn.name)
                    aliases |= _aliases(fn) if fn.name == "__init__" else {}
    wanted = frozenset(store_commits)

    def reaches(node: ast.AST) -> set[str]:
        """The store commits ``node`` makes, and the methods of the service's parts it calls (nested closures
        included: the change functions are passed on to the committer)."""
        found = set()
        for call in (n for n in ast.walk(node) if isinstance(n, ast.Call)):
            parts = chain(call.func)
            if len(parts) >= 2 and parts[-2] == "store" and parts[-1] in wanted:
                found.add("store")
            elif len(parts) >= 2 and parts[0] in ("self", "committer") and parts[-1] in methods:
                found.add(parts[-1])
        return found

    graph = {name: set().union(*(reaches(node) for node in nodes)) for name, nodes in methods.items()}
    committing = {"store"}
    changed = True
    while changed:
        changed = False
        for name, calls in graph.items():
            if name not in committing and calls & committing:
                committing.add(name)
                changed = True
    own = {name for name in committing if name in service and not name.startswith("_")}
    return own | {alias for alias, target in aliases.items() if target in committing}


def _aliases(init: ast.AST) -> dict[str, str]:
    """``self.name = self.part.method`` in the Service's ``__init__``: name → method."""
    found = {}
    for node in (n for n in ast.walk(init) if isinstance(n, ast.Assign) and len(n.targets) == 1):
        target, value = chain(node.targets[0]), chain(node.value)
        if len(target) == 2 and target[0] == "self" and len(value) == 3 and value[0] == "self":
            found[target[1]] = value[2]
    return found
