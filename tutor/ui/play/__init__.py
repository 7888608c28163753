"""The play page: the board and the panels around a session, and the notebook's one call.
May import: ``tutor.ui.shared``, ``tutor.play`` (the session and its snapshot), ``tutor.i18n``.
"""
