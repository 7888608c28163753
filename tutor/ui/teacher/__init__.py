"""The teacher page: the class table, heat map, mistakes, live view, uploads of many
files, each student's answers and the lesson builder.
May import: ``ipywidgets``, ``tutor.i18n``, ``tutor.teaching``, ``tutor.course``,
``tutor.classroom``, ``tutor.storage.records``, ``tutor.storage.store_files``, ``tutor.ui.shared``,
``tutor.ui.play.sheet`` (file names) and ``tutor.ui.play.game_setup`` (the seat kinds)."""
