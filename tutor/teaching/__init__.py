"""Teaching: what the tutor asks and concludes, with no game loop, storage or widgets.

Questions on the engine's plays, reading and diagnosing answers, hints, the evidence rule,
mastery (BKT and the streak), practice and review, fitting BKT parameters, and what the
stored attempts mean: questions as runs of attempts (``runs``), the counts every page shows
(``counts``) and the mastery replayed from them (``replay``).
Its layer: pyproject.toml's import contracts. Never the store, the session, a page or widgets."""
