"""Money moved between the bank and another app (deposits into it, withdrawals to checking, the bank's lines of
them), asked about or done and checked on both sides, one module per app their ids name. Each scenario sits right
after one of its home app's own tasks (``after``), where the home app's tasks.py had these tasks."""
