import Link from "next/link";

export default function NotFound() {
  return (
    <div className="ll-login">
      <div className="ll-card">
        <h1>We couldn&apos;t find that page</h1>
        <p className="ll-muted">The page you were looking for isn&apos;t part of your return.</p>
        <p>
          <Link href="/">Back to Ledgerleaf Tax</Link>
        </p>
      </div>
    </div>
  );
}
