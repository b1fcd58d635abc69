/** The fields the account screens share: a password, a code of the authenticator app, a new password twice. */
import { PASSWORD_MIN_LENGTH } from "@atelier/owner-api";
import { useState } from "react";
import { ApiError } from "../../api.js";
import { TextField } from "../../components/form/index.js";

interface ValueProps {
  value: string;
  onChange: (value: string) => void;
  error?: string;
}

/** A password the person already has (autofilled by password managers). */
export function PasswordField({ label = "Your password", ...props }: ValueProps & { label?: string }) {
  return <TextField label={label} type="password" autoComplete="current-password" required {...props} />;
}

/** A 6-digit code of the authenticator app (or, where `help` says so, a recovery code). */
export function OneTimeCodeField({
  label = "Code from the app",
  help = "The 6-digit code your authenticator app shows now.",
  ...props
}: ValueProps & { label?: string; help?: string; autoFocus?: boolean }) {
  return (
    <TextField
      label={label}
      help={help}
      autoComplete="one-time-code"
      inputMode="numeric"
      required
      {...props}
    />
  );
}

/** Whether a sign-in's answer asks for the second step (a code of the authenticator app, or a wrong one). */
export const needsCode = (error: unknown) =>
  error instanceof ApiError && (error.code === "two_factor_required" || error.code === "invalid_code");

/** Whether the answer is the request for a code itself (said as a notice, not as an error). */
export const codeAsked = (error: unknown): error is ApiError =>
  error instanceof ApiError && error.code === "two_factor_required";

/**
 * The second step of a sign-in (the login page, an invitation accepted with a password): the
 * code, asked once the server answers that the account has two-step verification on.
 */
export function useSecondStep() {
  const [code, setCode] = useState("");
  const [asked, setAsked] = useState(false);
  return {
    /** What the sign-in call sends beside the password. */
    body: () => (asked && code ? { code } : {}),
    /** For the mutation's onError: shows the field when the answer asks for a code. */
    onError: (error: unknown) => {
      if (needsCode(error)) setAsked(true);
    },
    reset: () => setAsked(false),
    field: (error?: string) =>
      asked ? (
        <OneTimeCodeField
          label="Verification code"
          help="The 6-digit code of your authenticator app, or one of your recovery codes."
          value={code}
          onChange={setCode}
          error={error}
          autoFocus
        />
      ) : null,
  };
}

/** A new password typed twice: `fields` shows both, `confirmed()` says (and shows) whether they match. */
export function useNewPassword(help = `At least ${PASSWORD_MIN_LENGTH} characters.`) {
  const [password, setPassword] = useState("");
  const [again, setAgain] = useState("");
  const [mismatch, setMismatch] = useState(false);
  return {
    password,
    confirmed: () => {
      setMismatch(password !== again);
      return password === again;
    },
    clear: () => {
      setPassword("");
      setAgain("");
    },
    fields: (error?: string) => (
      <>
        <TextField
          label="New password"
          help={help}
          type="password"
          value={password}
          onChange={setPassword}
          autoComplete="new-password"
          error={error}
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
      </>
    ),
  };
}
