import type { AppContext } from "@persona/platform/context";
import { grocery } from "./app";

/** The delivery fee and its free-from threshold in dollars, pounds and euros (builder/reference/grocery/catalogue.py);
 * a build in another currency writes its own in meta. */
export const DELIVERY_FEE_CENTS = 399;
export const FREE_DELIVERY_FROM_CENTS = 3500;

/** The app's context (@persona/platform/context) plus the shopper's facts from `meta`. */
export interface ShopContext extends AppContext {
  /** The persona's locale as the world writes it (`en_US`). */
  worldLocale: string;
  city: string;
  address: string;
  /** The tip Basketful suggests: the persona's usual percent capped at 15 % (what the world's orders tip). */
  tipPercent: number;
  /** The persona's usual tip percent (uncapped), offered beside the others. */
  usualTipPercent: number;
  usualStore: string;
  /** The delivery fee and the basket it is free from, in the persona's currency (meta, written by the seed). */
  deliveryFeeCents: number;
  freeDeliveryFromCents: number;
}

export function shopContext(): ShopContext {
  const ctx = grocery.context();
  const meta = ctx.meta;
  return {
    ...ctx,
    worldLocale: meta.locale || "en_US",
    city: meta.city ?? "",
    address: meta.address ?? "",
    tipPercent: Math.min(15, Number(meta.tipping_percent ?? 10) || 0),
    usualTipPercent: Number(meta.tipping_percent ?? 10) || 0,
    usualStore: meta.usual_store ?? "",
    deliveryFeeCents: Number(meta.delivery_fee_cents ?? DELIVERY_FEE_CENTS) || 0,
    freeDeliveryFromCents: Number(meta.free_delivery_from_cents ?? FREE_DELIVERY_FROM_CENTS) || 0,
  };
}
