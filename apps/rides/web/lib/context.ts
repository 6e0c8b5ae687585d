import type { AppContext } from "@persona/platform/context";
import { rides } from "./app";

/** The app's context (@persona/platform/context) plus the rider's home city. */
export interface RideContext extends AppContext {
  /** The rider's home city (where new requests are served). */
  city: string;
}

export function rideContext(): RideContext {
  const ctx = rides.context();
  return { ...ctx, city: ctx.meta.city ?? "" };
}
