/**
 * The page an invitation email's link opens (/config/invitations/accept?token=…): who invites to
 * which site with which roles, then one step to join: the signed-in account of the invited address
 * just joins, an existing account gives its password, a new address chooses a name and a password.
 * A link used, revoked or expired says so.
 */
import { type InvitationPreview, ROLES, isRole, roleName } from "@atelier/owner-api";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { type Account, post } from "../../api.js";
import { TextField, fieldErrors } from "../../components/form/index.js";
import { ErrorNotice, Loading, Notice } from "../../components/ui.js";
import { AuthFrame, ensureCrumb } from "./AuthFrame.js";
import { PasswordField, codeAsked, useNewPassword, useSecondStep } from "./fields.js";

/** The signed-in account, or null: read without the API client, whose 401 would open the login screen. */
async function signedInAccount(): Promise<Account | null> {
  const res = await fetch("/api/owner/account", { credentials: "same-origin" });
  return res.ok ? ((await res.json()) as { account: Account }).account : null;
}

export function AcceptInvitation() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const newPassword = useNewPassword();
  const secondStep = useSecondStep();
  const preview = useQuery({
    queryKey: ["invitation", token],
    queryFn: async () => {
      await ensureCrumb();
      return post<InvitationPreview>("/api/owner/invitations/preview", { token });
    },
    enabled: Boolean(token),
    retry: false,
  });
  const me = useQuery({ queryKey: ["invitation-account"], queryFn: signedInAccount, retry: false });
  const invited = preview.data;
  const signedInAsInvited = Boolean(invited && me.data && me.data.email === invited.email);
  const accept = useMutation({
    mutationFn: async () => {
      await ensureCrumb();
      const body = signedInAsInvited
        ? { token }
        : invited?.hasAccount
          ? { token, password, ...secondStep.body() }
          : { token, password: newPassword.password, name };
      return post<{ siteId: string }>("/api/owner/invitations/accept", body);
    },
    onSuccess: ({ siteId }) => {
      queryClient.clear();
      navigate(`/sites/${siteId}`);
    },
    // Two-step verification on: the code is asked here, as the login page asks it.
    onError: secondStep.onError,
  });
  const errors = fieldErrors(accept.error);

  if (!token || preview.error) {
    return (
      <AuthFrame title="This invitation link does not work">
        <ErrorNotice
          error={preview.error ?? new Error("This link has no token. Open the link from the email again.")}
        />
        <p>Ask the person who invited you to send the invitation again: a new link works for 7 days.</p>
        <Link className="btn" style={{ width: "100%" }} to="/login">
          Go to log in
        </Link>
      </AuthFrame>
    );
  }
  if (!invited || me.isLoading) {
    return (
      <AuthFrame title="Your invitation">
        <Loading what="Opening the invitation" />
      </AuthFrame>
    );
  }
  return (
    <AuthFrame
      title={`Join ${invited.site.title}`}
      sub={`${invited.inviter.name || "The site's owner"} invites ${invited.email} to help run the site as:`}
      onSubmit={() => {
        if (signedInAsInvited || invited.hasAccount || newPassword.confirmed()) accept.mutate();
      }}
    >
      <ul className="invitation-roles small">
        {invited.roles.map((r) => (
          <li key={r}>
            <strong>{roleName(r)}</strong>
            {isRole(r) ? <span className="muted">: {ROLES[r].allows}</span> : null}
          </li>
        ))}
      </ul>
      {codeAsked(accept.error) ? (
        <Notice>{accept.error.message}</Notice>
      ) : (
        <ErrorNotice error={accept.error} />
      )}
      {signedInAsInvited ? (
        <Notice>You are signed in as {invited.email}.</Notice>
      ) : (
        <>
          {me.data ? (
            <Notice kind="warn">
              You are signed in as {me.data.email}, but this invitation is for {invited.email}. Accepting
              signs you in as {invited.email}.
            </Notice>
          ) : null}
          {invited.hasAccount ? (
            <>
              <p className="small">{invited.email} has an Atelier account: enter its password to join.</p>
              <PasswordField value={password} onChange={setPassword} error={errors.password} />
              {secondStep.field(errors.code)}
              <p className="small muted">
                <Link to="/forgot-password">Forgot your password?</Link>
              </p>
            </>
          ) : (
            <>
              <p className="small">Create your Atelier account for {invited.email}.</p>
              <TextField
                label="Your name"
                value={name}
                onChange={setName}
                autoComplete="name"
                error={errors.name}
                required
              />
              {newPassword.fields(errors.password)}
            </>
          )}
        </>
      )}
      <button type="submit" className="btn primary" style={{ width: "100%" }} disabled={accept.isPending}>
        {accept.isPending ? "Joining…" : "Accept and join"}
      </button>
    </AuthFrame>
  );
}
