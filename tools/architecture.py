"""The shipped packages' architecture, read from their imports (with ast, standard library only).

Run from anywhere, with the repository's Python:

    .venv/bin/python tools/architecture.py [--package NAME]... [--json] [--check]

It scans every ``*.py`` under ``bot/``, ``cogs/`` and each ``--package NAME`` (directories
of the repository root, the parent of ``tools/``) and builds the graph of imports between
those modules (``bot/runtime/table.py`` is ``bot.runtime.table``; a package's
``__init__.py`` is the package). Relative imports are resolved; ``from pkg import name``
imports ``pkg.name`` when ``pkg/name.py`` or ``pkg/name/`` exists, else ``pkg``. Imports
inside functions count; imports under ``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``)
do not, for any of the reports. It reports:

cycles
    the strongly connected components of more than one module (a module importing
    itself is ignored), and how many modules they hold;
private imports
    ``from X import _name`` (a private module too) and ``import X._name``, where X is one
    of our modules other than the importer, and ``alias._name`` where ``alias`` is bound
    by an import to one of our modules (names are not followed through scopes: a local
    variable reusing an import's name is taken for the import);
largest classes
    the top 5 by distinct attributes (``self.x = ...`` in the class's methods, class-level
    assigned or annotated names) plus methods (defined in the class body, or a class-level
    ``name = module.function`` borrowed from another module: a ``def`` there when the
    module is ours, a name starting with a lower-case letter when it is not);
aliases
    ``import a.b as c`` and ``from a import b as c`` of our modules (``as`` the same
    name, the re-export form, is not an alias).

``--check`` exits 1 when there is a cycle, a private import or an alias. Everything is
sorted, so two runs on the same tree print the same report.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_PACKAGES = ("bot", "cogs")
TOP_CLASSES = 5

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef


class PrivateImport(NamedTuple):
    module: str
    line: int
    imported: str
    name: str


class ClassSize(NamedTuple):
    module: str
    cls: str
    attributes: int
    methods: int
    total: int


class Alias(NamedTuple):
    module: str
    line: int
    text: str


@dataclass(frozen=True)
class Report:
    cycles: tuple[tuple[str, ...], ...]
    private_imports: tuple[PrivateImport, ...]
    largest_classes: tuple[ClassSize, ...]
    aliases: tuple[Alias, ...]

    @property
    def modules_in_cycles(self) -> int:
        return sum(len(cycle) for cycle in self.cycles)

    @property
    def has_problems(self) -> bool:
        return bool(self.cycles or self.private_imports or self.aliases)

    def as_dict(self) -> dict[str, Any]:
        return {
            "cycles": [list(cycle) for cycle in self.cycles],
            "modules_in_cycles": self.modules_in_cycles,
            "private_imports": [row._asdict() for row in self.private_imports],
            "largest_classes": [
                {"module": row.module, "class": row.cls, "attributes": row.attributes,
                 "methods": row.methods, "total": row.total}
                for row in self.largest_classes
            ],
            "aliases": [row._asdict() for row in self.aliases],
        }


@dataclass(frozen=True)
class Module:
    """One parsed module and the names its (run-time) imports bind, to dotted paths."""

    name: str
    is_package: bool
    tree: ast.Module
    bindings: dict[str, str]


@dataclass(frozen=True)
class Index:
    modules: dict[str, Module]
    known: frozenset[str]  # our modules and package directories

    def resolve(self, dotted: str) -> str | None:
        """The longest prefix of ``dotted`` that is one of ours, or None."""
        parts = dotted.split(".")
        for end in range(len(parts), 0, -1):
            if (prefix := ".".join(parts[:end])) in self.known:
                return prefix
        return None


# ---------------------------------------------------------------- reading the packages


def scan(root: Path, packages: Sequence[str]) -> Report:
    """The report on ``packages`` (directories of ``root``)."""
    index = build_index(root, packages)
    return Report(
        cycles=find_cycles(import_graph(index)),
        private_imports=tuple(sorted(private_imports(index))),
        largest_classes=largest_classes(index),
        aliases=tuple(sorted(aliases(index))),
    )


def build_index(root: Path, packages: Sequence[str]) -> Index:
    paths: dict[str, Path] = {}
    dirs: set[str] = set()
    for package in dict.fromkeys(packages):
        top = root / package
        if not top.is_dir():
            raise FileNotFoundError(f"no package directory {top}")
        found = [path for path in [top, *top.rglob("*")] if not skipped(root, path)]
        dirs.update(dir_name(root, path) for path in found if path.is_dir())
        paths.update((module_name(root, p), p) for p in found if p.suffix == ".py" and p.is_file())
    known = frozenset(dirs | paths.keys())
    return Index({name: parse(name, path) for name, path in paths.items()}, known)


def skipped(root: Path, path: Path) -> bool:
    """Hidden files and directories, and ``__pycache__``."""
    return any(p.startswith(".") or p == "__pycache__" for p in path.relative_to(root).parts)


def dir_name(root: Path, path: Path) -> str:
    return ".".join(path.relative_to(root).parts)


def module_name(root: Path, path: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def parse(name: str, path: Path) -> Module:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    module = Module(name, path.name == "__init__.py", tree, {})
    return replace(module, bindings=dict(bindings(module)))


def runtime_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node of ``tree`` except the bodies of ``if TYPE_CHECKING:``."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(runtime_children(node))


def runtime_children(node: ast.AST) -> list[ast.AST]:
    """``node``'s children; of ``if TYPE_CHECKING:``, only the test and the ``else``."""
    if isinstance(node, ast.If) and is_type_checking(node.test):
        return [node.test, *node.orelse]
    return list(ast.iter_child_nodes(node))


