"""The class server around the students' kernels (a JupyterHub): the store service, the only
holder of the class database's address, which trusts the hub's word on who asks
(:mod:`tutor.hub.store_service`); and the lockdown of a student's server, which serves the
pages and nothing else, keeps a student to a few open pages and closes idle ones
(:mod:`tutor.hub.lockdown`). And the two extensions every page server loads, a hub's or
not (Binder, standalone Voilà): the page templates compiled once per server
(:mod:`tutor.hub.page_templates`) and the XSRF cookie a closing page needs
(:mod:`tutor.hub.page_xsrf`). Nothing here runs in a page's kernel.
May import: ``tutor.i18n``, ``tutor.storage``, ``tutor.classroom.request``,
``tutor.classroom.hand_in`` (the tutor's replay, which checks each answer stored) and
``tutor.classroom.played_games`` (the games a page sends with its answers). Never teaching,
widgets or a page."""
