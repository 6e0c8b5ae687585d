import Link from "next/link";
import { Delta, Notice, Shell } from "@/brokerage/components/Shell";
import { requireUser } from "@/brokerage/lib/auth";
import { lastCloses, security, watchlist } from "@/brokerage/lib/broker";
import { brokerContext } from "@/brokerage/lib/context";
import { one, type SearchParams } from "@/brokerage/lib/params";
import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";

export const metadata = { title: "Watchlist" };

/** The watchlist: as-of price and day change per symbol; add by symbol, remove per row. */
export default async function WatchlistPage({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  await requireUser();
  const ctx = brokerContext();
  const t = ctx.t;
  const symbols = watchlist();
  return (
    <Shell ctx={ctx} active="watchlist">
      <Notice error={errorMessage(sp)} done={one(sp.done) === "watch" ? t("Watchlist updated.", "Beobachtungsliste aktualisiert.") : undefined} />
      <section className="tw-card">
        <h2>{t("Watchlist", "Beobachtungsliste")}</h2>
        <table className="tw-table" data-testid="watchlist">
          <tbody>
            {symbols.map((s) => {
              const [last, prev] = lastCloses(s, ctx.today);
              return (
                <tr key={s} data-symbol={s}>
                  <td>
                    <Link href={`/stocks/${s}`}>
                      <strong>{s}</strong>
                    </Link>
                  </td>
                  <td>{security(s)?.name}</td>
                  <td className="num">{last ? ctx.money(last.close_cents) : "–"}</td>
                  <td className="num">{last && prev ? <Delta cents={last.close_cents - prev.close_cents} ctx={ctx} /> : null}</td>
                  <td>
                    <form action="/api/watchlist" method="post">
                      <input type="hidden" name="_idem" value={idempotencyToken()} />
                      <input type="hidden" name="symbol" value={s} />
                      <input type="hidden" name="on" value="0" />
                      <button className="tw-btn-ghost" type="submit">
                        {t("Remove", "Entfernen")}
                      </button>
                    </form>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <form action="/api/watchlist" method="post" className="tw-form" style={{ maxWidth: 320, marginTop: 16 }}>
          <input type="hidden" name="_idem" value={idempotencyToken()} />
          <input type="hidden" name="on" value="1" />
          <label>
            {t("Add a symbol", "Symbol hinzufügen")}
            <input name="symbol" required maxLength={8} />
          </label>
          <button className="tw-btn" type="submit">
            {t("Add", "Hinzufügen")}
          </button>
        </form>
      </section>
    </Shell>
  );
}
