import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import Link from "next/link";
import { Frame } from "@/network/components/Frame";
import { Flash } from "@/network/components/Nav";
import { networkContext } from "@/network/lib/context";
import { ago, one, salaryRange } from "@/network/lib/format";
import { searchJobs } from "@/network/lib/network";

export const metadata = { title: "Jobs" };

export default async function JobsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const q = one(sp.q);
  const where = one(sp.location);
  const saved = one(sp.saved) === "1";
  const applied = one(sp.applied) === "1";
  const { now, locale } = networkContext();
  const jobs = searchJobs(q, where, saved ? "saved" : applied ? "applied" : "");
  const back = `/jobs?${new URLSearchParams({ q, location: where, ...(saved ? { saved: "1" } : {}), ...(applied ? { applied: "1" } : {}) }).toString()}`;
  return (
    <Frame active="jobs">
      <div className="gl-cols gl-cols-profile">
        <section className="gl-center">
          <form action="/jobs" method="get" className="gl-card gl-form gl-row" data-testid="job-search">
            <label>Keywords<input name="q" defaultValue={q} placeholder="Title, skill or company" maxLength={100} /></label>
            <label>Location<input name="location" defaultValue={where} placeholder="City or Remote" maxLength={100} /></label>
            <label className="gl-check"><input type="checkbox" name="saved" value="1" defaultChecked={saved} /> Saved only</label>
            <label className="gl-check"><input type="checkbox" name="applied" value="1" defaultChecked={applied} /> Applied only</label>
            <button type="submit" className="gl-primary">Search</button>
          </form>
          <Flash error={errorMessage(sp)} />
          <section className="gl-card">
            <h2 className="gl-h2" data-testid="job-count">{jobs.length} {jobs.length === 1 ? "result" : "results"}</h2>
            <ul className="gl-list">
              {jobs.map((j) => (
                <li key={j.id} className="gl-job" data-testid="job" data-id={j.id} data-slug={j.slug} data-saved={j.saved ? "1" : "0"}>
                  <div className="gl-exp-logo" aria-hidden="true">{j.company.slice(0, 1)}</div>
                  <div className="gl-grow">
                    <Link href={`/jobs/view/${j.id}`} className="gl-strong" data-testid="job-title">{j.title}</Link>
                    <div>{j.company}</div>
                    <div className="gl-muted gl-small">{j.location} · {j.workplace} · {salaryRange(j.salary_min_cents, j.salary_max_cents, j.currency, locale)}</div>
                    <p className="gl-small">{j.summary}</p>
                    <div className="gl-muted gl-small">Skills: {(JSON.parse(j.skills_json) as string[]).join(", ")} · posted {ago(j.posted_at, now)} ago</div>
                    {j.applied_at ? <div className="gl-applied gl-small" data-testid="applied">Applied {ago(j.applied_at, now) === "now" ? "just now" : `${ago(j.applied_at, now)} ago`}</div> : null}
                  </div>
                  <form action="/api/jobs" method="post">
                    <input type="hidden" name="_idem" value={idempotencyToken()} />
                    <input type="hidden" name="job" value={j.id} />
                    <input type="hidden" name="back" value={back} />
                    <button type="submit" name="action" value={j.saved ? "unsave" : "save"} className={j.saved ? "gl-primary" : "gl-secondary"} data-testid="save">
                      {j.saved ? "Saved" : "Save"}
                    </button>
                  </form>
                </li>
              ))}
            </ul>
          </section>
        </section>
      </div>
    </Frame>
  );
}
