/** Account → Change email: the new address and the password; a link sent to the new address confirms it. */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { put } from "../../api.js";
import { Card } from "../../components/Card.js";
import { TextField, fieldErrors } from "../../components/form/index.js";
import { ErrorNotice, Notice } from "../../components/ui.js";
import { PasswordField } from "./fields.js";
import { SECURITY_KEY } from "./queries.js";

export function EmailCard({ email, pendingEmail }: { email: string; pendingEmail: string | null }) {
  const queryClient = useQueryClient();
  const [newEmail, setNewEmail] = useState("");
  const [password, setPassword] = useState("");
  const change = useMutation({
    mutationFn: () => put<{ pendingEmail: string }>("/api/owner/account/email", { newEmail, password }),
    onSuccess: () => {
      setNewEmail("");
      setPassword("");
      void queryClient.invalidateQueries({ queryKey: SECURITY_KEY });
    },
  });
  const errors = fieldErrors(change.error);
  return (
    <Card title="Change email" as="section">
      <p className="muted small">
        You sign in with <strong>{email}</strong>. Security notices go to this address.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          change.mutate();
        }}
        noValidate
      >
        {pendingEmail ? (
          <Notice>
            We sent a link to {pendingEmail}. Open it within a day to sign in with that address; until then
            nothing changes.
          </Notice>
        ) : null}
        <ErrorNotice error={change.error} />
        <TextField
          label="New email address"
          type="email"
          value={newEmail}
          onChange={setNewEmail}
          autoComplete="email"
          error={errors.newEmail}
          required
        />
        <PasswordField value={password} onChange={setPassword} error={errors.password} />
        <button type="submit" className="btn primary" disabled={change.isPending}>
          {change.isPending ? "Sending…" : "Send a confirmation link"}
        </button>
      </form>
    </Card>
  );
}
