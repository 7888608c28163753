"""The lessons page for students: the lesson list, reviews due, progress files.
May import: ``tutor.ui.shared``, ``tutor.classroom``, ``tutor.course``, ``tutor.i18n``.
"""
