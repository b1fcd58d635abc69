/** Account → Sessions: the devices signed in to the account, with Sign out and Sign out everywhere else. */
import type { AccountSession } from "@atelier/owner-api";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { del, get } from "../../api.js";
import { Card } from "../../components/Card.js";
import { ErrorNotice, ListTable, Loaded, formatDate } from "../../components/ui.js";
import { SESSIONS_KEY } from "./queries.js";

const COLUMNS = [{ label: "Device" }, { label: "Last seen" }, { label: "Actions", srOnly: true }];

export function SessionsCard() {
  const queryClient = useQueryClient();
  const sessions = useQuery({
    queryKey: SESSIONS_KEY,
    queryFn: () => get<{ sessions: AccountSession[] }>("/api/owner/account/sessions"),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
  const signOut = useMutation({
    mutationFn: (id: string) => del(`/api/owner/account/sessions/${id}`),
    onSettled: refresh,
  });
  const signOutOthers = useMutation({
    mutationFn: () => del<{ signedOut: number }>("/api/owner/account/sessions"),
    onSettled: refresh,
  });
  const others = sessions.data?.sessions.filter((s) => !s.current).length ?? 0;
  return (
    <Card title="Sessions" as="section">
      <p className="muted small">The devices signed in to your account. Sign out any you do not know.</p>
      <ErrorNotice error={signOut.error ?? signOutOthers.error} />
      <Loaded query={sessions}>
        {(answer) => (
          <ListTable
            columns={COLUMNS}
            rows={answer.sessions}
            empty="No device is signed in."
            row={(s) => (
              <tr key={s.id}>
                <td>
                  {s.browser} on {s.os}
                  {s.current ? <span className="badge ok">This device</span> : null}
                  <div className="muted small">
                    {s.ip || "Unknown address"} · signed in {formatDate(s.createdAt, true)}
                  </div>
                </td>
                <td>{formatDate(s.lastSeenAt, true)}</td>
                <td>
                  {s.current ? null : (
                    <button
                      type="button"
                      className="btn small"
                      aria-label={`Sign out ${s.browser} on ${s.os} at ${s.ip}`}
                      disabled={signOut.isPending}
                      onClick={() => signOut.mutate(s.id)}
                    >
                      Sign out
                    </button>
                  )}
                </td>
              </tr>
            )}
          />
        )}
      </Loaded>
      {signOutOthers.data ? (
        <p className="muted small" role="status">
          Signed out {signOutOthers.data.signedOut} other device
          {signOutOthers.data.signedOut === 1 ? "" : "s"}.
        </p>
      ) : null}
      <button
        type="button"
        className="btn sign-out-others"
        disabled={!others || signOutOthers.isPending}
        onClick={() => signOutOthers.mutate()}
      >
        Sign out everywhere else
      </button>
    </Card>
  );
}
