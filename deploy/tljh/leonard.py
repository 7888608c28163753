# The Littlest JupyterHub: /opt/tljh/config/jupyterhub_config.d/leonard.py
# (then: sudo tljh-config reload hub). See deploy/tljh/README.md for the steps around it.
#
# The same settings tests/test_hub.py gives the hub it starts (there with the simple local
# spawner and the dummy authenticator; here TLJH's own).

c = get_config()  # noqa: F821 - JupyterHub's config files get this name

c.Spawner.environment.update({
    # One store the whole class shares. One server: a file every user can write
    # (install -d -m 1777 /srv/leonard), or a PostgreSQL database (the district's):
    #   "LEONARD_TUTOR_DB": "postgresql://tutor@db.school:5432/tutor",
    "LEONARD_TUTOR_DB": "/srv/leonard/progress.sqlite3",
    # Who opens the teacher page's class data (names, or hub groups as group:NAME).
    # Hub admins do too when the server's token may read them (load_roles below).
    "LEONARD_TEACHERS": "ms.ruiz, group:teachers",
})

# A student lands on the lessons page (the clone nbgitpuller put in every home).
c.Spawner.default_url = "/voila/render/leonard-domino-tutor/notebooks/Lessons.ipynb"

# Let each user's server ask the hub whether its user is an admin or in a group
# (tutor/classroom/identity.py); without it only the names in LEONARD_TEACHERS count.
c.JupyterHub.load_roles = [{"name": "server", "scopes": ["inherit"]}]
