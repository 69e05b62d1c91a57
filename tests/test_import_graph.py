"""The shape of the code, read from the source: imports point one way.

* no circle among the modules of ``powergrid``, ``games``, ``accounts`` and ``config``;
* ``accounts`` imports nothing of ``games`` (games know accounts, not the other way round);
* ``powergrid`` (the rules engine) imports nothing of Django or of the server;
* no import of the project's own code inside a function (the usual way to hide a circle), except
  in an ``AppConfig.ready``, Django's place to connect signal receivers.

An edge is the module an import names (``from games import describe`` -> ``games.describe``,
``from games.models import Game`` -> ``games.models``); importing a package's ``__init__`` is
an edge to the package itself.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("powergrid", "games", "accounts", "config", "tournaments")


def _modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for pkg in PACKAGES:
        for path in (ROOT / pkg).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


MODULES = _modules()


def _resolve(module: str, level: int, name: str | None, here: str, is_pkg: bool) -> str:
    if level:
        base = here.split(".")
        base = base if is_pkg else base[:-1]
        base = base[: len(base) - (level - 1)]
        module = ".".join(base + ([module] if module else []))
    if name and f"{module}.{name}" in MODULES:
        return f"{module}.{name}"
    return module


def _imports(name: str, path: Path) -> Iterator[tuple[str, ast.AST, bool]]:
    """(imported module, node, at module level) for every import in a module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_pkg = path.name == "__init__.py"
    in_function: set[ast.AST] = set()
    type_checking: set[ast.AST] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            in_function.update(n for n in ast.walk(node) if n is not node)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            type_checking.update(ast.walk(node))
    for node in ast.walk(tree):
        if node in type_checking:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node, node not in in_function
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                target = _resolve(node.module or "", node.level, alias.name, name, is_pkg)
                yield target, node, node not in in_function


def _ready_methods() -> set[ast.AST]:
    """Nodes inside ``def ready`` of an AppConfig (apps.py)."""
    out: set[ast.AST] = set()
    for name, path in MODULES.items():
        if not name.endswith(".apps"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name == "ready":
                out.update(ast.unparse(n) for n in ast.walk(node))  # type: ignore[misc]
    return out


def _internal(target: str) -> str | None:
    while target and target not in MODULES:
        target = target.rpartition(".")[0]
    return target or None


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for name, path in MODULES.items():
        for target, _node, _top in _imports(name, path):
            dep = _internal(target) if target.split(".")[0] in PACKAGES else None
            if dep is not None and dep != name:
                graph[name].add(dep)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_module_imports_itself_through_others():
    assert _cycles(_graph()) == []


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_accounts_import_nothing_of_games():
    wrong = [
        (name, target)
        for name, path in MODULES.items()
        if name.startswith("accounts")
        for target, _n, _t in _imports(name, path)
        if target == "games" or target.startswith("games.")
    ]
    assert wrong == []


def test_the_engine_imports_nothing_of_django_or_the_server():
    server = ("django", "rest_framework", "celery", "games", "accounts", "config")
    wrong = [
        (name, target)
        for name, path in MODULES.items()
        if name.startswith("powergrid")
        for target, _n, _t in _imports(name, path)
        if target.split(".")[0] in server
    ]
    assert wrong == []


def test_no_import_of_the_project_hides_inside_a_function():
    ready = _ready_methods()
    wrong = [
        f"{name}: {ast.unparse(node)}"
        for name, path in MODULES.items()
        for target, node, top in _imports(name, path)
        if not top and target.split(".")[0] in PACKAGES and ast.unparse(node) not in ready
    ]
    assert wrong == []


def test_games_and_accounts_import_nothing_of_tournaments():
    """Tournaments build on games; games learn of them only through the ``game_finished``
    signal (``games.signals``) the tournaments app listens to."""
    wrong = [
        (name, target)
        for name, path in MODULES.items()
        if name.split(".")[0] in ("games", "accounts", "powergrid")
        for target, _n, _t in _imports(name, path)
        if target.split(".")[0] == "tournaments"
    ]
    assert wrong == []


def test_seating_and_scoring_are_pure():
    """The seating, the scoring and the ladder import nothing of Django or the server."""
    server = ("django", "rest_framework", "celery", "games", "accounts", "config", "tournaments")
    wrong = [
        (name, target)
        for name, path in MODULES.items()
        if name in ("tournaments.seating", "tournaments.scoring", "tournaments.ladder")
        for target, _n, _t in _imports(name, path)
        if target.split(".")[0] in server
    ]
    assert wrong == []
