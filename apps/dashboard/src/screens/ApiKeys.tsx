/**
 * The API keys panel (SPEC §1, §2): the site's developer keys with their scopes and last use,
 * "Learn more" about the commerce API, its terms of use, creating a key in a two-step modal (the
 * key is shown once, with a Copy button) and deleting a key after a confirmation. Each of these
 * sends the tracking event SPEC §2 names for the API keys panel or the key creation modal.
 */
import { Can } from "../components/permissions.js";
import {
  API_KEY_NAME_MAX_LENGTH,
  type ApiKey,
  type ApiKeyList,
  type CreatedApiKey,
  KEY_AREAS,
  type KeyArea,
  type LEGACY_SCOPES,
} from "@atelier/owner-api";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { del, get, post } from "../api.js";
import { CopyField } from "../components/CopyField.js";
import {
  ErrorNotice,
  LoadedTable,
  PageHead,
  formatDate,
  useSiteId,
  ActionDialog,
  FormDialog,
  Modal,
} from "../components/ui.js";
import { CheckboxField, TextField, fieldErrors } from "../components/form/index.js";

const SESSION = Math.random().toString(36).slice(2, 12);

/** What the owner reads about each area a key may read or change (scopes `<area>.read|write`). */
const AREA_TEXT: Record<KeyArea, { label: string; help: string }> = {
  content: { label: "Content", help: "Pages, navigation, blog posts and other collection items, media." },
  design: { label: "Design", help: "Design, custom CSS and templates (jsont pull and push)." },
  forms: { label: "Forms", help: "Forms and their submissions, the mailing list." },
  marketing: { label: "Marketing", help: "Email campaigns, segments, importing subscribers." },
  seo: { label: "SEO", help: "SEO settings, URL mappings and redirects." },
  settings: { label: "Site settings", help: "Site settings, domains, export and import of the site." },
  products: { label: "Products", help: "Products with their variants, SKUs and prices." },
  inventory: { label: "Inventory", help: "The stock of every variant." },
  orders: { label: "Orders", help: "Orders; fulfil, refund and cancel them; restock requests." },
  store: { label: "Store settings", help: "Shipping, tax, coupons, discounts and product feeds." },
  site_users: { label: "Site users", help: "The people with an account on the site." },
  analytics: { label: "Analytics", help: "Traffic and sales figures." },
  activity: { label: "Activity log", help: "Who changed what, when and from where." },
  webhooks: { label: "Webhooks", help: "Webhook subscriptions and their delivery log." },
};
/** The template commands' first scope names, still accepted (they are the design scopes). */
const LEGACY_TEXT: Record<(typeof LEGACY_SCOPES)[number], string> = {
  "templates.read": "Read templates",
  "templates.write": "Change templates",
};

type PanelAction = "learn_more" | "terms_of_use" | "create_key" | "delete_key" | "delete_confirm";
type ModalAction = "copy" | "next" | "cancel" | "complete";

function useTrack(siteId: string) {
  const send = (objectType: string, action: string, data?: Record<string, string | number | boolean>) => {
    void post(`/api/owner/sites/${siteId}/panel-events`, {
      objectType,
      action,
      pagePath: location.pathname,
      sessionId: SESSION,
      data,
    }).catch(() => {});
  };
  return {
    panel: (action: PanelAction, data?: Record<string, string | number | boolean>) =>
      send("api_keys_panel", action, data),
    modal: (action: ModalAction, data?: Record<string, string | number | boolean>) =>
      send("api_key_creation_modal", action, data),
  };
}

function scopeLabel(id: string) {
  if (id in LEGACY_TEXT) return LEGACY_TEXT[id as keyof typeof LEGACY_TEXT];
  const [area, kind] = id.split(".");
  const text = AREA_TEXT[area as KeyArea];
  return text ? `${kind === "write" ? "Change" : "Read"} ${text.label.toLowerCase()}` : id;
}

const ENDPOINTS = [
  ["Any /api/owner/sites/:siteId/… call of the dashboard", "<area>.read or <area>.write"],
  ["GET /api/1/commerce/orders?cursor=&limit=", "orders.read"],
  ["GET /api/1/commerce/products?cursor=", "products.read"],
  ["GET /api/1/commerce/inventory?cursor=", "inventory.read"],
  ["POST /api/1/commerce/inventory/adjustments", "inventory.write"],
  ["GET /api/owner/sites/:siteId/templates (jsont pull)", "templates.read"],
  ["PUT /api/owner/sites/:siteId/templates/:name (jsont push)", "templates.write"],
] as const;

