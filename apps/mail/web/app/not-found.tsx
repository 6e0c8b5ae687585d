import Link from "next/link";

export default function NotFound() {
  return (
    <div className="mb-notfound">
      <h1>That page isn't in your Mailbox</h1>
      <p>The conversation may have been deleted, or the link is incomplete.</p>
      <p>
        <Link href="/">Back to Inbox</Link>
      </p>
    </div>
  );
}
