"""Lessons: lesson files read and checked, the builder's lesson files, chosen deals, when
a lesson ends, and where shipped lessons and notebooks live.
May import: ``engine``, ``tutor.i18n``, ``tutor.teaching`` and ``tutor.storage.names``.
Never the store, the classroom or widgets."""
