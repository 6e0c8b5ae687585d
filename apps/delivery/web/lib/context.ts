import { appNow } from "@persona/platform/clock";
import { readMeta } from "@persona/platform/db";
import { localeTag } from "@persona/ui/format";
import { db } from "./db";

/** Facts from `meta` plus the app's now: the one source of "now" for every page and route. */
export interface DashContext {
  timezone: string;
  /** BCP 47 tag, e.g. `en-US`. */
  locale: string;
  currency: string;
  /** Local wall-clock now, `YYYY-MM-DDTHH:MM:SS` (never before the world's now). */
  now: string;
  today: string;
  city: string;
  userName: string;
}

export function dashContext(): DashContext {
  const meta = readMeta(db());
  const timezone = meta.timezone || "UTC";
  const now = appNow(timezone, meta.now);
  return {
    timezone,
    locale: localeTag(meta.locale),
    currency: meta.currency || "USD",
    now,
    today: now.slice(0, 10),
    city: meta.city ?? "",
    userName: meta.user_name ?? "",
  };
}
