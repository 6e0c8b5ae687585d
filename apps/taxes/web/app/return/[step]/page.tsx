import { notFound, redirect } from "next/navigation";
import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import { Alert, Shell, signedIn } from "@/taxes/components/Shell";
import type { User } from "@/taxes/lib/auth";
import { taxContext, type TaxContext } from "@/taxes/lib/context";
import { fieldsOf, STEPS, type FieldDef, type Step } from "@/taxes/lib/fields";
import { one, type SearchParams } from "@/taxes/lib/params";
import { currentReturn, effectiveValues, issuedForms, missing, resultOf, shownValue, valuesOf } from "@/taxes/lib/store";
import { countryRules } from "@/taxes/lib/taxcalc";
import { t } from "@/taxes/lib/words";

export default async function StepPage({ params, searchParams }: { params: Promise<{ step: string }>; searchParams: SearchParams }) {
  const { step: raw } = await params;
  if (!STEPS.includes(raw as Step)) notFound();
  const step = raw as Step;
  const sp = await searchParams;
  const user = await signedIn(`/return/${step}`);
  const ctx = taxContext();
  if (!ctx.supported) redirect("/"); // no return to file where the persona lives: the start page says so
  const ret = currentReturn(ctx, user);
  const values = ret ? valuesOf(ret.id) : {};
  const result = resultOf(ctx, values);
  const bad = one(sp.field);
  const filed = ret?.status === "filed";
  const meter = (
    <div className="ll-meter" data-testid="meter">
      <span>{t(ctx, result.refund >= 0 ? "refund" : "owed")}</span>
      <strong data-testid="meter-amount">{ctx.money(Math.abs(result.refund))}</strong>
    </div>
  );
  const notice = one(sp.imported) ? `${t(ctx, "imported")}: ${one(sp.imported)}` : one(sp.saved) ? t(ctx, "saved") : "";
  return (
    <Shell ctx={ctx} user={user} step={step}>
      {meter}
      <Alert error={errorMessage(sp)} notice={notice} />
      {step === "review" ? (
        <Review ctx={ctx} values={effectiveValues(ctx, user, values)} />
      ) : step === "file" ? (
        <FileStep ctx={ctx} user={user} filed={filed} confirmation={ret?.confirmation ?? ""} refund={ret?.refund_cents ?? result.refund} values={values} bad={bad} />
      ) : (
        <section className="ll-card">
          <h1>{t(ctx, step)}</h1>
          {step === "personal" ? <p className="ll-muted">{t(ctx, "prefilled")}</p> : null}
          {step === "income" ? <Imports ctx={ctx} returnId={ret?.id ?? null} filed={filed} /> : null}
          {step === "deductions" && ctx.country === "US" ? (
            <p className="ll-muted" data-testid="deduction-compare">
              {t(ctx, "standard")}: {ctx.money(result.standard ?? 0)} · {t(ctx, "itemised")}: {ctx.money(result.itemised ?? 0)}
            </p>
          ) : null}
          <form action="/api/return/save" method="post" className="ll-form" data-testid={`step-${step}`}>
            <input type="hidden" name="step" value={step} />
            {step === "income" ? <h2>{t(ctx, "typed")}</h2> : null}
            <Fields ctx={ctx} user={user} defs={fieldsOf(ctx.country, step)} values={values} bad={bad} disabled={filed} />
            <div className="ll-actions">
              {step !== "personal" ? (
                <button className="ll-secondary" name="go" value="back" type="submit" disabled={filed}>
                  {t(ctx, "back")}
                </button>
              ) : null}
              <button className="ll-primary" name="go" value="next" type="submit" disabled={filed}>
                {t(ctx, "next")}
              </button>
              <button className="ll-link" name="go" value="exit" type="submit" disabled={filed}>
                {t(ctx, "exit")}
              </button>
            </div>
          </form>
        </section>
      )}
    </Shell>
  );
}

function Fields({ ctx, user, defs, values, bad, disabled }: { ctx: TaxContext; user: User; defs: FieldDef[]; values: Record<string, string>; bad: string; disabled: boolean }) {
  const groups: string[] = [];
  for (const d of defs) if (!groups.includes(d.group ?? "")) groups.push(d.group ?? "");
  return (
    <>
      {groups.map((g) => {
        const inner = (
          <div className="ll-grid">
            {defs
              .filter((d) => (d.group ?? "") === g)
              .map((d) => (
                <label key={d.name}>
                  {d.label}
                  {d.kind === "choice" ? (
                    <select name={d.name} defaultValue={shownValue(ctx, user, d, values)} disabled={disabled}>
                      {d.options!.map(([v, label]) => (
                        <option key={v} value={v}>
                          {label}
                        </option>
                      ))}
                    </select>
                  ) : (
                    <input
                      name={d.name}
                      defaultValue={shownValue(ctx, user, d, values)}
                      inputMode={d.kind === "money" ? "decimal" : undefined}
                      aria-invalid={bad === d.name ? "true" : undefined}
                      required={d.required && d.kind !== "money"}
                      disabled={disabled}
                      maxLength={d.kind === "money" ? 20 : 120}
                    />
                  )}
                  {d.hint ? <span className="ll-hint">{d.hint}</span> : null}
                </label>
              ))}
          </div>
        );
        return g ? (
          <fieldset key={g}>
            <legend>{g}</legend>
            {inner}
          </fieldset>
        ) : (
          <div key="_">{inner}</div>
        );
      })}
    </>
  );
}

