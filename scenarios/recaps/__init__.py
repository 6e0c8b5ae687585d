"""Answers summed over several apps, one module per app their ids name."""
