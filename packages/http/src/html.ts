/** Text for an HTML page's body or a quoted attribute: the five characters that could end either. */
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
