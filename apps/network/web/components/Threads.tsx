import Link from "next/link";
import { ago } from "@/network/lib/format";
import type { ThreadItem } from "@/network/lib/network";
import { Avatar } from "./Logo";

/** The list of message threads, newest first. */
export function Threads({ threads, now, current }: { threads: ThreadItem[]; now: string; current?: number }) {
  return (
    <ul className="gl-threads">
      {threads.map((t) => (
        <li key={t.id} className={t.id === current ? "gl-on" : ""}>
          <Link href={`/messaging/${t.id}`} data-testid="thread" data-id={t.id} data-name={t.name} data-unread={t.unread}>
            <Avatar name={t.name} size={40} />
            <div className="gl-grow">
              <div className="gl-thread-top"><span className={t.unread ? "gl-strong" : ""}>{t.name}</span><span className="gl-muted gl-small">{t.last_at ? ago(t.last_at, now) : ""}</span></div>
              <div className="gl-muted gl-small gl-clip">{t.last_body ?? t.headline}</div>
            </div>
          </Link>
        </li>
      ))}
    </ul>
  );
}
