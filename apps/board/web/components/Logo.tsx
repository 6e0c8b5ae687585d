/** Cairn's mark: three stacked stones. */
export function Logo({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
      <rect width="32" height="32" rx="7" fill="#1f3a5f" />
      <ellipse cx="16" cy="24" rx="9" ry="3.6" fill="#f2a541" />
      <ellipse cx="16" cy="17" rx="6.5" ry="3" fill="#fff" />
      <ellipse cx="16" cy="11" rx="4" ry="2.4" fill="#f2a541" />
    </svg>
  );
}
