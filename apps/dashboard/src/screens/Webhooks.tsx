/**
 * Settings → Developers → Webhooks: the site's webhook subscriptions (URL, events, state), made
 * and edited in a dialog with one checkbox per event, the signing secret shown once with a Copy
 * button, pause and resume, rotate the secret, send a test event, and the delivery log of a
 * subscription with Redeliver on each attempt. docs/webhooks.md says what the server does.
 */
import { Can } from "../components/permissions.js";
import {
  MAX_WEBHOOKS,
  WEBHOOK_DESCRIPTION_MAX_LENGTH,
  WEBHOOK_TOPICS,
  WEBHOOK_URL_MAX_LENGTH,
  type Webhook,
  type WebhookDeliveryPage,
  type WebhookTopic,
  type WebhookWithSecret,
} from "@atelier/owner-api";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { del, get, patch, post } from "../api.js";
import { CopyField } from "../components/CopyField.js";
import { CheckboxField, TextField, fieldErrors } from "../components/form/index.js";
import {
  ActionDialog,
  ErrorNotice,
  FormDialog,
  LoadedTable,
  Notice,
  PageHead,
  formatDate,
  useSiteId,
} from "../components/ui.js";

/** What the owner reads about each event. */
const TOPIC_TEXT: Record<WebhookTopic, string> = {
  "order.created": "Order placed",
  "order.updated": "Order fulfilled, refunded or cancelled",
  "inventory.updated": "Stock changed",
  "product.created": "Product created",
  "product.updated": "Product updated",
  "product.deleted": "Product deleted",
  "form.submitted": "Form submitted",
  "site_user.created": "Site user signed up",
  "subscription.created": "Subscription started",
  "subscription.updated": "Subscription renewed, failed or cancelled",
  "checkout.abandoned": "Checkout abandoned",
};

const base = (siteId: string) => `/api/owner/sites/${siteId}/webhooks`;

function WebhookForm({
  siteId,
  editing,
  onClose,
  onCreated,
}: {
  siteId: string;
  editing: Webhook | null;
  onClose: () => void;
  onCreated: (created: WebhookWithSecret) => void;
}) {
  const queryClient = useQueryClient();
  const [url, setUrl] = useState(editing?.url ?? "");
  const [description, setDescription] = useState(editing?.description ?? "");
  const [topics, setTopics] = useState<string[]>(editing?.topics ?? []);
  const save = useMutation({
    mutationFn: () =>
      editing
        ? patch(`${base(siteId)}/${editing.id}`, { url, topics, description })
        : post<WebhookWithSecret>(base(siteId), { url, topics, description }),
    onSuccess: (answer) => {
      void queryClient.invalidateQueries({ queryKey: ["webhooks", siteId] });
      if (editing) onClose();
      else onCreated(answer as WebhookWithSecret);
    },
  });
  const errors = fieldErrors(save.error);
  return (
    <FormDialog
      id="webhook-form"
      title={editing ? "Edit webhook" : "Add webhook"}
      onClose={onClose}
      submit={save}
      action={editing ? "Save" : "Add webhook"}
      pendingAction="Saving…"
      disabled={!url.trim() || !topics.length}
      error={errors.url || errors.topics ? null : save.error}
    >
      <TextField
        label="Endpoint URL"
        type="url"
        help="Where Atelier sends the events: an https:// address on the internet."
        maxLength={WEBHOOK_URL_MAX_LENGTH}
        value={url}
        error={errors.url}
        onChange={(v) => {
          setUrl(v);
          // The server's refusal was about the address as it was.
          if (errors.url) save.reset();
        }}
      />
      <TextField
        label="Description"
        help="For you, e.g. “Accounting sync”."
        maxLength={WEBHOOK_DESCRIPTION_MAX_LENGTH}
        value={description}
        onChange={setDescription}
      />
      <fieldset>
        <legend>Events</legend>
        {errors.topics ? <Notice kind="error">{errors.topics}</Notice> : null}
        {WEBHOOK_TOPICS.map((t) => (
          <CheckboxField
            key={t}
            label={`${TOPIC_TEXT[t]} (${t})`}
            value={topics.includes(t)}
            onChange={(on) => setTopics(on ? [...topics, t] : topics.filter((x) => x !== t))}
          />
        ))}
      </fieldset>
    </FormDialog>
  );
}

function SecretShown({ answer, onClose }: { answer: WebhookWithSecret; onClose: () => void }) {
  return (
    <ActionDialog title="Signing secret" onClose={onClose} action="Done" onAction={onClose}>
      <p>
        Your endpoint checks each call with this secret (Standard Webhooks signatures). Copy it now: it will{" "}
        <strong>not be shown again</strong>.
      </p>
      <CopyField label="Signing secret" value={answer.secret} />
      {answer.webhook.previousSecretUntil ? (
        <p className="muted">
          The previous secret keeps signing beside this one until{" "}
          {formatDate(answer.webhook.previousSecretUntil, true)}.
        </p>
      ) : null}
    </ActionDialog>
  );
}

