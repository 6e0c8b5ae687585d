/**
 * Daybook's event colours: the calendars' own (Personal's indigo, Work's teal, the purple of any other calendar) and a
 * few more. An event stores the palette name (`events.color`), or NULL to show in its calendar's colour.
 */
export const EVENT_COLORS = [
  { id: "tomato", label: "Tomato", hex: "#d23f31" },
  { id: "flamingo", label: "Flamingo", hex: "#e0697a" },
  { id: "tangerine", label: "Tangerine", hex: "#e8710a" },
  { id: "banana", label: "Banana", hex: "#c99a06" },
  { id: "sage", label: "Sage", hex: "#3f9c6d" },
  { id: "teal", label: "Teal", hex: "#0d8a6a" },
  { id: "peacock", label: "Peacock", hex: "#0a8fc2" },
  { id: "indigo", label: "Indigo", hex: "#3f4bb8" },
  { id: "grape", label: "Grape", hex: "#8e5bb5" },
  { id: "graphite", label: "Graphite", hex: "#5f6368" },
] as const;

export type EventColor = (typeof EVENT_COLORS)[number]["id"];

const BY_ID = new Map<string, (typeof EVENT_COLORS)[number]>(EVENT_COLORS.map((c) => [c.id, c]));

/** Whether `name` is one of the palette's colours. */
export function isEventColor(name: string): name is EventColor {
  return BY_ID.has(name);
}

/** The hex of an event: its own palette colour when it has one, else its calendar's `fallback`. */
export function eventHex(name: string | null | undefined, fallback: string): string {
  return (name && BY_ID.get(name)?.hex) || fallback;
}

/** The palette colour's name for people ("Tomato"), or null for none / an unknown name. */
export function colorLabel(name: string | null | undefined): string | null {
  return (name && BY_ID.get(name)?.label) || null;
}
