import { appNow } from "@persona/platform/clock";
import { readMeta } from "@persona/platform/db";
import { localeTag } from "@persona/ui/format";
import { db } from "./db";

/** Facts from `meta` plus the app's now: the one source of "now" and formatting for every page and route. */
export interface BoardContext {
  timezone: string;
  /** BCP 47 tag (en-US, en-GB, de-DE). */
  locale: string;
  /** Local wall-clock now in the persona's zone, `YYYY-MM-DDTHH:MM:SS` (never before the world's now). */
  now: string;
  today: string;
  team: string;
  workspace: string;
  /** Ticket key prefix (DES, DATA...). */
  prefix: string;
  /** "Nov 20" style from an ISO date. */
  day: (iso: string) => string;
  /** "Nov 20, 2:05 PM" style from a local ISO time. */
  stamp: (iso: string) => string;
}

/** Read `meta` and build the context (one small query). */
export function boardContext(): BoardContext {
  const meta = readMeta(db());
  const timezone = meta.timezone || "UTC";
  const now = appNow(timezone, meta.now);
  const locale = localeTag(meta.locale);
  const dayFmt = new Intl.DateTimeFormat(locale, { month: "short", day: "numeric", timeZone: "UTC" });
  const stampFmt = new Intl.DateTimeFormat(locale, { month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZone: "UTC" });
  return {
    timezone,
    locale,
    now,
    today: now.slice(0, 10),
    team: meta.team || "",
    workspace: meta.workspace || "",
    prefix: meta.prefix || "",
    day: (iso) => dayFmt.format(new Date(`${iso.slice(0, 10)}T12:00:00Z`)),
    stamp: (iso) => stampFmt.format(new Date(`${iso.slice(0, 19)}Z`)),
  };
}
