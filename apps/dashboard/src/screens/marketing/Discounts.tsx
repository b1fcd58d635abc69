/**
 * Marketing › Discounts: automatic discounts (applied without a code) beside the coupons, one
 * screen with a tab for each. Store settings' old Discounts and Coupons tabs lead here.
 */
import { NavLink, useParams } from "react-router";
import { PageHead, useSiteId } from "../../components/ui.js";
import { Coupons } from "../store/Coupons.js";
import { Discounts } from "../store/Discounts.js";

export const discountsPath = (siteId: string, tab: "automatic" | "coupons" = "automatic") =>
  `/sites/${siteId}/marketing/discounts${tab === "coupons" ? "/coupons" : ""}`;

export function MarketingDiscounts() {
  const siteId = useSiteId();
  const { tab = "automatic" } = useParams();
  const tabs = [
    ["automatic", "Automatic discounts"],
    ["coupons", "Coupons"],
  ] as const;
  return (
    <>
      <PageHead
        title="Discounts"
        sub="Automatic discounts apply in the cart without a code; coupons need their code at checkout."
      />
      <nav className="tabs" aria-label="Discounts">
        {tabs.map(([id, label]) => (
          <NavLink key={id} to={discountsPath(siteId, id)} end className={() => (tab === id ? "active" : "")}>
            {label}
          </NavLink>
        ))}
      </nav>
      {tab === "coupons" ? <Coupons /> : <Discounts />}
    </>
  );
}
