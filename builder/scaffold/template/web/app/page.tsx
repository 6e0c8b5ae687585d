import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import { Alert, Button, Card, Field, Input } from "@persona/ui";
import { db, now, requireUser } from "@/__APP__/lib/app";

interface Note {
  id: number;
  title: string;
  created_at: string;
}

/** The signed-in home: a greeting and the persona's notes (the scaffold's example workflow). */
export default async function Home({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const user = await requireUser();
  const sp = await searchParams;
  const error = errorMessage(sp);
  const notes = db().prepare("SELECT id, title, created_at FROM notes WHERE user_id = ? ORDER BY created_at DESC, id DESC").all(user.id) as Note[];
  return (
    <main className="__APP__-main">
      <h1 data-testid="greeting">Hello, {user.full_name}</h1>
      <p className="muted" data-testid="today">Today is {now().slice(0, 10)}</p>
      <Card>
        {error ? <Alert tone="error">{error}</Alert> : null}
        <form action="/api/notes" method="post">
          <input type="hidden" name="_idem" value={idempotencyToken()} />
          <Field label="New note" htmlFor="title">
            <Input id="title" name="title" maxLength={200} required />
          </Field>
          <Button>Add note</Button>
        </form>
        <ul className="__APP__-notes" data-testid="notes">
          {notes.map((n) => (
            <li key={n.id}>{n.title}</li>
          ))}
        </ul>
      </Card>
      <form action="/api/logout" method="post">
        <button type="submit">Sign out</button>
      </form>
    </main>
  );
}
