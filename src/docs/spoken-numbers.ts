// Numbers written out as they are said ("close issue forty two", "PR number seven to main"), read as
// digits where they name a thing, so the number names it as a typed one does ("issue 42"): at the
// end of a clause or before a preposition. Before a noun a number counts ("compare two branches",
// "the last five runs") and stays a word, as does a lone "one" (a pronoun: "the one I posted").
const ONES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const VALUE = new Map<string, number>([...ONES.map((w, i) => [w, i] as const), ...TENS.map((w, i) => [w, 20 + 10 * i] as const)]);
const WORD = `(?:${[...VALUE.keys()].join('|')})`;
/** A number said in words below a thousand: "seven", "forty two", "forty-two", "three hundred and twelve". */
const SPOKEN = new RegExp(`\\b${WORD}(?:[ -]${WORD})?(?: hundred(?: and)?(?: ${WORD}(?:[ -]${WORD})?)?)?\\b`, 'gi');

/** What may follow a number that names: the end, punctuation or a preposition. */
const NAMING_END = /^(?:\s*$|\s*[,.;:!?)]|\s+(?:to|in|on|of|for|and|from|please|with|at|by|into|onto|as|so|because)\b)/i;

/** The value of a number said in words, or undefined when its words do not make one ("seven seven", "twenty thirty"). */
export function spokenValue(said: string): number | undefined {
  const words = said.toLowerCase().split(/[ -]+/).filter((w) => w !== 'and');
  let total = 0;
  let part: number | undefined;
  for (const word of words) {
    if (word === 'hundred') {
      if (part === undefined || part >= 10 || total) return undefined;
      total = part * 100;
      part = undefined;
      continue;
    }
    const value = VALUE.get(word)!;
    if (part === undefined) part = value;
    // A ten takes a unit after it ("forty two"); nothing else joins.
    else if (part >= 20 && part % 10 === 0 && value < 10 && value > 0) part += value;
    else return undefined;
  }
  return total + (part ?? 0);
}

/** `text` with each number said in words that names a thing written in digits, except where `kept` (quoted text); `replaced` gets each change. */
export function digitsFor(text: string, replaced: (from: string, to: string) => void, kept: (at: number) => boolean = () => false): string {
  return text.replace(SPOKEN, (said: string, at: number) => {
    const value = spokenValue(said);
    if (value === undefined || /^one$/i.test(said) || kept(at) || !NAMING_END.test(text.slice(at + said.length))) return said;
    replaced(said, String(value));
    return String(value);
  });
}
