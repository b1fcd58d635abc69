/**
 * The signed-in visitor's saved addresses: the list, and the form to add or edit one. Its
 * required fields (starred) are the ones the server checks: commerce's REQUIRED_ADDRESS_FIELDS.
 */
import { emptyAddress, REQUIRED_ADDRESS_FIELDS } from "@atelier/commerce";
import { type FormEvent, useState } from "react";
import { userCall } from "./session.js";
import type { Address } from "./types.js";
import { type AccountInput, Alert, SubmitButton, TextInput, useBusy } from "./ui.js";

const ADDRESS_INPUTS: AccountInput<keyof Omit<Address, "id">>[] = [
  { key: "firstName", label: "First name", auto: "given-name" },
  { key: "lastName", label: "Last name", auto: "family-name" },
  { key: "address1", label: "Address 1", auto: "address-line1" },
  { key: "address2", label: "Address 2", auto: "address-line2" },
  { key: "city", label: "City", auto: "address-level2" },
  { key: "state", label: "State/Province", auto: "address-level1" },
  { key: "postalCode", label: "ZIP/Postal code", auto: "postal-code" },
  { key: "country", label: "Country", auto: "country-name" },
  { key: "phone", label: "Phone", auto: "tel" },
];

export function Addresses({
  list,
  onChange,
  onSignedOut,
}: {
  list: Address[];
  onChange(list: Address[]): void;
  onSignedOut(): void;
}) {
  const [editing, setEditing] = useState<string | "new" | undefined>();
  const [draft, setDraft] = useState(emptyAddress);
  const s = useBusy();

  function edit(a?: Address) {
    setEditing(a ? a.id : "new");
    setDraft(a ? { ...a } : emptyAddress());
    s.setFields({});
    s.setMessage(undefined);
  }

  async function call(path: string, method: "POST" | "PUT" | "DELETE", body?: unknown) {
    s.start();
    const answer = await userCall(path, { method, body });
    s.setBusy(false);
    if (answer.status === 401 || answer.status === 403) return onSignedOut();
    if (answer.status >= 300) return s.fail(answer);
    onChange((answer.body as { addresses: Address[] }).addresses);
    setEditing(undefined);
  }

  function save(e: FormEvent) {
    e.preventDefault();
    const { id: _id, ...body } = draft as Address;
    if (editing === "new") void call("/api/site-users/account/addresses", "POST", body);
    else void call(`/api/site-users/account/addresses/${encodeURIComponent(editing!)}`, "PUT", body);
  }

  return (
    <div className="account-addresses">
      {list.length === 0 && !editing && <p className="account-empty">You have no saved addresses.</p>}
      <ul className="account-address-list">
        {list.map((a) => (
          <li key={a.id} className="account-address">
            <address>
              {a.firstName} {a.lastName}
              <br />
              {a.address1}
              {a.address2 && (
                <>
                  <br />
                  {a.address2}
                </>
              )}
              <br />
              {[a.city, a.state].filter(Boolean).join(", ")} {a.postalCode}
              <br />
              {a.country}
              {a.phone && (
                <>
                  <br />
                  {a.phone}
                </>
              )}
            </address>
            <div className="account-address-actions">
              <button type="button" className="button button-secondary" onClick={() => edit(a)}>
                Edit<span className="visually-hidden"> address {a.address1}</span>
              </button>
              <button
                type="button"
                className="button button-secondary"
                disabled={s.busy}
                onClick={() =>
                  call(`/api/site-users/account/addresses/${encodeURIComponent(a.id)}`, "DELETE")
                }
              >
                Remove<span className="visually-hidden"> address {a.address1}</span>
              </button>
            </div>
          </li>
        ))}
      </ul>
      {editing ? (
        <form className="account-form" onSubmit={save} noValidate>
          <h2>{editing === "new" ? "New address" : "Edit address"}</h2>
          {s.message && <Alert>{s.message}</Alert>}
          <div className="account-grid">
            {ADDRESS_INPUTS.map((i) => (
              <TextInput
                key={i.key}
                label={i.label}
                autoComplete={i.auto}
                required={REQUIRED_ADDRESS_FIELDS.includes(i.key)}
                value={draft[i.key]}
                onChange={(v) => setDraft((d) => ({ ...d, [i.key]: v }))}
                error={s.fields[i.key]}
              />
            ))}
          </div>
          <div className="account-actions">
            <SubmitButton busy={s.busy} busyText="Saving…">
              Save address
            </SubmitButton>
            <button className="button button-secondary" type="button" onClick={() => setEditing(undefined)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <button type="button" className="button button-primary" onClick={() => edit()}>
          Add an address
        </button>
      )}
    </div>
  );
}
