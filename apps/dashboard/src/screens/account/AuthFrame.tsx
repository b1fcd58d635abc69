/** The frame of the screens shown before signing in (log in, forgotten password, emailed links). */
import type { ReactNode } from "react";

/** The crumb cookie comes with any page of the site; make sure there is one before a call. */
export async function ensureCrumb(): Promise<void> {
  if (!/(?:^|;\s*)crumb=/.test(document.cookie)) await fetch("/", { credentials: "same-origin" });
}

export function AuthFrame({
  title,
  sub,
  onSubmit,
  children,
}: {
  title: string;
  sub?: ReactNode;
  /** Given, the card is a form that submits with it. */
  onSubmit?: () => void;
  children: ReactNode;
}) {
  const body = (
    <>
      <div className="brand">
        <span className="logo" aria-hidden="true">
          A
        </span>
        Atelier
      </div>
      <h1>{title}</h1>
      {sub ? <p className="muted">{sub}</p> : null}
      {children}
    </>
  );
  return (
    <div className="login">
      {onSubmit ? (
        <form
          className="card"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            onSubmit();
          }}
        >
          {body}
        </form>
      ) : (
        <div className="card">{body}</div>
      )}
    </div>
  );
}
