"""tools/architecture.py on small throwaway packages, with the exact report expected."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from tools.architecture import (
    Alias,
    ClassSize,
    PrivateImport,
    Report,
    find_cycles,
    main,
    render,
    scan,
)


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


CYCLES = {
    "pkg/__init__.py": "",
    # a -> b only inside a function: still an import.
    "pkg/a.py": """
        def late():
            import pkg.b

            return pkg.b
        """,
    "pkg/b.py": "import pkg.a\n",
    # c -> d at the top, d -> c only for the type checker (both spellings): no cycle.
    "pkg/c.py": "from pkg import d\n",
    "pkg/d.py": """
        import typing
        from typing import TYPE_CHECKING

        if TYPE_CHECKING:
            from pkg import c
        if typing.TYPE_CHECKING:
            import pkg.c
        else:
            import pkg.e
        """,
    # e -> d -> e through the else branch of `if typing.TYPE_CHECKING:`.
    "pkg/e.py": "from . import d\n",
    # A module importing itself is no cycle.
    "pkg/g.py": "import pkg.g\nfrom . import g\n",
    # `from pkg.sub import inner`: the module pkg.sub.inner (not pkg.sub);
    # `from pkg.sub import VALUE`: pkg.sub itself.
    "pkg/sub/__init__.py": "from .. import f\nfrom ..h import anything\nVALUE = 1\n",
    "pkg/sub/inner.py": "from .. import h\n",
    "pkg/f.py": "from pkg.sub import VALUE\n",
    "pkg/h.py": "from pkg.sub import inner\n",
}


def test_cycles_count_function_imports_and_skip_type_checking(tmp_path: Path) -> None:
    report = scan(write(tmp_path, CYCLES), ["pkg"])
    assert report.cycles == (
        ("pkg.a", "pkg.b"),
        ("pkg.d", "pkg.e"),
        ("pkg.f", "pkg.sub"),
        ("pkg.h", "pkg.sub.inner"),
    )
    assert report.modules_in_cycles == 8


def test_cycles_across_packages_and_only_the_packages_asked(tmp_path: Path) -> None:
    write(tmp_path, {
        "one/__init__.py": "from two import mod\n",
        "two/__init__.py": "",
        "two/mod.py": "import one\n",
        "three/__init__.py": "import one\n",
    })
    assert scan(tmp_path, ["one", "two"]).cycles == (("one", "two.mod"),)
    assert scan(tmp_path, ["one"]).cycles == ()


def test_tarjan_is_not_recursive() -> None:
    ring = {f"m{i:05}": {f"m{(i + 1) % 20000:05}"} for i in range(20000)}
    assert find_cycles(ring) == (tuple(sorted(ring)),)
    chain = {f"m{i:05}": {f"m{i + 1:05}"} for i in range(20000)}
    assert find_cycles(chain) == ()


PRIVATE = {
    "pkg/__init__.py": "from . import _own\n",
    "pkg/_own.py": "",
    "pkg/seats.py": """
        _helper = 1
        _RATE = 2
        __version__ = "1"
        def _inner(): ...
        """,
    "pkg/user.py": """
        import pkg.seats
        import pkg.seats as places
        from pkg import _own, seats
        from pkg.seats import _RATE, __version__, _inner

        def go(obj):
            from . import seats as local

            obj._private = seats._helper
            return local._inner(), places._RATE, pkg.seats._helper, seats.__version__
        """,
    # Its own private names, and a stdlib module's, are not counted.
    "pkg/self_use.py": """
        import os
        import pkg.self_use
        from pkg.self_use import _mine

        _mine = os._exit
        pkg.self_use._mine
        """,
    "pkg/checking.py": """
        from typing import TYPE_CHECKING

        if TYPE_CHECKING:
            from pkg.seats import _helper
            from pkg import seats
        import pkg._own
        """,
}


def test_private_imports(tmp_path: Path) -> None:
    report = scan(write(tmp_path, PRIVATE), ["pkg"])
    assert report.private_imports == (
        PrivateImport("pkg.checking", 7, "pkg", "_own"),
        PrivateImport("pkg.user", 4, "pkg", "_own"),
        PrivateImport("pkg.user", 5, "pkg.seats", "_RATE"),
        PrivateImport("pkg.user", 5, "pkg.seats", "_inner"),
        PrivateImport("pkg.user", 10, "pkg.seats", "_helper"),
        PrivateImport("pkg.user", 11, "pkg.seats", "_RATE"),
        PrivateImport("pkg.user", 11, "pkg.seats", "_helper"),
        PrivateImport("pkg.user", 11, "pkg.seats", "_inner"),
    )


ALIASES = {
    "pkg/__init__.py": "from . import core as core\n",
    "pkg/core.py": "VALUE = 1\n",
    "pkg/sub/__init__.py": "",
    "pkg/sub/deep.py": """
        import os.path as osp
        import pkg.core as kernel
        import pkg as pkg
        from .. import core as centre
        from ..core import VALUE as value, VALUE as VALUE
        from pkg.sub import deep as me
        from collections import OrderedDict as Ordered

        def later():
            import pkg.core as inside
        """,
}


def test_aliases(tmp_path: Path) -> None:
    report = scan(write(tmp_path, ALIASES), ["pkg"])
    assert report.aliases == (
        Alias("pkg.sub.deep", 3, "import pkg.core as kernel"),
        Alias("pkg.sub.deep", 5, "from .. import core as centre"),
        Alias("pkg.sub.deep", 6, "from ..core import VALUE as value"),
        Alias("pkg.sub.deep", 7, "from pkg.sub import deep as me"),
        Alias("pkg.sub.deep", 11, "import pkg.core as inside"),
    )


CLASSES = {
    "pkg/__init__.py": "from .tools import helper as helper\n",
    "pkg/tools.py": """
        LIMIT = 3

        def helper(x): ...

        async def run(x): ...

        class Thing: ...
        """,
    "pkg/big.py": """
        import collections
        import os.path

        import pkg
        from pkg import tools
        from pkg.tools import run

        def local(x): ...

        class Big:
            size: int
            label = "x"
            first, second = 1, 2
            join = tools.helper
            also = pkg.helper
            start = run
            base = os.path.join
            Ordered = collections.OrderedDict
            Kind = tools.Thing
            limit = tools.LIMIT
            mine = local

            def __init__(self):
                self.a = 1
                self.b, (self.c, *self.g) = 2, (3, 4)
                self.size = 4
                other = object()
                other.not_mine = 5

            async def grow(me):
                me.d: int = 5
                me.a += 1

                def inner():
                    me.e = 6

            @staticmethod
            def make(x):
                x.z = 1

            @classmethod
            def build(cls):
                cls.h = 1

            @property
            def p(self):
                return self.a

            @p.setter
            def p(self, v):
                self.f = v

            class Nested:
                def __init__(self):
                    self.n = 1
        """,
    "pkg/small.py": """
        class Two:
            def a(self): ...
            def b(self): ...

        class AlsoTwo:
            x = 1
            def a(self): ...

        class One:
            def a(self): ...

        class Zero: ...

        def factory():
            class Made:
                def __init__(self):
                    self.a = self.b = 1
            return Made
        """,
}


def test_largest_classes(tmp_path: Path) -> None:
    report = scan(write(tmp_path, CLASSES), ["pkg"])
    assert report.largest_classes == (
        # attributes: size label first second Ordered Kind limit mine a b c g d e h f;
        # methods: join also start base __init__ grow make build p.
        ClassSize("pkg.big", "Big", 16, 9, 25),
        ClassSize("pkg.small", "factory.Made", 2, 1, 3),
        ClassSize("pkg.big", "Big.Nested", 1, 1, 2),
        ClassSize("pkg.small", "AlsoTwo", 1, 1, 2),
        ClassSize("pkg.small", "Two", 0, 2, 2),
    )


def test_report_is_deterministic_and_renders(tmp_path: Path) -> None:
    write(tmp_path, CYCLES)
    write(tmp_path, {f"other/{k[4:]}": v.replace("pkg", "other") for k, v in PRIVATE.items()})
    first = scan(tmp_path, ["pkg", "other"])
    assert scan(tmp_path, ["other", "pkg", "pkg"]) == first
    text = render(first)
    assert text.startswith("cycles: 4 (8 modules)\n  pkg.a, pkg.b\n")
    assert "private imports: 8\n  other.checking:7 other _own\n" in text


def run_main(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().out


def test_main_json_and_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path, {"bot/__init__.py": "", "cogs/__init__.py": "", **ALIASES})
    root = ["--root", str(tmp_path)]
    assert run_main([*root, "--check"], capsys) == (0, render(Report((), (), (), ())) + "\n")
    code, out = run_main([*root, "--package", "pkg", "--json", "--check"], capsys)
    assert code == 1
    data = json.loads(out)
    assert data["cycles"] == [] and data["modules_in_cycles"] == 0
    assert data["aliases"][0] == {
        "module": "pkg.sub.deep", "line": 3, "text": "import pkg.core as kernel"
    }
    assert data["largest_classes"] == []
    assert run_main([*root, "--package", "pkg"], capsys)[0] == 0


def test_main_rejects_a_missing_package(tmp_path: Path) -> None:
    write(tmp_path, {"bot/__init__.py": "", "cogs/__init__.py": ""})
    with pytest.raises(SystemExit) as exit_:
        main(["--root", str(tmp_path), "--package", "nowhere"])
    assert exit_.value.code == 2
