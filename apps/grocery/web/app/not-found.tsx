import Link from "next/link";

export default function NotFound() {
  return (
    <main className="bf-empty-page">
      <h1>We couldn't find that aisle</h1>
      <p className="bf-muted">The page you asked for isn't on Basketful.</p>
      <Link href="/" className="bf-primary">Back to stores</Link>
    </main>
  );
}
