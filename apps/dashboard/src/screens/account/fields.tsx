/** The fields the account screens share: a password, a code of the authenticator app, a new password twice. */
import { PASSWORD_MIN_LENGTH } from "@atelier/owner-api";
import { useState } from "react";
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
