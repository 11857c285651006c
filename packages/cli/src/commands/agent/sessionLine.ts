/** One line for a session: `<id> WEB-12 active until <time>`. */
export const sessionLine = (s: { id: string; status: string; leaseExpiresAt: string }, ref?: string): string =>
  `${s.id}${ref !== undefined ? ` ${ref}` : ""} ${s.status} until ${s.leaseExpiresAt}`
