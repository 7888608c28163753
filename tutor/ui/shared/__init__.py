"""What the pages share: the panel base, styles, the page header, uploads, the name form, a
student's answers and the access layer (``access.js``).
May import: ``engine``, ``ipywidgets``, ``tutor.i18n``, ``tutor.teaching``,
``tutor.session.words``, ``tutor.classroom``, ``tutor.storage.records`` and
``tutor.storage.store``."""
