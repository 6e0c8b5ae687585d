import type { Airport, Segment } from "@/airline/lib/air";
import { clockZone, day, duration } from "@/airline/lib/time";

/** One flight: number, route with cities, local departure and arrival with their zones, duration, aircraft. */
export function FlightLine({ seg, from, to, locale, children }: { seg: Pick<Segment, "flight_number" | "origin" | "destination" | "dep_local" | "arr_local" | "duration_minutes" | "aircraft">; from: Airport; to: Airport; locale: string; children?: React.ReactNode }) {
  const nextDay = seg.arr_local.slice(0, 10) !== seg.dep_local.slice(0, 10);
  return (
    <div className="ma-flight" data-testid="segment" data-flight={seg.flight_number}>
      <div className="ma-flight-no">
        <b>{seg.flight_number}</b>
        <span className="ma-muted">{seg.aircraft}</span>
      </div>
      <div className="ma-flight-end">
        <span className="ma-code">{seg.origin}</span>
        <span className="ma-city">{from.city}</span>
        <span className="ma-time" data-testid="dep">{clockZone(seg.dep_local, from.timezone, locale)}</span>
        <span className="ma-muted">{day(seg.dep_local, locale)}</span>
      </div>
      <div className="ma-flight-line">
        <span>{duration(seg.duration_minutes)}</span>
        <svg viewBox="0 0 120 12" aria-hidden="true"><line x1="2" y1="6" x2="112" y2="6" stroke="currentColor" strokeDasharray="3 3" /><path d="M112 1 l7 5 -7 5 z" fill="currentColor" /></svg>
        <span>Nonstop</span>
      </div>
      <div className="ma-flight-end">
        <span className="ma-code">{seg.destination}</span>
        <span className="ma-city">{to.city}</span>
        <span className="ma-time" data-testid="arr">{clockZone(seg.arr_local, to.timezone, locale)}{nextDay ? <sup>+1</sup> : null}</span>
        <span className="ma-muted">{day(seg.arr_local, locale)}</span>
      </div>
      {children ? <div className="ma-flight-extra">{children}</div> : null}
    </div>
  );
}
