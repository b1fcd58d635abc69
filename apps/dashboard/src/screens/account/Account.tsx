/**
 * The signed-in person's Account screen: change password, change email, two-step verification
 * and the signed-in devices (docs/account-security.md).
 */
import type { AccountSecurity } from "@atelier/owner-api";
import { useQuery } from "@tanstack/react-query";
import { type Account as AccountJson, get } from "../../api.js";
import { Loaded, PageHead } from "../../components/ui.js";
import { EmailCard } from "./EmailCard.js";
import { PasswordCard } from "./PasswordCard.js";
import { SessionsCard } from "./SessionsCard.js";
import { SECURITY_KEY } from "./queries.js";
import { TwoFactorCard } from "./TwoFactorCard.js";

export function Account() {
  const me = useQuery({
    queryKey: ["account"],
    queryFn: () => get<{ account: AccountJson }>("/api/owner/account"),
  });
  const security = useQuery({
    queryKey: SECURITY_KEY,
    queryFn: () => get<AccountSecurity>("/api/owner/account/security"),
  });
  return (
    <>
      <PageHead title="Account" sub={me.data ? `Signed in as ${me.data.account.email}` : undefined} />
      <Loaded query={security}>
        {(s) => (
          <div className="account-cards">
            <PasswordCard />
            <EmailCard email={me.data?.account.email ?? ""} pendingEmail={s.pendingEmail} />
            <TwoFactorCard security={s} />
            <SessionsCard />
          </div>
        )}
      </Loaded>
    </>
  );
}
