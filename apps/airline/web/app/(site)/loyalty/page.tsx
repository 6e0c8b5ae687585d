import { requireUser } from "@/airline/lib/auth";
import { airContext, money } from "@/airline/lib/context";
import { db } from "@/airline/lib/db";
import { day } from "@/airline/lib/time";

export const metadata = { title: "MileagePass" };

const TIERS: [string, number][] = [["Member", 0], ["Silver", 15000], ["Gold", 35000], ["Platinum", 60000]];

export default async function LoyaltyPage() {
  const user = await requireUser();
  const ctx = airContext();
  const lo = db().prepare("SELECT * FROM loyalty WHERE user_id = ?").get(user.id) as { number: string; program: string; tier: string; member_since: string; miles_balance: number; status_miles: number; status_year: number };
  const rows = db().prepare("SELECT posted_on, description, status_miles, award_miles FROM miles_activity WHERE user_id = ? ORDER BY posted_on DESC, id DESC").all(user.id) as { posted_on: string; description: string; status_miles: number; award_miles: number }[];
  const credits = db().prepare("SELECT c.amount_cents, c.expires_on, c.reason FROM travel_credits c WHERE c.user_id = ? ORDER BY c.id").all(user.id) as { amount_cents: number; expires_on: string; reason: string }[];
  const next = TIERS.find(([, need]) => need > lo.status_miles);
  const earned = [...TIERS].reverse().find(([, need]) => lo.status_miles >= need)![0];
  const n = new Intl.NumberFormat(ctx.locale);
  const pct = next ? Math.min(100, Math.round((lo.status_miles / next[1]) * 100)) : 100;
  return (
    <div className="ma-page">
      <div className={`ma-mp-card ma-tier-card-${lo.tier.toLowerCase()}`}>
        <div>
          <span className="ma-muted-light">{lo.program}</span>
          <h1>{user.full_name}</h1>
          <span data-testid="loyalty-number">{lo.number}</span>
        </div>
        <div className="ma-mp-tier"><span>Tier</span><b data-testid="tier">{lo.tier}</b></div>
        <div className="ma-mp-miles"><span>Miles balance</span><b data-testid="miles-balance">{n.format(lo.miles_balance)}</b></div>
      </div>
      <section className="ma-card">
        <h2>Status progress {lo.status_year}</h2>
        <p><b data-testid="status-miles">{n.format(lo.status_miles)}</b> status miles flown this year.{" "}
          {next ? <>{n.format(next[1] - lo.status_miles)} more to reach <b>{next[0]}</b>.</> : "You've reached our top tier."}
          {earned !== "Member" && earned !== lo.tier ? <> You've qualified for <b>{earned}</b> for {lo.status_year + 1}.</> : null}
        </p>
        <div className="ma-progress" aria-label="Status progress"><span style={{ width: `${pct}%` }} /></div>
        <p className="ma-muted">Tiers: {TIERS.slice(1).map(([t, need]) => `${t} ${n.format(need)}`).join(" · ")} status miles in a calendar year. Member since {day(lo.member_since, ctx.locale)}.</p>
      </section>
      {credits.length ? (
        <section className="ma-card">
          <h2>Travel credit</h2>
          <p>Available: <b data-testid="credit-available">{money(ctx, credits.reduce((a, c) => a + c.amount_cents, 0))}</b></p>
          <ul className="ma-list">{credits.map((c, i) => <li key={i}>{money(ctx, c.amount_cents)} · {c.reason}{c.amount_cents > 0 ? ` · until ${day(c.expires_on, ctx.locale)}` : ""}</li>)}</ul>
        </section>
      ) : null}
      <section className="ma-card">
        <h2>Activity</h2>
        <table className="ma-table" data-testid="activity">
          <thead><tr><th>Date</th><th>Flight</th><th className="num">Status miles</th><th className="num">Award miles</th></tr></thead>
          <tbody>
            {rows.map((r, i) => <tr key={i}><td>{day(r.posted_on, ctx.locale)}</td><td>{r.description}</td><td className="num">{n.format(r.status_miles)}</td><td className="num">{n.format(r.award_miles)}</td></tr>)}
          </tbody>
        </table>
      </section>
    </div>
  );
}
