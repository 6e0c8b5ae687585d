import Link from "next/link";

export default function NotFound() {
  return (
    <div className="tw-login">
      <div className="tw-login-card">
        <h1>Page not found</h1>
        <p className="tw-muted">Tidewell has no page, symbol or order at that address.</p>
        <p>
          <Link href="/">Back to your Tidewell portfolio</Link>
        </p>
      </div>
    </div>
  );
}
