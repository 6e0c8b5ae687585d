import Link from "next/link";

export default function NotFound() {
  return (
    <div className="sw-login">
      <div className="sw-login-card">
        <h1>Looking for something?</h1>
        <p className="sw-muted">We couldn&apos;t find that page, product or order.</p>
        <p>
          <Link href="/">Back to Shopwell</Link>
        </p>
      </div>
    </div>
  );
}
