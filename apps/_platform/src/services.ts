import SERVICES from "../../_site/src/generated/services.json";

/**
 * Services apps offer each other, from the `provides:` lists of their app.yaml files (assembled
 * into the site's generated/services.json): `card-network` (the bank: card payments, see
 * ./payments), `bank-transfers` (the bank: money to and from other firms' accounts, see ./transfers), `mail-delivery` (the mail app's /api/internal/deliver), `calendar` (the calendar's
 * /api/internal/events and /api/internal/rsvp). An app finds the other side here instead of
 * naming its host, so a renamed or missing app is a null, not a hard-coded address.
 */
export type Service = "card-network" | "bank-transfers" | "mail-delivery" | "calendar";

const BY_NAME = SERVICES as Record<string, { app: string; domain: string } | undefined>;

/** The host name of the app that provides `service` in this build, or null when none does. */
export function serviceDomain(service: Service): string | null {
  return BY_NAME[service]?.domain ?? null;
}
