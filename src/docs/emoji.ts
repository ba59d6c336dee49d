// An emoji written as a thing ("put a ⭐ on the repo", "give MR 12 a 👍") read as its name, so
// the words a catalogue writes for it match (star, thumbs up, rocket: a reaction's content). The
// names are the Unicode short names as the npm package emojilib keeps them. An emoji anywhere else
// is mood ("omg 😱", "🎉🎉") and is left for the tokenizer to drop. A shortcode (`:tada:`) names an
// emoji wherever it stands, so it is read as its words and "emoji".
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** One emoji: a pictograph with its variation selector, skin tone or joined pictographs. */
const EMOJI_CHARS = String.raw`\p{Extended_Pictographic}(?:\uFE0F|[\u{1F3FB}-\u{1F3FF}]|\u200D\p{Extended_Pictographic}\uFE0F?)*`;

/** An emoji right after a word that makes it a thing: "a", "an", "the", "that", "this", "one", "another". */
export const EMOJI_AS_THING = new RegExp(String.raw`(?<=\b(?:a|an|the|that|this|one|another)\s+)${EMOJI_CHARS}`, 'giu');

/** An emoji by its shortcode, as chat and trackers write one (`:tada:`, `:+1:`, `:white_check_mark:`): a letter in it, or ±1, so no time (`10:30:00`). */
export const SHORTCODE = /(?<![\w:]):(?:(?=[a-z0-9_+-]*[a-z])[a-z0-9_+-]{2,40}|[+-]1):(?![\w:])/gi;

/** A shortcode read as the emoji it names: its words and the word "emoji" (`:tada:`: tada emoji). */
export function shortcodeWords(code: string): string {
  return `${code.slice(1, -1).replace(/[_-]+/g, ' ')} emoji`;
}

/** What does not change an emoji's meaning: its variation selector and a skin tone. */
const PRESENTATION = /\uFE0F|[\u{1F3FB}-\u{1F3FF}]/gu;

let names: Map<string, string> | undefined;

/** Each emoji's name by the emoji without its variation selectors and skin tones (emojilib lists the name first: `thumbs_up`). */
function emojiNames(): Map<string, string> {
  if (!names) {
    const keywords = require('emojilib') as Record<string, string[]>;
    names = new Map();
    for (const [emoji, words] of Object.entries(keywords)) {
      const name = words[0];
      if (name) names.set(emoji.replace(PRESENTATION, ''), name.replace(/_/g, ' '));
    }
  }
  return names;
}

/** The name of an emoji ("👍", "👍🏽": thumbs up), or undefined for one emojilib does not know. */
export function emojiName(emoji: string): string | undefined {
  return emojiNames().get(emoji.replace(PRESENTATION, ''));
}
