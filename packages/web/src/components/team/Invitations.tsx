/**
 * An admin invites by link or by mail (`POST /v1/workspaces/{id}/invitations`): the link is shown
 * once to copy (mailed as well when an email is given and the server has mail), and the pending
 * invitations are listed with a Withdraw button.
 */
import { type FormEvent, useCallback, useEffect, useState } from "react"
import { api } from "../../api.ts"
import { assignableRoles, type Role } from "../../lib/roles.ts"
import { ErrorLine, formatTime, useAction } from "../../lib/ui.tsx"
import type { components } from "../../lib/api-types.ts"
import { SecretOnce } from "../SecretOnce.tsx"

type Invitation = components["schemas"]["Invitation"]

export function Invitations({ workspaceId, myRole }: { workspaceId: string; myRole: Role }) {
  const [pending, setPending] = useState<ReadonlyArray<Invitation>>([])
  const [link, setLink] = useState<{ url: string; email: string | null } | null>(null)
  const list = useAction()
  const { run: runList } = list
  const load = useCallback(
    () =>
      void runList(async () =>
        setPending(await api.GET("/v1/workspaces/{id}/invitations", { params: { path: { id: workspaceId } } }))
      ),
    [runList, workspaceId]
  )
  useEffect(load, [load])
  const create = useAction()

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const form = e.currentTarget
    const data = new FormData(form)
    const email = String(data.get("email") ?? "").trim()
    const role = String(data.get("role") ?? "member") as Role
    await create.run(async () => {
      const made = await api.POST("/v1/workspaces/{id}/invitations", {
        params: { path: { id: workspaceId } },
        body: email === "" ? { role } : { email, role }
      })
      setLink({ url: made.url, email: made.email })
      form.reset()
      load()
    })
  }

  const withdraw = (id: string) =>
    void list.run(() => api.DELETE("/v1/invitations/{id}", { params: { path: { id } } })).then(load)

  return (
    <section className="keys-section" aria-labelledby="invite-heading">
      <h2 id="invite-heading">Invite people</h2>
      <form className="inline-form" onSubmit={(e) => void submit(e)}>
        <label>
          Email <span className="muted">(optional: only they may use the link, and it is mailed to them)</span>
          <input name="email" type="email" placeholder="name@example.com" />
        </label>
        <label>
          Role
          <select name="role" defaultValue="member">
            {assignableRoles(myRole).map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button primary" disabled={create.busy}>
          Create invitation link
        </button>
      </form>
      <ErrorLine error={create.error} />
      {link !== null && (
        <SecretOnce
          label={
            link.email === null
              ? "Invitation link: send it to the person you invite (valid 7 days, once)"
              : `Invitation link for ${link.email} (also mailed when the server has mail; valid 7 days, once)`
          }
          value={link.url}
          onDone={() => setLink(null)}
        />
      )}
      {pending.length > 0 && (
        <>
          <h3>Pending invitations</h3>
          <ul className="keys-list">
            {pending.map((inv) => (
              <li key={inv.id} className="keys-item">
                <span>
                  {inv.email ?? "Anyone with the link"} as <strong>{inv.role}</strong>
                  <span className="muted"> · expires {formatTime(inv.expiresAt)}</span>
                </span>
                <button type="button" className="button small ghost" onClick={() => withdraw(inv.id)}>
                  Withdraw
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      <ErrorLine error={list.error} />
    </section>
  )
}
