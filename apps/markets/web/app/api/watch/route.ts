import { back, field, formPost, withQuery } from "@/markets/lib/http";
import { setWatch } from "@/markets/lib/markets";

export const dynamic = "force-dynamic";

/** Watchlist: ticker, on=1 adds, on=0 removes; back to the page it came from. */
export const POST = formPost({
  act: (user, form) => {
    const m = setWatch(user.id, field(form, "ticker"), field(form, "on") !== "0");
    return back(form, `/m/${m.ticker}`);
  },
  failed: (e, form) => withQuery(back(form, "/watchlist"), { error: e.message }),
});
