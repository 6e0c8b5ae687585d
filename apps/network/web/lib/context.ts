import { appNow } from "@persona/platform/clock";
import { readMeta } from "@persona/platform/db";
import { localeTag } from "@persona/ui/format";
import { db } from "./db";

/** Facts from `meta` plus the app's now: the one source of "now" for every page and route. */
export interface NetworkContext {
  timezone: string;
  locale: string;
  currency: string;
  /** Local wall-clock now, `YYYY-MM-DDTHH:MM:SS` (never before the world's now). */
  now: string;
  today: string;
  seed: string;
  userName: string;
}

export function networkContext(): NetworkContext {
  const meta = readMeta(db());
  const timezone = meta.timezone || "UTC";
  const now = appNow(timezone, meta.now);
  return {
    timezone,
    locale: localeTag(meta.locale),
    currency: meta.currency || "USD",
    now,
    today: now.slice(0, 10),
    seed: meta.seed ?? "0",
    userName: meta.user_name ?? "",
  };
}
