/** The Mailbox mark: an envelope on a rounded square. */
export function Logo({ size = 34 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
      <rect width="32" height="32" rx="7" fill="#c2410c" />
      <path d="M7 10h18v12H7z" fill="#fff" />
      <path d="M7 10l9 7 9-7" fill="none" stroke="#c2410c" strokeWidth="2" />
    </svg>
  );
}
