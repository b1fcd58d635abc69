/**
 * Settings → Permissions: the people who help run the site. Members with their roles and last
 * sign-in (edit roles, remove), invitations by email with one or more roles (resend, revoke), and
 * the transfer of ownership, which the Owner confirms with their password (docs/team.md).
 */
import {
  type Invitation,
  type Member,
  type MembersAnswer,
  ROLES,
  ROLE_IDS,
  type Role,
  roleName,
} from "@atelier/owner-api";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { type Account, del, get, patch, post } from "../../api.js";
import { Card } from "../../components/Card.js";
import { ConfirmDelete } from "../../components/ConfirmDelete.js";
import { CheckboxField, SelectField, TextField, fieldErrors } from "../../components/form/index.js";
import { useCan } from "../../components/permissions.js";
import {
  ErrorNotice,
  FormDialog,
  ListTable,
  Loaded,
  Notice,
  PageHead,
  formatDate,
  useSiteId,
} from "../../components/ui.js";
import { PasswordField } from "../account/fields.js";

const membersKey = (siteId: string) => ["members", siteId];

const rolesText = (roles: string[]) => roles.map(roleName).join(", ");

/** The roles as checkboxes, each with what it allows; `error` is the API's message about them. */
function RolePicker({
  value,
  onChange,
  error,
}: {
  value: Role[];
  onChange: (roles: Role[]) => void;
  error?: string;
}) {
  return (
    <fieldset>
      <legend>Roles</legend>
      {error ? (
        <p className="error small" role="alert">
          {error}
        </p>
      ) : null}
      {ROLE_IDS.map((id) => (
        <CheckboxField
          key={id}
          label={ROLES[id].name}
          help={ROLES[id].allows}
          value={value.includes(id)}
          onChange={(on) => onChange(on ? [...value, id] : value.filter((r) => r !== id))}
        />
      ))}
    </fieldset>
  );
}

/** What a mutation of the team does once it is through: the lists are read again. */
function useTeamMutation<T>(fn: (input: T) => Promise<unknown>, onDone?: () => void) {
  const siteId = useSiteId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: membersKey(siteId) });
      onDone?.();
    },
  });
}

function InviteDialog({ onClose }: { onClose: () => void }) {
  const siteId = useSiteId();
  const [email, setEmail] = useState("");
  const [roles, setRoles] = useState<Role[]>([]);
  const invite = useTeamMutation(
    () => post(`/api/owner/sites/${siteId}/invitations`, { email, roles }),
    onClose,
  );
  const errors = fieldErrors(invite.error);
  return (
    <FormDialog
      id="invite-member"
      title="Invite a person"
      onClose={onClose}
      submit={{ mutate: () => invite.mutate(undefined), isPending: invite.isPending, error: invite.error }}
      action="Send the invitation"
      pendingAction="Sending…"
      wide
    >
      <p className="muted small">
        We email them a link that works once, for 7 days. Accepting signs in their account, or creates one.
      </p>
      <TextField
        label="Email"
        type="email"
        value={email}
        onChange={setEmail}
        autoComplete="off"
        error={errors.email}
        required
      />
      <RolePicker value={roles} onChange={setRoles} error={errors.roles} />
    </FormDialog>
  );
}

function EditRolesDialog({ member, onClose }: { member: Member; onClose: () => void }) {
  const siteId = useSiteId();
  const [roles, setRoles] = useState<Role[]>(member.roles.filter((r): r is Role => r in ROLES));
  const save = useTeamMutation(
    () => patch(`/api/owner/sites/${siteId}/members/${member.accountId}`, { roles }),
    onClose,
  );
  return (
    <FormDialog
      id="edit-roles"
      title={`Roles of ${member.name || member.email}`}
      onClose={onClose}
      submit={{ mutate: () => save.mutate(undefined), isPending: save.isPending, error: save.error }}
      action="Save roles"
      pendingAction="Saving…"
      wide
    >
      <RolePicker value={roles} onChange={setRoles} error={fieldErrors(save.error).roles} />
    </FormDialog>
  );
}

