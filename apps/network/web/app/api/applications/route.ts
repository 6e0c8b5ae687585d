import type { NextRequest } from "next/server";
import { field, formPostFile, idValue, withQuery } from "@/network/lib/http";
import { networkContext } from "@/network/lib/context";
import { mailApplied } from "@/network/lib/mail";
import { applyToJob, RESUME_MAX_BYTES } from "@/network/lib/network";

export const dynamic = "force-dynamic";

const jobOf = (req: NextRequest) => idValue(req.nextUrl.searchParams.get("job") ?? "");

/** Easy Apply to the job `?job=<id>` (multipart): `email`, `phone`, `years` (0-60) and the file `resume` (PDF, DOCX
 * or DOC, at most 2 MB). A refusal (or a body over the limit) goes back to the form with its message; a sent
 * application to the job's page, and Guildline mails the persona that it was sent. */
export const POST = formPostFile(RESUME_MAX_BYTES + 64 * 1024, "A résumé can be at most 2 MB.", (req) => `/jobs/view/${jobOf(req) || 0}/apply`, async (user, form, req) => {
  const { job, resumeName } = await applyToJob(jobOf(req), { email: field(form, "email"), phone: field(form, "phone"), years: field(form, "years"), resume: form.get("resume") });
  const ctx = networkContext();
  await mailApplied(user, job, resumeName, ctx.date(ctx.today, "long"));
  return withQuery(`/jobs/view/${job.id}`, { done: `Your application was sent to ${job.company}.` });
});
