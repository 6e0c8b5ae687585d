/**
 * Drawn photos of a property (no external images): a skyline at dusk, a room, a pool or a street front, in
 * Bramblestay's palette, varied by the property's `art` seed. Deterministic: the same seed draws the same picture.
 */

const SKIES = [
  ["#f6d3b3", "#e8835a"],
  ["#cfe3ea", "#7fb3c4"],
  ["#e9d7ee", "#a88bc0"],
  ["#fbe7c6", "#f0b35e"],
  ["#d7ecd9", "#86bf97"],
];
const WALLS = ["#f3ede4", "#e7eef0", "#f4e6dc", "#ebe7f1", "#eef1e6"];

function rand(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export type PhotoKind = "skyline" | "room" | "pool" | "street";

export function Photo({ seed, kind, label, className }: { seed: number; kind: PhotoKind; label: string; className?: string }) {
  const r = rand(seed * 7 + kind.length * 131);
  const [sky0, sky1] = SKIES[Math.floor(r() * SKIES.length)]!;
  const wall = WALLS[Math.floor(r() * WALLS.length)]!;
  const id = `g${seed}${kind}`;
  let body: React.ReactNode;
  if (kind === "skyline") {
    const blocks = Array.from({ length: 11 }, (_, i) => {
      const w = 22 + r() * 22;
      const h = 40 + r() * 90;
      return { x: i * 30 - 8 + r() * 8, w, h };
    });
    body = (
      <>
        <circle cx={60 + r() * 200} cy={62} r={18} fill="#fff7e8" opacity="0.9" />
        {blocks.map((b, i) => (
          <g key={i}>
            <rect x={b.x} y={200 - b.h} width={b.w} height={b.h} fill={i % 3 ? "#1d4e5f" : "#2d6a7c"} />
            {Array.from({ length: Math.floor(b.h / 18) }, (_, j) => (
              <rect key={j} x={b.x + 5} y={200 - b.h + 8 + j * 18} width={b.w - 10} height={4} fill="#f5c98c" opacity={r() > 0.45 ? 0.85 : 0.2} />
            ))}
          </g>
        ))}
        <rect x="0" y="196" width="320" height="4" fill="#163d4a" />
      </>
    );
  } else if (kind === "room") {
    const bed = 70 + r() * 60;
    body = (
      <>
        <rect x="0" y="0" width="320" height="140" fill={wall} />
        <rect x="0" y="140" width="320" height="60" fill="#c9a98a" />
        <rect x="210" y="28" width="78" height="70" rx="3" fill={sky1} stroke="#fff" strokeWidth="5" />
        <rect x={bed - 10} y="88" width="150" height="36" rx="6" fill="#1d4e5f" />
        <rect x={bed} y="108" width="150" height="44" rx="6" fill="#ffffff" />
        <rect x={bed + 10} y="96" width="40" height="18" rx="7" fill="#f4efe6" />
        <rect x={bed + 60} y="96" width="40" height="18" rx="7" fill="#f4efe6" />
        <rect x={bed + 70} y="120" width="80" height="32" rx="4" fill="#e8835a" />
        <rect x="24" y="112" width="30" height="40" rx="3" fill="#8b6b4e" />
        <circle cx="39" cy="100" r="10" fill="#f5c98c" />
      </>
    );
  } else if (kind === "pool") {
    body = (
      <>
        <rect x="0" y="120" width="320" height="80" fill="#efe2cf" />
        <path d={`M30 140 h260 l-30 50 h-200 z`} fill="#58b4c9" />
        <path d="M70 160 q20 -6 40 0 t40 0 t40 0 t40 0" fill="none" stroke="#d8f1f6" strokeWidth="3" />
        <path d="M90 175 q20 -6 40 0 t40 0 t40 0" fill="none" stroke="#d8f1f6" strokeWidth="3" />
        <rect x={240 + r() * 30} y="60" width="6" height="70" fill="#8b6b4e" />
        <path d={`M${243 + r() * 10} 60 q-30 -10 -50 10 M${245} 60 q30 -14 48 8 M245 60 q-10 -24 -30 -30`} fill="none" stroke="#4f8a5b" strokeWidth="7" strokeLinecap="round" />
        <rect x="40" y="112" width="44" height="8" rx="3" fill="#fff" />
        <rect x="100" y="112" width="44" height="8" rx="3" fill="#fff" />
        <path d="M50 112 l10 -26 l10 26" fill="#e8835a" />
      </>
    );
  } else {
    const doors = 3 + Math.floor(r() * 3);
    body = (
      <>
        <rect x="0" y="40" width="320" height="160" fill={wall} />
        {Array.from({ length: doors * 2 }, (_, i) => (
          <rect key={i} x={20 + (i % doors) * (280 / doors)} y={i < doors ? 60 : 120} width={280 / doors - 24} height={40} rx="2" fill={sky1} stroke="#1d4e5f" strokeWidth="3" />
        ))}
        <rect x="140" y="150" width="40" height="50" rx="4" fill="#1d4e5f" />
        <rect x="0" y="196" width="320" height="4" fill="#8b6b4e" />
        <rect x="110" y="34" width="100" height="16" rx="3" fill="#1d4e5f" />
      </>
    );
  }
  return (
    <svg viewBox="0 0 320 200" className={className} role="img" aria-label={label} preserveAspectRatio="xMidYMid slice">
      <defs>
        <linearGradient id={id} x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor={sky0} />
          <stop offset="1" stopColor={sky1} />
        </linearGradient>
      </defs>
      <rect width="320" height="200" fill={`url(#${id})`} />
      {body}
    </svg>
  );
}

/** The gallery's three pictures: the cover first, then a room and one more view. */
export function galleryKinds(kind: string, seed: number): PhotoKind[] {
  const cover = coverKind(kind, seed);
  const rest: PhotoKind[] = kind === "hotel" ? ["room", "skyline", "pool", "street"] : ["room", "street", "skyline"];
  return [cover, ...rest.filter((k) => k !== cover)].slice(0, 3);
}

/** The cover picture of a property in lists: hotels vary between skyline, street front and pool; homes show a room. */
export function coverKind(kind: string, seed: number): PhotoKind {
  if (kind !== "hotel") return seed % 3 === 0 ? "street" : "room";
  return (["skyline", "street", "pool"] as PhotoKind[])[seed % 3]!;
}
