import { Alert, Button, Field, Input } from "@persona/ui";
import { app } from "@/__APP__/lib/app";

export const metadata = { title: "Sign in" };

/** The sign-in page for the persona's credentials (listed in the image manifest): the shared form
 * (@persona/platform/signin) drawn with @persona/ui, inside the app's own layout. */
export default app.signInPage({
  form: {
    words: { invalid: "The username or password is incorrect." },
    notice: (tone, text) => <Alert tone={tone === "ok" ? "success" : "error"}>{text}</Alert>,
    field: (label, input) => (
      <Field label={label} htmlFor={input.id}>
        <Input {...input} />
      </Field>
    ),
    button: (label) => <Button>{label}</Button>,
  },
  layout: (form) => (
    <main className="__APP__-main">
      <h1>Sign in to {app.settings.title}</h1>
      {form}
    </main>
  ),
});
