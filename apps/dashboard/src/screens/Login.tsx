import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { post } from "../api.js";
import { ErrorNotice, Notice } from "../components/ui.js";
import { TextField, fieldErrors } from "../components/form/index.js";
import { AuthFrame, ensureCrumb } from "./account/AuthFrame.js";
import { codeAsked, useSecondStep } from "./account/fields.js";

/** Log in (or create an owner account); asks for the code when two-step verification is on. */
export function Login() {
  const [mode, setMode] = useState<"login" | "signup">("login");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [displayName, setDisplayName] = useState("");
  const secondStep = useSecondStep();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const submit = useMutation({
    mutationFn: async () => {
      await ensureCrumb();
      if (mode === "login") {
        return post("/api/owner/session", { email, password, ...secondStep.body() });
      }
      return post("/api/owner/account", { email, password, displayName: displayName || undefined });
    },
    onSuccess: () => {
      queryClient.clear();
      const next = params.get("next");
      navigate(next?.startsWith("/") && !next.startsWith("//") ? next : "/");
    },
    onError: secondStep.onError,
  });
  const errors = fieldErrors(submit.error);
  return (
    <AuthFrame
      title={mode === "login" ? "Log in to your sites" : "Create your account"}
      sub={
        mode === "login"
          ? "Build pages, run your store and see your orders."
          : "Start building a website or a store."
      }
      onSubmit={() => submit.mutate()}
    >
      {codeAsked(submit.error) ? (
        <Notice>{submit.error.message}</Notice>
      ) : (
        <ErrorNotice error={submit.error} />
      )}
      {mode === "signup" ? (
        <TextField
          label="Your name"
          value={displayName}
          onChange={(v) => setDisplayName(v)}
          autoComplete="name"
        />
      ) : null}
      <TextField
        label="Email"
        type="email"
        value={email}
        onChange={(v) => setEmail(v)}
        autoComplete="email"
        error={errors.email}
        required
      />
      <TextField
        label="Password"
        type="password"
        value={password}
        onChange={(v) => setPassword(v)}
        autoComplete={mode === "login" ? "current-password" : "new-password"}
        error={errors.password}
        required
      />
      {mode === "login" ? secondStep.field(errors.code) : null}
      <button type="submit" className="btn primary" style={{ width: "100%" }} disabled={submit.isPending}>
        {submit.isPending ? "Please wait…" : mode === "login" ? "Log in" : "Create account"}
      </button>
      {mode === "login" ? (
        <p className="small" style={{ marginTop: "0.8rem", textAlign: "center" }}>
          <Link to="/forgot-password">Forgot your password?</Link>
        </p>
      ) : null}
      <p className="small" style={{ marginTop: "1rem", textAlign: "center" }}>
        {mode === "login" ? "New to Atelier?" : "Already have an account?"}{" "}
        <button
          type="button"
          className="btn ghost small"
          onClick={() => {
            submit.reset();
            secondStep.reset();
            setMode(mode === "login" ? "signup" : "login");
          }}
        >
          {mode === "login" ? "Create an account" : "Log in instead"}
        </button>
      </p>
    </AuthFrame>
  );
}
