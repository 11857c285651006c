/**
 * A workspace's members with their roles and kind (an agent carries the agent mark); an admin
 * changes roles and removes members, an owner also owners; anyone leaves. Controls the caller's
 * role does not allow are not shown (the server refuses them anyway, 403).
 */
import { useLocation } from "wouter"
import { api } from "../../api.ts"
import { useSession } from "../../lib/session.ts"
import { assignableRoles, manages, type Role } from "../../lib/roles.ts"
import { ErrorLine, useAction } from "../../lib/ui.tsx"
import type { Member } from "../../types.ts"
import { ConfirmDanger } from "./ConfirmDanger.tsx"

interface Props {
  readonly workspaceId: string
  readonly workspaceName: string
  readonly myRole: Role
  readonly members: ReadonlyArray<Member>
  readonly reload: () => void
}

export function MembersList({ workspaceId, workspaceName, myRole, members, reload }: Props) {
  const { me } = useSession()
  return (
    <ul className="keys-list members">
      {members.map((m) => (
        <MemberRow
          key={m.userId}
          workspaceId={workspaceId}
          workspaceName={workspaceName}
          myRole={myRole}
          member={m}
          self={m.userId === me.id}
          reload={reload}
        />
      ))}
    </ul>
  )
}

function MemberRow({
  workspaceId,
  workspaceName,
  myRole,
  member,
  self,
  reload
}: {
  workspaceId: string
  workspaceName: string
  myRole: Role
  member: Member
  self: boolean
  reload: () => void
}) {
  const [, navigate] = useLocation()
  const { error, busy, run } = useAction()
  const name = member.fullName || member.email
  const path = { id: workspaceId, userId: member.userId }
  const setRole = (role: Role) =>
    void run(() => api.PATCH("/v1/workspaces/{id}/members/{userId}", { params: { path }, body: { role } })).then(
      (ok) => ok && reload()
    )
  const remove = () =>
    void run(() => api.DELETE("/v1/workspaces/{id}/members/{userId}", { params: { path } })).then((ok) => {
      if (ok) self ? navigate("/") : reload()
    })
  const canManage = !self && manages(myRole, member.role)
  return (
    <li className="keys-item member" data-member={member.email}>
      <span className="member-name">
        <strong>{name}</strong>
        {member.kind === "agent" && (
          <span className="agent-mark" title="An agent (an application acting for a person), not a person">
            agent
          </span>
        )}
        {self && <span className="muted"> (you)</span>}
        <span className="muted"> {member.email}</span>
      </span>
      {canManage ? (
        <label>
          <span className="visually-hidden">Role of {name}</span>
          <select value={member.role} disabled={busy} onChange={(e) => setRole(e.target.value as Role)}>
            {assignableRoles(myRole)
              .concat(assignableRoles(myRole).includes(member.role) ? [] : [member.role])
              .map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
          </select>
        </label>
      ) : (
        <span className="keys-badge">{member.role}</span>
      )}
      {canManage && (
        <ConfirmDanger
          label={`Remove ${name}`}
          loss={`${name} loses access to ${workspaceName} and its boards at once; their card assignments here end. Their cards, comments and history stay.`}
          confirmLabel={`Remove ${name} from ${workspaceName}`}
          onConfirm={remove}
          busy={busy}
        />
      )}
      {self && (
        <ConfirmDanger
          label="Leave"
          loss={`You lose access to ${workspaceName} and its boards; to come back you need a new invitation.`}
          confirmLabel={`Leave ${workspaceName}`}
          onConfirm={remove}
          busy={busy}
        />
      )}
      <ErrorLine error={error} />
    </li>
  )
}
