import Link from "next/link";
import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import { Header } from "@/rides/components/Header";
import { PlaceIcon } from "@/rides/components/Logo";
import { requireUser } from "@/rides/lib/auth";
import { rideContext } from "@/rides/lib/context";
import { clock, dayTime, distance, money } from "@/rides/lib/format";
import { addMinutes, cards, excerpt, history, localOf, phase, places, quotes, recentPlaces, resolvePlace, RideError, savedPlaces, upcoming, type Quote, settleRides } from "@/rides/lib/rides";

export const metadata = { title: "Request a ride" };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

export default async function Home({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  await settleRides();
  const ctx = rideContext();
  const sp = await searchParams;
  const saved = savedPlaces();
  const recent = recentPlaces(10).filter((p) => p.city === ctx.city).slice(0, 5);
  const known = places().filter((p) => p.city === ctx.city || p.kind === "airport");
  const pickupText = one(sp.pickup) || (saved[0]?.label ?? "");
  const dropoffText = one(sp.dropoff);
  const when = one(sp.when) === "later" ? "later" : "now";
  const at = one(sp.at);
  let error = errorMessage(sp);
  let list: Quote[] = [];
  let pickup = null;
  let dropoff = null;
  if (!error && pickupText && dropoffText) {
    pickup = resolvePlace(pickupText);
    dropoff = resolvePlace(dropoffText);
    if (!pickup) error = `We couldn't find “${excerpt(pickupText)}”. Choose a saved or recent place, or type a full street address ZipRide knows (street, city).`;
    else if (!dropoff) error = `We couldn't find “${excerpt(dropoffText)}”. Choose a saved or recent place, or type a full street address ZipRide knows (street, city).`;
    else {
      try {
        list = quotes(pickup, dropoff, ctx.now, ctx.tariff);
      } catch (e) {
        if (e instanceof RideError) error = e.message;
        else throw e;
      }
    }
  }
  const current = history(ctx).find((r) => ["arriving", "on_trip"].includes(phase(ctx, r)));
  const next = upcoming(ctx)[0];
  const minAt = addMinutes(ctx.now, 15).slice(0, 16);
  const maxAt = addMinutes(ctx.now, 30 * 24 * 60).slice(0, 16);
  const first = user.full_name.split(" ")[0];
  const choose = (field: "pickup" | "dropoff", label: string) =>
    `/?${new URLSearchParams({ pickup: field === "pickup" ? label : pickupText, dropoff: field === "dropoff" ? label : dropoffText, when, ...(at ? { at } : {}) })}`;

  return (
    <>
      <Header active="/" name={user.full_name} />
      <main className="zr-home">
        <section className="zr-panel" aria-labelledby="request-title">
          <h1 id="request-title">Where to, {first}?</h1>
          {error ? (
            <p className="zr-alert" role="alert" data-testid="request-error">
              {error}
            </p>
          ) : null}
          <form action="/" method="get" className="zr-form zr-route" data-testid="route-form">
            <label>
              <span>
                <span className="zr-dot zr-dot-from" aria-hidden="true" />
                Pickup
              </span>
              <input name="pickup" list="zr-known" defaultValue={pickupText} placeholder="Pickup location" required maxLength={200} />
            </label>
            <label>
              <span>
                <span className="zr-dot zr-dot-to" aria-hidden="true" />
                Drop-off
              </span>
              <input name="dropoff" list="zr-known" defaultValue={dropoffText} placeholder="Where to?" required maxLength={200} autoFocus={!dropoffText} />
            </label>
            <fieldset className="zr-when">
              <legend>When</legend>
              <label className="zr-radio">
                <input type="radio" name="when" value="now" defaultChecked={when === "now"} /> Now
              </label>
              <label className="zr-radio">
                <input type="radio" name="when" value="later" defaultChecked={when === "later"} /> Schedule
              </label>
              <input type="datetime-local" name="at" defaultValue={at} min={minAt} max={maxAt} aria-label="Pickup date and time" />
            </fieldset>
            <button type="submit" className="zr-primary">See prices</button>
            <datalist id="zr-known">
              {saved.map((s) => (
                <option key={`s${s.saved_id}`} value={s.label}>{s.address}</option>
              ))}
              {known.map((p) => (
                <option key={p.id} value={p.address}>{p.name}</option>
              ))}
            </datalist>
          </form>

          {list.length && pickup && dropoff ? (
            <form action="/api/rides" method="post" className="zr-quotes" data-testid="quote-form">
              <input type="hidden" name="_idem" value={idempotencyToken()} />
              <input type="hidden" name="pickup" value={pickup.address} />
              <input type="hidden" name="dropoff" value={dropoff.address} />
              <input type="hidden" name="when" value={when} />
              <input type="hidden" name="at" value={at} />
              <p className="zr-route-summary" data-testid="route-summary">
                {pickup.name} → {dropoff.name} · <span data-testid="distance">{distance(ctx, list[0].distance_miles)}</span> · about{" "}
                <span data-testid="duration">{list[0].duration_minutes}</span> min
              </p>
              <ul className="zr-types">
                {list.map((q, i) => (
                  <li key={q.ride_type}>
                    <label className="zr-type" data-testid={`quote-${q.ride_type}`}>
                      <input type="radio" name="ride_type" value={q.ride_type} defaultChecked={i === 0} />
                      <span className="zr-type-car" aria-hidden="true">{q.ride_type === "xl" ? "🚐" : q.ride_type === "green" ? "🌿" : "🚗"}</span>
                      <span className="zr-type-main">
                        <strong>{q.name}</strong> <span className="zr-muted">· {q.capacity} seats</span>
                        <br />
                        <span className="zr-muted">
                          {when === "now" ? `${q.eta_minutes} min away · drop-off ${clock(ctx, addMinutes(ctx.now, q.eta_minutes + q.duration_minutes))}` : q.description}
                        </span>
                      </span>
                      <span className="zr-price" data-testid={`price-${q.ride_type}`} data-cents={q.fare_cents}>
                        {money(ctx, q.fare_cents)}
                      </span>
                    </label>
                  </li>
                ))}
              </ul>
              <details className="zr-breakdown">
                <summary>How the Zip fare is worked out</summary>
                <p className="zr-muted">
                  Base {money(ctx, list[0].base_cents)} + {distance(ctx, list[0].distance_miles)} ({money(ctx, list[0].distance_cents)}) + {list[0].duration_minutes} min (
                  {money(ctx, list[0].time_cents)}) + booking fee {money(ctx, list[0].booking_fee_cents)}. Distance is the road distance estimated between the two places; other ride types scale the base, distance and time.
                </p>
              </details>
              <div className="zr-pay">
                <label>
                  Pay with
                  <select name="card" defaultValue={String(cards()[0]?.id ?? "")}>
                    {cards().map((c) => (
                      <option key={c.id} value={c.id}>
                        {c.label}
                      </option>
                    ))}
                  </select>
                </label>
                <label>
                  Profile
                  <select name="purpose" defaultValue="personal">
                    <option value="personal">Personal</option>
                    <option value="work">Work</option>
                  </select>
                </label>
              </div>
              <button type="submit" className="zr-primary zr-confirm" data-testid="confirm">
                {when === "later" ? `Schedule for ${at ? dayTime(ctx, `${at}:00`) : "later"}` : "Confirm ride"}
              </button>
            </form>
          ) : null}

          <div className="zr-shortcuts">
            <h2>Saved places</h2>
            <ul className="zr-chips">
              {saved.map((s) => (
                <li key={s.saved_id}>
                  <Link href={choose("dropoff", s.label)} className="zr-chip">
                    <PlaceIcon icon={s.icon} /> {s.label}
                  </Link>
                </li>
              ))}
            </ul>
            {recent.length ? (
              <>
                <h2>Recent</h2>
                <ul className="zr-recent">
                  {recent.map((p) => (
                    <li key={p.id}>
                      <Link href={choose("dropoff", p.address)}>
                        <PlaceIcon icon={p.kind === "airport" ? "airport" : "clock"} />
                        <span>
                          <strong>{p.name}</strong>
                          {p.address !== p.name ? (
                            <>
                              <br />
                              <span className="zr-muted">{p.address}</span>
                            </>
                          ) : null}
                        </span>
                      </Link>
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
          </div>
        </section>

        <aside className="zr-side">
          <div className="zr-map" aria-hidden="true">
            <svg viewBox="0 0 400 300" preserveAspectRatio="xMidYMid slice">
              <rect width="400" height="300" fill="#e8efe9" />
              <path d="M0 80 H400 M0 190 H400 M90 0 V300 M250 0 V300 M0 260 L400 20" stroke="#ffffff" strokeWidth="14" />
              <path d="M0 130 H400 M170 0 V300 M330 0 V300" stroke="#ffffff" strokeWidth="6" />
              <path d="M40 40 Q120 110 200 150 T360 250" stroke="#b9d7f0" strokeWidth="18" fill="none" />
              {pickup && dropoff ? (
                <>
                  <path d="M90 190 L170 190 L170 80 L250 80" stroke="#0b3d2e" strokeWidth="5" fill="none" strokeLinejoin="round" />
                  <circle cx="90" cy="190" r="9" fill="#0b3d2e" />
                  <rect x="241" y="71" width="18" height="18" fill="#2ee59d" stroke="#0b3d2e" strokeWidth="3" />
                </>
              ) : null}
            </svg>
            <span className="zr-map-city">{ctx.city}</span>
          </div>
          {current ? (
            <div className="zr-card" data-testid="current-ride">
              <h2>{phase(ctx, current) === "arriving" ? "Your driver is on the way" : "On your way"}</h2>
              <p>
                {current.driver_name} · {current.vehicle} · <span className="zr-plate">{current.plate}</span>
              </p>
              <p className="zr-muted">
                Pickup {clock(ctx, current.pickup_at)} · arrive about {clock(ctx, current.dropoff_at)}
              </p>
              <Link href={`/rides/${current.id}`}>Ride details</Link>
            </div>
          ) : null}
          {next ? (
            <div className="zr-card">
              <h2>Next scheduled ride</h2>
              <p>
                {dayTime(ctx, next.pickup_at)} · to {next.dropoff_name}
              </p>
              <Link href="/scheduled">All scheduled rides</Link>
            </div>
          ) : null}
          <p className="zr-muted zr-small">
            Times are {ctx.city} time. It's {clock(ctx, localOf(ctx, ctx.now))} now.
          </p>
        </aside>
      </main>
    </>
  );
}
