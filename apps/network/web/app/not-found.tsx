import Link from "next/link";

export default function NotFound() {
  return (
    <div className="gl-login">
      <div className="gl-card gl-login-card">
        <h1>This page doesn't exist</h1>
        <p className="gl-muted">The profile, post or job may have been removed.</p>
        <p>
          <Link href="/">Back to your feed</Link>
        </p>
      </div>
    </div>
  );
}
