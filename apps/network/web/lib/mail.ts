import { callApp } from "@persona/platform/internal";
import { serviceDomain } from "@persona/platform/services";
import type { User } from "./app";
import type { Job } from "./network";

/**
 * The mail Guildline sends when the persona applies to a job, as LinkedIn does ("Your application was sent to
 * <company>"), delivered to the persona's Mailbox through the app that provides `mail-delivery` (its
 * /api/internal/deliver route). Best effort: a missing or refusing mail app leaves the application as it is.
 */
export async function mailApplied(user: User, job: Job, resumeName: string, appliedOn: string): Promise<void> {
  const host = serviceDomain("mail-delivery");
  if (!host || !user.email) return;
  const body = [
    `Hi ${user.full_name.split(" ")[0]},`,
    "",
    `Your application was sent to ${job.company}.`,
    "",
    `${job.title}`,
    `${job.company} · ${job.location} (${job.workplace})`,
    `Applied on ${appliedOn} with ${resumeName}`,
    "",
    `You can see your application at http://guildline.test/jobs/view/${job.id}. The employer may contact you by email or phone.`,
    "",
    "Guildline Jobs",
  ].join("\n");
  try {
    await callApp(host, "/api/internal/deliver", {
      from: { name: "Guildline Jobs", email: "jobs-noreply@guildline.test" }, to: [user.email],
      subject: `${user.full_name.split(" ")[0]}, your application was sent to ${job.company}`, body, folder: "inbox",
    }, 5000);
  } catch {
    /* the mail app is not on this machine, or refused: the application stands */
  }
}
