import Link from "next/link";
import { errorMessage } from "@persona/platform/http";
import { Alert, Shell, signedIn } from "@/taxes/components/Shell";
import { taxContext } from "@/taxes/lib/context";
import { one, type SearchParams } from "@/taxes/lib/params";
import { currentReturn, issuedForms, returnsOf } from "@/taxes/lib/store";
import { t } from "@/taxes/lib/words";

export default async function Home({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  const user = await signedIn("/");
  const ctx = taxContext();
  const ret = currentReturn(ctx, user);
  const forms = issuedForms(ctx, ret?.id ?? null);
  const all = returnsOf(user);
  const first = user.full_name.split(" ")[0];
  return (
    <Shell ctx={ctx} user={user}>
      <Alert error={errorMessage(sp)} notice={one(sp.saved) ? t(ctx, "saved") : ""} />
      <section className="ll-card" data-testid="this-year">
        <h1>
          {t(ctx, "welcome")}, {first}
        </h1>
        {!ctx.supported ? (
          <p className="ll-muted" data-testid="no-return">
            {t(ctx, "noCountry")}
          </p>
        ) : ret?.status === "filed" ? (
          <p>
            {t(ctx, "filedTitle")}: {t(ctx, "confirmation")} <b data-testid="confirmation">{ret.confirmation}</b>
          </p>
        ) : ret ? (
          <>
            <p data-testid="left-on">{t(ctx, "leftOn", t(ctx, ret.step))}</p>
            <Link className="ll-primary" href={`/return/${ret.step}`} data-testid="continue">
              {t(ctx, "continue")}
            </Link>
          </>
        ) : (
          <Link className="ll-primary" href="/return/personal" data-testid="start">
            {t(ctx, "start", ctx.taxYear)}
          </Link>
        )}
      </section>
      {ctx.supported ? (
        <>
          <section className="ll-card">
            <h2>{t(ctx, "forms")}</h2>
            {forms.length ? (
              <ul className="ll-forms">
                {forms.map((f) => (
                  <li key={f.id}>
                    <span className="ll-form-name">{f.form}</span>
                    <span>{f.issuer}</span>
                    <span className="ll-spacer" />
                    <span className="ll-muted">{ctx.day(f.issued_at)}</span>
                    {f.imported ? <span className="ll-badge">{t(ctx, "imported")}</span> : null}
                  </li>
                ))}
              </ul>
            ) : (
              <p className="ll-muted">{t(ctx, "noForms")}</p>
            )}
          </section>
          <section className="ll-card">
            <h2>{t(ctx, "yourReturns")}</h2>
            <table className="ll-table" data-testid="returns">
              <tbody>
                {all.map((r) => (
                  <tr key={r.id}>
                    <td>{r.tax_year}</td>
                    <td>{t(ctx, r.status === "filed" ? "status_filed" : "status_draft")}</td>
                    <td>{r.filed_at ? ctx.day(r.filed_at) : ""}</td>
                    <td className="ll-num">
                      {r.refund_cents === null ? "" : `${t(ctx, r.refund_cents >= 0 ? "filedRefund" : "filedOwed")} ${ctx.money(Math.abs(r.refund_cents))}`}
                    </td>
                    <td>{r.confirmation ?? ""}</td>
                    <td>{r.world_ref ? <a href={`/api/returns/${r.id}/pdf`}>{t(ctx, "download")}</a> : null}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </>
      ) : null}
    </Shell>
  );
}
