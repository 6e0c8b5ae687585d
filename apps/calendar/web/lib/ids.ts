/**
 * An event or calendar id from a path or form: what the calendar makes (UUIDs, `work`, `personal`): letters, digits,
 * `-` and `_`, at most 64; else null (`1 OR 1=1`, `../x`, a space or a control character is no id).
 */
export function idToken(value: unknown): string | null {
  return typeof value === "string" && /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(value) ? value : null;
}
