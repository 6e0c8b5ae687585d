"use client";

import { useEffect } from "react";

/** Once a conversation is on screen, mark it read (the next page shows it so in the sidebar). */
export function MarkRead({ channel }: { channel: string }) {
  useEffect(() => {
    const t = setTimeout(() => {
      fetch(`/api/channels/${encodeURIComponent(channel)}/read`, { method: "POST" }).catch(() => undefined);
    }, 1500);
    return () => clearTimeout(t);
  }, [channel]);
  return null;
}
