"""Cross-app scenarios: the tasks that need two or more apps and were built around more than one, each module with
its reference solutions (``SOLVERS``-style, in its :class:`~builder.tasks.collect.Scenario`) beside its tasks.

A module declares ``SCENARIOS``: a list of :class:`builder.tasks.collect.Scenario`, each naming the app its task
ids carry (``home``: ``<persona>/<home>/<slug>``), the apps every task needs, its task builder and where its tasks
sit among the home app's. :mod:`builder.tasks.collect` finds every module here and places the tasks; a scenario
is built only when all its apps are. Scenarios read the world and use the apps' own interfaces: each app's
``steps.py`` (checks of what the persona did there, and the actions that do it) and its ``tasks.py`` kit; no app
imports a scenario or another app.

- ``errands/``: long-horizon errands across apps (a chain of steps in several apps, checked in each).
- ``recaps/``: answers summed over several apps (what the card shows each app charged, a trip's costs).
- ``pairs/``: one question each whose answer needs exactly the two apps it names (:mod:`builder.tasks.pairs`).
- ``transfers/``: money moved between the bank and another app (deposits, withdrawals, the bank's lines of them),
  asked about or done and checked on both sides; each sits right after one of its home app's own tasks (``after``).
"""

#: Where each kind of scenario sits after its home app's own tasks (lower first).
RECAPS, ERRANDS, PAIRS = 10, 20, 30
