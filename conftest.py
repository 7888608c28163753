"""Test-wide setup: progress written by tests (and by the notebooks nbval runs) goes to a
throwaway file, never to the user's real progress store."""

import os
import tempfile


def pytest_configure(config):  # noqa: ARG001 - pytest hook signature
    if "LEONARD_TUTOR_DB" not in os.environ:
        folder = tempfile.mkdtemp(prefix="leonard-tests-")
        os.environ["LEONARD_TUTOR_DB"] = os.path.join(folder, "progress.sqlite3")
