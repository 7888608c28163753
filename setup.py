"""Build step the declarative pyproject.toml cannot say: the lessons and notebooks, which live
at the top of the repository for teachers, go into the wheel as package data (``tutor/shipped``),
so a regular ``pip install .`` (Binder) finds them from any working directory."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
SHIPPED = {"lessons": "*.json", "notebooks": "*.ipynb"}


class BuildWithShippedFiles(build_py):  # type: ignore[misc]
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads the repository's folders directly
        shipped = Path(self.build_lib) / "tutor" / "shipped"
        shutil.rmtree(shipped, ignore_errors=True)  # an in-tree build/ may hold old files
        for folder, pattern in SHIPPED.items():
            for src in sorted((ROOT / folder).glob(pattern)):
                dest = shipped / folder / src.name
                self.mkpath(str(dest.parent))
                self.copy_file(str(src), str(dest))


setup(cmdclass={"build_py": BuildWithShippedFiles})
