import { addDays, appNow } from "@persona/platform/clock";
import { readMeta } from "@persona/platform/db";
import { localeTag } from "@persona/ui/format";
import { db } from "./db";

/** Facts from `meta` plus "now" in the persona's zone: one source of "today" for every page and route. */
export interface ChatContext {
  workspace: string;
  workspaceDomain: string;
  timezone: string;
  locale: string;
  replySeed: string;
  /** Local wall-clock now, `YYYY-MM-DDTHH:MM:SS` (never before the world's now). */
  now: string;
  today: string;
}

export function chatContext(): ChatContext {
  const meta = readMeta(db());
  const timezone = meta.timezone || "UTC";
  const now = appNow(timezone, meta.now);
  return {
    workspace: meta.workspace || "Huddle",
    workspaceDomain: meta.workspace_domain || "workspace",
    timezone,
    locale: localeTag(meta.locale),
    replySeed: meta.reply_seed || "",
    now,
    today: now.slice(0, 10),
  };
}

const utc = (iso: string) => new Date(`${iso.slice(0, 19).padEnd(19, ":00")}Z`);

/** Formatters of local ISO timestamps (never shifted through the server's zone). */
export function formatters(ctx: ChatContext) {
  const time = new Intl.DateTimeFormat(ctx.locale, { hour: "numeric", minute: "2-digit", timeZone: "UTC" });
  const full = new Intl.DateTimeFormat(ctx.locale, { weekday: "long", month: "long", day: "numeric", timeZone: "UTC" });
  const fullYear = new Intl.DateTimeFormat(ctx.locale, { weekday: "long", month: "long", day: "numeric", year: "numeric", timeZone: "UTC" });
  const short = new Intl.DateTimeFormat(ctx.locale, { month: "short", day: "numeric", timeZone: "UTC" });
  const stamp = new Intl.DateTimeFormat(ctx.locale, { month: "short", day: "numeric", year: "numeric", hour: "numeric", minute: "2-digit", timeZone: "UTC" });
  const yesterday = addDays(`${ctx.today}T12:00:00`, -1).slice(0, 10);
  return {
    /** "9:41 AM" */
    time: (iso: string) => time.format(utc(iso)),
    /** "Today", "Yesterday", "Thursday, November 12" (with the year when not this year). */
    day: (isoDate: string) => {
      const d = isoDate.slice(0, 10);
      if (d === ctx.today) return "Today";
      if (d === yesterday) return "Yesterday";
      return (d.slice(0, 4) === ctx.today.slice(0, 4) ? full : fullYear).format(utc(`${d}T12:00:00`));
    },
    /** "Nov 12" */
    shortDay: (iso: string) => short.format(utc(iso)),
    /** "Nov 12, 2026, 9:41 AM" */
    stamp: (iso: string) => stamp.format(utc(iso)),
    /** "Today at 9:41 AM", "Nov 12 at 9:41 AM" */
    when: (iso: string) => {
      const d = iso.slice(0, 10);
      const t = time.format(utc(iso));
      if (d === ctx.today) return `Today at ${t}`;
      if (d === yesterday) return `Yesterday at ${t}`;
      return `${short.format(utc(iso))}${d.slice(0, 4) === ctx.today.slice(0, 4) ? "" : `, ${d.slice(0, 4)}`} at ${t}`;
    },
  };
}

export type Formatters = ReturnType<typeof formatters>;
