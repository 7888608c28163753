"""The play page: the board and the panels around a session, and the notebook's one call.
May import: ``engine``, ``ipywidgets``, ``ipycanvas``, ``tutor.i18n``, ``tutor.games``,
``tutor.session``, ``tutor.teaching``, ``tutor.course``, ``tutor.classroom``,
``tutor.storage.store`` (``entry`` opens the page's store) and ``tutor.ui.shared``."""
