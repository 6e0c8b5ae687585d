"""Lodging: every destination's hotels and rentals (:mod:`.inventory`, drawn from ``catalog.yaml``) and the
price function of a stay (:mod:`.rates`), read by the world's trips and the stays app alike."""
