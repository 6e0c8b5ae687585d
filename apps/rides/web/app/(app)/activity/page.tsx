import Link from "next/link";
import { Header } from "@/rides/components/Header";
import { Stars } from "@/rides/components/Logo";
import { requireUser } from "@/rides/lib/auth";
import { rideContext } from "@/rides/lib/context";
import { dayTime, money, monthName, PURPOSES } from "@/rides/lib/format";
import { history, months, phase, settleRides } from "@/rides/lib/rides";

export const metadata = { title: "Activity" };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

export default async function Activity({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  await settleRides();
  const ctx = rideContext();
  const sp = await searchParams;
  const month = /^\d{4}-\d{2}$/.test(one(sp.month)) ? one(sp.month) : "";
  const purpose = one(sp.purpose) in PURPOSES ? one(sp.purpose) : "";
  const rides = history(ctx, { month, purpose });
  const spent = rides.reduce((s, r) => s + r.total_cents, 0);
  return (
    <>
      <Header active="/activity" name={user.full_name} />
      <main className="zr-page">
        <h1>Activity</h1>
        <form method="get" className="zr-filters" data-testid="filters">
          <label>
            Month
            <select name="month" defaultValue={month}>
              <option value="">All months</option>
              {months().map((m) => (
                <option key={m} value={m}>
                  {monthName(ctx, m)}
                </option>
              ))}
            </select>
          </label>
          <label>
            Purpose
            <select name="purpose" defaultValue={purpose}>
              <option value="">All rides</option>
              {Object.entries(PURPOSES).map(([k, v]) => (
                <option key={k} value={k}>
                  {v}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="zr-secondary">Filter</button>
        </form>
        <p className="zr-summary" data-testid="summary">
          <span data-testid="ride-count">{rides.length}</span> rides · <span data-testid="ride-total" data-cents={spent}>{money(ctx, spent)}</span>
        </p>
        <ul className="zr-list" data-testid="ride-list">
          {rides.map((r) => (
            <li key={r.id} className="zr-row" data-testid="ride-row" data-ride-id={r.ride_id}>
              <Link href={`/rides/${r.id}`} className="zr-row-link">
                <div>
                  <strong>{r.dropoff_name}</strong>
                  <br />
                  <span className="zr-muted">
                    {dayTime(ctx, r.pickup_at)} · from {r.pickup_name}
                    {r.purpose ? ` · ${PURPOSES[r.purpose] ?? r.purpose}` : ""}
                  </span>
                </div>
                <div className="zr-row-end">
                  <span className="zr-price" data-cents={r.total_cents}>{money(ctx, r.total_cents)}</span>
                  <span className="zr-muted">
                    {phase(ctx, r) === "cancelled" ? "Cancelled" : phase(ctx, r) !== "completed" ? "In progress" : r.rating ? <Stars n={r.rating} /> : "Rate ride"}
                  </span>
                </div>
              </Link>
            </li>
          ))}
        </ul>
        {rides.length === 0 ? <p className="zr-empty">No rides match these filters.</p> : null}
      </main>
    </>
  );
}
