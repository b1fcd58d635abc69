/** The store's settings and the currencies it may use, from the owner API. */
import type { StoreSettingsAnswer } from "@atelier/owner-api";
import { useQuery } from "@tanstack/react-query";
import { get } from "../../api.js";
import { useSiteId } from "../../components/ui.js";

export function useStore() {
  const siteId = useSiteId();
  return useQuery({
    queryKey: ["store", siteId],
    queryFn: () => get<StoreSettingsAnswer>(`/api/owner/sites/${siteId}/store`),
  });
}

export function useStoreCurrency(): string {
  return useStore().data?.settings.currency ?? "USD";
}
