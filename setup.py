"""Build steps the declarative pyproject.toml cannot say.

1. The lessons and notebooks, which live at the top of the repository for teachers, go into
   the wheel as package data (``tutor/shipped``), so a regular ``pip install .`` (Binder) finds
   them from any working directory.
2. The engine is compiled with mypyc when it can be: mypyc (a build requirement, part of mypy)
   turns the engine's typed modules into C extensions, one per module beside its source, plus
   one shared library, ``leonard_engine__mypyc``, at the top level. Nothing is compiled when
   ``LEONARD_PURE`` is set or no C compiler is found, and a compile that fails leaves the pure
   modules with a warning instead of failing the install. The sources are installed either way
   (``engine._build`` chooses between the two builds at run time).
3. The page template (``share/jupyter/voila/templates/leonard``: Voila's lab page without its
   links to a CDN) goes where Voila looks for templates, ``{sys.prefix}/share/jupyter``, as
   data files (an editable install copies them there too).

   Where the compiled files land: a regular install (``pip install .``, a wheel) puts them in
   site-packages beside the sources; an editable install (``pip install -e .``) builds them in
   place, in the checkout (``engine/*.so``, ``engine/variants/*.so``, ``leonard_engine__mypyc*.so``;
   git ignores them), where setuptools' editable finder maps ``engine`` and the shared library.
"""

from __future__ import annotations

import importlib.machinery
import os
import runpy
import shlex
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution
from setuptools.errors import CCompilerError, CompileError, ExecError, LinkError, PlatformError

ROOT = Path(__file__).resolve().parent
SHIPPED = {"lessons": "*.json", "notebooks": "*.ipynb"}
TEMPLATE = "share/jupyter/voila/templates/leonard"
"""The page template, installed as data files under the same path in the environment."""

# The one list of what is compiled, and the LEONARD_PURE switch, are the engine's own.
BUILD = runpy.run_path(str(ROOT / "engine" / "_build.py"))
SHARED_LIB = "leonard_engine"
"""mypyc's group name: its shared library is the top-level module ``leonard_engine__mypyc``
(top level, so that mypyc derives each compiled module's ``__file__`` correctly)."""
BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "bdist_egg", "bdist", "develop",
          "install"}
"""The setup.py commands that build (pip runs setup.py three times: for the build
requirements, the metadata and the build itself; only the build compiles)."""


def say(message: str) -> None:
    print(f"leonard-domino-tutor: {message}", file=sys.stderr, flush=True)


def why_not_compiled() -> str | None:
    """Why this install cannot compile the engine (None: it can try)."""
    if BUILD["pure_requested"]():
        return f"{BUILD['PURE_ENV']} is set"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypyc (part of mypy, a build requirement) is not installed"
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC")  # what the build would call
    if cc and not shutil.which(shlex.split(cc)[0]):
        return f"no C compiler ({shlex.split(cc)[0]}) was found"
    return None


def compiled_engine() -> list[Extension]:
    """The engine's modules as mypyc extensions; [] (pure Python) if mypyc fails."""
    from mypyc.build import mypycify

    sources = [os.path.relpath(p, ROOT) for p in BUILD["compiled_sources"](str(ROOT / "engine"))]
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    try:
        return list(mypycify(["--python-version", version, *sources], opt_level="3",
                             group_name=SHARED_LIB, target_dir=str(ROOT / "build" / "mypyc")))
    except (Exception, SystemExit) as e:  # mypyc exits on a type error
        say(f"warning: mypyc could not compile the engine ({e!r}); installing the "
            f"pure-Python engine, which behaves the same, only slower")
        return []


def remove_compiled_in_place() -> None:
    """An editable install that does not compile removes the compiled files an earlier one
    left in the checkout, which would be imported before the sources."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    old = [p for p in (ROOT / "engine").rglob("*") if p.name.endswith(suffixes)]
    old += [p for p in ROOT.glob(f"{SHARED_LIB}__mypyc*") if p.name.endswith(suffixes)]
    for path in old:
        path.unlink()
    if old:
        say(f"removed {len(old)} compiled engine files of an earlier build from the checkout")


class BuildWithShippedFiles(build_py):  # type: ignore[misc]
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            if not self.distribution.ext_modules:
                remove_compiled_in_place()
            return  # an editable install reads the repository's folders directly
        shipped = Path(self.build_lib) / "tutor" / "shipped"
        shutil.rmtree(shipped, ignore_errors=True)  # an in-tree build/ may hold old files
        for folder, pattern in SHIPPED.items():
            for src in sorted((ROOT / folder).glob(pattern)):
                dest = shipped / folder / src.name
                self.mkpath(str(dest.parent))
                self.copy_file(str(src), str(dest))


class OptionalCompiledEngine(build_ext):  # type: ignore[misc]
    """Falls back to the pure engine, with a warning, when the C compiler fails."""

    def run(self) -> None:
        try:
            super().run()
        except (CCompilerError, CompileError, LinkError, ExecError, PlatformError) as e:
            say(f"warning: the C compiler could not build the compiled engine ({e}); "
                f"installing the pure-Python engine, which behaves the same, only slower")
            for ext in self.extensions:  # what was built before the failure
                path = self.get_ext_fullpath(ext.name)
                if os.path.exists(path):
                    os.remove(path)
            self.extensions = []
            self.distribution.ext_modules = []
            if getattr(self, "editable_mode", False):
                remove_compiled_in_place()


def engine_extensions() -> list[Extension]:
    if not BUILDS & set(sys.argv[1:]):
        return []  # not a build: the requirements or the metadata
    why = why_not_compiled()
    if why:
        say(f"installing the pure-Python engine: {why}")
        return []
    say("compiling the engine with mypyc (LEONARD_PURE=1 skips this)")
    return compiled_engine()


class WithDataWhenEditable(Distribution):  # type: ignore[misc]
    """setuptools' editable install asks the distribution ``has_data()``, which it does not
    have (it has ``has_data_files``), so ``pip install -e .`` silently skipped the data files
    and Voila found no page template (setuptools 84, ``editable_wheel._run_install``)."""

    def has_data(self) -> bool:
        return bool(self.has_data_files())


setup(
    distclass=WithDataWhenEditable,
    data_files=[(TEMPLATE, sorted(str(p.relative_to(ROOT)) for p in (ROOT / TEMPLATE).iterdir()
                                  if p.is_file()))],
    cmdclass={"build_py": BuildWithShippedFiles, "build_ext": OptionalCompiledEngine},
    ext_modules=engine_extensions(),
)
