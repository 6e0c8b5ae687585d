import type { AppContext } from "@persona/platform/context";
import { mail } from "./app";

/** The one connection to the seeded mail database (see ./app). */
export const db = mail.db;

export interface MailContext extends AppContext {
  /** The reply engine's seed (the persona's seed). */
  seed: string;
}

/** Facts from `meta` plus the app's now (@persona/platform/context) and the reply engine's seed. */
export function mailContext(): MailContext {
  const ctx = mail.context();
  return { ...ctx, seed: ctx.meta.seed || "0" };
}
