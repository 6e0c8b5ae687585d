import { SIGN_IN_LOCKED } from "@persona/platform/session";
import { Alert, Button, Field, Input } from "@persona/ui";

export const metadata = { title: "Sign in" };

/** The sign-in page for the persona's credentials (listed in the image manifest). */
export default async function Login({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const sp = await searchParams;
  return (
    <main className="__APP__-main">
      <h1>Sign in to __TITLE__</h1>
      {sp.error === "locked" ? (
        <Alert tone="error">{SIGN_IN_LOCKED.en}</Alert>
      ) : sp.error ? (
        <Alert tone="error">The username or password is incorrect.</Alert>
      ) : null}
      <form action="/api/session" method="post" data-testid="login-form">
        <input type="hidden" name="next" value={sp.next ?? ""} />
        <Field label="Username" htmlFor="username">
          <Input id="username" name="username" autoComplete="username" required defaultValue={sp.username ?? ""} />
        </Field>
        <Field label="Password" htmlFor="password">
          <Input id="password" name="password" type="password" autoComplete="current-password" required />
        </Field>
        <Button>Sign in</Button>
      </form>
    </main>
  );
}
