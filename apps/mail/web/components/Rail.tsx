import Link from "next/link";
import { allLabels, railCounts, SYSTEM_FOLDERS } from "@/mail/lib/mail";

/** The left rail: Compose, the system folders with unread counts, then the labels. */
export function Rail() {
  const counts = railCounts();
  const labels = allLabels();
  return (
    <nav className="mb-rail" aria-label="Folders">
      <Link href="/compose" className="mb-compose" data-testid="compose">
        <span aria-hidden="true">✎</span> Compose
      </Link>
      <ul>
        {SYSTEM_FOLDERS.map((f) => {
          const n = f.key === "drafts" ? counts.folders.drafts : f.key === "inbox" || f.key === "spam" ? counts.folders[f.key] : 0;
          return (
            <li key={f.key}>
              <Link href={f.href} className="mb-folder" data-testid={`folder-${f.key}`}>
                <span>{f.title}</span>
                {n ? (
                  <span className="mb-badge" data-testid={`badge-${f.key}`}>
                    {n.toLocaleString()}
                  </span>
                ) : null}
              </Link>
            </li>
          );
        })}
      </ul>
      <div className="mb-rail-head">
        <span>Labels</span>
        <Link href="/settings#labels" aria-label="Manage labels" className="mb-rail-plus">
          +
        </Link>
      </div>
      <ul>
        {labels.map((l) => (
          <li key={l.id}>
            <Link href={`/label/${encodeURIComponent(l.name)}`} className="mb-folder" data-testid={`label-${l.name}`}>
              <span>
                <span className="mb-dot" style={{ background: l.color }} aria-hidden="true" />
                {l.name}
              </span>
              {counts.labels[l.id] ? <span className="mb-badge-soft">{counts.labels[l.id].toLocaleString()}</span> : null}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
