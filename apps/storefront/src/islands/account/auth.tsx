/** The signed-out account pages: sign in, register, and the forgotten-password pair. */
import type { HttpAnswer } from "@atelier/forms";
import { type FormEvent, useState } from "react";
import { afterSignIn, failure, keepXsrfToken } from "./session.js";
import { type AccountInput, Alert, Page, SubmitButton, TextInput, useBusy } from "./ui.js";

/** Signed in (or registered): keeps the session's XSRF token and goes where the visitor was going. */
function enter(answer: HttpAnswer): void {
  keepXsrfToken((answer.body as { xsrfToken: string }).xsrfToken);
  window.location.assign(afterSignIn());
}

export function SignIn() {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [rememberMe, setRememberMe] = useState(false);
  const s = useBusy();
  async function submit(e: FormEvent) {
    e.preventDefault();
    const answer = await s.post("/api/site-users/account/session", { email, password, rememberMe });
    if (answer.status === 200) return enter(answer);
    s.setMessage(failure(answer).message);
    s.setBusy(false);
  }
  return (
    <Page title="Sign in">
      <form className="account-form" onSubmit={submit} noValidate>
        {s.message && <Alert>{s.message}</Alert>}
        <TextInput label="Email" type="email" autoComplete="email" value={email} onChange={setEmail} />
        <TextInput
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
        />
        <label className="account-check">
          <input type="checkbox" checked={rememberMe} onChange={(e) => setRememberMe(e.target.checked)} />{" "}
          Keep me signed in
        </label>
        <SubmitButton busy={s.busy} busyText="Signing in…">
          Sign in
        </SubmitButton>
        <p className="account-links">
          <a href="/account/forgot-password">Forgot your password?</a>
          <a href={`/account/register${window.location.search}`}>Create an account</a>
        </p>
      </form>
    </Page>
  );
}

type RegisterKey = "firstName" | "lastName" | "email" | "password";

const REGISTER_NAME_INPUTS: AccountInput<RegisterKey>[] = [
  { key: "firstName", label: "First name", auto: "given-name" },
  { key: "lastName", label: "Last name", auto: "family-name" },
];
const REGISTER_INPUTS: AccountInput<RegisterKey>[] = [
  { key: "email", label: "Email", type: "email", auto: "email" },
  { key: "password", label: "Password (8 or more characters)", type: "password", auto: "new-password" },
];

export function Register() {
  const [form, setForm] = useState({ firstName: "", lastName: "", email: "", password: "" });
  const s = useBusy();
  const input = (i: AccountInput<keyof typeof form>) => (
    <TextInput
      key={i.key}
      label={i.label}
      type={i.type}
      autoComplete={i.auto}
      required
      value={form[i.key]}
      onChange={(v) => setForm((f) => ({ ...f, [i.key]: v }))}
      error={s.fields[i.key]}
    />
  );
  async function submit(e: FormEvent) {
    e.preventDefault();
    const answer = await s.post("/api/site-users/account", form);
    if (answer.status === 201) return enter(answer);
    s.fail(answer);
    s.setBusy(false);
  }
  return (
    <Page title="Create an account">
      <form className="account-form" onSubmit={submit} noValidate>
        {s.message && <Alert>{s.message}</Alert>}
        <div className="account-pair">{REGISTER_NAME_INPUTS.map(input)}</div>
        {REGISTER_INPUTS.map(input)}
        <SubmitButton busy={s.busy} busyText="Creating your account…">
          Create account
        </SubmitButton>
        <p className="account-links">
          <a href={`/account/login${window.location.search}`}>Already have an account? Sign in</a>
        </p>
      </form>
    </Page>
  );
}

/** The form of the forgotten-password pair: an introduction, its alert, one input and the button. */
function OneInputForm(props: {
  state: ReturnType<typeof useBusy>;
  onSubmit: (e: FormEvent) => void;
  intro?: string;
  input: AccountInput<string>;
  value: string;
  onChange: (v: string) => void;
  disabled?: boolean;
  busyText: string;
  children: string;
}) {
  const { state: s, input } = props;
  return (
    <form className="account-form" onSubmit={props.onSubmit} noValidate>
      {props.intro ? <p>{props.intro}</p> : null}
      {s.message && <Alert>{s.message}</Alert>}
      <TextInput
        label={input.label}
        type={input.type}
        autoComplete={input.auto}
        value={props.value}
        onChange={props.onChange}
        error={s.fields[input.key]}
      />
      <SubmitButton busy={s.busy} disabled={props.disabled} busyText={props.busyText}>
        {props.children}
      </SubmitButton>
    </form>
  );
}

export function ForgotPassword() {
  const [email, setEmail] = useState("");
  const [sent, setSent] = useState(false);
  const s = useBusy();
  async function submit(e: FormEvent) {
    e.preventDefault();
    const answer = await s.post("/api/site-users/account/password-reset", { email });
    s.setBusy(false);
    if (answer.status === 200) setSent(true);
    else s.fail(answer, "email");
  }
  return (
    <Page title="Reset your password">
      {sent ? (
        <Alert kind="success">
          If an account exists for {email}, we have emailed it a link to choose a new password.
        </Alert>
      ) : (
        <OneInputForm
          state={s}
          onSubmit={submit}
          intro="Enter the email of your account and we will send you a link to choose a new password."
          input={{ key: "email", label: "Email", type: "email", auto: "email" }}
          value={email}
          onChange={setEmail}
          busyText="Sending…"
        >
          Send reset link
        </OneInputForm>
      )}
      <p className="account-links">
        <a href="/account/login">Back to sign in</a>
      </p>
    </Page>
  );
}

export function ResetPassword({ token }: { token: string }) {
  const [password, setPassword] = useState("");
  const [done, setDone] = useState(false);
  const s = useBusy();
  async function submit(e: FormEvent) {
    e.preventDefault();
    const answer = await s.post("/api/site-users/account/password-reset/confirm", { token, password });
    s.setBusy(false);
    if (answer.status === 200) {
      keepXsrfToken(null);
      setDone(true);
    } else s.fail(answer, "password");
  }
  return (
    <Page title="Choose a new password">
      {done ? (
        <>
          <Alert kind="success">Your password is changed. Sign in with your new password.</Alert>
          <p className="account-links">
            <a href="/account/login">Sign in</a>
          </p>
        </>
      ) : (
        <OneInputForm
          state={s}
          onSubmit={submit}
          input={{
            key: "password",
            label: "New password (8 or more characters)",
            type: "password",
            auto: "new-password",
          }}
          value={password}
          onChange={setPassword}
          disabled={!token}
          busyText="Saving…"
        >
          Save new password
        </OneInputForm>
      )}
    </Page>
  );
}
