import type { AppContext } from "@persona/platform/context";
import { formatMoney } from "@persona/ui/format";
import { brokerage } from "./app";

/** The app's context (@persona/platform/context; `today`: prices "as of" are the last close at or before it). */
export interface BrokerContext extends AppContext {
  /** Signed money (+$1.00 / -$1.00). */
  signed: (cents: number) => string;
}

export function brokerContext(): BrokerContext {
  const ctx = brokerage.context();
  return { ...ctx, signed: (cents) => formatMoney(cents, { currency: ctx.currency, locale: ctx.locale, signDisplay: "exceptZero" }) };
}
