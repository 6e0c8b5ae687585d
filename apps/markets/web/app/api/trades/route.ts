import { field, formPost, withQuery } from "@/markets/lib/http";
import { placeOrder } from "@/markets/lib/markets";

export const dynamic = "force-dynamic";

/** Place a reviewed order (ticker, side, action, shares, price_cents as confirmed): back to the market page. */
export const POST = formPost({
  act: (user, form) => {
    const ticker = field(form, "ticker");
    const ref = placeOrder(user.id, ticker, field(form, "side"), field(form, "action"), field(form, "shares"), field(form, "price_cents"));
    return withQuery(`/m/${encodeURIComponent(ticker)}`, { traded: ref });
  },
  failed: (e, form) =>
    withQuery(`/m/${encodeURIComponent(field(form, "ticker").slice(0, 40)) || ""}`, { error: e.message, side: field(form, "side").slice(0, 5), action: field(form, "action").slice(0, 5), shares: field(form, "shares").slice(0, 8) }),
});
