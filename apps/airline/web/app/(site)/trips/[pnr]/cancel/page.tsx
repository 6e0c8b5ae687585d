import Link from "next/link";
import { notFound } from "next/navigation";
import { AirError, bookingByPnr, family } from "@/airline/lib/air";
import { requireUser } from "@/airline/lib/auth";
import { cancelValue } from "@/airline/lib/actions";
import { airContext, money } from "@/airline/lib/context";
import { one, type SP } from "@/airline/lib/page";

export const metadata = { title: "Cancel trip" };

export default async function CancelPage({ params, searchParams }: { params: Promise<{ pnr: string }>; searchParams: SP }) {
  const { pnr } = await params;
  const sp = await searchParams;
  const user = await requireUser();
  const ctx = airContext();
  let b;
  try {
    b = bookingByPnr(user.id, pnr.toUpperCase());
  } catch (e) {
    if (e instanceof AirError) notFound();
    throw e;
  }
  const fam = family(b.fare_family);
  const back = cancelValue(b);
  const outcome = fam.cancel === "refund" ? `${money(ctx, back)} will be refunded to your card.` : fam.cancel === "credit" ? `You'll keep ${money(ctx, back)} as travel credit for a year.` : "Basic Economy fares keep no value: you won't get a refund or credit.";
  return (
    <div className="ma-page">
      <p><Link href={`/trips/${b.pnr}`}>← Trip {b.pnr}</Link></p>
      <h1>Cancel trip {b.pnr}</h1>
      {one(sp.error) ? <p className="ma-alert" role="alert">{one(sp.error)}</p> : null}
      <section className="ma-card">
        <p>{fam.name}: {outcome}</p>
        <form action="/api/cancel" method="post">
          <input type="hidden" name="pnr" value={b.pnr} />
          <label className="ma-radio"><input type="checkbox" name="confirm" value="yes" required /> I want to cancel every flight of this trip.</label>
          <button type="submit" className="ma-danger">Cancel trip</button>
        </form>
      </section>
    </div>
  );
}
