/** The Meridian Air mark: a gold meridian arc over a navy globe, and the word mark. */
export function Mark({ size = 34 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 40 40" aria-hidden="true">
      <circle cx="20" cy="20" r="18" fill="#0b2a4a" />
      <path d="M6 24 C 14 10, 26 10, 34 16" stroke="#e8a33d" strokeWidth="3.2" fill="none" strokeLinecap="round" />
      <path d="M20 2 C 12 12, 12 28, 20 38" stroke="#5d8fc2" strokeWidth="1.4" fill="none" />
      <path d="M20 2 C 28 12, 28 28, 20 38" stroke="#5d8fc2" strokeWidth="1.4" fill="none" />
      <path d="M27 12 l6 2 -5 3 z" fill="#ffffff" />
    </svg>
  );
}

export function Logo({ light = false }: { light?: boolean }) {
  return (
    <span className={`ma-logo${light ? " ma-logo-light" : ""}`}>
      <Mark />
      <span className="ma-wordmark">
        Meridian<b>Air</b>
      </span>
    </span>
  );
}
