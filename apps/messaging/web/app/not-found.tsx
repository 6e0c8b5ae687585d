import Link from "next/link";

export default function NotFound() {
  return (
    <div className="pl-login">
      <div className="pl-login-card">
        <h1>Nothing here</h1>
        <p className="pl-muted">That conversation or page doesn't exist.</p>
        <p>
          <Link href="/">Back to your chats</Link>
        </p>
      </div>
    </div>
  );
}
