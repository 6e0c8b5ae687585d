"""Long-horizon errands across apps, each with its reference solution, by the app their ids name."""
