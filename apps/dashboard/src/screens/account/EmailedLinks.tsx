/**
 * The screens of a signed-out owner around emailed links: asking for a password reset link, the
 * page that link opens (a new password), and the page that confirms a new email address.
 */
import { PASSWORD_MIN_LENGTH } from "@atelier/owner-api";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { post } from "../../api.js";
import { ErrorNotice, Notice } from "../../components/ui.js";
import { TextField, fieldErrors } from "../../components/form/index.js";
import { AuthFrame, ensureCrumb } from "./AuthFrame.js";

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
      <button type="submit" className="btn primary" style={{ width: "100%" }} disabled={ask.isPending}>
        {ask.isPending ? "Sending…" : "Send the link"}
      </button>
      {backToLogin}
    </AuthFrame>
  );
}

/** The page a reset link opens: the new password, twice. */
export function ResetPassword() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const [password, setPassword] = useState("");
  const [again, setAgain] = useState("");
  const [mismatch, setMismatch] = useState(false);
  const reset = useMutation({
    mutationFn: async () => {
      await ensureCrumb();
      return post("/api/owner/password-reset/confirm", { token, newPassword: password });
    },
  });
  if (reset.isSuccess) {
    return (
      <AuthFrame title="Your password is changed">
        <Notice kind="ok">
          Log in with your new password. Every device that was signed in has been signed out.
        </Notice>
        <Link className="btn primary" style={{ width: "100%" }} to="/login">
          Log in
        </Link>
      </AuthFrame>
    );
  }
  const errors = fieldErrors(reset.error);
  return (
    <AuthFrame
      title="Choose a new password"
      sub={`At least ${PASSWORD_MIN_LENGTH} characters.`}
      onSubmit={() => {
        setMismatch(password !== again);
        if (password === again) reset.mutate();
      }}
    >
      {token ? null : (
        <Notice kind="error">This link has no token. Open the link from the email again.</Notice>
      )}
      <ErrorNotice error={reset.error} />
      <TextField
        label="New password"
        type="password"
        value={password}
        onChange={setPassword}
        autoComplete="new-password"
        error={errors.newPassword}
        required
      />
      <TextField
        label="New password again"
        type="password"
        value={again}
        onChange={setAgain}
        autoComplete="new-password"
        error={mismatch ? "The two passwords are not the same." : undefined}
        required
      />
      <button
        type="submit"
        className="btn primary"
        style={{ width: "100%" }}
        disabled={reset.isPending || !token}
      >
        {reset.isPending ? "Saving…" : "Save the new password"}
      </button>
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
      <AuthFrame title="Your email address is changed">
        <Notice kind="ok">From now on, sign in with {confirm.data.account.email}.</Notice>
        <Link className="btn primary" style={{ width: "100%" }} to="/">
          Go to your sites
        </Link>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame
      title="Confirm your new email address"
      sub="Your account will sign in with this address from now on."
      onSubmit={() => confirm.mutate()}
    >
      <ErrorNotice error={confirm.error} />
      <button
        type="submit"
        className="btn primary"
        style={{ width: "100%" }}
        disabled={confirm.isPending || !token}
      >
        {confirm.isPending ? "Confirming…" : "Confirm this address"}
      </button>
      {backToLogin}
    </AuthFrame>
  );
}
