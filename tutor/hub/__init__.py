"""The class server around the students' kernels (a JupyterHub): the store service, the only
holder of the class database's address, which trusts the hub's word on who asks
(:mod:`tutor.hub.store_service`); and the lockdown of a student's server, which serves the
pages and nothing else, keeps a student to a few open pages and closes idle ones
(:mod:`tutor.hub.lockdown`). And the two extensions every page server loads, a hub's or
not (Binder, standalone Voilà): the page templates compiled once per server
(:mod:`tutor.hub.page_templates`) and the XSRF cookie a closing page needs
(:mod:`tutor.hub.page_xsrf`). Nothing here runs in a page's kernel.
Its layer: pyproject.toml's import contracts. Never teaching, widgets or a page."""