function RemoveDialog({ member, onClose }: { member: Member; onClose: () => void }) {
  const siteId = useSiteId();
  const remove = useTeamMutation(
    () => del(`/api/owner/sites/${siteId}/members/${member.accountId}`),
    onClose,
  );
  return (
    <ConfirmDelete
      title={`Remove ${member.name || member.email}?`}
      action="Remove"
      pending={remove.isPending}
      error={remove.error}
      onConfirm={() => remove.mutate(undefined)}
      onClose={onClose}
    >
      <p>
        {member.email} will no longer see this site in their dashboard. Their account stays, and what they
        changed stays too. You can invite them again later.
      </p>
    </ConfirmDelete>
  );
}

function TransferDialog({ members, onClose }: { members: Member[]; onClose: () => void }) {
  const siteId = useSiteId();
  const queryClient = useQueryClient();
  const [accountId, setAccountId] = useState(members[0]?.accountId ?? "");
  const [password, setPassword] = useState("");
  const transfer = useTeamMutation(
    () => post(`/api/owner/sites/${siteId}/transfer-ownership`, { accountId, password }),
    () => {
      // The sites list carries this person's permissions, which change now.
      void queryClient.invalidateQueries({ queryKey: ["sites"] });
      onClose();
    },
  );
  const errors = fieldErrors(transfer.error);
  const chosen = members.find((m) => m.accountId === accountId);
  return (
    <FormDialog
      id="transfer-ownership"
      title="Transfer ownership"
      onClose={onClose}
      submit={{
        mutate: () => transfer.mutate(undefined),
        isPending: transfer.isPending,
        error: transfer.error,
      }}
      action="Transfer ownership"
      pendingAction="Transferring…"
      wide
    >
      <SelectField
        label="New owner"
        value={accountId}
        onChange={setAccountId}
        options={members.map((m) => ({ value: m.accountId, label: `${m.name || m.email} (${m.email})` }))}
        error={errors.accountId}
      />
      <Notice kind="warn">
        {chosen?.name || chosen?.email || "The member"} becomes the site's one Owner, with every permission,
        billing included, and the only one who can transfer it again. You become an Administrator: everything
        except billing and ownership. You cannot undo this yourself.
      </Notice>
      <PasswordField
        label="Your password, to confirm"
        value={password}
        onChange={setPassword}
        error={errors.password}
      />
    </FormDialog>
  );
}

interface RowAction {
  label: string;
  /** The button's name for screen readers, saying which row it acts on. */
  name: string;
  danger?: boolean;
  disabled?: boolean;
  onClick: () => void;
}

/** The buttons at the end of a row of the team's lists. */
function RowActions({ actions }: { actions: RowAction[] }) {
  return (
    <span className="btn-row">
      {actions.map((a) => (
        <button
          key={a.label}
          type="button"
          className={`btn small${a.danger ? " danger" : ""}`}
          aria-label={a.name}
          disabled={a.disabled}
          onClick={a.onClick}
        >
          {a.label}
        </button>
      ))}
    </span>
  );
}

function MembersCard({ members, me, canWrite }: { members: Member[]; me?: string; canWrite: boolean }) {
  const [editing, setEditing] = useState<Member>();
  const [removing, setRemoving] = useState<Member>();
  const columns = [
    { label: "Person" },
    { label: "Roles" },
    { label: "Last sign-in", className: "hide-phone" },
    ...(canWrite ? [{ label: "Actions", srOnly: true }] : []),
  ];
  return (
    <Card title="Members" as="section">
      <ListTable
        columns={columns}
        rows={members}
        empty="No one yet."
        row={(m) => (
          <tr key={m.accountId}>
            <td>
              <strong>{m.name || m.email}</strong>
              {m.owner ? <span className="badge accent">Owner</span> : null}
              {m.accountId === me ? <span className="badge">You</span> : null}
              <div className="muted small">{m.email}</div>
            </td>
            <td>{m.owner ? "Every permission" : rolesText(m.roles)}</td>
            <td className="hide-phone">
              {m.lastSignInAt ? formatDate(m.lastSignInAt, true) : <span className="muted">Never</span>}
            </td>
            {canWrite ? (
              <td>
                {m.owner ? null : (
                  <RowActions
                    actions={[
                      { label: "Edit roles", name: `Edit roles of ${m.email}`, onClick: () => setEditing(m) },
                      {
                        label: "Remove",
                        name: `Remove ${m.email}`,
                        danger: true,
                        onClick: () => setRemoving(m),
                      },
                    ]}
                  />
                )}
              </td>
            ) : null}
          </tr>
        )}
      />
      {editing ? <EditRolesDialog member={editing} onClose={() => setEditing(undefined)} /> : null}
      {removing ? <RemoveDialog member={removing} onClose={() => setRemoving(undefined)} /> : null}
    </Card>
  );
}

