"""Cross-app scenarios: the tasks that need two or more apps and were built around more than one, each module with
its reference solutions (``SOLVERS``-style, in its :class:`~builder.tasks.collect.Scenario`) beside its tasks.

A module declares ``SCENARIOS``: a list of :class:`builder.tasks.collect.Scenario`, each naming the app its task
ids carry (``home``: ``<persona>/<home>/<slug>``), the apps every task needs, its task builder and where its tasks
sit among the home app's. :mod:`builder.tasks.collect` finds every module here and places the tasks; a scenario
is built only when all its apps are. Scenarios read the world and use the apps' own interfaces: each app's
``steps.py`` (checks of what the persona did there, and the actions that do it) and its ``tasks.py`` kit; no app
imports a scenario or another app.

- ``checks/``: two-app look-ups among the home app's own tasks (a record of the home app traced through one other
  app: a card charge, a calendar entry, a shipping mail); each anchored after a task of the home app (``after``, no
  rank), and placed before the errands that share its anchor.
- ``errands/``: errands across apps: long-horizon ones after the home app's own tasks (a chain of steps in several
  apps, checked in each), shorter ones (an order again, a return, a list from a mail) anchored among them.
- ``recaps/``: answers summed or compared over several apps (what the card shows each app charged, a trip's costs,
  a time a friend remembers wrong).
- ``pairs/``: one question each whose answer needs exactly the two apps it names (the ``pair-...`` ones through
  :mod:`builder.tasks.pairs`, after the home app's tasks; others anchored among them).
- ``transfers/``: money moved between the bank and another app (deposits, withdrawals, the bank's lines of them),
  asked about or done and checked on both sides; each sits right after one of its home app's own tasks (``after``).
- ``insights/``: contradictions and counterfactuals across apps (one app's record against another's, what another
  choice would have cost), each where it sat among its home app's own reasoning tasks.

A scenario anchored among its home app's tasks (``after``) may follow another scenario's task: anchored scenarios are
placed by ``rank`` (lower first, then module name and list order), so one that follows a task of a module sorting
after its own takes a higher rank than that module's.
"""

#: Where each kind of scenario sits after its home app's own tasks (lower first); the anchored ones (``checks/``
#: and some of the others) sit among those tasks instead, by module name where they share an anchor.
RECAPS, ERRANDS, PAIRS = 10, 20, 30