def is_type_checking(test: ast.expr) -> bool:
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return (
        isinstance(test, ast.Attribute)
        and test.attr == "TYPE_CHECKING"
        and isinstance(test.value, ast.Name)
        and test.value.id == "typing"
    )


def imports(module: Module) -> Iterator[ast.Import | ast.ImportFrom]:
    for node in runtime_nodes(module.tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node


def from_base(module: Module, node: ast.ImportFrom) -> str | None:
    """The absolute name of ``from X import ...``'s X (None above the top package)."""
    if not node.level:
        return node.module
    package = module.name.split(".") if module.is_package else module.name.split(".")[:-1]
    if node.level - 1 >= len(package):
        return None
    base = package[: len(package) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def bindings(module: Module) -> Iterator[tuple[str, str]]:
    """``(name, dotted path)`` of every name an import binds (ours or not)."""
    for node in imports(module):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.partition(".")[0]
                yield (alias.asname, alias.name) if alias.asname else (top, top)
        elif (base := from_base(module, node)) is not None:
            for alias in node.names:
                if alias.name != "*":
                    yield alias.asname or alias.name, f"{base}.{alias.name}"


def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


# ---------------------------------------------------------------- cycles


def import_graph(index: Index) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {name: set() for name in index.modules}
    for module in index.modules.values():
        for node in imports(module):
            graph[module.name].update(imported_modules(index, module, node))
        graph[module.name].discard(module.name)
    return graph


def imported_modules(index: Index, module: Module, node: ast.Import | ast.ImportFrom) -> set[str]:
    if isinstance(node, ast.Import):
        names = {index.resolve(alias.name) for alias in node.names}
    elif (base := from_base(module, node)) is None:
        return set()
    else:
        names = {from_target(index, base, alias.name) for alias in node.names}
    return {name for name in names if name is not None}


def from_target(index: Index, base: str, name: str) -> str | None:
    """What ``from base import name`` imports: ``base.name`` if it is one of ours."""
    return f"{base}.{name}" if f"{base}.{name}" in index.known else index.resolve(base)


def find_cycles(graph: dict[str, set[str]]) -> tuple[tuple[str, ...], ...]:
    components = Tarjan(graph).run()
    return tuple(sorted(tuple(sorted(c)) for c in components if len(c) > 1))


class Tarjan:
    """Tarjan's strongly connected components, iterative (no recursion limit)."""

    def __init__(self, graph: dict[str, set[str]]) -> None:
        self.graph = graph
        self.index: dict[str, int] = {}
        self.low: dict[str, int] = {}
        self.stack: list[str] = []
        self.on_stack: set[str] = set()
        self.components: list[list[str]] = []

    def run(self) -> list[list[str]]:
        for node in sorted(self.graph):
            if node not in self.index:
                self.visit(node)
        return self.components

    def enter(self, node: str) -> Iterator[str]:
        self.index[node] = self.low[node] = len(self.index)
        self.stack.append(node)
        self.on_stack.add(node)
        return iter(sorted(self.graph.get(node, ())))

    def visit(self, root: str) -> None:
        work = [(root, self.enter(root))]
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                self.close(node, work[-1][0] if work else None)
            elif child not in self.index:
                work.append((child, self.enter(child)))
            elif child in self.on_stack:
                self.low[node] = min(self.low[node], self.index[child])

    def close(self, node: str, parent: str | None) -> None:
        if parent is not None:
            self.low[parent] = min(self.low[parent], self.low[node])
        if self.low[node] != self.index[node]:
            return
        component: list[str] = []
        while not component or component[-1] != node:
            component.append(self.stack.pop())
            self.on_stack.discard(component[-1])
        self.components.append(component)


# ---------------------------------------------------------------- private imports


def private_imports(index: Index) -> Iterator[PrivateImport]:
    for module in index.modules.values():
        for node in imports(module):
            yield from private_names(index, module, node)
        yield from private_attributes(index, module)


def private_names(
    index: Index, module: Module, node: ast.Import | ast.ImportFrom
) -> Iterator[PrivateImport]:
    """``from X import _name`` and ``import X._name.y`` of another module of ours."""
    if isinstance(node, ast.ImportFrom):
        base = from_base(module, node)
        pairs = [(base, alias.name) for alias in node.names] if base else []
    else:
        pairs = [first_private(alias.name) for alias in node.names]
    for imported, name in pairs:
        if imported in index.known and imported != module.name and is_private(name):
            yield PrivateImport(module.name, node.lineno, imported, name)


def first_private(dotted_name: str) -> tuple[str, str]:
    """``("a.b", "_c")`` for ``a.b._c.d``; ``("", "")`` when no part after the first is."""
    parts = dotted_name.split(".")
    for at in range(1, len(parts)):
        if is_private(parts[at]):
            return ".".join(parts[:at]), parts[at]
    return "", ""


def private_attributes(index: Index, module: Module) -> Iterator[PrivateImport]:
    """``alias._name`` where ``alias`` (or ``alias.sub``) is another module of ours."""
    for node in runtime_nodes(module.tree):
        if isinstance(node, ast.Attribute) and is_private(node.attr):
            owner = expression_path(node.value, module.bindings)
            if owner in index.known and owner != module.name:
                yield PrivateImport(module.name, node.lineno, owner, node.attr)


def expression_path(node: ast.expr, names: dict[str, str]) -> str | None:
    """The dotted path of ``name.attr.attr`` whose ``name`` an import bound, else None."""
    if isinstance(node, ast.Name):
        return names.get(node.id)
    if isinstance(node, ast.Attribute):
        base = expression_path(node.value, names)
        return f"{base}.{node.attr}" if base else None
    return None


# ---------------------------------------------------------------- largest classes


def largest_classes(index: Index) -> tuple[ClassSize, ...]:
    sizes = [
        class_size(index, module, qualname, node)
        for module in index.modules.values()
        for qualname, node in classes(module.tree)
    ]
    sizes.sort(key=lambda size: (-size.total, size.module, size.cls))
    return tuple(sizes[:TOP_CLASSES])


def classes(tree: ast.Module) -> Iterator[tuple[str, ast.ClassDef]]:
    """Every run-time class of ``tree`` with its qualified name (``Outer.Inner``)."""
    stack: list[tuple[str, ast.AST]] = [("", tree)]
    while stack:
        prefix, node = stack.pop()
        if isinstance(node, ast.ClassDef):
            yield prefix + node.name, node
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            prefix = f"{prefix}{node.name}."
        stack.extend((prefix, child) for child in runtime_children(node))


def class_size(index: Index, module: Module, qualname: str, node: ast.ClassDef) -> ClassSize:
    methods = {stmt.name for stmt in node.body if isinstance(stmt, FunctionNode)}
    attributes: set[str] = set()
    for stmt in node.body:
        names, value = class_level_names(stmt)
        borrowed = value is not None and is_borrowed_function(index, module, value)
        (methods if borrowed else attributes).update(names)
    for stmt in node.body:
        if isinstance(stmt, FunctionNode):
            attributes.update(instance_attributes(stmt))
    total = len(attributes) + len(methods)
    return ClassSize(module.name, qualname, len(attributes), len(methods), total)


def class_level_names(stmt: ast.stmt) -> tuple[set[str], ast.expr | None]:
    """The names a class-level assignment binds, and the value assigned."""
    if isinstance(stmt, ast.Assign):
        return {n for target in stmt.targets for n in target_names(target)}, stmt.value
    if isinstance(stmt, ast.AnnAssign | ast.AugAssign):
        return set(target_names(stmt.target)), stmt.value
    return set(), None


def target_names(target: ast.expr) -> Iterator[str]:
    if isinstance(target, ast.Name):
        yield target.id
    elif isinstance(target, ast.Tuple | ast.List):
        for element in target.elts:
            yield from target_names(element)
    elif isinstance(target, ast.Starred):
        yield from target_names(target.value)


def instance_attributes(method: FunctionNode) -> set[str]:
    """The ``x`` of every ``self.x = ...`` (``self``: the method's first parameter)."""
    params = [*method.args.posonlyargs, *method.args.args]
    if not params or any(is_name(d, "staticmethod") for d in method.decorator_list):
        return set()
    me = params[0].arg
    return {
        target.attr
        for node in ast.walk(method)
        for target in assigned(node)
        if isinstance(target, ast.Attribute) and is_name(target.value, me)
    }


def assigned(node: ast.AST) -> Iterable[ast.expr]:
    """The targets ``node`` assigns to (tuples flattened)."""
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, ast.AnnAssign | ast.AugAssign):
        targets = [node.target]
    else:
        return []
    return [leaf for target in targets for leaf in flatten(target)]


def flatten(target: ast.expr) -> Iterator[ast.expr]:
    if isinstance(target, ast.Tuple | ast.List):
        for element in target.elts:
            yield from flatten(element)
    elif isinstance(target, ast.Starred):
        yield from flatten(target.value)
    else:
        yield target


def is_name(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def is_borrowed_function(index: Index, module: Module, value: ast.expr) -> bool:
    """Is ``value`` (``name`` or ``module.name``) a function imported from another module?"""
    path = expression_path(value, module.bindings)
    return path is not None and is_function(index, path, depth=0)


def is_function(index: Index, path: str, depth: int) -> bool:
    """Does ``path`` name a function: a ``def`` of one of our modules (re-exports followed)
    or, outside them (or an attribute of a class), a name starting with a lower-case letter?"""
    if path in index.known:
        return False
    owner = index.resolve(path)
    rest = path[len(owner) + 1 :] if owner else path
    if owner not in index.modules or "." in rest or depth > 10:
        return looks_like_function(rest.rpartition(".")[2])
    module = index.modules[owner]
    if any(isinstance(s, FunctionNode) and s.name == rest for s in module.tree.body):
        return True
    again = module.bindings.get(rest)
    return again is not None and is_function(index, again, depth + 1)


def looks_like_function(name: str) -> bool:
    return name.lstrip("_")[:1].islower()


# ---------------------------------------------------------------- aliases


def aliases(index: Index) -> Iterator[Alias]:
    for module in index.modules.values():
        for node in imports(module):
            for alias in node.names:
                if alias.asname and alias.asname != alias.name:
                    yield from alias_row(index, module, node, alias)


def alias_row(
    index: Index, module: Module, node: ast.Import | ast.ImportFrom, alias: ast.alias
) -> Iterator[Alias]:
    if isinstance(node, ast.Import):
        imported: str | None = alias.name
        text = f"import {alias.name} as {alias.asname}"
    else:
        imported = from_base(module, node)
        text = f"from {'.' * node.level}{node.module or ''} import {alias.name} as {alias.asname}"
    if imported is not None and index.resolve(imported) is not None:
        yield Alias(module.name, node.lineno, text)


# ---------------------------------------------------------------- output


def render(report: Report) -> str:
    lines = [f"cycles: {len(report.cycles)} ({report.modules_in_cycles} modules)"]
    lines += [f"  {', '.join(cycle)}" for cycle in report.cycles]
    lines.append(f"private imports: {len(report.private_imports)}")
    lines += [f"  {p.module}:{p.line} {p.imported} {p.name}" for p in report.private_imports]
    lines.append(f"largest classes (top {TOP_CLASSES}):")
    lines += [
        f"  {c.module}.{c.cls}: {c.attributes} attributes + {c.methods} methods = {c.total}"
        for c in report.largest_classes
    ]
    lines.append(f"aliases: {len(report.aliases)}")
    lines += [f"  {a.module}:{a.line} {a.text}" for a in report.aliases]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--package", action="append", default=[], metavar="NAME",
                        help="another top-level package directory to scan (repeatable)")
    parser.add_argument("--json", action="store_true", help="print a JSON object")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 on a cycle, a private import or an alias")
    parser.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    try:
        report = scan(args.root, [*DEFAULT_PACKAGES, *args.package])
    except FileNotFoundError as error:
        parser.error(str(error))
    print(json.dumps(report.as_dict(), indent=2) if args.json else render(report))
    return 1 if args.check and report.has_problems else 0


if __name__ == "__main__":
    sys.exit(main())
