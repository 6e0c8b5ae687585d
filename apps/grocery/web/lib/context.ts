import type { AppContext } from "@persona/platform/context";
import { grocery } from "./app";

/** The app's context (@persona/platform/context) plus the shopper's facts from `meta`. */
export interface ShopContext extends AppContext {
  /** The persona's locale as the world writes it (`en_US`). */
  worldLocale: string;
  city: string;
  address: string;
  /** The persona's usual tip percent (the world's, capped at 15 % as Basketful suggests it). */
  tipPercent: number;
  usualStore: string;
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
    usualStore: meta.usual_store ?? "",
  };
}
