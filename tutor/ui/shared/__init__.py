"""What the pages share: the panel base, styles, the page header, uploads, the name form,
the access layer (``access.js``) and the lessons/teacher pages' one call.
May import: ``engine``, ``ipywidgets``, ``tutor.i18n``, ``tutor.session.words``,
``tutor.classroom``, ``tutor.storage.records``, ``tutor.storage.store``,
``tutor.ui.lessons.lessons_app`` and ``tutor.ui.teacher.teacher_app`` (``pages`` builds the
pages from their apps)."""
