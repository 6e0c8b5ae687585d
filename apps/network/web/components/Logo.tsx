/** Guildline's mark: a green tile with an L and an amber dot. */
export function Logo({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
      <rect width="32" height="32" rx="7" fill="#0f5c4d" />
      <path d="M9 22V10h3v9h6v3z" fill="#fff" />
      <circle cx="22" cy="12" r="3" fill="#f2a541" />
    </svg>
  );
}

const PALETTE = ["#0f5c4d", "#3867d6", "#8854d0", "#c0392b", "#d35400", "#16a085", "#2c3e50", "#b33771"];

/** A round avatar with the person's initials, its colour from the name. */
export function Avatar({ name, size = 40 }: { name: string; size?: number }) {
  const initials = name.split(/\s+/).filter(Boolean).slice(0, 2).map((w) => w[0]).join("").toUpperCase();
  let h = 0;
  for (const ch of name) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return (
    <span className="gl-avatar" style={{ width: size, height: size, fontSize: size * 0.38, background: PALETTE[h % PALETTE.length] }} aria-hidden="true">
      {initials}
    </span>
  );
}
