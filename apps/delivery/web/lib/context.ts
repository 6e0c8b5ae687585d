import type { AppContext } from "@persona/platform/context";
import { delivery } from "./app";

/** The app's context (@persona/platform/context) plus the persona's city. */
export interface DashContext extends AppContext {
  city: string;
}

export function dashContext(): DashContext {
  const ctx = delivery.context();
  return { ...ctx, city: ctx.meta.city ?? "" };
}
