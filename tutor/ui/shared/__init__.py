"""What the pages share: the panel base, styles, the page header, uploads, the name form,
the access layer (``access.js``) and the lessons/teacher pages' one call.
May import: ``tutor.classroom``, ``tutor.storage``, ``tutor.i18n`` and the ui packages' apps
(``pages`` builds the pages).
"""
