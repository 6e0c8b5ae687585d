export default function NotFound() {
  return (
    <main className="__APP__-main">
      <h1>Page not found</h1>
      <p>
        <a href="/">Back to __TITLE__</a>
      </p>
    </main>
  );
}
