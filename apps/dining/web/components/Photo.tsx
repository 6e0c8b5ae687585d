/** A drawn "photo" of a restaurant: a palette and a motif (plate, bowl, glass, lantern, window, table) from the catalogue. */
const PALETTES = [
  ["#7a2e1f", "#e9c46a", "#f4a261"],
  ["#264653", "#2a9d8f", "#e9c46a"],
  ["#3d2c2e", "#c9a66b", "#f2e3c6"],
  ["#1d3557", "#a8dadc", "#f1faee"],
  ["#5f0f40", "#fb8b24", "#e36414"],
  ["#283618", "#dda15e", "#fefae0"],
  ["#4a4e69", "#c9ada7", "#f2e9e4"],
  ["#6b2737", "#e08e45", "#f8f4a6"],
];

export function Photo({ palette, motif, label, height = 160 }: { palette: number; motif: string; label: string; height?: number }) {
  const [bg, mid, hi] = PALETTES[palette % PALETTES.length];
  return (
    <svg className="tt-photo" viewBox="0 0 320 180" preserveAspectRatio="xMidYMid slice" style={{ height }} role="img" aria-label={label}>
      <rect width="320" height="180" fill={bg} />
      <rect y="120" width="320" height="60" fill={mid} opacity="0.35" />
      {motif === "plate" && (
        <g>
          <ellipse cx="160" cy="120" rx="90" ry="34" fill="#fff" opacity="0.92" />
          <ellipse cx="160" cy="118" rx="58" ry="20" fill={hi} />
          <circle cx="142" cy="112" r="9" fill={mid} />
          <circle cx="170" cy="116" r="7" fill="#6a994e" />
          <path d="M50 90 v50 M60 90 v50 M270 88 q10 25 0 52" stroke="#ddd" strokeWidth="4" strokeLinecap="round" fill="none" />
        </g>
      )}
      {motif === "bowl" && (
        <g>
          <path d="M90 95 h140 q-8 60 -70 60 q-62 0 -70 -60z" fill="#fff" opacity="0.95" />
          <ellipse cx="160" cy="95" rx="70" ry="14" fill={hi} />
          <path d="M200 40 l-40 60 M215 45 l-45 58" stroke={mid} strokeWidth="4" strokeLinecap="round" />
          <path d="M130 70 q6 -12 0 -24 M155 66 q6 -12 0 -24" stroke="#fff" strokeWidth="3" opacity="0.5" fill="none" />
        </g>
      )}
      {motif === "glass" && (
        <g>
          <path d="M120 40 h40 q0 50 -20 60 v40 h18 v6 h-42 v-6 h18 v-40 q-20 -10 -20 -60z" fill="#fff" opacity="0.9" />
          <path d="M123 62 h34 q-3 30 -17 36 q-14 -6 -17 -36z" fill={mid} />
          <path d="M190 60 h36 v80 h-36z" fill={hi} opacity="0.85" />
          <circle cx="208" cy="54" r="8" fill={hi} opacity="0.6" />
        </g>
      )}
      {motif === "lantern" && (
        <g>
          {[70, 160, 250].map((x, i) => (
            <g key={x}>
              <path d={`M${x} 0 v${22 + i * 8}`} stroke="#000" opacity="0.4" />
              <ellipse cx={x} cy={48 + i * 8} rx="22" ry="28" fill={i === 1 ? hi : mid} />
              <ellipse cx={x} cy={48 + i * 8} rx="12" ry="20" fill="#fff" opacity="0.25" />
            </g>
          ))}
          <rect x="40" y="130" width="240" height="10" rx="3" fill="#000" opacity="0.25" />
        </g>
      )}
      {motif === "window" && (
        <g>
          <rect x="70" y="30" width="180" height="110" rx="6" fill={hi} opacity="0.85" />
          <path d="M160 30 v110 M70 85 h180" stroke={bg} strokeWidth="6" />
          <rect x="60" y="20" width="200" height="16" rx="3" fill={mid} />
          <circle cx="110" cy="120" r="10" fill={bg} opacity="0.5" />
          <circle cx="210" cy="118" r="12" fill={bg} opacity="0.5" />
        </g>
      )}
      {motif === "table" && (
        <g>
          <rect x="60" y="100" width="200" height="14" rx="4" fill={hi} />
          <path d="M80 114 v50 M240 114 v50" stroke={hi} strokeWidth="8" />
          <circle cx="120" cy="92" r="10" fill="#fff" />
          <circle cx="200" cy="92" r="10" fill="#fff" />
          <path d="M160 60 v30" stroke={mid} strokeWidth="5" />
          <ellipse cx="160" cy="56" rx="5" ry="9" fill="#ffd166" />
          <circle cx="160" cy="52" r="30" fill="#ffd166" opacity="0.15" />
        </g>
      )}
    </svg>
  );
}
