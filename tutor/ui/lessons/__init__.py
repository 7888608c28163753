"""The lessons page for students: the lesson list, reviews due, progress files.
May import: ``ipywidgets``, ``tutor.i18n``, ``tutor.teaching``, ``tutor.course``,
``tutor.classroom``, ``tutor.storage.records``, ``tutor.session.snapshot``, ``tutor.ui.shared``,
``tutor.ui.play.sheet`` (the progress table) and ``tutor.ui.shared.answer_list`` (a
student's own answers)."""
