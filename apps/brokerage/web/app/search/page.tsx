import Link from "next/link";
import { Shell } from "@/brokerage/components/Shell";
import { requireUser } from "@/brokerage/lib/auth";
import { allSecurities, priceOf, searchSecurities } from "@/brokerage/lib/broker";
import { brokerContext } from "@/brokerage/lib/context";
import { one, type SearchParams } from "@/brokerage/lib/params";

export const metadata = { title: "Search" };

/** Securities whose symbol, name or sector holds every word typed; all of them when nothing is typed. */
export default async function SearchPage({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  await requireUser();
  const ctx = brokerContext();
  const t = ctx.t;
  const q = one(sp.q).trim();
  const hits = q ? searchSecurities(q) : allSecurities();
  return (
    <Shell ctx={ctx} active="">
      <section className="tw-card">
        <h2>{q ? t(`Results for “${q}”`, `Ergebnisse für „${q}“`) : t("All securities", "Alle Wertpapiere")}</h2>
        {hits.length === 0 ? <p className="tw-muted">{t("No security matches that.", "Kein Wertpapier passt dazu.")}</p> : null}
        <table className="tw-table" data-testid="results">
          <tbody>
            {hits.map((s) => (
              <tr key={s.symbol}>
                <td>
                  <Link href={`/stocks/${s.symbol}`}>
                    <strong>{s.symbol}</strong>
                  </Link>
                </td>
                <td>{s.name}</td>
                <td className="tw-muted tw-small">
                  {s.class_label} · {s.sector}
                </td>
                <td className="num">{(() => { const p = priceOf(s.symbol, ctx.today); return p ? ctx.money(p.close_cents) : "–"; })()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </Shell>
  );
}
