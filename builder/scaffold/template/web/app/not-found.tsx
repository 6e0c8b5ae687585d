import { app } from "@/__APP__/lib/app";

export default function NotFound() {
  return (
    <main className="__APP__-main">
      <h1>Page not found</h1>
      <p>
        <a href="/">Back to {app.settings.title}</a>
      </p>
    </main>
  );
}
