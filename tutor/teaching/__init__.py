"""Teaching: what the tutor asks and concludes, with no game loop, storage or widgets.

Questions on the engine's plays, reading and diagnosing answers, hints, the evidence rule,
mastery (BKT and the streak), practice and review, and fitting BKT parameters.
May import: ``engine``, ``tutor.i18n`` and each other. Never the store, the session or widgets.
"""
