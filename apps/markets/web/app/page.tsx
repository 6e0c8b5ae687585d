import Link from "next/link";
import { cents, Notice, Shell } from "@/markets/components/Shell";
import { categories, isWatched, listMarkets, stateOf } from "@/markets/lib/markets";
import { shell } from "@/markets/lib/page";
import { one, type SearchParams } from "@/markets/lib/params";
import { errorMessage } from "@persona/platform/http";

export const metadata = { title: { absolute: "Markets | Hunchline" } };

/** The market list: category tabs, a state filter (open by default), search; YES/NO prices and close dates. */
export default async function MarketsPage({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  const { user, ctx } = await shell();
  const t = ctx.t;
  const q = one(sp.q);
  const cats = categories();
  const category = cats.some((c) => c.key === one(sp.cat)) ? one(sp.cat) : "";
  const state = ["open", "closed", "resolved", "all"].includes(one(sp.state)) ? one(sp.state) : q ? "all" : "open";
  const rows = listMarkets({ q, category, state: state === "all" ? "" : state });
  const link = (over: Record<string, string>) => {
    const p = new URLSearchParams({ ...(q ? { q } : {}), ...(category ? { cat: category } : {}), state, ...over });
    for (const [k, v] of [...p.entries()]) if (!v) p.delete(k);
    return `/?${p.toString()}`;
  };
  const stateNames: Record<string, string> = { open: t("Open", "Offen"), closed: t("Closed", "Geschlossen"), resolved: t("Resolved", "Entschieden"), all: t("All", "Alle") };
  return (
    <Shell user={user} ctx={ctx} active="markets" q={q}>
      <Notice error={errorMessage(sp)} />
      <h1>{q ? t(`Markets matching “${q}”`, `Märkte zu „${q}“`) : t(`Hi ${ctx.userName.split(" ")[0]}, what happens next?`, `Hallo ${ctx.userName.split(" ")[0]}, was passiert als Nächstes?`)}</h1>
      <div className="hl-tabs" data-testid="categories">
        <Link href={link({ cat: "" })} className={!category ? "on" : ""}>
          {t("All categories", "Alle Kategorien")}
        </Link>
        {cats.map((c) => (
          <Link key={c.key} href={link({ cat: c.key })} className={category === c.key ? "on" : ""} data-testid="category" data-key={c.key} data-count={c.count}>
            {c.name}
          </Link>
        ))}
      </div>
      <div className="hl-subtabs">
        {Object.entries(stateNames).map(([k, v]) => (
          <Link key={k} href={link({ state: k })} className={state === k ? "on" : ""} data-testid={`state-${k}`}>
            {v}
          </Link>
        ))}
        <span className="hl-muted" data-testid="market-count" data-count={rows.length}>
          {t(`${rows.length} markets`, `${rows.length} Märkte`)}
        </span>
      </div>
      {rows.length === 0 ? (
        <p className="hl-empty">{t("No markets match. Try another word or category.", "Keine passenden Märkte. Versuchen Sie ein anderes Wort oder eine andere Kategorie.")}</p>
      ) : (
        <ul className="hl-list">
          {rows.map((m) => {
            const st = stateOf(m, ctx.today);
            return (
              <li key={m.ticker} className="hl-row" data-testid="market" data-ticker={m.ticker} data-yes={m.yes_cents} data-state={st}>
                <div className="hl-row-main">
                  <span className="hl-chip">{m.category_name}</span>
                  {isWatched(user.id, m.ticker) ? <span className="hl-star" title={t("On your watchlist", "Auf Ihrer Merkliste")}>★</span> : null}
                  <Link href={`/m/${m.ticker}`} className="hl-q">
                    {m.question}
                  </Link>
                  <span className="hl-muted hl-small">
                    {st === "resolved"
                      ? t(`Resolved ${m.outcome === "yes" ? "YES" : "NO"} · ${ctx.date(m.resolve_date)}`, `Entschieden: ${m.outcome === "yes" ? "JA" : "NEIN"} · ${ctx.date(m.resolve_date)}`)
                      : st === "closed"
                        ? t(`Closed ${ctx.date(m.close_date)} · awaiting result`, `Geschlossen ${ctx.date(m.close_date)} · Ergebnis ausstehend`)
                        : t(`Closes ${ctx.date(m.close_date)}`, `Schließt ${ctx.date(m.close_date)}`)}{" "}
                    · {m.ticker} · {t(`${m.volume.toLocaleString("en-US")} shares traded`, `${m.volume.toLocaleString("de-DE")} Anteile gehandelt`)}
                  </span>
                </div>
                <div className="hl-odds">
                  <span className="hl-chance">
                    <b>{m.yes_cents}%</b> {t("chance", "Chance")}
                  </span>
                  <Link href={`/m/${m.ticker}?side=yes`} className="hl-yes">
                    {t("Yes", "Ja")} {cents(m.yes_cents)}
                  </Link>
                  <Link href={`/m/${m.ticker}?side=no`} className="hl-no">
                    {t("No", "Nein")} {cents(100 - m.yes_cents)}
                  </Link>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </Shell>
  );
}
