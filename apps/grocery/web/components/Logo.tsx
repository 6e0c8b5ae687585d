/** Basketful's mark: a green basket with an orange handle and a leaf. */
export function Logo({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 48 48" aria-hidden="true" focusable="false">
      <path d="M12 20 C12 8, 36 8, 36 20" fill="none" stroke="#ff8a1f" strokeWidth="4" strokeLinecap="round" />
      <path d="M6 20 H42 L37 40 a3 3 0 0 1 -3 2 H14 a3 3 0 0 1 -3 -2 Z" fill="#0a6b3d" />
      <path d="M15 26 V36 M21 26 V36 M27 26 V36 M33 26 V36" stroke="#e7f6ec" strokeWidth="2.5" strokeLinecap="round" />
      <path d="M30 6 c6 -2 10 1 10 1 c-2 5 -7 6 -10 5 c0 -2 0 -4 0 -6 Z" fill="#3fbf6b" />
    </svg>
  );
}
