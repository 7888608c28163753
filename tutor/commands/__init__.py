"""The commands: the teacher's ``export``/``import``/``report``/``fit-bkt`` and the
simulated students (``simulate-students``). ``python -m tutor`` (``tutor.__main__``) dispatches.
May import everything but widgets.
"""
