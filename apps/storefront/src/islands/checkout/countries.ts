import { ISO_COUNTRY_CODES } from "@atelier/commerce";

/** ISO 3166-1 alpha-2 country codes (the server accepts these); names come from the browser (Intl.DisplayNames). */
const COUNTRY_CODES = ISO_COUNTRY_CODES;

let names: Intl.DisplayNames | undefined;
export function countryName(code: string): string {
  try {
    names ??= new Intl.DisplayNames(["en"], { type: "region" });
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}

/** Countries to offer, by name: those the store ships to, or all of them. */
export function countryChoices(shipsTo: readonly string[] | null): { code: string; name: string }[] {
  const codes = shipsTo?.length ? shipsTo : COUNTRY_CODES;
  return codes
    .map((code) => ({ code, name: countryName(code) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
