/**
 * The app's "now": the wall clock in the persona's time zone, never earlier than the world's now.
 *
 * The guest boots with its clock at as_of, so the wall clock runs on from the seeded world. A
 * clock behind the world (a host set in the past, a guest booted at midnight) must not show a
 * "today" before the history on screen, so the world's `meta.now` (as_of 09:00 local) is a floor.
 */

/** `YYYY-MM-DDTHH:MM:SS` of `at` (default: the wall clock) in IANA zone `timeZone`. */
export function localISO(timeZone: string, at: Date = new Date()): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
}

// Tests on a host whose clock is far from the world's today start the server with
// PERSONA_NOW=<local ISO>: the apps' clock then starts there and runs on in real time, as the
// guest's does from as_of. Unset in the guest.
const STARTED = Date.now();
const PINNED = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?$/.test(process.env.PERSONA_NOW ?? "") ? process.env.PERSONA_NOW! : "";

/** Local now in `timeZone` (UTC when the zone is unknown), floored at `worldNow` (local ISO, may be empty). */
export function appNow(timeZone: string, worldNow?: string): string {
  let now: string;
  if (PINNED) return addSeconds(PINNED.length === 16 ? `${PINNED}:00` : PINNED, Math.floor((Date.now() - STARTED) / 1000));
  try {
    now = localISO(timeZone);
  } catch {
    now = localISO("UTC");
  }
  const floor = (worldNow ?? "").slice(0, 19);
  return floor && floor > now ? floor : now;
}

/** `localIso` (naive local `YYYY-MM-DDTHH:MM:SS`) plus `days`, same format. */
export function addDays(localIso: string, days: number): string {
  const d = new Date(`${localIso.slice(0, 19)}Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 19);
}

/** `localIso` plus `seconds`, same format. */
export function addSeconds(localIso: string, seconds: number): string {
  const d = new Date(`${localIso.slice(0, 19)}Z`);
  return new Date(d.getTime() + seconds * 1000).toISOString().slice(0, 19);
}
