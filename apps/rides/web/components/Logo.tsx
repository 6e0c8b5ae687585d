/** ZipRide's mark: a green road-pin with a speed streak (inline SVG). */
export function Logo({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="9" fill="#0b3d2e" />
      <path d="M9 10h14l-11 12h11" fill="none" stroke="#2ee59d" strokeWidth="3.4" strokeLinecap="round" strokeLinejoin="round" />
      <circle cx="23" cy="22" r="2.2" fill="#ffffff" />
    </svg>
  );
}

/** Small icons of saved places. */
export function PlaceIcon({ icon }: { icon: string }) {
  const d =
    icon === "home"
      ? "M4 11 12 4l8 7v9h-5v-6H9v6H4z"
      : icon === "work"
        ? "M9 6V4h6v2h5v13H4V6zm2 0h2V5h-2z"
        : icon === "airport"
          ? "M21 15v-2l-8-5V3.5a1.5 1.5 0 0 0-3 0V8l-8 5v2l8-2.5V18l-2 1.5V21l3.5-1 3.5 1v-1.5L13 18v-5.5z"
          : icon === "clock"
            ? "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zm1 9.6 3.5 2.1-.8 1.3L11 13V7h2z"
            : "m12 3 2.6 5.6 6 .7-4.5 4.1 1.2 6L12 16.4 6.7 19.4l1.2-6L3.4 9.3l6-.7z";
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" className="zr-icon">
      <path d={d} fill="currentColor" />
    </svg>
  );
}

/** 1-5 stars as text (★★★★☆). */
export function Stars({ n }: { n: number }) {
  return <span className="zr-stars" aria-label={`${n} stars`}>{"★".repeat(n)}{"☆".repeat(5 - n)}</span>;
}
