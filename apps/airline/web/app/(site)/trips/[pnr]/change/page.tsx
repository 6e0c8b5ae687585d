import Link from "next/link";
import { notFound } from "next/navigation";
import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import { AirError, airport, bookingByPnr, familyOf, isDate, journeyFare, options, segmentsOf } from "@/airline/lib/air";
import { requireUser } from "@/airline/lib/auth";
import { airContext, money, travelers } from "@/airline/lib/context";
import { one, type SP } from "@/airline/lib/page";
import { clockZone, day, duration, instant } from "@/airline/lib/time";

export const metadata = { title: "Change flight" };

export default async function ChangePage({ params, searchParams }: { params: Promise<{ pnr: string }>; searchParams: SP }) {
  const { pnr } = await params;
  const sp = await searchParams;
  const error = errorMessage(sp);
  const user = await requireUser();
  const ctx = airContext();
  let b;
  try {
    b = bookingByPnr(user.id, pnr.toUpperCase());
  } catch (e) {
    if (e instanceof AirError) notFound();
    throw e;
  }
  const direction = one(sp.direction) === "return" ? "return" : "outbound";
  const journey = segmentsOf(b.id).filter((s) => s.direction === direction);
  if (!journey.length) notFound();
  const fam = familyOf(b, journey[0]);
  const date = isDate(one(sp.date)) ? one(sp.date) : journey[0].dep_local.slice(0, 10);
  const o = journey[0].origin, d = journey[journey.length - 1].destination;
  const list = fam.changeable ? options(ctx, o, d, date) : [];
  const oldValue = journeyFare(b, journey);
  return (
    <div className="ma-page">
      <p><Link href={`/trips/${b.pnr}`}>← Trip {b.pnr}</Link></p>
      <h1>Change your {direction === "outbound" ? "departing" : "return"} flight</h1>
      <p className="ma-muted">Now: {journey.map((s) => `${s.flight_number} ${s.origin}-${s.destination}`).join(", ")} on {day(journey[0].dep_local, ctx.locale)} · {fam.name}</p>
      {error ? <p className="ma-alert" role="alert" data-testid="error">{error}</p> : null}
      {!fam.changeable ? <p className="ma-alert" role="alert">{fam.name} fares can't be changed.</p> : (
        <>
          <form method="get" className="ma-find">
            <input type="hidden" name="direction" value={direction} />
            <label>New date <input type="date" name="date" defaultValue={date} /></label>
            <button className="ma-secondary" type="submit">Show flights</button>
          </form>
          {list.length === 0 ? <p className="ma-empty">No flights on that day.</p> : (
            <ul className="ma-results" data-testid="results">
              {list.map((opt) => {
                const diff = (opt.fares[fam.code] - oldValue) * b.passengers;
                const first = opt.legs[0], last = opt.legs[opt.legs.length - 1];
                const current = opt.legs.every((l, i) => journey[i] && l.flight === journey[i].flight_number && l.dep_utc === journey[i].dep_utc);
                return (
                  <li key={opt.key} className="ma-result" data-testid="result" data-key={opt.key}>
                    <div className="ma-result-times">
                      <b>{clockZone(first.dep_local, airport(first.origin)!.timezone, ctx.locale)}</b><span>→</span>
                      <b>{clockZone(last.arr_local, airport(last.destination)!.timezone, ctx.locale)}</b>
                      <span className="ma-muted">{duration(Math.round((instant(last.arr_utc) - instant(first.dep_utc)) / 60_000))} · {opt.legs.map((l) => l.flight).join(", ")}</span>
                    </div>
                    {current ? <span className="ma-note">Your current flight</span> : (
                      <form action="/api/change" method="post" className="ma-fares">
                        <input type="hidden" name="_idem" value={idempotencyToken()} />
                        <input type="hidden" name="pnr" value={b.pnr} />
                        <input type="hidden" name="direction" value={direction} />
                        <input type="hidden" name="option" value={opt.key} />
                        <button type="submit" className="ma-fare" data-testid="choose">
                          <span>{diff > 0 ? "Pay difference" : diff < 0 ? (fam.cancel === "refund" ? "Refund" : "Travel credit") : "No difference"}</span>
                          <b>{money(ctx, Math.abs(diff))}</b>
                          <small>for {travelers(ctx, b.passengers)}</small>
                        </button>
                      </form>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
        </>
      )}
    </div>
  );
}
