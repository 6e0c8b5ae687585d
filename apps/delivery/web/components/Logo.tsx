/** DashBite's mark: a red disc with a fork-and-dash motif in warm yellow. */
export function Logo({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 48 48" role="img" aria-label="DashBite">
      <circle cx="24" cy="24" r="23" fill="#d62d20" />
      <path d="M9 19h12M6 25h13M10 31h9" stroke="#ffb400" strokeWidth="3" strokeLinecap="round" />
      <path d="M27 12v9a4 4 0 0 0 8 0v-9M31 12v24" stroke="#fff" strokeWidth="3" strokeLinecap="round" fill="none" />
      <path d="M39 12c3 2 3 10 0 12v12" stroke="#fff" strokeWidth="3" strokeLinecap="round" fill="none" />
    </svg>
  );
}
