import Link from "next/link";
import { AirError } from "@/airline/lib/air";
import { requireUser } from "@/airline/lib/auth";
import { airContext } from "@/airline/lib/context";
import { one, type SP } from "@/airline/lib/page";
import { passes, qrDataUrl, type Pass } from "@/airline/lib/pass";
import { clock, clockZone, day, instant, zoneAbbr } from "@/airline/lib/time";
import { idValue } from "@/airline/lib/http";

export const metadata = { title: "Boarding pass" };

export default async function BoardingPassPage({ params, searchParams }: { params: Promise<{ pnr: string }>; searchParams: SP }) {
  const { pnr } = await params;
  const sp = await searchParams;
  const user = await requireUser();
  const ctx = airContext();
  const P = pnr.toUpperCase();
  let list: Pass[];
  try {
    list = passes(ctx, user, P, idValue(one(sp.segment)));
  } catch (e) {
    if (!(e instanceof AirError)) throw e;
    return (
      <div className="ma-page">
        <p><Link href={`/trips/${P}`}>← Trip {P}</Link></p>
        <p className="ma-alert" role="alert" data-testid="error">{e.message}</p>
      </div>
    );
  }
  const qrs = await Promise.all(list.map((p) => qrDataUrl(p.bcbp)));
  const L = ctx.locale;
  return (
    <div className="ma-page">
      <p><Link href={`/trips/${P}`}>← Trip {P}</Link></p>
      {one(sp.checked_in) ? <p className="ma-success" role="status" data-testid="checked-in">You're checked in. Have a great flight!</p> : null}
      <div className="ma-pass-actions">
        <h1>Boarding pass</h1>
        <a className="ma-primary" href={`/api/boarding-pass?${new URLSearchParams({ pnr: list[0].pnr, segment: String(idValue(one(sp.segment)) ?? "") })}`} data-testid="pass-pdf" download>Download PDF</a>
      </div>
      {list.map((p, i) => (
        <article className="ma-pass" key={i} data-testid="pass">
          <header><span>{ctx.airline.toUpperCase()}</span><span>{p.cabin}</span></header>
          <div className="ma-pass-body">
            <div className="ma-pass-info">
              <div className="ma-pass-name" data-testid="pass-name">{p.bcbpName}</div>
              <div className="ma-pass-route">
                <div><b>{p.from}</b><span>{p.fromCity}</span></div>
                <span className="ma-pass-plane">✈</span>
                <div><b>{p.to}</b><span>{p.toCity}</span></div>
              </div>
              <dl className="ma-pass-grid">
                <div><dt>Flight</dt><dd data-testid="pass-flight">{p.flight}</dd></div>
                <div><dt>Date</dt><dd>{day(p.depLocal, L)}</dd></div>
                <div><dt>Departs</dt><dd data-testid="pass-dep">{clockZone(p.depLocal, p.fromZone, L)}</dd></div>
                <div><dt>Boarding</dt><dd>{clock(p.boardingLocal, L)} {zoneAbbr(p.fromZone, instant(p.boardingLocal))}</dd></div>
                <div><dt>Group</dt><dd data-testid="pass-group">{p.group}</dd></div>
                <div><dt>Seat</dt><dd data-testid="pass-seat">{p.seat}</dd></div>
                <div><dt>Gate</dt><dd>{p.gate ?? "See screens"}</dd></div>
                <div><dt>Seq</dt><dd data-testid="pass-seq">{String(p.sequence).padStart(3, "0")}</dd></div>
                <div><dt>Confirmation</dt><dd>{p.pnr}</dd></div>
                <div><dt>E-ticket</dt><dd>{p.ticket}</dd></div>
              </dl>
            </div>
            <div className="ma-pass-qr">
              <img src={qrs[i]} alt={`Boarding pass barcode for ${p.passenger}`} data-testid="pass-qr" data-bcbp={p.bcbp} width={220} height={220} />
            </div>
          </div>
        </article>
      ))}
    </div>
  );
}
