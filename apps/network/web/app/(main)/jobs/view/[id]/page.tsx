import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Frame } from "@/network/components/Frame";
import { Flash } from "@/network/components/Nav";
import { networkContext } from "@/network/lib/context";
import { ago, one, salaryRange } from "@/network/lib/format";
import { applicationFor, getJob } from "@/network/lib/network";

export const metadata = { title: "Job" };

/** One posting: what the job is, Save, and Easy Apply (or the application already sent). */
export default async function JobPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { id } = await params;
  const sp = await searchParams;
  const { now, locale, dateTime } = networkContext();
  const j = /^\d{1,9}$/.test(id) ? getJob(Number(id)) : null;
  if (!j || j.posted_at > now) notFound();
  const app = applicationFor(j.id);
  return (
    <Frame active="jobs">
      <div className="gl-cols gl-cols-profile">
        <section className="gl-center">
          <Flash error={errorMessage(sp)} notice={one(sp.done)} />
          <article className="gl-card gl-job-view" data-testid="job-view" data-slug={j.slug}>
            <div className="gl-muted gl-small">{j.company} · {j.location} · posted {ago(j.posted_at, now)} ago</div>
            <h1 className="gl-job-title" data-testid="job-title">{j.title}</h1>
            <p><span className="gl-pill">{j.workplace}</span> <span className="gl-pill">Full-time</span> <span className="gl-pill">{salaryRange(j.salary_min_cents, j.salary_max_cents, j.currency, locale)}</span></p>
            <div className="gl-actions">
              {app ? (
                <span className="gl-applied" data-testid="applied">Applied {ago(app.submitted_at, now) === "now" ? "just now" : `${ago(app.submitted_at, now)} ago`}</span>
              ) : (
                <Link href={`/jobs/view/${j.id}/apply`} className="gl-primary" data-testid="easy-apply">Easy Apply</Link>
              )}
              <form action="/api/jobs" method="post">
                <input type="hidden" name="_idem" value={idempotencyToken()} />
                <input type="hidden" name="job" value={j.id} />
                <input type="hidden" name="back" value={`/jobs/view/${j.id}`} />
                <button type="submit" name="action" value={j.saved ? "unsave" : "save"} className="gl-secondary" data-testid="save">{j.saved ? "Saved" : "Save"}</button>
              </form>
            </div>
            <h2 className="gl-h2">About the job</h2>
            <p>{j.summary}</p>
            <p className="gl-small"><span className="gl-strong">Skills:</span> {(JSON.parse(j.skills_json) as string[]).join(", ")}</p>
          </article>
          {app ? (
            <section className="gl-card" data-testid="application">
              <h2 className="gl-h2">Your application</h2>
              <p className="gl-small">Submitted {dateTime(app.submitted_at)} · status: Application submitted</p>
              <ul className="gl-small">
                <li>Email: {app.email}</li>
                <li>Mobile phone: {app.phone}</li>
                <li>Résumé: <span data-testid="resume-name">{app.resume_name}</span> ({Math.max(1, Math.round(app.resume_size / 1024))} KB)</li>
                <li>Years of work experience: {app.years}</li>
              </ul>
            </section>
          ) : null}
          <p><Link href="/jobs">← Jobs</Link></p>
        </section>
      </div>
    </Frame>
  );
}
