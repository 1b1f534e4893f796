// One regex alternation of many literal words (header names, program names), grouped by first
// character: m(?:ysql|ongo|…)|c(?:url|…)|…. Irregexp tries the alternatives of a flat alternation
// one by one at every position, so a hundred words cost a hundred tries per position; grouped, a
// position whose character starts no word costs one try per group, and one that does, only that
// group's words. The match is the same as the flat alternation's when at most one word can match at
// a position (the callers require a character after the word that no word holds); within a group
// the words stay longest first, as in the flat form.

/** `words` as grouped alternatives (no enclosing group); `escape` turns a piece of a word into pattern text. */
export function groupedAlternation(words: string[], escape: (piece: string) => string, ignoreCase: boolean): string {
  const groups = new Map<string, string[]>();
  for (const w of [...words].sort((a, b) => b.length - a.length)) {
    const first = ignoreCase ? w[0].toLowerCase() : w[0];
    groups.set(first, [...(groups.get(first) ?? []), w.slice(1)]);
  }
  return [...groups].map(([first, rests]) => `${escape(first)}(?:${rests.map(escape).join('|')})`).join('|');
}