function DeliveryLog({ siteId, webhook }: { siteId: string; webhook: Webhook }) {
  const queryClient = useQueryClient();
  const log = useInfiniteQuery({
    queryKey: ["webhook-deliveries", siteId, webhook.id],
    queryFn: ({ pageParam }) =>
      get<WebhookDeliveryPage>(
        `${base(siteId)}/${webhook.id}/deliveries${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ""}`,
      ),
    initialPageParam: "",
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const redeliver = useMutation({
    mutationFn: (deliveryId: string) =>
      post(`${base(siteId)}/${webhook.id}/deliveries/${deliveryId}/redeliver`),
    onSuccess: () =>
      setTimeout(
        () => void queryClient.invalidateQueries({ queryKey: ["webhook-deliveries", siteId, webhook.id] }),
        1500,
      ),
  });
  return (
    <section aria-label={`Delivery log of ${webhook.url}`} style={{ marginTop: "1.5rem" }}>
      <div className="btn-row" style={{ justifyContent: "space-between" }}>
        <h2>Delivery log</h2>
        <button type="button" className="btn small" onClick={() => void log.refetch()}>
          Refresh
        </button>
      </div>
      <p className="muted">{webhook.url}: every attempt of the last 30 days, newest first.</p>
      <ErrorNotice error={redeliver.error} />
      {redeliver.isSuccess ? <Notice kind="ok">Sent again; it shows here in a moment.</Notice> : null}
      <LoadedTable
        query={log}
        rows={(answer) => answer.pages.flatMap((p) => p.deliveries)}
        columns={[
          { label: "Event" },
          { label: "Attempt" },
          { label: "Time" },
          { label: "Status" },
          { label: "Latency" },
          { label: "Response" },
          { label: "Actions", srOnly: true },
        ]}
        empty="No deliveries yet. Send a test event to try the endpoint."
        footer={
          log.hasNextPage ? (
            <button type="button" className="btn small" onClick={() => void log.fetchNextPage()}>
              Load more
            </button>
          ) : null
        }
        row={(d) => (
          <tr key={d.id}>
            <td>
              <span className="badge">{d.type}</span>
              <div className="muted">
                <code>{d.eventId}</code>
              </div>
            </td>
            <td className="num">{d.attempt}</td>
            <td>{formatDate(d.at, true)}</td>
            <td>
              <span className={`badge ${d.status !== null && d.status < 300 ? "ok" : "danger"}`}>
                {d.status ?? "No answer"}
              </span>
            </td>
            <td className="num">{d.latencyMs} ms</td>
            <td style={{ maxWidth: "18rem", overflowWrap: "anywhere" }}>
              <code className="muted">{d.responseExcerpt.slice(0, 200) || "—"}</code>
            </td>
            <td className="num">
              <Can permission="webhooks.write">
                <button
                  type="button"
                  className="btn small"
                  disabled={redeliver.isPending}
                  onClick={() => redeliver.mutate(d.id)}
                >
                  Redeliver<span className="sr-only"> {d.eventId}</span>
                </button>
              </Can>
            </td>
          </tr>
        )}
      />
    </section>
  );
}

export function Webhooks() {
  const siteId = useSiteId();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<{ editing: Webhook | null } | null>(null);
  const [secret, setSecret] = useState<WebhookWithSecret | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const [rotating, setRotating] = useState<Webhook | null>(null);
  const [logOf, setLogOf] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const list = useQuery({
    queryKey: ["webhooks", siteId],
    queryFn: () => get<{ webhooks: Webhook[] }>(base(siteId)).then((r) => r.webhooks),
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ["webhooks", siteId] });
  const toggle = useMutation({
    mutationFn: (w: Webhook) => patch(`${base(siteId)}/${w.id}`, { active: !w.active }),
    onSuccess: refresh,
  });
  const test = useMutation({
    mutationFn: (w: Webhook) => post(`${base(siteId)}/${w.id}/test`),
    onSuccess: (_answer, w) => {
      setNotice(`Test event sent to ${w.url}. Its delivery shows in the log.`);
      setLogOf(w.id);
      setTimeout(
        () => void queryClient.invalidateQueries({ queryKey: ["webhook-deliveries", siteId, w.id] }),
        1500,
      );
    },
  });
  const rotate = useMutation({
    mutationFn: (w: Webhook) => post<WebhookWithSecret>(`${base(siteId)}/${w.id}/rotate-secret`),
    onSuccess: (answer) => {
      setRotating(null);
      setSecret(answer);
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (w: Webhook) => del(`${base(siteId)}/${w.id}`),
    onSuccess: (_answer, w) => {
      setDeleting(null);
      if (logOf === w.id) setLogOf(null);
      refresh();
    },
  });
  const shown = list.data?.find((w) => w.id === logOf);
  const full = (list.data?.length ?? 0) >= MAX_WEBHOOKS;
  return (
    <>
      <PageHead
        title="Webhooks"
        sub="Atelier calls your tools' URLs when orders, stock, products, forms, site users or subscriptions change."
        actions={
          <Can permission="webhooks.write">
            <button
              type="button"
              className="btn primary"
              disabled={full}
              onClick={() => setForm({ editing: null })}
            >
              Add webhook
            </button>
          </Can>
        }
      />
      {full ? <Notice>A site can have at most {MAX_WEBHOOKS} webhooks.</Notice> : null}
      {notice ? <Notice kind="ok">{notice}</Notice> : null}
      <ErrorNotice error={toggle.error ?? test.error} />
      <LoadedTable
        query={list}
        rows={(data) => data}
        columns={[{ label: "Endpoint" }, { label: "Events" }]}
        empty="No webhooks yet. Add one to send events to another tool."
        row={(w) => (
          <tr key={w.id}>
            <td style={{ overflowWrap: "anywhere" }}>
              <strong>{w.url}</strong>{" "}
              <span className={`badge ${w.active ? "ok" : "warn"}`}>{w.active ? "Active" : "Paused"}</span>
              <div className="muted">
                {w.description ? `${w.description} · ` : ""}Added {formatDate(w.createdOn)}
                {w.disabledReason ? ` · ${w.disabledReason}` : ""}
              </div>
              <span className="btn-row" style={{ gap: "0.25rem", marginTop: "0.5rem" }}>
                <button type="button" className="btn small" onClick={() => setLogOf(w.id)}>
                  Delivery log<span className="sr-only"> of {w.url}</span>
                </button>
                <Can permission="webhooks.write">
                  <button type="button" className="btn small" onClick={() => test.mutate(w)}>
                    Send test event<span className="sr-only"> to {w.url}</span>
                  </button>
                  <button type="button" className="btn small" onClick={() => setForm({ editing: w })}>
                    Edit<span className="sr-only"> {w.url}</span>
                  </button>
                  <button type="button" className="btn small" onClick={() => toggle.mutate(w)}>
                    {w.active ? "Pause" : "Resume"}
                    <span className="sr-only"> {w.url}</span>
                  </button>
                  <button type="button" className="btn small" onClick={() => setRotating(w)}>
                    Rotate secret<span className="sr-only"> of {w.url}</span>
                  </button>
                  <button type="button" className="btn small danger" onClick={() => setDeleting(w)}>
                    Delete<span className="sr-only"> {w.url}</span>
                  </button>
                </Can>
              </span>
            </td>
            <td>
              <span className="btn-row" style={{ gap: "0.25rem" }}>
                {w.topics.map((t) => (
                  <span key={t} className="badge" title={TOPIC_TEXT[t]}>
                    {t}
                  </span>
                ))}
              </span>
            </td>
          </tr>
        )}
      />
      {shown ? <DeliveryLog key={shown.id} siteId={siteId} webhook={shown} /> : null}
      {form ? (
        <WebhookForm
          siteId={siteId}
          editing={form.editing}
          onClose={() => setForm(null)}
          onCreated={(created) => {
            setForm(null);
            setSecret(created);
          }}
        />
      ) : null}
      {secret ? <SecretShown answer={secret} onClose={() => setSecret(null)} /> : null}
      {rotating ? (
        <ActionDialog
          title="Rotate the signing secret?"
          onClose={() => setRotating(null)}
          action="Rotate secret"
          disabled={rotate.isPending}
          onAction={() => rotate.mutate(rotating)}
        >
          <p>
            A new secret is made and shown once. The current one keeps signing beside it for 24 hours, so you
            have a day to update your endpoint.
          </p>
          <ErrorNotice error={rotate.error} />
        </ActionDialog>
      ) : null}
      {deleting ? (
        <ActionDialog
          title="Delete this webhook?"
          onClose={() => setDeleting(null)}
          action="Delete webhook"
          kind="danger"
          disabled={remove.isPending}
          onAction={() => remove.mutate(deleting)}
        >
          <p>
            {deleting.url} will receive no more events, and its delivery log is deleted. This cannot be
            undone.
          </p>
          <ErrorNotice error={remove.error} />
        </ActionDialog>
      ) : null}
    </>
  );
}
