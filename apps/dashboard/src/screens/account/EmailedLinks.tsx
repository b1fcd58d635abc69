/**
 * The screens of a signed-out owner around emailed links: asking for a password reset link, the
 * page that link opens (a new password), and the page that confirms a new email address.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { post } from "../../api.js";
import { ErrorNotice, Notice } from "../../components/ui.js";
import { TextField, fieldErrors } from "../../components/form/index.js";
import { AuthFrame, ensureCrumb } from "./AuthFrame.js";
import { useNewPassword } from "./fields.js";

/** What a screen shows once its link did its work: the news, and the way on. */
function Done({
  title,
  next,
  children,
}: {
  title: string;
  next: { to: string; label: string };
  children: ReactNode;
}) {
  return (
    <AuthFrame title={title}>
      <Notice kind="ok">{children}</Notice>
      <Link className="btn primary" style={{ width: "100%" }} to={next.to}>
        {next.label}
      </Link>
    </AuthFrame>
  );
}

/** The card's full-width submit button, which reads `pendingLabel` while its call runs. */
function SubmitButton({
  pending,
  disabled,
  pendingLabel,
  children,
}: {
  pending: boolean;
  disabled?: boolean;
  pendingLabel: string;
  children: ReactNode;
}) {
  return (
    <button type="submit" className="btn primary" style={{ width: "100%" }} disabled={pending || disabled}>
      {pending ? pendingLabel : children}
    </button>
  );
}

const backToLogin = (
  <p className="small" style={{ marginTop: "1rem", textAlign: "center" }}>
    <Link to="/login">Back to log in</Link>
  </p>
);

/** "Forgot your password?": the address to send a reset link to. */
export function ForgotPassword() {
  const [email, setEmail] = useState("");
  const ask = useMutation({
    mutationFn: async () => {
      await ensureCrumb();
      return post<{ message: string }>("/api/owner/password-reset", { email });
    },
  });
  return (
    <AuthFrame
      title="Reset your password"
      sub="Type the email address of your account: we will send it a link to choose a new password."
      onSubmit={() => ask.mutate()}
    >
      {ask.data ? <Notice kind="ok">{ask.data.message} The link works once, within an hour.</Notice> : null}
      <ErrorNotice error={ask.error} />
      <TextField
        label="Email"
        type="email"
        value={email}
        onChange={setEmail}
        autoComplete="email"
        error={fieldErrors(ask.error).email}
        required
      />
      <SubmitButton pending={ask.isPending} pendingLabel="Sending…">
        Send the link
      </SubmitButton>
      {backToLogin}
    </AuthFrame>
  );
}

/** The page a reset link opens: the new password, twice. */
export function ResetPassword() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const password = useNewPassword();
  const reset = useMutation({
    mutationFn: async () => {
      await ensureCrumb();
      return post("/api/owner/password-reset/confirm", { token, newPassword: password.password });
    },
  });
  if (reset.isSuccess) {
    return (
      <Done title="Your password is changed" next={{ to: "/login", label: "Log in" }}>
        Log in with your new password. Every device that was signed in has been signed out.
      </Done>
    );
  }
  return (
    <AuthFrame
      title="Choose a new password"
      onSubmit={() => {
        if (password.confirmed()) reset.mutate();
      }}
    >
      {token ? null : (
        <Notice kind="error">This link has no token. Open the link from the email again.</Notice>
      )}
      <ErrorNotice error={reset.error} />
      {password.fields(fieldErrors(reset.error).newPassword)}
      <SubmitButton pending={reset.isPending} disabled={!token} pendingLabel="Saving…">
        Save the new password
      </SubmitButton>
      <p className="small" style={{ marginTop: "1rem", textAlign: "center" }}>
        <Link to="/forgot-password">Ask for a new link</Link>
      </p>
    </AuthFrame>
  );
}

/** The page the link sent to a new email address opens: one button confirms it. */
export function ConfirmEmail() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const queryClient = useQueryClient();
  const confirm = useMutation({
    mutationFn: async () => {
      await ensureCrumb();
      return post<{ account: { email: string } }>("/api/owner/account/email/confirm", { token });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["account"] }),
  });
  if (confirm.data) {
    return (
      <Done title="Your email address is changed" next={{ to: "/", label: "Go to your sites" }}>
        From now on, sign in with {confirm.data.account.email}.
      </Done>
    );
  }
  return (
    <AuthFrame
      title="Confirm your new email address"
      sub="Your account will sign in with this address from now on."
      onSubmit={() => confirm.mutate()}
    >
      <ErrorNotice error={confirm.error} />
      <SubmitButton pending={confirm.isPending} disabled={!token} pendingLabel="Confirming…">
        Confirm this address
      </SubmitButton>
      {backToLogin}
    </AuthFrame>
  );
}
