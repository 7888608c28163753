"""Storage: progress as rows (attempts, mastery rows, students), on SQLite or PostgreSQL,
and the export/import file formats. It knows what happened, not what it means: no teaching.
May import: ``tutor.i18n``.
Never teaching or widgets."""