function Imports({ ctx, returnId, filed }: { ctx: TaxContext; returnId: number | null; filed: boolean }) {
  const forms = issuedForms(ctx, returnId);
  return (
    <div>
      <h2>{t(ctx, "forms")}</h2>
      {forms.length ? (
        <ul className="ll-forms" data-testid="issued-forms">
          {forms.map((f) => (
            <li key={f.id}>
              <span className="ll-form-name">{f.form}</span>
              <span>{f.issuer}</span>
              <span className="ll-spacer" />
              {f.imported ? <span className="ll-badge">{t(ctx, "imported")}</span> : null}
              <form action="/api/return/import" method="post">
                <input type="hidden" name="form" value={f.id} />
                <button className="ll-secondary" type="submit" disabled={filed} data-testid={`import-${f.form}`}>
                  {t(ctx, "import")}
                </button>
              </form>
            </li>
          ))}
        </ul>
      ) : (
        <p className="ll-muted">{t(ctx, "noForms")}</p>
      )}
    </div>
  );
}

function Review({ ctx, values }: { ctx: TaxContext; values: Record<string, string> }) {
  const r = resultOf(ctx, values);
  const gaps = missing(ctx, values);
  const rules = countryRules(ctx.country);
  const rows: [string, string, number][] = [
    ["total-income", t(ctx, "totalIncome"), r.total_income],
    ["deduction", t(ctx, "deduction"), r.deduction],
    ["taxable", t(ctx, "taxable"), r.taxable],
    ...(r.preferential ? ([["preferential", t(ctx, "preferential"), r.preferential]] as [string, string, number][]) : []),
    ["tax", t(ctx, "tax"), r.tax],
    ["withheld", t(ctx, "withheld"), r.withheld],
  ];
  return (
    <section className="ll-card">
      <h1>{t(ctx, "review")}</h1>
      <table className="ll-table" data-testid="summary">
        <tbody>
          {rows.map(([key, label, cents]) => (
            <tr key={key}>
              <td>{label}</td>
              <td className="ll-num" data-testid={`line-${key}`}>
                {ctx.money(cents)}
              </td>
            </tr>
          ))}
          <tr>
            <th>{t(ctx, r.refund >= 0 ? "refund" : "owed")}</th>
            <td className="ll-num" data-testid="result">
              <b>{ctx.money(Math.abs(r.refund))}</b>
            </td>
          </tr>
        </tbody>
      </table>
      {gaps.length ? (
        <div data-testid="missing">
          <h2>{t(ctx, "missingTitle")}</h2>
          <ul>
            {gaps.map((g) => (
              <li key={g.name}>
                <a href={`/return/${g.step}`}>{g.label}</a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <details>
        <summary>{t(ctx, "rulesNote")}</summary>
        <p className="ll-muted">{rules.years[ctx.yearKey]?._source}</p>
        {rules.years[ctx.yearKey]?.capital_gains ? (
          <p className="ll-muted" data-testid="capital-gains-source">
            {rules._capital_gains} {rules.years[ctx.yearKey].capital_gains._source}
          </p>
        ) : null}
        <ul className="ll-muted">
          {(rules.simplifications as string[]).map((s) => (
            <li key={s}>{s}</li>
          ))}
        </ul>
      </details>
      <div className="ll-actions">
        <a className="ll-secondary" href="/return/deductions">
          {t(ctx, "back")}
        </a>
        <a className="ll-primary" href="/return/file">
          {t(ctx, "next")}
        </a>
      </div>
    </section>
  );
}

function FileStep(props: { ctx: TaxContext; user: User; filed: boolean; confirmation: string; refund: number; values: Record<string, string>; bad: string }) {
  const { ctx, user, filed, confirmation, refund, bad } = props;
  if (filed)
    return (
      <section className="ll-card" data-testid="filed">
        <h1>{t(ctx, "filedTitle")}</h1>
        <p>
          {t(ctx, "confirmation")}: <b data-testid="confirmation">{confirmation}</b>
        </p>
        <p data-testid="next-money">{refund >= 0 ? t(ctx, "expectRefund", ctx.money(refund), user.bank_last4) : t(ctx, "payBy", ctx.money(-refund))}</p>
      </section>
    );
  return (
    <section className="ll-card">
      <h1>{t(ctx, "file")}</h1>
      <form action="/api/return/file" method="post" className="ll-form" data-testid="file-form">
        <input type="hidden" name="_idem" value={idempotencyToken()} />
        <label style={{ display: "flex", gap: 8, fontWeight: 400 }}>
          <input type="checkbox" name="consent" value="yes" aria-invalid={bad === "consent" ? "true" : undefined} />
          {t(ctx, "declaration")}
        </label>
        <label>
          {t(ctx, "signLabel")}
          <input name="signature" autoComplete="off" aria-invalid={bad === "signature" ? "true" : undefined} />
        </label>
        <div className="ll-actions">
          <a className="ll-secondary" href="/return/review">
            {t(ctx, "back")}
          </a>
          <button className="ll-primary" type="submit">
            {t(ctx, "fileNow")}
          </button>
        </div>
      </form>
    </section>
  );
}
