/**
 * Copies a secret to the clipboard. The Clipboard API needs a secure context (https or
 * localhost) and the page's focus; where it is missing or refused, the caller selects the text
 * so the person can copy it with the keyboard, and says so.
 */
export const copyText = async (text: string): Promise<boolean> => {
  try {
    if (navigator.clipboard === undefined) return false
    await navigator.clipboard.writeText(text)
    return true
  } catch {
    return false
  }
}
