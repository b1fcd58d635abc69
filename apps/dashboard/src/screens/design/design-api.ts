/** The owner design API: GET and PATCH /api/owner/sites/:siteId/design, and its shapes. */
import type { Design, Styles } from "@atelier/owner-api";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { get, patch } from "../../api.js";
import { useSiteId } from "../../components/ui.js";

export type { ColorKey, Design, DesignFont, DesignTheme, Styles } from "@atelier/owner-api";

/** What PATCH takes: any part; in styles, null puts a key back to the theme's default. */
interface DesignPatch {
  theme?: string;
  styles?: {
    [K in keyof Styles]?: Styles[K] extends object
      ? { [J in keyof Styles[K]]?: Styles[K][J] | null } | null
      : Styles[K] | null;
  };
  customCss?: string;
  logoMediaId?: string | null;
  logoAlt?: string;
  logoMaxHeight?: number;
  siteIconMediaId?: string | null;
  socialImageMediaId?: string | null;
}

const designKey = (siteId: string) => ["design", siteId];

export function useDesign() {
  const siteId = useSiteId();
  return useQuery({
    queryKey: designKey(siteId),
    queryFn: () => get<Design>(`/api/owner/sites/${siteId}/design`),
    enabled: Boolean(siteId),
  });
}

/** Saves a part of the design; the answer (the whole new design) replaces the cached one. */
export function useSaveDesign() {
  const siteId = useSiteId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DesignPatch) => patch<Design>(`/api/owner/sites/${siteId}/design`, body),
    onSuccess: (design) => {
      queryClient.setQueryData(designKey(siteId), design);
      void queryClient.invalidateQueries({ queryKey: ["site", siteId] });
      void queryClient.invalidateQueries({ queryKey: ["sites"] });
    },
  });
}

/** The @font-face rules of every curated font, so a font can be seen before the site uses it. */
export function useFontFaces() {
  return useQuery({
    queryKey: ["font-preview-css"],
    queryFn: async () => {
      const res = await fetch("/assets/font-preview.css");
      return res.ok ? res.text() : "";
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Every style key set to null: PATCH puts the whole palette, fonts and sizes back to the theme's. */
export const RESET_STYLES: DesignPatch["styles"] = {
  colors: { background: null, text: null, accent: null, accentText: null, muted: null, border: null },
  fonts: { heading: null, body: null },
  fontSizeBase: null,
  headingScale: null,
  contentWidth: null,
  spacing: null,
  buttonShape: null,
  buttonStyle: null,
};
