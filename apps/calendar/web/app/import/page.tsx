import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import { Shell } from "@/calendar/components/Shell";
import { requireUser } from "@/calendar/lib/auth";
import { calContext } from "@/calendar/lib/context";
import type { Search } from "@/calendar/lib/search";

export const metadata = { title: "Import" };

export default async function ImportPage({ searchParams }: { searchParams: Promise<Search> }) {
  const sp = await searchParams;
  const user = await requireUser();
  const ctx = calContext();
  return (
    <Shell user={user} view={null} date={ctx.today} title="Import" error={errorMessage(sp) || undefined}>
      <form action="/api/import" method="post" encType="multipart/form-data" className="dbk-form" data-testid="import-form">
        <h2>Add events from an .ics file</h2>
        <p className="muted">Choose an invitation (invite.ics) or calendar file saved from mail.</p>
        <input type="hidden" name="_idem" value={idempotencyToken()} />
        <input type="file" name="file" accept=".ics,text/calendar" aria-label="iCalendar file" />
        <div className="dbk-form-actions">
          <button type="submit" className="dbk-primary">
            Import
          </button>
        </div>
      </form>
    </Shell>
  );
}
