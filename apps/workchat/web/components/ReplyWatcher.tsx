"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/**
 * While a colleague's reply is on its way to this conversation, show "<name> is typing…" and ask the
 * server every few seconds; when something arrives, refresh the page so it shows.
 */
export function ReplyWatcher({ channel, names, count }: { channel: string; names: string[]; count: number }) {
  const router = useRouter();
  useEffect(() => {
    let stop = false;
    const timer = setInterval(async () => {
      try {
        const res = await fetch(`/api/pending?channel=${encodeURIComponent(channel)}`, { cache: "no-store" });
        if (!res.ok || stop) return;
        const data = (await res.json()) as { count: number };
        if (data.count < count) {
          stop = true;
          clearInterval(timer);
          router.refresh();
        }
      } catch {
        /* try again on the next tick */
      }
    }, 2000);
    return () => {
      stop = true;
      clearInterval(timer);
    };
  }, [channel, count, router]);
  const who = names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]} are` : `${names[0]} is`;
  return (
    <div className="hd-typing" data-testid="typing" aria-live="polite">
      <span className="hd-dots">
        <i />
        <i />
        <i />
      </span>
      {who} typing…
    </div>
  );
}