function InvitationsCard({ invitations, canWrite }: { invitations: Invitation[]; canWrite: boolean }) {
  const siteId = useSiteId();
  const [notice, setNotice] = useState("");
  const resend = useTeamMutation((i: Invitation) =>
    post(`/api/owner/sites/${siteId}/invitations/${i.id}/resend`).then(() =>
      setNotice(`Sent ${i.email} a new link, valid 7 days. The earlier link no longer works.`),
    ),
  );
  const revoke = useTeamMutation((i: Invitation) =>
    del(`/api/owner/sites/${siteId}/invitations/${i.id}`).then(() =>
      setNotice(`Revoked the invitation of ${i.email}: its link no longer works.`),
    ),
  );
  const columns = [
    { label: "Email" },
    { label: "Roles" },
    { label: "Link expires", className: "hide-phone" },
    ...(canWrite ? [{ label: "Actions", srOnly: true }] : []),
  ];
  return (
    <Card title="Pending invitations" as="section">
      <ErrorNotice error={resend.error ?? revoke.error} />
      {notice ? <Notice kind="ok">{notice}</Notice> : null}
      <ListTable
        columns={columns}
        rows={invitations}
        empty="No invitation is waiting."
        row={(i) => (
          <tr key={i.id}>
            <td>{i.email}</td>
            <td>{rolesText(i.roles)}</td>
            <td className="hide-phone">{formatDate(i.expiresAt, true)}</td>
            {canWrite ? (
              <td>
                <RowActions
                  actions={[
                    {
                      label: "Resend",
                      name: `Resend the invitation of ${i.email}`,
                      disabled: resend.isPending,
                      onClick: () => resend.mutate(i),
                    },
                    {
                      label: "Revoke",
                      name: `Revoke the invitation of ${i.email}`,
                      danger: true,
                      disabled: revoke.isPending,
                      onClick: () => revoke.mutate(i),
                    },
                  ]}
                />
              </td>
            ) : null}
          </tr>
        )}
      />
    </Card>
  );
}

export function Permissions() {
  const siteId = useSiteId();
  const { can, site } = useCan();
  const [inviting, setInviting] = useState(false);
  const [transferring, setTransferring] = useState(false);
  const team = useQuery({
    queryKey: membersKey(siteId),
    queryFn: () => get<MembersAnswer>(`/api/owner/sites/${siteId}/members`),
  });
  const account = useQuery({
    queryKey: ["account"],
    queryFn: () => get<{ account: Account }>("/api/owner/account"),
  });
  const canWrite = can("members.write");
  const isOwner = site?.role === "owner";
  return (
    <>
      <PageHead
        title="Permissions"
        sub="The people who help run this site. Each one sees and changes only what their roles allow."
        actions={
          canWrite ? (
            <button type="button" className="btn primary" onClick={() => setInviting(true)}>
              Invite a person
            </button>
          ) : null
        }
      />
      <Loaded query={team}>
        {({ members, invitations }) => {
          const others = members.filter((m) => !m.owner);
          return (
            <div className="team-cards">
              <MembersCard members={members} me={account.data?.account.id} canWrite={canWrite} />
              <InvitationsCard invitations={invitations} canWrite={canWrite} />
              {isOwner ? (
                <Card title="Transfer ownership" as="section">
                  <p className="muted small">
                    A site has one Owner. Hand it to another member (the agency that built the site hands it
                    to its client, say); you stay on as an Administrator.
                  </p>
                  {others.length ? (
                    <button type="button" className="btn" onClick={() => setTransferring(true)}>
                      Transfer ownership…
                    </button>
                  ) : (
                    <p className="small">Invite the person first: ownership goes to a member.</p>
                  )}
                  {transferring ? (
                    <TransferDialog members={others} onClose={() => setTransferring(false)} />
                  ) : null}
                </Card>
              ) : null}
            </div>
          );
        }}
      </Loaded>
      {inviting ? <InviteDialog onClose={() => setInviting(false)} /> : null}
    </>
  );
}
