import Link from "next/link";

export default function NotFound() {
  return (
    <div className="hl-login">
      <div className="hl-login-card">
        <h1>No such market</h1>
        <p className="hl-muted">We couldn&apos;t find that page or market.</p>
        <p>
          <Link href="/">Back to Hunchline</Link>
        </p>
      </div>
    </div>
  );
}
