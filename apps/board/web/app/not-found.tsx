import Link from "next/link";

export default function NotFound() {
  return (
    <div className="cn-login">
      <div className="cn-login-card">
        <h1>Nothing here</h1>
        <p className="cn-muted">That ticket or page does not exist on this board.</p>
        <p>
          <Link href="/board">Back to the sprint board</Link>
        </p>
      </div>
    </div>
  );
}
