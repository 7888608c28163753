"""Lessons: lesson files read and checked, the builder's lesson files, chosen deals, when
a lesson ends, and where shipped lessons and notebooks live.
May import: ``engine``, ``tutor.teaching``, ``tutor.i18n``. Never the store or widgets.
"""
