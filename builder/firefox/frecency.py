"""Frecency as Firefox 153 computes it.

Firefox 153 no longer uses the classic bucketed algorithm (visit-age buckets of
4/14/31/90 days times transition bonuses, ``calculate_frecency`` before ~2025).
Its ``calculate_frecency`` SQL function (toolkit/components/places/
SQLFunctions.cpp, CalculateFrecencyFunction; the SQL text is readable in the
shipped libxul.so) is an exponential decay, and the stored value is a *date*:
the day (since the epoch) on which the page's decayed score would fall to 1.
It therefore needs no "now" and never has to be decayed by a daily job.

Pages (``page_frecency``), with the StaticPrefList.yaml defaults
``places.frecency.pages.*``: halfLifeDays 30, numSampledVisits 10,
lowWeight 20, mediumWeight 50, highWeight 100, veryHighWeight 200:

- samples: the 10 most recent visits whose visit_type is not 7 download,
  8 framed link or 9 reload (plus "interactions" from moz_places_metadata,
  which a generated profile has none of);
- weight of a visit, with ``t`` = the visit's type (or, for a redirect
  target, its source visit's type):
  high (100) if t = 3 bookmark, or source = 2 bookmarked, or (t = 2 typed and
  source not in (1 sponsored, 3 searched) and the visit is not a redirect
  source); else medium (50) if not a redirect source and t not in (4, 8, 9) and
  source != 1; else low (20). "Interesting" visits (long view time) get the next
  weight up; generated visits never are;
- a page with no sampled visit but a bookmark gets one sample: the newest
  bookmark's dateAdded day with the high weight;
- ref = the newest sample's day (``visit_date // 86400000000``);
  score = sum(weight * exp(-ln2/30 * (ref - day)));
  frecency = ref + int(ln(score / n_samples * max(visit_count, n_samples)) / (ln2/30)).
- ``place:`` URLs get 0; a page with no sample at all gets 0 here (Firefox's
  function yields NULL there, which it never stores for a visited page).

Origins (``origin_frecency``, PlacesFrecencyRecalculator.sys.mjs,
#recalculateSomeOriginsFrecencies): over the origin's typed (2) visits newer
than local midnight 90 days ago (``places.frecency.originsCutOffDays``),
int(average of the visited pages' frecency, one term per typed visit, times the
number of distinct UTC dates with a typed visit); 1 if there is none. Here the
cut-off is taken at UTC midnight, a documented approximation (Firefox uses the
guest's local midnight); Firefox recalculates an origin only when it is marked,
i.e. after a new visit.

The tests check these numbers against the real Firefox recomputing them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from .models import Visit

HALF_LIFE_DAYS = 30
NUM_SAMPLED_VISITS = 10
LOW_WEIGHT = 20
MEDIUM_WEIGHT = 50
HIGH_WEIGHT = 100
VERY_HIGH_WEIGHT = 200
ORIGINS_CUTOFF_DAYS = 90

US_PER_DAY = 86_400_000_000
_LAMBDA = math.log(2) / HALF_LIFE_DAYS

# Visit types that are neither sampled for frecency nor counted in visit_count
# (moz_historyvisits_afterinsert_v2_trigger counts NOT IN (0, 4, 7, 8, 9)).
NOT_SAMPLED = frozenset({7, 8, 9})
NOT_COUNTED = frozenset({0, 4, 7, 8, 9})


def visit_source(transition: int) -> int:
    """moz_historyvisits.source for a generated visit: 2 (bookmarked) for a
    TRANSITION_BOOKMARK visit, as Firefox records a click on a bookmark; else 0."""
    return 2 if transition == 3 else 0


def visit_weight(transition: int, source: int = 0, *, redirect_source: bool = False) -> int:
    """Weight of one sampled, non-interesting visit (see module docstring)."""
    if transition == 3 or source == 2 or (transition == 2 and source not in (1, 3) and not redirect_source):
        return HIGH_WEIGHT
    if not redirect_source and transition not in (4, 8, 9) and source != 1:
        return MEDIUM_WEIGHT
    return LOW_WEIGHT


def _sqlite_sum(values: Iterable[float]) -> float:
    """SQLite's sum() of REALs: Kahan-Babuska-Neumaier (func.c, sumStep/sumFinalize)."""
    total = err = 0.0
    for r in values:
        t = total + r
        if abs(total) > abs(r):
            err += (total - t) + r
        else:
            err += (r - t) + total
        total = t
    return total + err


def _score_to_frecency(samples: Sequence[tuple[int, int]], visit_count: int) -> int:
    """samples: (day, weight) pairs, newest first."""
    ref = max(day for day, _ in samples)
    total = _sqlite_sum(weight * math.exp(-_LAMBDA * (ref - day)) for day, weight in samples)
    n = len(samples)
    return ref + int(math.log(total / n * max(visit_count, n)) / _LAMBDA)


def page_frecency(
    visits: Iterable[tuple[int, int, int]],
    *,
    bookmarks_added_us: Iterable[int] = (),
    url: str = "",
) -> int:
    """Frecency of one page from its visits as (visit_us, transition, source).

    ``bookmarks_added_us``: dateAdded (µs) of every bookmark pointing at the page.
    """
    if url.startswith("place:"):
        return 0
    all_visits = list(visits)
    visit_count = sum(1 for _, t, _ in all_visits if t not in NOT_COUNTED)
    sampled = sorted((v for v in all_visits if v[1] not in NOT_SAMPLED), key=lambda v: v[0], reverse=True)[
        :NUM_SAMPLED_VISITS
    ]
    samples = [(us // US_PER_DAY, visit_weight(t, s)) for us, t, s in sampled]
    if not samples:
        added = list(bookmarks_added_us)
        if not added:
            return 0
        samples = [(max(added) // US_PER_DAY, HIGH_WEIGHT)]
    return _score_to_frecency(samples, visit_count)


def frecency(visits: Iterable[Visit], *, bookmarks_added_us: Iterable[int] = (), url: str = "") -> int:
    """Firefox 153 frecency of a page given its :class:`Visit` records.

    Returns the integer stored in moz_places.frecency: a day number since the
    epoch (e.g. 20955 for a single link visit on day 20786); 0 if nothing counts.
    """
    return page_frecency(
        ((v.visit_us, v.transition, visit_source(v.transition)) for v in visits),
        bookmarks_added_us=bookmarks_added_us,
        url=url,
    )


def origin_frecency(typed_visits: Iterable[tuple[int, int]], *, now_us: int) -> int:
    """Frecency of an origin from (page_frecency, visit_us) of each typed visit
    to any of its pages (see module docstring); 1 when none is recent enough."""
    cutoff = (now_us // US_PER_DAY - ORIGINS_CUTOFF_DAYS) * US_PER_DAY
    recent = [(f, us) for f, us in typed_visits if us > cutoff]
    if not recent:
        return 1
    avg = sum(f for f, _ in recent) / len(recent)
    days = {(us // 1_000_000) // 86_400 for _, us in recent}
    return int(avg * len(days))
