import Link from "next/link";

export default function NotFound() {
  return (
    <div className="tt-login">
      <div className="tt-login-card">
        <h1>We couldn&apos;t find that page</h1>
        <p className="tt-muted">The restaurant or reservation you are looking for doesn&apos;t exist.</p>
        <p>
          <Link href="/">Back to TableTime</Link>
        </p>
      </div>
    </div>
  );
}