function LearnMore() {
  const origin = location.origin;
  return (
    <div
      className="card"
      id="api-learn-more"
      style={{ marginBottom: "1rem", minWidth: 0, overflowWrap: "anywhere" }}
    >
      <h2 style={{ marginTop: 0 }}>The commerce API</h2>
      <p>
        Connect your store to other tools, such as a warehouse, an accounting app or your own scripts. Each
        call sends an API key in the <code>Authorization</code> header; the key decides which site it reads
        and what it may do. Keys can make 120 calls a minute.
      </p>
      <ul style={{ paddingLeft: "1.2rem" }}>
        {ENDPOINTS.map(([call, scope]) => (
          <li key={call} style={{ marginBottom: "0.35rem", overflowWrap: "anywhere" }}>
            <code>{call}</code> <span className="muted small">needs {scope}</span>
          </li>
        ))}
      </ul>
      <p className="small muted">
        Lists answer a <code>nextCursor</code>; pass it as <code>cursor</code> for the next page. Amounts are
        in cents. Adjustments (up to 50) apply together or not at all, and never take stock below 0.
      </p>
      <pre
        style={{
          whiteSpace: "pre-wrap",
          wordBreak: "break-all",
          background: "#f4f4f5",
          padding: "0.75rem",
          borderRadius: 6,
        }}
      >
        <code>{`curl -H "Authorization: Bearer atl_…" \\
  ${origin}/api/1/commerce/inventory

curl -X POST -H "Authorization: Bearer atl_…" \\
  -H "Content-Type: application/json" \\
  -d '{"adjustments":[{"variantId":"…","quantityDelta":-2}]}' \\
  ${origin}/api/1/commerce/inventory/adjustments`}</code>
      </pre>
    </div>
  );
}

function Terms({ onClose }: { onClose: () => void }) {
  return (
    <Modal
      title="API terms of use"
      onClose={onClose}
      footer={
        <button type="button" className="btn primary" onClick={onClose}>
          Close
        </button>
      }
    >
      <p>By creating an API key you agree that:</p>
      <ul>
        <li>You keep your keys secret. Anyone with a key can use it with the scopes you gave it.</li>
        <li>You use the API only for your own store, and you respect your customers' privacy and the law.</li>
        <li>You stay within the rate limit of 120 calls a minute per key; calls over it are refused.</li>
        <li>We may revoke a key that is abused, and we may change the API with notice.</li>
        <li>The API is provided as is; you are responsible for what your integrations change.</li>
      </ul>
    </Modal>
  );
}

function CreateKey({ siteId, onClose }: { siteId: string; onClose: () => void }) {
  const queryClient = useQueryClient();
  const track = useTrack(siteId);
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<string[]>([]);
  const create = useMutation({
    mutationFn: () => post<CreatedApiKey>(`/api/owner/sites/${siteId}/api-keys`, { name, scopes }),
    onSuccess: () => {
      track.modal("next", { scopes: scopes.join(",") });
      void queryClient.invalidateQueries({ queryKey: ["api-keys", siteId] });
    },
  });
  const key = create.data?.key;
  const cancel = () => {
    track.modal("cancel", { step: key ? "key" : "details" });
    onClose();
  };
  const errors = fieldErrors(create.error);
  if (key) {
    return (
      <ActionDialog
        title="Your new API key"
        onClose={cancel}
        action="Complete"
        onAction={() => {
          track.modal("complete");
          onClose();
        }}
      >
        <p>
          Copy this key now and keep it somewhere safe. For your security it will{" "}
          <strong>not be shown again</strong>.
        </p>
        <CopyField label="API key" value={key} onCopy={() => track.modal("copy")} />
      </ActionDialog>
    );
  }
  return (
    <FormDialog
      id="create-api-key"
      title="Create API key"
      onClose={cancel}
      submit={create}
      action="Next"
      pendingAction="Creating…"
      disabled={!name.trim() || !scopes.length}
      error={errors.name ? null : create.error}
    >
      <TextField
        label="Key name"
        help="For you: where the key is used, e.g. “Warehouse sync”."
        maxLength={API_KEY_NAME_MAX_LENGTH}
        value={name}
        error={errors.name}
        onChange={(v) => setName(v)}
      />
      <p className="small muted" style={{ margin: "0.5rem 0" }}>
        Choose what the key may read or change. Change also reads. The team, API keys and billing stay with
        people.
      </p>
      {KEY_AREAS.map((area) => (
        <fieldset key={area} className="scope-area">
          <legend>{AREA_TEXT[area].label}</legend>
          <p className="help small muted">{AREA_TEXT[area].help}</p>
          <div className="btn-row" style={{ gap: "1.5rem" }}>
            {(["read", "write"] as const).map((kind) => {
              const id = `${area}.${kind}`;
              return (
                <CheckboxField
                  key={id}
                  label={`${kind === "read" ? "Read" : "Change"} ${AREA_TEXT[area].label.toLowerCase()} (${id})`}
                  value={scopes.includes(id)}
                  onChange={(on) => setScopes(on ? [...scopes, id] : scopes.filter((x) => x !== id))}
                />
              );
            })}
          </div>
        </fieldset>
      ))}
    </FormDialog>
  );
}

