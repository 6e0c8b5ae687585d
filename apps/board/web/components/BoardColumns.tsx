"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";

export interface Card {
  key: string;
  title: string;
  status: string;
  priority: string;
  type: string;
  points: number | null;
  assignee: string | null;
  labels: string[];
  project: string;
  due: string | null;
}

const initials = (name: string | null) => (name ? name.split(/\s+/).map((p) => p[0]).slice(0, 2).join("").toUpperCase() : "–");

/**
 * The sprint's columns. A card is draggable (HTML5 drag and drop): the drop posts the new status as JSON to
 * /api/tickets/<key>/status and refreshes the board from the server. Each card also carries a small form that
 * posts the same route without script (the fallback).
 */
export function BoardColumns({ columns, cards, back }: { columns: { status: string; label: string }[]; cards: Card[]; back: string }) {
  const router = useRouter();
  const [over, setOver] = useState<string | null>(null);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  async function drop(key: string, status: string) {
    setOver(null);
    const card = cards.find((c) => c.key === key);
    if (!card || card.status === status) return;
    setBusy(true);
    setError("");
    try {
      const res = await fetch(`/api/tickets/${encodeURIComponent(key)}/status`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ status }),
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => ({}))) as { error?: string };
        setError(body.error || "The move did not go through.");
      }
      router.refresh();
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      {error ? (
        <p className="cn-alert" role="alert">
          {error}
        </p>
      ) : null}
      <div className="cn-columns" data-busy={busy ? "1" : "0"}>
        {columns.map((col) => {
          const mine = cards.filter((c) => c.status === col.status);
          return (
            <section
              key={col.status}
              className={`cn-column${over === col.status ? " cn-over" : ""}`}
              data-testid="column"
              data-status={col.status}
              onDragOver={(e) => {
                e.preventDefault();
                e.dataTransfer.dropEffect = "move";
                setOver(col.status);
              }}
              onDragLeave={() => setOver((o) => (o === col.status ? null : o))}
              onDrop={(e) => {
                e.preventDefault();
                const key = e.dataTransfer.getData("text/plain");
                if (key) void drop(key, col.status);
              }}
            >
              <h2>
                {col.label} <span className="cn-count">{mine.length}</span>
              </h2>
              {mine.map((c) => (
                <article
                  key={c.key}
                  className={`cn-card cn-pri-${c.priority}`}
                  draggable
                  data-testid="card"
                  data-key={c.key}
                  data-status={c.status}
                  onDragStart={(e) => {
                    e.dataTransfer.setData("text/plain", c.key);
                    e.dataTransfer.effectAllowed = "move";
                  }}
                >
                  <div className="cn-card-top">
                    <span className={`cn-type cn-type-${c.type}`}>{c.type}</span>
                    <Link href={`/t/${c.key}`} className="cn-key">
                      {c.key}
                    </Link>
                    <span className="cn-avatar" title={c.assignee ?? "Unassigned"}>
                      {initials(c.assignee)}
                    </span>
                  </div>
                  <Link href={`/t/${c.key}`} className="cn-card-title">
                    {c.title}
                  </Link>
                  <div className="cn-card-meta">
                    <span className={`cn-priority cn-priority-${c.priority}`}>{c.priority}</span>
                    {c.points != null ? <span className="cn-points">{c.points} pt</span> : null}
                    {c.labels.map((l) => (
                      <span key={l} className="cn-label">
                        {l}
                      </span>
                    ))}
                  </div>
                  <form action={`/api/tickets/${c.key}/status`} method="post" className="cn-move">
                    <input type="hidden" name="back" value={back} />
                    <select name="status" defaultValue={c.status} aria-label={`Status of ${c.key}`}>
                      {columns.map((o) => (
                        <option key={o.status} value={o.status}>
                          {o.label}
                        </option>
                      ))}
                    </select>
                    <button type="submit">Move</button>
                  </form>
                </article>
              ))}
            </section>
          );
        })}
      </div>
    </>
  );
}
