import Link from "next/link";
import { cents, Notice, Shell } from "@/markets/components/Shell";
import { stateOf, watchlist } from "@/markets/lib/markets";
import { shell } from "@/markets/lib/page";
import type { SearchParams } from "@/markets/lib/params";
import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";

export const metadata = { title: "Watchlist" };

/** The markets the persona watches, with today's prices; each can be removed. */
export default async function WatchlistPage({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  const { user, ctx } = await shell();
  const t = ctx.t;
  const rows = watchlist(user.id);
  return (
    <Shell user={user} ctx={ctx} active="watchlist">
      <Notice error={errorMessage(sp)} />
      <h1>{t("Watchlist", "Merkliste")}</h1>
      {rows.length === 0 ? (
        <p className="hl-empty">{t("Nothing on your watchlist yet. Open a market and add it.", "Noch nichts auf der Merkliste. Öffnen Sie einen Markt und fügen Sie ihn hinzu.")}</p>
      ) : (
        <ul className="hl-list">
          {rows.map((m) => (
            <li key={m.ticker} className="hl-row" data-testid="watched" data-ticker={m.ticker}>
              <div className="hl-row-main">
                <span className="hl-chip">{m.category_name}</span>
                <Link href={`/m/${m.ticker}`} className="hl-q">
                  {m.question}
                </Link>
                <span className="hl-muted hl-small">
                  {stateOf(m, ctx.today) === "open" ? t(`Closes ${ctx.date(m.close_date)}`, `Schließt ${ctx.date(m.close_date)}`) : t("No longer trading", "Kein Handel mehr")}
                </span>
              </div>
              <div className="hl-odds">
                <span className="hl-yes">
                  {t("Yes", "Ja")} {cents(m.yes_cents)}
                </span>
                <span className="hl-no">
                  {t("No", "Nein")} {cents(100 - m.yes_cents)}
                </span>
                <form action="/api/watch" method="post">
                  <input type="hidden" name="_idem" value={idempotencyToken()} />
                  <input type="hidden" name="ticker" value={m.ticker} />
                  <input type="hidden" name="on" value="0" />
                  <input type="hidden" name="back" value="/watchlist" />
                  <button className="hl-link" type="submit">
                    {t("Remove", "Entfernen")}
                  </button>
                </form>
              </div>
            </li>
          ))}
        </ul>
      )}
    </Shell>
  );
}
