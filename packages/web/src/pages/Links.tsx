/** A project's links with their relevance; review and evaluate them. */
export function LinksPage({ projectId }: { projectId: string }) {
  return (
    <main>
      <h1>Project links</h1>
      <p>{projectId}</p>
    </main>
  )
}
