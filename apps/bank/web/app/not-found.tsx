import Link from "next/link";

export default function NotFound() {
  return (
    <div style={{ maxWidth: 560, margin: "96px auto", padding: "0 24px", textAlign: "center" }}>
      <h1 style={{ fontFamily: "var(--font-display)", fontSize: 30 }}>We can't find that page</h1>
      <p className="muted">The page may have moved, or the link may be incomplete.</p>
      <p>
        <Link href="/accounts">Go to your accounts</Link>
      </p>
    </div>
  );
}
