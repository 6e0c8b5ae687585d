const COLORS = ["#4a7c59", "#b35c44", "#3d6e9e", "#8a5a9e", "#c08a2d", "#2f8a8a", "#9e4a6e", "#5a6e3d"];

function hash(s: string): number {
  let h = 0;
  for (const ch of s) h = (h * 31 + ch.codePointAt(0)!) >>> 0;
  return h;
}

export function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => [...w][0]!.toUpperCase())
    .join("");
}

/** A square avatar with the person's initials on a colour picked from their name. */
export function Avatar({ name, size = 36 }: { name: string; size?: number }) {
  return (
    <span className="hd-avatar" aria-hidden="true" style={{ width: size, height: size, fontSize: size * 0.4, background: COLORS[hash(name) % COLORS.length] }}>
      {initials(name)}
    </span>
  );
}
