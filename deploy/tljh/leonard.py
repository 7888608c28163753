# The Littlest JupyterHub: /opt/tljh/config/jupyterhub_config.d/leonard.py
# (then: sudo tljh-config reload hub). See deploy/tljh/README.md for the steps around it.
#
# What it sets up (issue 41: a class server no student can cheat):
# - the store service: the one program that holds the class database's address. Students'
#   servers get only the service's address; each request carries the hub's token of the
#   student's server, and the service keeps each student to their own rows;
# - the write keys (issue 51): a secret only the hub and the service hold (LEONARD_HOME/
#   write-secret, made here if missing), and in each user's server, from the spawner, that
#   user's key (an HMAC of their name under it). The service takes a write only with the
#   key, which the hub's API cannot hand out: a token a student mints reads, never writes;
# - the teacher role: a hub role with the scope custom:leonard:teach, given to TEACHERS and to
#   the members of TEACHER_GROUPS. The service reads it from the token, never from a kernel;
# - the service's own role: read:groups, so that a teacher can make a class's roster from a
#   hub group (issue 45: the group's members, read by the service from the hub's API);
# - students' servers that serve the tutor's pages and nothing else (tutor.hub.lockdown: no
#   kernels, terminals, JupyterLab or files; a kernel takes only the page's widget messages),
#   with at most KERNEL_CAP pages open at once and idle tabs closed after IDLE_TAB_MINUTES;
# - one name per student: "José" typed with a combining accent is the same hub user.
#
# tests/browser/test_hub.py loads this file as it is into a real JupyterHub (with the simple
# local spawner and the dummy authenticator instead of TLJH's, and LEONARD_HOME,
# LEONARD_PYTHON and LEONARD_SERVICE_PORT in the hub's environment).

import hashlib
import hmac
import os
import secrets
import unicodedata

c = get_config()  # noqa: F821 - JupyterHub's config files get this name

# --- The school's settings --------------------------------------------------------------------
TEACHERS = ["ms.ruiz"]  # hub users who see the class's progress
TEACHER_GROUPS = ["teachers"]  # and the members of these hub groups (made if missing)
FULL_SERVER_FOR_TEACHERS = False  # True: teachers' servers are full Jupyter servers
KERNEL_CAP = 3  # tutor pages a student may have open at once
IDLE_TAB_MINUTES = 30  # an open page with nothing done for this long is closed
TIMEZONE = "UTC"  # the school's time zone (like "Europe/Madrid"): assignments are due on it
# The folder of the class's store, root's alone (sudo install -d -m 700 /srv/leonard). The
# store is the SQLite file progress.sqlite3 there, unless the file store-address there
# (mode 600) holds a PostgreSQL address: postgresql://tutor:PASSWORD@db.school:5432/tutor.
HOME = os.environ.get("LEONARD_HOME", "/srv/leonard")
PYTHON = os.environ.get("LEONARD_PYTHON", "/opt/tljh/user/bin/python")  # the users' Python
SERVICE_PORT = int(os.environ.get("LEONARD_SERVICE_PORT", "10101"))

# --- The store service --------------------------------------------------------------------------
_address_file = os.path.join(HOME, "store-address")
if os.path.exists(_address_file):
    with open(_address_file, encoding="utf-8") as _f:
        STORE = _f.read().strip()
else:
    STORE = os.path.join(HOME, "progress.sqlite3")

