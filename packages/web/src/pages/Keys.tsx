/** `/user/keys`: API keys, intake tokens and the agents (OAuth grants) connected to the account. */
export function KeysPage() {
  return (
    <main>
      <h1>Keys and connected agents</h1>
    </main>
  )
}
