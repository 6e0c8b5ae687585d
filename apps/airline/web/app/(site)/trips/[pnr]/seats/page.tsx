import Link from "next/link";
import { notFound } from "next/navigation";
import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import { AirError, airport, bookingByPnr, familyOf, passengersOf, seatMap, seatsOf, segmentsOf } from "@/airline/lib/air";
import { requireUser } from "@/airline/lib/auth";
import { airContext } from "@/airline/lib/context";
import { one, type SP } from "@/airline/lib/page";
import { clockZone, day } from "@/airline/lib/time";

export const metadata = { title: "Choose seats" };

export default async function SeatsPage({ params, searchParams }: { params: Promise<{ pnr: string }>; searchParams: SP }) {
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
  const segs = segmentsOf(b.id);
  const seg = segs.find((s) => String(s.id) === one(sp.segment)) ?? segs[0];
  const pax = passengersOf(b.id);
  const seats = seatsOf(seg.id);
  const me = seats.find((t) => String(t.passenger_id) === one(sp.passenger)) ?? seats[0];
  const fam = familyOf(b, seg);
  const map = seatMap(ctx, seg, fam.cabin, me.seat, seats.filter((t) => t.id !== me.id).map((t) => t.seat));
  const from = airport(seg.origin)!;
  const letters = map.letters;
  return (
    <div className="ma-page">
      <p><Link href={`/trips/${b.pnr}`}>← Trip {b.pnr}</Link></p>
      <h1>Choose a seat</h1>
      <p className="ma-muted">
        {seg.flight_number} · {seg.origin} → {seg.destination} · {day(seg.dep_local, ctx.locale)} {clockZone(seg.dep_local, from.timezone, ctx.locale)} · {seg.aircraft} · {fam.cabin === "business" ? "Business" : "Economy"} cabin
      </p>
      {one(sp.saved) ? <p className="ma-success" role="status" data-testid="seat-saved">Seat {one(sp.saved)} is yours.</p> : null}
      {error ? <p className="ma-alert" role="alert" data-testid="error">{error}</p> : null}
      <div className="ma-seat-layout">
        <div className="ma-seatmap" data-testid="seatmap">
          <div className="ma-seatrow ma-seatrow-head">
            <span className="ma-rowno" />
            {[...letters].map((l, i) => (l === "|" ? <span key={i} className="ma-aisle" /> : <span key={i} className="ma-seat-letter">{l}</span>))}
          </div>
          {map.rows.map((r) => (
            <div className={`ma-seatrow${r.cells.some((c) => c?.exit) ? " ma-exit" : ""}`} key={r.row}>
              <span className="ma-rowno">{r.row}</span>
              {r.cells.map((c, i) =>
                c === null ? <span key={i} className="ma-aisle" /> : c.state === "free" ? (
                  <button key={c.seat} type="submit" form="seat-pick" name="seat" value={c.seat} className={`ma-seat ma-seat-free`} title={`${c.seat} · ${c.kind}${c.exit ? " · exit row" : ""}`} data-seat={c.seat} data-state="free" aria-label={`Seat ${c.seat}, ${c.kind}`}>
                    {c.seat.replace(/^\d+/, "")}
                  </button>
                ) : (
                  <span key={c.seat} className={`ma-seat ma-seat-${c.state}`} title={`${c.seat} · ${c.kind}${c.exit ? " · exit row" : ""}`} data-seat={c.seat} data-state={c.state}>
                    {c.state === "mine" ? "✓" : c.state === "taken" ? "" : c.seat.replace(/^\d+/, "")}
                  </span>
                ),
              )}
            </div>
          ))}
        </div>
        <aside className="ma-card ma-seat-side">
          <h2>{pax.find((p) => p.id === me.passenger_id)?.full_name}</h2>
          <p>Current seat <b data-testid="current-seat">{me.seat}</b></p>
          {seats.length > 1 ? (
            <p className="ma-muted">
              Choosing for:{" "}
              {seats.map((t) => (
                <Link key={t.id} href={`/trips/${b.pnr}/seats?segment=${seg.id}&passenger=${t.passenger_id}`}>{pax.find((p) => p.id === t.passenger_id)?.given_name} </Link>
              ))}
            </p>
          ) : null}
          <form action="/api/seat" method="post" id="seat-pick" hidden>
            <input type="hidden" name="_idem" value={idempotencyToken()} />
            <input type="hidden" name="pnr" value={b.pnr} />
            <input type="hidden" name="segment" value={seg.id} />
            <input type="hidden" name="passenger" value={me.passenger_id} />
          </form>
          <p className="ma-muted">Pick an available seat on the map, or type it:</p>
          <form action="/api/seat" method="post" data-testid="seat-form">
            <input type="hidden" name="_idem" value={idempotencyToken()} />
            <input type="hidden" name="pnr" value={b.pnr} />
            <input type="hidden" name="segment" value={seg.id} />
            <input type="hidden" name="passenger" value={me.passenger_id} />
            <label>
              New seat
              <input name="seat" required maxLength={4} placeholder="e.g. 14C" pattern="[0-9]{1,2}[A-Ka-k]" />
            </label>
            <button type="submit" className="ma-primary">Save seat</button>
          </form>
          <ul className="ma-legend">
            <li><span className="ma-seat ma-seat-free" /> Available</li>
            <li><span className="ma-seat ma-seat-taken" /> Taken</li>
            <li><span className="ma-seat ma-seat-mine">✓</span> Your seat</li>
            <li><span className="ma-seat ma-seat-companion" /> Your companions</li>
          </ul>
          {segs.length > 1 ? (
            <p className="ma-muted">
              Other flights:{" "}
              {segs.filter((s) => s.id !== seg.id).map((s) => (
                <Link key={s.id} href={`/trips/${b.pnr}/seats?segment=${s.id}`}>{s.flight_number} {s.origin}-{s.destination} </Link>
              ))}
            </p>
          ) : null}
        </aside>
      </div>
    </div>
  );
}
