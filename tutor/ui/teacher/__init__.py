"""The teacher page: the class table, heat map, mistakes, live view, uploads of many
files, each student's answers and the lesson builder.
May import: ``tutor.ui.shared``, ``tutor.classroom``, ``tutor.course``, ``tutor.i18n``.
"""
