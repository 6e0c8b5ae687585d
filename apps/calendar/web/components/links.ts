import type { Occurrence } from "@/calendar/lib/events";

/** The page of one occurrence: `/events/<id>` plus `?occ=<recurrence id>` for a series. */
export function eventHref(o: Pick<Occurrence, "eventId" | "recurrenceId">): string {
  return o.recurrenceId ? `/events/${o.eventId}?occ=${encodeURIComponent(o.recurrenceId)}` : `/events/${o.eventId}`;
}