# The secret of the write keys: made once (64 hexadecimal digits), root's alone. Delete the
# file and reload the hub to make a new one (then restart the users' servers: see the README).
_secret_file = os.path.join(HOME, "write-secret")
if not os.path.exists(_secret_file):
    os.makedirs(HOME, mode=0o700, exist_ok=True)
    try:
        _fd = os.open(_secret_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(_fd, "w", encoding="utf-8") as _f:
            _f.write(secrets.token_hex(32) + "\n")
os.chmod(_secret_file, 0o600)
with open(_secret_file, encoding="utf-8") as _f:
    WRITE_SECRET = _f.read().strip()

SERVICE = "leonard-store"
c.JupyterHub.services.append({
    "name": SERVICE,
    "url": f"http://127.0.0.1:{SERVICE_PORT}",
    "command": [PYTHON, "-m", "tutor.hub.store_service"],
    # the service's alone (a service's environment is not in the hub's API; its command is)
    "environment": {"LEONARD_TUTOR_DB": STORE, "LEONARD_WRITE_SECRET": WRITE_SECRET},
})

# --- Who may do what ------------------------------------------------------------------------------
TEACH = "custom:leonard:teach"
USE_STORE = f"access:services!service={SERVICE}"
c.JupyterHub.custom_scopes = {TEACH: {"description": "See and merge the class's progress in "
                                                     "the Leonard-Domino tutor."}}
c.JupyterHub.load_roles = [
    {"name": "user", "scopes": ["self", USE_STORE]},
    # A server's token may reach the store, and teach if its user may (a token never holds
    # more than its user).
    {"name": "server", "scopes": ["users:activity!user", "access:servers!server", USE_STORE,
                                  TEACH]},
    {"name": "leonard-teacher", "scopes": [TEACH, USE_STORE], "users": TEACHERS,
     "groups": TEACHER_GROUPS},
    # The service reads a hub group's members when a teacher makes a roster from it.
    {"name": "leonard-store", "scopes": ["read:groups"], "services": [SERVICE]},
]

# --- Students' servers: the pages, nothing else ---------------------------------------------------
c.Spawner.disable_user_config = True  # nothing in a student's home configures their server
c.Spawner.args = [
    "--ServerApp.jpserver_extensions=tutor.hub.lockdown=True",
    "--ServerApp.terminals_enabled=False",
]
c.Spawner.environment.update({
    "LEONARD_LOCKDOWN": "1",  # tutor.hub.lockdown: this server is a student's
    "LEONARD_TUTOR_DB": f"http://127.0.0.1:{SERVICE_PORT}/services/{SERVICE}/",
    "LEONARD_KERNEL_CAP": str(KERNEL_CAP),
    "LEONARD_IDLE_TAB_MINUTES": str(IDLE_TAB_MINUTES),
    "LEONARD_TIMEZONE": TIMEZONE,  # tutor.classroom.assignments.SCHOOL_TZ_ENV
})
# A student lands on the lessons page (the clone nbgitpuller put in every home).
c.Spawner.default_url = "/voila/render/leonard-domino-tutor/notebooks/Lessons.ipynb"


def _is_teacher(user):
    return user.name in TEACHERS or any(g.name in TEACHER_GROUPS for g in user.groups)


def _full_server_for_teachers(spawner):
    if FULL_SERVER_FOR_TEACHERS and _is_teacher(spawner.user):
        spawner.environment = {**spawner.environment, "LEONARD_FULL_SERVER": "1"}


def write_key(name):
    """The user's write key: HMAC-SHA256 of the hub's name of them under the secret (the
    service computes the same: tutor.hub.store_service.write_key)."""
    return hmac.new(WRITE_SECRET.encode("utf-8"), name.encode("utf-8"),
                    hashlib.sha256).hexdigest()


def _give_write_key(spawner):
    # Only this user's server gets it, in its environment: a student runs no code there
    # (the lockdown), so it is out of their reach; a teacher's full server holds the
    # teacher's own key.
    spawner.environment = {**spawner.environment,
                           "LEONARD_WRITE_KEY": write_key(spawner.user.name)}


def _leonard_pre_spawn(spawner):
    _full_server_for_teachers(spawner)
    _give_write_key(spawner)


c.Spawner.pre_spawn_hook = _leonard_pre_spawn


# --- One name, one student ------------------------------------------------------------------------
# Names in Unicode NFC before the hub's own normalising (it lower-cases them): "José" typed
# with a combining accent is the user "josé". Set on the base class, so that it holds for
# whichever authenticator TLJH is set to (a config file in jupyterhub_config.d cannot see
# the authenticator class TLJH's own config chose).
from jupyterhub.auth import Authenticator  # noqa: E402

if not getattr(Authenticator.normalize_username, "leonard_nfc", False):
    _hub_normalize = Authenticator.normalize_username

    def _one_name(self, username):
        return unicodedata.normalize(
            "NFC", _hub_normalize(self, unicodedata.normalize("NFC", username)))

    _one_name.leonard_nfc = True
    Authenticator.normalize_username = _one_name
