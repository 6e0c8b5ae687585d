import type { AppContext } from "@persona/platform/context";
import { rides } from "./app";
import { AS_WRITTEN, type Tariff } from "./geo";

/** The app's context (@persona/platform/context) plus the rider's home city and the tariff's currency. */
export interface RideContext extends AppContext {
  /** The rider's home city (where new requests are served). */
  city: string;
  /** How the tariff's US figures read in the rider's currency (meta `fare_rate`, `unit_cents`). */
  tariff: Tariff;
}

export function rideContext(): RideContext {
  const ctx = rides.context();
  const tariff = ctx.meta.fare_rate ? { rate: ctx.meta.fare_rate, unit: Number(ctx.meta.unit_cents ?? "1") } : AS_WRITTEN;
  return { ...ctx, city: ctx.meta.city ?? "", tariff };
}
