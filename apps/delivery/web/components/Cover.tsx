/** A restaurant's cover: a warm gradient per cuisine with a plate motif and the cuisine's initials (no photos). */
const HUES: Record<string, [string, string]> = {
  Thai: ["#f97316", "#facc15"], Ethiopian: ["#b45309", "#f59e0b"], Italian: ["#15803d", "#ef4444"], Mexican: ["#e11d48", "#f59e0b"],
  Japanese: ["#be123c", "#fda4af"], Indian: ["#ea580c", "#fde047"], Vietnamese: ["#16a34a", "#bef264"], Greek: ["#1d4ed8", "#93c5fd"],
  Korean: ["#dc2626", "#1e3a8a"], Lebanese: ["#166534", "#fca5a5"], Spanish: ["#b91c1c", "#fbbf24"], Chinese: ["#b91c1c", "#fcd34d"],
  Turkish: ["#9f1239", "#fb7185"], German: ["#374151", "#fbbf24"], British: ["#1e40af", "#ef4444"], French: ["#1e3a8a", "#f1f5f9"],
  American: ["#7c2d12", "#f87171"],
};

export function Cover({ cuisine, name, label, tall = false }: { cuisine: string; name: string; label?: string; tall?: boolean }) {
  const [a, b] = HUES[cuisine] ?? ["#d62d20", "#ffb400"];
  const id = `g${name.replace(/[^A-Za-z0-9]/g, "").slice(0, 24)}`;
  const h = tall ? 160 : 110;
  return (
    <svg className="dbt-cover" viewBox={`0 0 320 ${h}`} preserveAspectRatio="xMidYMid slice" aria-hidden="true">
      <defs>
        <linearGradient id={id} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor={a} />
          <stop offset="1" stopColor={b} />
        </linearGradient>
      </defs>
      <rect width="320" height={h} fill={`url(#${id})`} />
      <circle cx="250" cy={h / 2 + 10} r={h / 2.6} fill="rgba(255,255,255,0.18)" />
      <circle cx="250" cy={h / 2 + 10} r={h / 3.6} fill="rgba(255,255,255,0.28)" />
      <path d={`M205 ${h / 2 - 18}v36M295 ${h / 2 - 18}v36`} stroke="rgba(255,255,255,0.5)" strokeWidth="4" strokeLinecap="round" />
      <text x="20" y={h - 20} fill="rgba(255,255,255,0.92)" fontSize="22" fontWeight="700" fontFamily="system-ui, sans-serif">
        {label ?? cuisine}
      </text>
    </svg>
  );
}
