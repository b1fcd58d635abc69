import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { post } from "../api.js";
import { ErrorNotice } from "../components/ui.js";
import { TextField, fieldErrors } from "../components/form/index.js";

/** Log in (or create an owner account). */
export function Login() {
  const [mode, setMode] = useState<"login" | "signup">("login");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [displayName, setDisplayName] = useState("");
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const submit = useMutation({
    mutationFn: async () => {
      // The crumb cookie comes with the dashboard page; make sure there is one before the call.
      if (!/(?:^|;\s*)crumb=/.test(document.cookie)) await fetch("/", { credentials: "same-origin" });
      if (mode === "login") return post("/api/owner/session", { email, password });
      return post("/api/owner/account", { email, password, displayName: displayName || undefined });
    },
    onSuccess: () => {
      queryClient.clear();
      const next = params.get("next");
      navigate(next?.startsWith("/") && !next.startsWith("//") ? next : "/");
    },
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    submit.mutate();
  };
  const errors = fieldErrors(submit.error);
  return (
    <div className="login">
      <form className="card" onSubmit={onSubmit} noValidate>
        <div className="brand">
          <span className="logo" aria-hidden="true">
            A
          </span>
          Atelier
        </div>
        <h1>{mode === "login" ? "Log in to your sites" : "Create your account"}</h1>
        <p className="muted">
          {mode === "login"
            ? "Build pages, run your store and see your orders."
            : "Start building a website or a store."}
        </p>
        <ErrorNotice error={submit.error} />
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
        <button type="submit" className="btn primary" style={{ width: "100%" }} disabled={submit.isPending}>
          {submit.isPending ? "Please wait…" : mode === "login" ? "Log in" : "Create account"}
        </button>
        <p className="small" style={{ marginTop: "1rem", textAlign: "center" }}>
          {mode === "login" ? "New to Atelier?" : "Already have an account?"}{" "}
          <button
            type="button"
            className="btn ghost small"
            onClick={() => {
              submit.reset();
              setMode(mode === "login" ? "signup" : "login");
            }}
          >
            {mode === "login" ? "Create an account" : "Log in instead"}
          </button>
        </p>
      </form>
    </div>
  );
}
