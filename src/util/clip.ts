// Text shortened for a reason, a table cell or an excerpt: cut between words,
// never inside one unless a single word is longer than the limit.

/** At most `max` characters: whole words of `text` and an ellipsis. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  // The cut already falls between words, or back to the last whitespace; only a single word longer than the limit is cut inside.
  if (/\s/.test(text[cut.length])) return cut.trimEnd() + '…';
  const space = cut.search(/\s\S*$/);
  return (space > 0 ? cut.slice(0, space) : cut).trimEnd() + '…';
}
