import Link from "next/link";
import { FlightLine } from "@/airline/components/Flight";
import { errorMessage } from "@persona/platform/http";
import { pageToken } from "@persona/platform/once";
import { AirError, airport, cards, families, optionByKey, type Option } from "@/airline/lib/air";
import { bookingPrice, creditAvailable, fareNames, type Priced } from "@/airline/lib/actions";
import { requireUser } from "@/airline/lib/auth";
import { airContext, money, travelers } from "@/airline/lib/context";
import { one, travellers, type SP } from "@/airline/lib/page";

export const metadata = { title: "Review and pay" };

export default async function Review({ searchParams }: { searchParams: SP }) {
  const sp = await searchParams;
  const error = errorMessage(sp);
  const user = await requireUser();
  const ctx = airContext();
  const from = one(sp.from).toUpperCase(), to = one(sp.to).toUpperCase();
  const asked = travellers(one(sp.pax), `${travelers(ctx, null)}s`);
  const pax = asked.pax;
  // `family` is the fare chosen last: the return's on a round trip, whose outbound fare is `outfamily`.
  const round = !!one(sp.ret);
  const fam = families().find((f) => f.code === (round ? one(sp.outfamily) || one(sp.family) : one(sp.family)));
  const retFam = round ? families().find((f) => f.code === one(sp.family)) : undefined;
  let outOpt: Option | null = null, retOpt: Option | null = null, problem = "";
  try {
    if (asked.error) throw new AirError(asked.error);
    if (!fam || (round && !retFam)) throw new AirError("Choose a fare.");
    if (retFam && retFam.cabin !== fam.cabin) throw new AirError("Choose fares in the same cabin for both flights (search again for the other cabin).");
    outOpt = optionByKey(ctx, from, to, one(sp.out));
    if (round) retOpt = optionByKey(ctx, to, from, one(sp.ret));
  } catch (e) {
    if (!(e instanceof AirError)) throw e;
    problem = e.message;
  }
  if (problem || !outOpt || !fam) {
    return (
      <div className="ma-page">
        <p className="ma-alert" role="alert" data-testid="error">{error || problem || "Choose your flights first."}</p>
        <p><Link href="/book">Start a new search</Link></p>
      </div>
    );
  }
  // Each journey at its own fare family's fare.
  const priced: Priced[] = [{ direction: "outbound", opt: outOpt, fam, fare: outOpt.fares[fam.code] }];
  if (retOpt && retFam) priced.push({ direction: "return", opt: retOpt, fam: retFam, fare: retOpt.fares[retFam.code] });
  const { fare, split } = bookingPrice(priced);
  const legs = [...outOpt.legs, ...(retOpt?.legs ?? [])];
  const myCards = cards(user.id);
  const credit = creditAvailable(user.id);
  return (
    <div className="ma-page">
      <h1>Review and pay</h1>
      {error ? <p className="ma-alert" role="alert" data-testid="error">{error}</p> : null}
      <section className="ma-card">
        <h2>Your flights · {fareNames(priced.map((j) => ({ direction: j.direction, family: j.fam })))}</h2>
        {legs.map((l, i) => (
          <FlightLine key={i} seg={{ flight_number: l.flight, origin: l.origin, destination: l.destination, dep_local: l.dep_local, arr_local: l.arr_local, duration_minutes: l.minutes, aircraft: l.aircraft }} from={airport(l.origin)!} to={airport(l.destination)!} locale={ctx.locale} />
        ))}
      </section>
      <form action="/api/bookings" method="post" className="ma-two" data-testid="book-form">
        <input type="hidden" name="origin" value={from} />
        <input type="hidden" name="destination" value={to} />
        <input type="hidden" name="out" value={outOpt.key} />
        <input type="hidden" name="ret" value={retOpt?.key ?? ""} />
        <input type="hidden" name="family" value={fam.code} />
        {retFam ? <input type="hidden" name="retfamily" value={retFam.code} /> : null}
        <input type="hidden" name="_idem" value={pageToken("airline/book/review", sp)} />
        <section className="ma-card">
          <h2>Travellers</h2>
          <p>1. <b>{user.full_name}</b> <span className="ma-muted">MileagePass {user.username}</span></p>
          {Array.from({ length: pax - 1 }, (_, i) => (
            <label key={i}>
              {i + 2}. Full name as on ID
              <input name="companion" required maxLength={40} data-testid="companion" />
            </label>
          ))}
          <h2>Pay with</h2>
          {credit > 0 ? (
            <label className="ma-radio">
              <input type="checkbox" name="credit" value="yes" data-testid="use-credit" /> Use my travel credit ({money(ctx, credit)} available); the card pays the rest
            </label>
          ) : null}
          {myCards.map((c, i) => (
            <label key={c.id} className="ma-radio">
              <input type="radio" name="card" value={c.id} defaultChecked={i === 0} /> {c.label} <span className="ma-muted">exp. {c.expiry}</span>
            </label>
          ))}
        </section>
        <section className="ma-card">
          <h2>Price</h2>
          <table className="ma-table ma-price">
            <tbody>
              {priced.map((j) => (
                <tr key={j.direction} data-testid={`fare-${j.direction}`} data-cents={j.fare}><td>{j.direction === "outbound" ? "Departing" : "Return"} · {j.fam.name}</td><td>{money(ctx, j.fare)}</td></tr>
              ))}
              <tr><td>Base fare</td><td>{money(ctx, split.base_fare_cents)}</td></tr>
              <tr><td>Taxes</td><td>{money(ctx, split.taxes_cents)}</td></tr>
              <tr><td>Carrier-imposed fees</td><td>{money(ctx, split.carrier_fees_cents)}</td></tr>
              <tr className="ma-sub"><td>Per {travelers(ctx, null)}</td><td>{money(ctx, fare)}</td></tr>
              <tr className="ma-total"><td>Total for {pax}</td><td data-testid="review-total" data-cents={fare * pax}>{money(ctx, fare * pax)}</td></tr>
            </tbody>
          </table>
          <button type="submit" className="ma-primary ma-wide" data-testid="purchase">Purchase</button>
          <p className="ma-muted">By purchasing you accept the fare rules of {priced.map((j) => `${j.fam.name}${priced.length > 1 && retFam?.code !== fam.code ? ` (${j.direction === "outbound" ? "departing" : "return"})` : ""}: ${j.fam.cancel === "refund" ? "refundable" : j.fam.cancel === "credit" ? "cancel for travel credit" : "no credit if cancelled"}`).filter((t, i, all) => all.indexOf(t) === i).join("; ")}.</p>
        </section>
      </form>
    </div>
  );
}
