"""The classroom's files: what the lessons and teacher pages show as data (progress, the
class table, the live view, next steps, a student's answers, assignments), the hand-in of
progress files, who the user is on a hub, and the page's link and request.
Its layer: pyproject.toml's import contracts. Never widgets, a page or a command module."""
