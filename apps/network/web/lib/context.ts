import type { AppContext } from "@persona/platform/context";
import { network } from "./app";

/** The app's context (@persona/platform/context) plus the reply engine's seed. */
export interface NetworkContext extends AppContext {
  seed: string;
}

export function networkContext(): NetworkContext {
  const ctx = network.context();
  return { ...ctx, seed: ctx.meta.seed ?? "0" };
}
