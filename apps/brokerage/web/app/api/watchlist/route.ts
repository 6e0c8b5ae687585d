import { withQuery } from "@persona/platform/http";
import { setWatched } from "@/brokerage/lib/broker";
import { brokerContext } from "@/brokerage/lib/context";
import { back, field, formPost } from "@/brokerage/lib/http";

export const dynamic = "force-dynamic";

/** Add (`on=1`) or remove (`on=0`) `symbol` on the watchlist; back to `back` (default /watchlist). */
export const POST = formPost({
  act: (_user, form) => {
    const ctx = brokerContext();
    const on = field(form, "on");
    if (on !== "1" && on !== "0") return withQuery(back(form, "/watchlist"), { error: ctx.t("Say whether to add or remove.", "Hinzufügen oder entfernen?") });
    setWatched(field(form, "symbol").trim().toUpperCase().slice(0, 8), on === "1", ctx.now, ctx.t);
    return withQuery(back(form, "/watchlist"), { done: "watch" });
  },
  failed: (e, form) => withQuery(back(form, "/watchlist"), { error: e.message }),
});
