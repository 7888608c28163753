"""The classroom's files: what the lessons and teacher pages show as data (progress, the
class table, the live view, next steps, a student's answers, assignments), the hand-in of
progress files, who the user is on a hub, and the page's link and request.
Its layer: pyproject.toml's import contracts. Never widgets, a page or a command module.

Until version 0.2.0 two more files here are not the classroom's: ``template_cache`` and
``xsrf_cookie``, the server extensions' old names, which a class server's config may still
hold. Each is the extension of :mod:`tutor.hub` under its old name, with a warning, and
imports that module only (the contracts ignore these two imports; CHANGELOG.md)."""
