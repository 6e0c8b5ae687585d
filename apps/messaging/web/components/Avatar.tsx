import { avatarColor, initials } from "@/messaging/lib/format";

/** A round avatar with initials (a group shows its first letter on the brand colour). */
export function Avatar({ name, size = 44, group = false }: { name: string; size?: number; group?: boolean }) {
  return (
    <span
      className={`pl-avatar${group ? " pl-avatar-group" : ""}`}
      style={{ width: size, height: size, fontSize: Math.round(size * 0.38), background: group ? undefined : avatarColor(name) }}
      aria-hidden="true"
    >
      {group ? <GroupIcon /> : initials(name)}
    </span>
  );
}

function GroupIcon() {
  return (
    <svg viewBox="0 0 24 24" width="55%" height="55%" fill="currentColor">
      <path d="M8.5 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7Zm7 0a3 3 0 1 0 0-6 3 3 0 0 0 0 6ZM2 19c0-3 3-5 6.5-5s6.5 2 6.5 5v1H2v-1Zm14.5-4.9c2.9.3 5.5 1.9 5.5 4.9v1h-5.5v-1c0-1.9-.8-3.6-2.2-4.7.7-.1 1.4-.2 2.2-.2Z" />
    </svg>
  );
}

export function Logo({ size = 28 }: { size?: number }) {
  return (
    <svg viewBox="0 0 32 32" width={size} height={size} aria-hidden="true">
      <path d="M16 3C8.3 3 2 8.4 2 15c0 3.4 1.7 6.5 4.4 8.7L5 29l6.2-3.1c1.5.4 3.1.6 4.8.6 7.7 0 14-5.4 14-12S23.7 3 16 3Z" fill="#6c4cf1" />
      <circle cx="10.5" cy="15" r="2" fill="#fff" />
      <circle cx="16" cy="15" r="2" fill="#fff" />
      <circle cx="21.5" cy="15" r="2" fill="#ff7a59" />
    </svg>
  );
}
