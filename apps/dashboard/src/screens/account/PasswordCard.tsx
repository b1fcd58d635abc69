/** Account → Change password: the current one, then the new one twice; the other devices are signed out. */
import { PASSWORD_MIN_LENGTH } from "@atelier/owner-api";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { put } from "../../api.js";
import { Card } from "../../components/Card.js";
import { fieldErrors } from "../../components/form/index.js";
import { ErrorNotice, Notice } from "../../components/ui.js";
import { PasswordField, useNewPassword } from "./fields.js";
import { SESSIONS_KEY } from "./queries.js";

export function PasswordCard() {
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState("");
  const next = useNewPassword(
    `At least ${PASSWORD_MIN_LENGTH} characters. Every other device will be signed out.`,
  );
  const change = useMutation({
    mutationFn: () =>
      put<{ signedOut: number }>("/api/owner/account/password", {
        currentPassword: current,
        newPassword: next,
      }),
    onSuccess: () => {
      setCurrent("");
      next.clear();
      void queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
    },
  });
  const errors = fieldErrors(change.error);
  const signedOut = change.data?.signedOut ?? 0;
  return (
    <Card title="Change password" as="section">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (next.confirmed()) change.mutate();
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
        <PasswordField
          label="Current password"
          value={current}
          onChange={setCurrent}
          error={errors.currentPassword}
        />
        {next.fields(errors.newPassword)}
        <button type="submit" className="btn primary" disabled={change.isPending}>
          {change.isPending ? "Changing…" : "Change password"}
        </button>
      </form>
    </Card>
  );
}
