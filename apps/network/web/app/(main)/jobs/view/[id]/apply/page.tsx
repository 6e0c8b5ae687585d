import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { Frame } from "@/network/components/Frame";
import { Flash } from "@/network/components/Nav";
import { requireUser } from "@/network/lib/auth";
import { networkContext } from "@/network/lib/context";
import { applicationFor, getJob, RESUME_ACCEPT } from "@/network/lib/network";

export const metadata = { title: "Easy Apply" };

/** Easy Apply: contact info (prefilled from the account), a résumé upload and the employer's one question. */
export default async function ApplyPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { id } = await params;
  const sp = await searchParams;
  const user = await requireUser();
  const { now } = networkContext();
  const j = /^\d{1,9}$/.test(id) ? getJob(Number(id)) : null;
  if (!j || j.posted_at > now) notFound();
  if (applicationFor(j.id)) redirect(`/jobs/view/${j.id}`);
  const [first, ...rest] = user.full_name.split(" ");
  return (
    <Frame active="jobs">
      <div className="gl-cols gl-cols-profile">
        <section className="gl-center">
          <Flash error={errorMessage(sp)} />
          <form action={`/api/applications?job=${j.id}`} method="post" encType="multipart/form-data" className="gl-card gl-form" data-testid="apply-form">
            <input type="hidden" name="_idem" value={idempotencyToken()} />
            <h1 className="gl-h2">Apply to {j.company}</h1>
            <p className="gl-muted gl-small gl-sub">{j.title} · {j.location}</p>
            <h2 className="gl-h3">Contact info</h2>
            <div className="gl-row">
              <label>First name<input value={first} readOnly /></label>
              <label>Last name<input value={rest.join(" ")} readOnly /></label>
            </div>
            <label>Email address<input type="email" name="email" defaultValue={user.email} required maxLength={254} /></label>
            <label>Mobile phone number<input type="tel" name="phone" defaultValue={user.phone} required maxLength={30} /></label>
            <h2 className="gl-h3">Résumé</h2>
            <label>
              Upload résumé
              <input type="file" name="resume" accept={RESUME_ACCEPT} required data-testid="resume" />
            </label>
            <p className="gl-muted gl-small">PDF or Word (DOC, DOCX), up to 2 MB. Be sure to include an updated résumé.</p>
            <h2 className="gl-h3">Additional questions</h2>
            <label>How many years of work experience do you have?<input type="number" name="years" min={0} max={60} step={1} required /></label>
            <p className="gl-muted gl-small">Submitting sends your contact info, résumé and answers to {j.company}.</p>
            <div className="gl-actions">
              <Link href={`/jobs/view/${j.id}`} className="gl-link">Cancel</Link>
              <button type="submit" className="gl-primary" data-testid="submit-application">Submit application</button>
            </div>
          </form>
        </section>
      </div>
    </Frame>
  );
}