export function ApiKeys() {
  const siteId = useSiteId();
  const queryClient = useQueryClient();
  const track = useTrack(siteId);
  const [learn, setLearn] = useState(false);
  const [terms, setTerms] = useState(false);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<ApiKey | null>(null);
  const list = useQuery({
    queryKey: ["api-keys", siteId],
    queryFn: () => get<ApiKeyList>(`/api/owner/sites/${siteId}/api-keys`).then((r) => r.apiKeys),
  });
  const remove = useMutation({
    mutationFn: (id: string) => del(`/api/owner/sites/${siteId}/api-keys/${id}`),
    onSuccess: () => {
      setDeleting(null);
      void queryClient.invalidateQueries({ queryKey: ["api-keys", siteId] });
    },
  });
  /** A click that sends the panel's tracking event, then does what the button says. */
  const tracked = (action: PanelAction, then: () => void) => () => {
    track.panel(action);
    then();
  };
  return (
    <>
      <PageHead
        title="API keys"
        sub="Keys let your other tools call the owner API: read or change only the areas you choose."
        actions={
          <Can permission="api_keys.write">
            <button
              type="button"
              className="btn primary"
              onClick={tracked("create_key", () => setCreating(true))}
            >
              Create API key
            </button>
          </Can>
        }
      />
      <div className="btn-row" style={{ marginBottom: "1rem" }}>
        <button
          type="button"
          className="btn ghost small"
          aria-expanded={learn}
          aria-controls="api-learn-more"
          onClick={() => {
            if (!learn) track.panel("learn_more");
            setLearn(!learn);
          }}
        >
          {learn ? "Hide the API guide" : "Learn more"}
        </button>
        <button
          type="button"
          className="btn ghost small"
          onClick={tracked("terms_of_use", () => setTerms(true))}
        >
          Terms of use
        </button>
      </div>
      {learn ? <LearnMore /> : null}
      <LoadedTable
        query={list}
        rows={(data) => data}
        columns={[
          { label: "Name" },
          { label: "Key" },
          { label: "Scopes" },
          { label: "Created" },
          { label: "Last used" },
          { label: "Actions", srOnly: true },
        ]}
        empty="No API keys yet. Create one to connect another tool to your store."
        style={{ position: "relative" }}
        row={(k) => (
          <tr key={k.id}>
            <td style={{ fontWeight: 600, minWidth: "8rem" }}>{k.name}</td>
            <td>
              <code>{k.prefix}…</code>
            </td>
            <td>
              <span className="btn-row" style={{ gap: "0.25rem" }}>
                {k.scopes.map((s) => (
                  <span key={s} className="badge" title={scopeLabel(s)}>
                    {s}
                  </span>
                ))}
              </span>
            </td>
            <td>{formatDate(k.createdOn)}</td>
            <td>{k.lastUsedOn ? formatDate(k.lastUsedOn, true) : <span className="muted">Never</span>}</td>
            <td className="num">
              <Can permission="api_keys.write">
                <button
                  type="button"
                  className="btn small danger"
                  onClick={() => {
                    track.panel("delete_key");
                    remove.reset();
                    setDeleting(k);
                  }}
                >
                  Delete<span className="sr-only"> {k.name}</span>
                </button>
              </Can>
            </td>
          </tr>
        )}
      />
      {terms ? <Terms onClose={() => setTerms(false)} /> : null}
      {creating ? <CreateKey siteId={siteId} onClose={() => setCreating(false)} /> : null}
      {deleting ? (
        <ActionDialog
          title={`Delete ${deleting.name}?`}
          onClose={() => setDeleting(null)}
          action="Delete key"
          kind="danger"
          disabled={remove.isPending}
          onAction={() => {
            track.panel("delete_confirm");
            remove.mutate(deleting.id);
          }}
        >
          <p>Tools using this key will stop working at once. This cannot be undone.</p>
          <ErrorNotice error={remove.error} />
        </ActionDialog>
      ) : null}
    </>
  );
}
