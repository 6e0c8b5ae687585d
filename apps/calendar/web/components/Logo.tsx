/** Daybook's mark: a page-a-day block with the day number. */
export function LogoMark({ size = 36, day = "16" }: { size?: number; day?: string }) {
  return (
    <svg width={size} height={size} viewBox="0 0 40 40" aria-hidden="true">
      <rect x="3" y="5" width="34" height="32" rx="7" fill="#fff" stroke="#3f4bb8" strokeWidth="2.5" />
      <path d="M3 12a7 7 0 0 1 7-7h20a7 7 0 0 1 7 7v3H3z" fill="#3f4bb8" />
      <rect x="11" y="2" width="3" height="7" rx="1.5" fill="#f5a524" />
      <rect x="26" y="2" width="3" height="7" rx="1.5" fill="#f5a524" />
      <text x="20" y="31" textAnchor="middle" fontSize="15" fontWeight="700" fill="#3f4bb8" fontFamily="system-ui, sans-serif">
        {day}
      </text>
    </svg>
  );
}
