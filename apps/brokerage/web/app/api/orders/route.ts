import { withQuery } from "@persona/platform/http";
import { BrokerError, placeTicket } from "@/brokerage/lib/broker";
import { brokerContext } from "@/brokerage/lib/context";
import { field, formPost } from "@/brokerage/lib/http";
import { ticketFrom, ticketQuery } from "@/brokerage/lib/ticket";

export const dynamic = "force-dynamic";

/** Place an order from the review page (one order per form token): fields symbol, side, type, shares | amount, limit, stop, confirm=yes. */
export const POST = formPost({
  act: (_user, form) => {
    const ctx = brokerContext();
    const symbol = field(form, "symbol").toUpperCase().slice(0, 8);
    if (field(form, "confirm") !== "yes") throw new BrokerError(ctx.t("Review the order and confirm it to place it.", "Prüfen und bestätigen Sie die Order, um sie zu erteilen."), "confirm");
    const { number, fills } = placeTicket(ticketFrom((k) => field(form, k), symbol, ctx.locale, ctx.t), ctx.today, ctx.now, ctx.t);
    return withQuery(`/orders`, { done: fills ? "filled" : "open", order: number });
  },
  failed: (e, form) => {
    const symbol = field(form, "symbol").toUpperCase().slice(0, 8);
    const path = /^[A-Z][A-Z.]{0,7}$/.test(symbol) ? `/stocks/${symbol}` : "/";
    return withQuery(path, { ...ticketQuery((k) => field(form, k)), error: e.message });
  },
});
