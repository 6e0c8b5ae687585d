/** `path` (a same-origin path with a query) with `key` set to `value`, or removed when `value` is empty. */
export function setParam(path: string, key: string, value: string | number | null | undefined): string {
  const u = new URL(path, "http://huddle.local");
  if (value === null || value === undefined || value === "") u.searchParams.delete(key);
  else u.searchParams.set(key, String(value));
  return `${u.pathname}${u.search}`;
}

/** A conversation's URL: `/c/<name>`, with its open thread or details panel. */
export function channelPath(name: string, params: Record<string, string | number | undefined> = {}): string {
  let p = `/c/${encodeURIComponent(name)}`;
  for (const [k, v] of Object.entries(params)) p = setParam(p, k, v);
  return p;
}

/** A conversation name from its URL segment: percent-decoded, or "" when the escape is malformed (no such channel). */
export function channelName(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return "";
  }
}
