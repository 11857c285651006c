/**
 * The short prefix of card refs (`WEB-12`), derived from the project name: initials of a
 * multi-word name (`Web App` → `WA`), the first three letters of a single word
 * (`Website` → `WEB`); always starts with a letter so refs are recognisable in text.
 */
export const refPrefixFor = (projectName: string): string => {
  const words = projectName
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/[^A-Za-z0-9\s]/g, " ")
    .split(/\s+/)
    .filter((w) => w !== "")
  const letters =
    words.length > 1
      ? words
          .map((w) => w[0])
          .join("")
          .slice(0, 4)
      : (words[0] ?? "").slice(0, 3)
  const prefix = letters.toUpperCase().replace(/^[0-9]+/, "")
  return prefix.length === 0 ? "CARD" : prefix
}
