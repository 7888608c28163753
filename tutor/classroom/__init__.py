"""The classroom's files and server settings: what the lessons and teacher pages show as
data (progress, the class table, the live view, counts), who the user is on a hub, the
page's link and request, and serving (kernel culling, templates, the XSRF cookie).
May import: ``engine``, ``tutor.teaching``, ``tutor.course``, ``tutor.storage``, ``tutor.i18n``.
Never widgets or a command module.
"""
