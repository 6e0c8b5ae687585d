import Link from "next/link";

export default function NotFound() {
  return (
    <div className="hd-empty-page">
      <h1>This page isn’t here</h1>
      <p className="muted">The channel or message may have been removed, or the link may be incomplete.</p>
      <p>
        <Link href="/">Back to your workspace</Link>
      </p>
    </div>
  );
}
