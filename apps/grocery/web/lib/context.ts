import { appNow } from "@persona/platform/clock";
import { readMeta } from "@persona/platform/db";
import { localeTag } from "@persona/ui/format";
import { db } from "./db";

/** Facts from `meta` plus the app's now: the one source of "now" for every page and route. */
export interface ShopContext {
  timezone: string;
  /** BCP 47 tag, e.g. `en-US`. */
  locale: string;
  /** The persona's locale as the world writes it (`en_US`). */
  worldLocale: string;
  currency: string;
  /** Local wall-clock now, `YYYY-MM-DDTHH:MM:SS` (never before the world's now). */
  now: string;
  today: string;
  city: string;
  address: string;
  userName: string;
  /** The persona's usual tip percent (the world's, capped at 15 % as Basketful suggests it). */
  tipPercent: number;
  usualStore: string;
}

export function shopContext(): ShopContext {
  const meta = readMeta(db());
  const timezone = meta.timezone || "UTC";
  const now = appNow(timezone, meta.now);
  return {
    timezone,
    locale: localeTag(meta.locale),
    worldLocale: meta.locale || "en_US",
    currency: meta.currency || "USD",
    now,
    today: now.slice(0, 10),
    city: meta.city ?? "",
    address: meta.address ?? "",
    userName: meta.user_name ?? "",
    tipPercent: Math.min(15, Number(meta.tipping_percent ?? 10) || 0),
    usualStore: meta.usual_store ?? "",
  };
}
