import type { AppContext } from "@persona/platform/context";
import { board } from "./app";

/** The app's context (@persona/platform/context) plus the board's own facts and formats. */
export interface BoardContext extends AppContext {
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
  const ctx = board.context();
  const dayFmt = new Intl.DateTimeFormat(ctx.locale, { month: "short", day: "numeric", timeZone: "UTC" });
  const stampFmt = new Intl.DateTimeFormat(ctx.locale, { month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZone: "UTC" });
  return {
    ...ctx,
    team: ctx.meta.team || "",
    workspace: ctx.meta.workspace || "",
    prefix: ctx.meta.prefix || "",
    day: (iso) => dayFmt.format(new Date(`${iso.slice(0, 10)}T12:00:00Z`)),
    stamp: (iso) => stampFmt.format(new Date(`${iso.slice(0, 19)}Z`)),
  };
}
