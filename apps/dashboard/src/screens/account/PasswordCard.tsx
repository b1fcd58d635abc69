/** Account → Change password: the current one, then the new one twice; the other devices are signed out. */
import { PASSWORD_MIN_LENGTH } from "@atelier/owner-api";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { put } from "../../api.js";
import { Card } from "../../components/Card.js";
import { TextField, fieldErrors } from "../../components/form/index.js";
import { ErrorNotice, Notice } from "../../components/ui.js";

export function PasswordCard() {
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [again, setAgain] = useState("");
  const [mismatch, setMismatch] = useState(false);
  const change = useMutation({
    mutationFn: () =>
      put<{ signedOut: number }>("/api/owner/account/password", {
        currentPassword: current,
        newPassword: next,
      }),
    onSuccess: () => {
      setCurrent("");
      setNext("");
      setAgain("");
      void queryClient.invalidateQueries({ queryKey: ["account", "sessions"] });
    },
  });
  const errors = fieldErrors(change.error);
  const signedOut = change.data?.signedOut ?? 0;
  return (
    <Card title="Change password" as="section">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setMismatch(next !== again);
          if (next === again) change.mutate();
        }}
        noValidate
      >
        {change.isSuccess ? (
          <Notice kind="ok">
            Your password is changed.{" "}
            {signedOut
              ? `${signedOut} other device${signedOut === 1 ? " was" : "s were"} signed out.`
              : "No other device was signed in."}
          </Notice>
        ) : null}
        <ErrorNotice error={change.error} />
        <TextField
          label="Current password"
          type="password"
          value={current}
          onChange={setCurrent}
          autoComplete="current-password"
          error={errors.currentPassword}
          required
        />
        <TextField
          label="New password"
          help={`At least ${PASSWORD_MIN_LENGTH} characters. Every other device will be signed out.`}
          type="password"
          value={next}
          onChange={setNext}
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
        <button type="submit" className="btn primary" disabled={change.isPending}>
          {change.isPending ? "Changing…" : "Change password"}
        </button>
      </form>
    </Card>
  );
}
