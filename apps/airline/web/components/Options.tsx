import type { AirContext } from "@/airline/lib/context";
import { money } from "@/airline/lib/context";
import type { Airport, Family, Option } from "@/airline/lib/air";
import { clockZone, duration, instant } from "@/airline/lib/time";

/** A results list: each departure with its fares per family as the buttons of a GET form to `action`. */
export function Options({ ctx, list, fams, airportOf, action, hidden, pax, name = "pick" }: { ctx: AirContext; list: Option[]; fams: Family[]; airportOf: (c: string) => Airport; action: string; hidden: Record<string, string>; pax: number; name?: string }) {
  if (!list.length) return <p className="ma-empty" data-testid="no-results">No flights on that day. Try another date.</p>;
  return (
    <ul className="ma-results" data-testid="results">
      {list.map((o) => {
        const first = o.legs[0], last = o.legs[o.legs.length - 1];
        const minutes = Math.round((instant(last.arr_utc) - instant(first.dep_utc)) / 60_000);
        return (
          <li key={o.key} className="ma-result" data-testid="result" data-key={o.key}>
            <div className="ma-result-times">
              <b>{clockZone(first.dep_local, airportOf(first.origin).timezone, ctx.locale)}</b>
              <span>→</span>
              <b>{clockZone(last.arr_local, airportOf(last.destination).timezone, ctx.locale)}{last.arr_local.slice(0, 10) !== first.dep_local.slice(0, 10) ? <sup>+1</sup> : null}</b>
              <span className="ma-muted">{duration(minutes)} · {o.legs.length === 1 ? "Nonstop" : `1 stop (${first.destination})`} · {o.legs.map((l) => l.flight).join(", ")} · {first.aircraft}</span>
            </div>
            <form action={action} method="get" className="ma-fares">
              {Object.entries(hidden).map(([k, v]) => <input key={k} type="hidden" name={k} value={v} />)}
              <input type="hidden" name={name} value={o.key} />
              {fams.map((f) => {
                const left = f.cabin === "business" ? o.seatsBusiness : o.seatsEconomy;
                return (
                  <button key={f.code} type="submit" name="family" value={f.code} className="ma-fare" disabled={left < pax} data-family={f.code} data-cents={o.fares[f.code]} data-left={left}>
                    <span>{f.name}</span>
                    <b>{money(ctx, o.fares[f.code])}</b>
                    <small>{left < pax ? "Sold out" : left < 9 ? `${left} seats left` : "per traveller"}</small>
                  </button>
                );
              })}
            </form>
          </li>
        );
      })}
    </ul>
  );
}
