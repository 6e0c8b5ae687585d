import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import { Notice, one, type Search } from "@/mail/components/Notice";
import { requireUser } from "@/mail/lib/auth";
import { allLabels } from "@/mail/lib/mail";

export const metadata = { title: "Settings" };

export default async function SettingsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const sp = await searchParams;
  const user = await requireUser();
  const labels = allLabels();
  return (
    <section className="mb-settings">
      <Notice notice={one(sp.notice)} error={errorMessage(sp)} />
      <h1 className="mb-list-title">Settings</h1>
      <div className="mb-card">
        <h2>Signature</h2>
        <p className="mb-muted">Added below what you write in new mail, replies and forwards, after a “-- ” line.</p>
        <form action="/api/settings" method="post">
          <input type="hidden" name="_idem" value={idempotencyToken()} />
          <textarea name="signature" id="signature" aria-label="Signature" rows={4} defaultValue={user.signature} className="mb-cf-body" />
          <button className="mb-primary" data-testid="save-signature">Save changes</button>
        </form>
      </div>
      <div className="mb-card" id="labels">
        <h2>Labels</h2>
        <ul className="mb-label-list">
          {labels.map((l) => (
            <li key={l.id}>
              <span className="mb-dot" style={{ background: l.color }} aria-hidden="true" /> {l.name}
            </li>
          ))}
        </ul>
        <form action="/api/labels" method="post" className="mb-inline-form">
          <input type="hidden" name="_idem" value={idempotencyToken()} />
          <input name="name" aria-label="New label name" placeholder="New label name" maxLength={200} />
          <button className="mb-tool">Create label</button>
        </form>
      </div>
      <div className="mb-card">
        <h2>Account</h2>
        <p>
          {user.full_name} · {user.email}
          {user.work_email ? ` · also sends as ${user.work_email}` : ""}
        </p>
      </div>
    </section>
  );
}
