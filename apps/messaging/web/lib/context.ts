import type { AppContext } from "@persona/platform/context";
import { messaging } from "./app";

/** The app's context (@persona/platform/context) plus the reply engine's seed. */
export interface ChatContext extends AppContext {
  /** The persona's seed: the reply engine's seed is `messaging/<seed>/<conversation>`. */
  seed: string;
}

export function chatContext(): ChatContext {
  const ctx = messaging.context();
  return { ...ctx, seed: ctx.meta.seed ?? "0" };
}
