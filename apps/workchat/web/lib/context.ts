import { addDays } from "@persona/platform/clock";
import type { AppContext } from "@persona/platform/context";
import { workchat } from "./app";

/** The app's context (@persona/platform/context) plus the workspace and the reply engine's seed. */
export interface ChatContext extends AppContext {
  workspace: string;
  workspaceDomain: string;
  replySeed: string;
}

export function chatContext(): ChatContext {
  const ctx = workchat.context();
  const meta = ctx.meta;
  return {
    ...ctx,
    workspace: meta.workspace || workchat.settings.title,
    workspaceDomain: meta.workspace_domain || "workspace",
    replySeed: meta.reply_seed || "",
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
