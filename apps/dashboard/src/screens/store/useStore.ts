/** The store's settings and the currencies it may use, from the owner API. */
import { useQuery } from "@tanstack/react-query";
import { get } from "../../api.js";
import { useSiteId } from "../../components/ui.js";

export interface StoreSettingsJson {
  currency: string;
  useCLDRMoneyFormat: boolean;
  multipleQuantityAllowedForServices: boolean;
  customSoldOutText: string;
  restockNotificationsEnabled: boolean;
  restockNotificationsSuccessText: string;
  soldOutVariantsDropdownDisabled: boolean;
  measurementStandard: string;
}

export function useStore() {
  const siteId = useSiteId();
  return useQuery({
    queryKey: ["store", siteId],
    queryFn: () =>
      get<{ settings: StoreSettingsJson; currencies: { code: string; currencyName: string }[] }>(
        `/api/owner/sites/${siteId}/store`,
      ),
  });
}

export function useStoreCurrency(): string {
  return useStore().data?.settings.currency ?? "USD";
}
