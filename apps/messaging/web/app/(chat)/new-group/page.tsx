import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import { Avatar } from "@/messaging/components/Avatar";
import { Sidebar } from "@/messaging/components/Sidebar";
import { MAX_GROUP_NAME, listContacts } from "@/messaging/lib/chat";

export const metadata = { title: "New group" };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

export default async function NewGroup({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const error = errorMessage(sp);
  const contacts = listContacts();
  return (
    <>
      <Sidebar />
      <main className="pl-main pl-panel">
        <form action="/api/groups" method="post" className="pl-card pl-form" data-testid="new-group-form">
          <input type="hidden" name="_idem" value={idempotencyToken()} />
          <h1>New group</h1>
          {error ? (
            <p className="pl-alert" role="alert" data-testid="group-error">
              {error}
            </p>
          ) : null}
          <label className="pl-label">
            Group name
            <input name="title" required maxLength={MAX_GROUP_NAME} defaultValue={one(sp.title)} placeholder="Weekend plans" data-testid="group-title" />
          </label>
          <fieldset className="pl-pick">
            <legend>Add people (two or more)</legend>
            {contacts.map((c) => (
              <label key={c.id} className="pl-pick-row">
                <input type="checkbox" name="member" value={c.id} data-testid="group-member-pick" data-name={c.name} />
                <Avatar name={c.name} size={36} />
                <span>
                  <b>{c.name}</b>
                  <small className="pl-muted">{c.phone}</small>
                </span>
              </label>
            ))}
          </fieldset>
          <button type="submit" className="pl-primary" data-testid="create-group">
            Create group
          </button>
        </form>
      </main>
    </>
  );
}
