/** The emoji Huddle knows, by `:shortcode:` (the world's reactions and statuses use these). */
export const EMOJI: Record<string, string> = {
  ":+1:": "👍",
  ":-1:": "👎",
  ":100:": "💯",
  ":airplane:": "✈️",
  ":calendar:": "📆",
  ":car:": "🚗",
  ":clap:": "👏",
  ":coffee:": "☕",
  ":eyes:": "👀",
  ":face_with_thermometer:": "🤒",
  ":fire:": "🔥",
  ":headphones:": "🎧",
  ":heart:": "❤️",
  ":house:": "🏠",
  ":hugging_face:": "🤗",
  ":joy:": "😂",
  ":laughing:": "😆",
  ":ok_hand:": "👌",
  ":palm_tree:": "🌴",
  ":partying_face:": "🥳",
  ":pray:": "🙏",
  ":raised_hands:": "🙌",
  ":rocket:": "🚀",
  ":smile:": "😄",
  ":speech_balloon:": "💬",
  ":sunny:": "☀️",
  ":sweat_smile:": "😅",
  ":tada:": "🎉",
  ":thinking_face:": "🤔",
  ":wave:": "👋",
  ":white_check_mark:": "✅",
};

/** Quick reactions offered on every message, in order. */
export const QUICK_REACTIONS = [":+1:", ":white_check_mark:", ":eyes:", ":tada:", ":raised_hands:", ":joy:", ":heart:", ":pray:"];

/** Status presets: emoji, text and the default clear-after, as Slack offers them. */
export const STATUS_PRESETS = [
  { emoji: ":calendar:", text: "In a meeting", clear: "1h" },
  { emoji: ":car:", text: "Commuting", clear: "30m" },
  { emoji: ":face_with_thermometer:", text: "Out sick", clear: "today" },
  { emoji: ":palm_tree:", text: "On vacation", clear: "never" },
  { emoji: ":house:", text: "Working remotely", clear: "today" },
  { emoji: ":headphones:", text: "Focusing", clear: "4h" },
];

/** The glyph of a shortcode, or the shortcode itself when unknown. */
export function glyph(code: string): string {
  return EMOJI[code] ?? code;
}

export function isEmoji(code: string): boolean {
  return Object.prototype.hasOwnProperty.call(EMOJI, code);
}
