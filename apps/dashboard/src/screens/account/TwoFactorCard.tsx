/**
 * Account → Two-step verification: set up with the QR code (or the secret typed in), confirmed by
 * a first code, which shows the recovery codes once; turned off with the password and a code.
 */
import type { AccountSecurity, TwoFactorSetup } from "@atelier/owner-api";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, post } from "../../api.js";
import { Card } from "../../components/Card.js";
import { CopyField } from "../../components/CopyField.js";
import { fieldErrors } from "../../components/form/index.js";
import { ErrorNotice, Notice } from "../../components/ui.js";
import { OneTimeCodeField, PasswordField } from "./fields.js";
import { SECURITY_KEY } from "./queries.js";

function useRefreshSecurity() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: SECURITY_KEY });
}

/** The recovery codes, shown once right after turning two-step verification on. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <>
      <Notice kind="ok">Two-step verification is on.</Notice>
      <p>
        Keep these recovery codes somewhere safe. Each signs you in once if you lose your phone. They are
        shown only now.
      </p>
      <ul className="recovery-codes" aria-label="Recovery codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ul>
      <CopyField label="All recovery codes" value={codes.join(" ")} buttonLabel="Copy the recovery codes" />
      <button type="button" className="btn primary" onClick={onDone}>
        I have saved my recovery codes
      </button>
    </>
  );
}

function SetUp({ onEnabled }: { onEnabled: (codes: string[]) => void }) {
  const [code, setCode] = useState("");
  const start = useMutation({ mutationFn: () => post<TwoFactorSetup>("/api/owner/account/two-factor") });
  const confirm = useMutation({
    mutationFn: () => post<{ recoveryCodes: string[] }>("/api/owner/account/two-factor/confirm", { code }),
    onSuccess: (r) => onEnabled(r.recoveryCodes),
  });
  if (!start.data) {
    return (
      <>
        <p className="muted small">
          Once it is on, signing in asks for a code from an authenticator app on your phone (such as Google
          Authenticator, 1Password or Authy) as well as your password.
        </p>
        <ErrorNotice error={start.error} />
        <button
          type="button"
          className="btn primary"
          onClick={() => start.mutate()}
          disabled={start.isPending}
        >
          {start.isPending ? "Starting…" : "Set up two-step verification"}
        </button>
      </>
    );
  }
  const setup = start.data;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        confirm.mutate();
      }}
      noValidate
    >
      <p>1. Scan this QR code with your authenticator app.</p>
      <img
        className="qr-code"
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrCodeSvg)}`}
        alt="QR code of the two-step verification secret"
        width={180}
        height={180}
      />
      <CopyField
        label="Or type this secret in the app"
        value={setup.secret}
        buttonLabel="Copy the secret"
        help="Choose a time-based code if the app asks."
      />
      <p>2. Type the code the app shows to turn two-step verification on.</p>
      <ErrorNotice error={confirm.error} />
      <OneTimeCodeField value={code} onChange={setCode} error={fieldErrors(confirm.error).code} />
      <button type="submit" className="btn primary" disabled={confirm.isPending}>
        {confirm.isPending ? "Checking…" : "Turn on"}
      </button>
    </form>
  );
}

function TurnOff({ recoveryCodesLeft }: { recoveryCodesLeft: number }) {
  const refresh = useRefreshSecurity();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const off = useMutation({
    mutationFn: () => api("/api/owner/account/two-factor", { method: "DELETE", body: { password, code } }),
    onSuccess: refresh,
  });
  const errors = fieldErrors(off.error);
  return (
    <>
      <Notice kind="ok">
        Two-step verification is on. {recoveryCodesLeft} recovery code{recoveryCodesLeft === 1 ? "" : "s"}{" "}
        left.
      </Notice>
      {open ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            off.mutate();
          }}
          noValidate
        >
          <ErrorNotice error={off.error} />
          <PasswordField value={password} onChange={setPassword} error={errors.password} />
          <OneTimeCodeField
            help="The code your authenticator app shows now, or a recovery code."
            value={code}
            onChange={setCode}
            error={errors.code}
          />
          <div className="btn-row">
            <button type="button" className="btn" onClick={() => setOpen(false)}>
              Cancel
            </button>
            <button type="submit" className="btn danger" disabled={off.isPending}>
              {off.isPending ? "Turning off…" : "Turn off two-step verification"}
            </button>
          </div>
        </form>
      ) : (
        <button type="button" className="btn" onClick={() => setOpen(true)}>
          Turn off…
        </button>
      )}
    </>
  );
}

export function TwoFactorCard({ security }: { security: AccountSecurity }) {
  const refresh = useRefreshSecurity();
  const [codes, setCodes] = useState<string[] | null>(null);
  return (
    <Card title="Two-step verification" as="section">
      {codes ? (
        <RecoveryCodes
          codes={codes}
          onDone={() => {
            setCodes(null);
            void refresh();
          }}
        />
      ) : security.twoFactorEnabled ? (
        <TurnOff recoveryCodesLeft={security.recoveryCodesLeft} />
      ) : (
        <SetUp onEnabled={setCodes} />
      )}
    </Card>
  );
}
