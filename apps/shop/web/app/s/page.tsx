import Link from "next/link";
import { Alert } from "@persona/ui";
import { Footer, Header } from "@/shop/components/Brand";
import { ProductCard, Stars } from "@/shop/components/Product";
import { shell } from "@/shop/lib/page";
import { one, type SearchParams } from "@/shop/lib/params";
import { departmentName, search, type SearchQuery } from "@/shop/lib/shop";

export const metadata = { title: "Search" };

export default async function SearchPage({ searchParams }: { searchParams: SearchParams }) {
  const { user, ctx, cart, depts } = await shell();
  const t = ctx.t;
  const sp = await searchParams;
  const q: SearchQuery = { q: one(sp.q), dept: one(sp.dept), brand: one(sp.brand), min: one(sp.min), max: one(sp.max), rating: one(sp.rating), sort: one(sp.sort), page: one(sp.page) };
  if (q.dept && !depts.some((d) => d.key === q.dept)) q.dept = "";
  const res = search(q);
  const link = (over: Partial<SearchQuery>) => {
    const u = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...q, page: "", ...over })) if (v) u.set(k, v);
    return `/s?${u.toString()}`;
  };
  const heading = q.q ? t(`Results for “${q.q}”`, `Ergebnisse für „${q.q}“`) : q.dept ? departmentName(q.dept) : t("All products", "Alle Produkte");
  const sorts: [string, string][] = [
    ["featured", t("Featured", "Empfohlen")], ["price_asc", t("Price: low to high", "Preis: aufsteigend")], ["price_desc", t("Price: high to low", "Preis: absteigend")],
    ["rating", t("Avg. customer review", "Durchschn. Kundenbewertung")], ["reviews", t("Most reviewed", "Meiste Bewertungen")],
  ];
  return (
    <>
      <Header ctx={ctx} name={user.full_name} cart={cart} depts={depts} q={q.q} dept={q.dept} />
      <main className="sw-page">
        <div className="sw-search-layout">
          <aside className="sw-filters" aria-label={t("Filters", "Filter")}>
            <h3>{t("Department", "Kategorie")}</h3>
            <Link href={link({ dept: "", brand: "" })} className={!q.dept ? "is-active" : ""}>{t("All departments", "Alle Kategorien")}</Link>
            {depts.map((d) => <Link key={d.key} href={link({ dept: d.key, brand: "" })} className={q.dept === d.key ? "is-active" : ""} data-testid="filter-dept">{d.name}</Link>)}
            <h3>{t("Customer reviews", "Kundenbewertungen")}</h3>
            {[4, 3].map((r) => (
              <Link key={r} href={link({ rating: q.rating === String(r) ? "" : String(r) })} className={q.rating === String(r) ? "is-active" : ""} data-testid={`filter-rating-${r}`}>
                <Stars x10={r * 10} /> {t("& up", "& mehr")}
              </Link>
            ))}
            <h3>{t("Price", "Preis")}</h3>
            <form action="/s" method="get" className="sw-row" data-testid="price-form">
              {Object.entries(q).filter(([k, v]) => v && !["min", "max", "page"].includes(k)).map(([k, v]) => <input key={k} type="hidden" name={k} value={v} />)}
              <input type="text" name="min" placeholder={t("Min", "Min")} defaultValue={q.min} aria-label={t("Minimum price", "Mindestpreis")} />
              <input type="text" name="max" placeholder={t("Max", "Max")} defaultValue={q.max} aria-label={t("Maximum price", "Höchstpreis")} />
              <button type="submit" className="sw-btn-2">{t("Go", "Los")}</button>
            </form>
            <h3>{t("Brand", "Marke")}</h3>
            {q.brand ? <Link href={link({ brand: "" })}>‹ {t("Any brand", "Alle Marken")}</Link> : null}
            {res.brands.map((b) => (
              <Link key={b.brand} href={link({ brand: q.brand === b.brand ? "" : b.brand })} className={q.brand === b.brand ? "is-active" : ""} data-testid="filter-brand">
                {b.brand} <span className="sw-muted">({b.n})</span>
              </Link>
            ))}
          </aside>
          <section>
            {res.error ? <Alert tone="error" className="sw-alert" data-testid="search-error">{res.error}</Alert> : null}
            <div className="sw-results-bar">
              <div>
                <h1 style={{ margin: 0, fontSize: 18 }}>{heading}</h1>
                <span className="sw-muted" data-testid="result-count" data-count={res.total}>{t(`${res.total.toLocaleString(ctx.locale)} results`, `${res.total.toLocaleString(ctx.locale)} Ergebnisse`)}</span>
              </div>
              <form action="/s" method="get" className="sw-row">
                {Object.entries(q).filter(([k, v]) => v && !["sort", "page"].includes(k)).map(([k, v]) => <input key={k} type="hidden" name={k} value={v} />)}
                <label className="sw-small">{t("Sort by", "Sortieren nach")}{" "}
                  <select name="sort" defaultValue={q.sort || "featured"} data-testid="sort">
                    {sorts.map(([k, l]) => <option key={k} value={k}>{l}</option>)}
                  </select>
                </label>
                <button type="submit" className="sw-btn-2">{t("Apply", "Anwenden")}</button>
              </form>
            </div>
            {res.products.length ? (
              <div className="sw-grid">{res.products.map((p) => <ProductCard key={p.id} p={p} ctx={ctx} />)}</div>
            ) : (
              <p className="sw-empty">{t("No products match. Try fewer words or another department.", "Keine passenden Produkte. Versuchen Sie weniger Suchbegriffe oder eine andere Kategorie.")}</p>
            )}
            {res.pages > 1 ? (
              <nav className="sw-pages" aria-label={t("Pages", "Seiten")}>
                {res.page > 1 ? <Link href={link({ page: String(res.page - 1) })}>‹ {t("Previous", "Zurück")}</Link> : null}
                <span className="is-active">{res.page} / {res.pages}</span>
                {res.page < res.pages ? <Link href={link({ page: String(res.page + 1) })} data-testid="next-page">{t("Next", "Weiter")} ›</Link> : null}
              </nav>
            ) : null}
          </section>
        </div>
      </main>
      <Footer ctx={ctx} />
    </>
  );
}
