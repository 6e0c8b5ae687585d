"""Two-app look-ups among the home app's own tasks, one module per app their ids name: a record of the home app
traced through one other app (a card charge to the order or meal it paid for, a calendar entry to its booking, a
parcel to its shipping mail)."""
