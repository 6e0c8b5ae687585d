import Link from "next/link";

export default function NotFound() {
  return (
    <div className="dbk-lost">
      <h1>This page is not in your Daybook</h1>
      <p>The event may have been deleted, or the link is wrong.</p>
      <Link href="/week">Back to this week</Link>
    </div>
  );
}
