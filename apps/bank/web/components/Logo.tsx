/** The Larkspur Bank mark: a larkspur flower spike in amber on a deep teal tile. */
export function LogoMark({ size = 34 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 40 40" role="img" aria-label="Larkspur Bank" xmlns="http://www.w3.org/2000/svg">
      <rect width="40" height="40" rx="9" fill="#1f4e5f" />
      <path d="M20 35 V13" stroke="#8fb8c4" strokeWidth="1.8" strokeLinecap="round" />
      <path d="M20 29 C 24 28, 27 25, 28 21" stroke="#8fb8c4" strokeWidth="1.6" fill="none" strokeLinecap="round" />
      <ellipse cx="20" cy="8.5" rx="2.4" ry="3.2" fill="#f2c48a" />
      <ellipse cx="16.3" cy="14" rx="3" ry="3.3" fill="#d98e3a" />
      <ellipse cx="23.7" cy="14" rx="3" ry="3.3" fill="#e5a65c" />
      <ellipse cx="15.6" cy="20.5" rx="3.6" ry="3.5" fill="#e5a65c" />
      <ellipse cx="24.4" cy="20.5" rx="3.6" ry="3.5" fill="#d98e3a" />
      <circle cx="20" cy="17.2" r="1.4" fill="#1f4e5f" opacity="0.55" />
      <path d="M26 22 C 29 20, 31 21, 31 24 C 29 25, 27 24.5, 26 22 Z" fill="#5f9aa9" />
    </svg>
  );
}
