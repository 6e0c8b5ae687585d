"""Contradictions and counterfactuals across apps, one module per app their ids name: one app's record weighed
against another's (the booking mail against the airline's changed schedule), or what another choice would have
cost (as the card shows it)."""
