import Link from "next/link";

export default function NotFound() {
  return (
    <div className="bs-login">
      <div className="bs-login-card">
        <h1>We couldn&apos;t find that page</h1>
        <p className="bs-muted">The stay or trip you are looking for doesn&apos;t exist.</p>
        <p>
          <Link href="/">Back to Bramblestay</Link>
        </p>
      </div>
    </div>
  );
}
