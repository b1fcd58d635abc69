/**
 * A site user's saved address (SPEC account pages): its parts in form order and which of them
 * are required. One list for the server (checking) and the storefront (the address form). No I/O.
 */
export const ADDRESS_FIELDS = [
  "firstName",
  "lastName",
  "address1",
  "address2",
  "city",
  "state",
  "postalCode",
  "country",
  "phone",
] as const;
export type AddressField = (typeof ADDRESS_FIELDS)[number];

export const REQUIRED_ADDRESS_FIELDS: readonly AddressField[] = [
  "firstName",
  "lastName",
  "address1",
  "city",
  "postalCode",
  "country",
];

/** A saved address as the account calls answer it. */
export type SavedAddress = { id: string } & Record<AddressField, string>;

/** An address with every part empty: the new-address form. */
export function emptyAddress(): Omit<SavedAddress, "id"> {
  return Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, ""])) as Omit<SavedAddress, "id">;
}
