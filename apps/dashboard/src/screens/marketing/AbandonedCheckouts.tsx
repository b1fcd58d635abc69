/**
 * Marketing › Abandoned checkouts: the revenue recovered in the last 30 days, the recovery emails'
 * settings (on or off, the abandoned-after time, three reminders with their subject, text and an
 * optional discount), and the list of abandoned checkouts with "Send reminder now".
 */
import { Can } from "../../components/permissions.js";
import type {
  AbandonedCheckout,
  AbandonedCheckoutPage,
  AbandonedCheckoutStatus,
  RecoveryReminder,
  RecoverySettings,
} from "@atelier/owner-api";
import { formatMoney } from "@atelier/commerce";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { get, post, put, withQuery } from "../../api.js";
import { Card } from "../../components/Card.js";
import {
  CheckboxField,
  DraftSaveBar,
  MoneyField,
  NumberField,
  SelectField,
  TextField,
  TextareaField,
  fieldErrors,
  useDraft,
} from "../../components/form/index.js";
import {
  ErrorNotice,
  ListTable,
  Loading,
  Notice,
  PageHead,
  Pager,
  formatDate,
  useSiteId,
} from "../../components/ui.js";
import { useStoreCurrency } from "../store/useStore.js";

const base = (siteId: string) => `/api/owner/sites/${siteId}/abandoned-checkouts`;

const STATUS_LABELS: Record<AbandonedCheckoutStatus, string> = {
  not_contacted: "Not contacted",
  reminded: "Reminded",
  recovered: "Recovered",
  unsubscribed: "Unsubscribed",
};

const STATUS_BADGES: Record<AbandonedCheckoutStatus, string> = {
  not_contacted: "",
  reminded: " accent",
  recovered: " ok",
  unsubscribed: " warn",
};

const ORDINALS = ["First", "Second", "Third"];

export function AbandonedCheckouts() {
  const siteId = useSiteId();
  const settings = useQuery({
    queryKey: ["recovery-settings", siteId],
    queryFn: () => get<RecoverySettings>(`${base(siteId)}/settings`),
  });
  return (
    <>
      <PageHead
        title="Abandoned checkouts"
        sub="Shoppers who gave their email at checkout and left: remind them, and see what came back."
      />
      <Recovered />
      {settings.isLoading ? <Loading what="Loading the recovery emails" /> : null}
      <ErrorNotice error={settings.error} />
      {settings.data ? <SettingsForm initial={settings.data} /> : null}
      <CheckoutList />
    </>
  );
}

/** Recovered revenue of the last 30 days, from the first page of the list. */
function Recovered() {
  const siteId = useSiteId();
  const currency = useStoreCurrency();
  const list = useQuery({
    queryKey: ["abandoned-checkouts", siteId, "", ""],
    queryFn: () => get<AbandonedCheckoutPage>(base(siteId)),
  });
  return (
    <section className="card recovery-figure" aria-labelledby="recovered-heading">
      <h2 id="recovered-heading">Recovered in the last 30 days</h2>
      <p className="figure">{list.data ? formatMoney(list.data.recoveredRevenue30d, currency) : "…"}</p>
      <p className="muted small">
        Orders placed from a recovery email's link, or by the same email within 7 days of a reminder.
      </p>
    </section>
  );
}

function ReminderFields({
  index,
  reminder,
  set,
  errors,
  currency,
}: {
  index: number;
  reminder: RecoveryReminder;
  set: (next: RecoveryReminder) => void;
  errors: Record<string, string | undefined>;
  currency: string;
}) {
  const at = `reminders.${index}`;
  const name = `${ORDINALS[index] ?? `Reminder ${index + 1}:`} reminder`;
  const kind = reminder.discount?.kind ?? "none";
  return (
    <fieldset className="recovery-reminder">
      <legend>{name}</legend>
      <CheckboxField
        label={`Send the ${name.toLowerCase()}`}
        value={reminder.enabled}
        onChange={(enabled) => set({ ...reminder, enabled })}
      />
      <NumberField
        label="Minutes after the checkout is abandoned"
        help="60 is an hour, 1440 a day."
        min={0}
        step={1}
        value={reminder.delayMinutes}
        onChange={(v) => set({ ...reminder, delayMinutes: v ?? 0 })}
        error={errors[`${at}.delayMinutes`]}
      />
      <TextField
        label="Subject"
        value={reminder.subject}
        onChange={(subject) => set({ ...reminder, subject })}
        error={errors[`${at}.subject`]}
        maxLength={200}
      />
      <TextareaField
        label="Text"
        help="{first_name} is the shopper's first name, {store_name} the store's name, {cart} the cart's items."
        rows={6}
        value={reminder.body}
        onChange={(body) => set({ ...reminder, body })}
        error={errors[`${at}.body`]}
      />
      <div className="recovery-discount">
        <SelectField
          label="Discount code"
          help="A code that works once, made for this shopper's cart."
          value={kind}
          onChange={(k) =>
            set({
              ...reminder,
              discount:
                k === "percentage"
                  ? { kind: "percentage", value: 10 }
                  : k === "amount"
                    ? { kind: "amount", value: 500 }
                    : null,
            })
          }
          options={[
            { value: "none", label: "No discount" },
            { value: "percentage", label: "Percentage off" },
            { value: "amount", label: "Amount off" },
          ]}
        />
        {reminder.discount?.kind === "percentage" ? (
          <NumberField
            label="Percentage off"
            min={1}
            max={100}
            value={reminder.discount.value}
            onChange={(v) => set({ ...reminder, discount: { kind: "percentage", value: v ?? 0 } })}
            error={errors[`${at}.discount.value`]}
          />
        ) : reminder.discount?.kind === "amount" ? (
          <MoneyField
            label="Amount off"
            currency={currency}
            value={reminder.discount.value}
            onChange={(v) => set({ ...reminder, discount: { kind: "amount", value: v ?? 0 } })}
            error={errors[`${at}.discount.value`]}
          />
        ) : null}
      </div>
    </fieldset>
  );
}

function SettingsForm({ initial }: { initial: RecoverySettings }) {
  const siteId = useSiteId();
  const currency = useStoreCurrency();
  const queryClient = useQueryClient();
  const form = useDraft(initial);
  const save = useMutation({
    mutationFn: () => put<RecoverySettings>(`${base(siteId)}/settings`, form.values),
    onSuccess: (saved) => {
      queryClient.setQueryData(["recovery-settings", siteId], saved);
      form.reset(saved);
    },
  });
  const errors = fieldErrors(save.error);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const setReminder = (i: number, next: RecoveryReminder) =>
    form.set({ reminders: form.values.reminders.map((r, j) => (j === i ? next : r)) });
  return (
    <form onSubmit={onSubmit}>
      <ErrorNotice error={save.error} />
      <Card title="Recovery emails" as="section">
        <CheckboxField
          label="Email shoppers who leave a checkout"
          help="Up to three reminders, each with a link that brings their cart back in one click."
          {...form.bind("enabled", save.error)}
        />
        <NumberField
          label="A checkout is abandoned after (minutes)"
          help="The time without an order after the shopper's last step, from 1 minute."
          min={1}
          step={1}
          value={form.values.abandonedAfterMinutes}
          onChange={(v) => form.set({ abandonedAfterMinutes: v ?? 0 })}
          error={errors.abandonedAfterMinutes}
        />
        <div className="recovery-reminders">
          {form.values.reminders.map((r, i) => (
            <ReminderFields
              // biome-ignore lint/suspicious/noArrayIndexKey: the three reminders are fixed slots
              key={i}
              index={i}
              reminder={r}
              set={(next) => setReminder(i, next)}
              errors={errors}
              currency={currency}
            />
          ))}
        </div>
      </Card>
      <DraftSaveBar
        draft={form}
        save={save}
        saved="Recovery emails saved."
        saveLabel="Save recovery emails"
      />
    </form>
  );
}

function itemsText(c: AbandonedCheckout): string {
  return c.items.map((i) => `${i.quantity} × ${i.title}${i.options ? ` (${i.options})` : ""}`).join(", ");
}

function CheckoutList() {
  const siteId = useSiteId();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<"" | AbandonedCheckoutStatus>("");
  const [cursors, setCursors] = useState<string[]>([""]);
  const cursor = cursors[cursors.length - 1] ?? "";
  const [sent, setSent] = useState<string>();
  const list = useQuery({
    queryKey: ["abandoned-checkouts", siteId, status, cursor],
    queryFn: () =>
      get<AbandonedCheckoutPage>(
        withQuery(base(siteId), { status: status || undefined, cursor: cursor || undefined }),
      ),
  });
  const remind = useMutation({
    mutationFn: (c: AbandonedCheckout) =>
      post<{ checkout: AbandonedCheckout }>(`${base(siteId)}/${c.id}/remind`),
    onSuccess: (r) => {
      setSent(`Reminder sent to ${r.checkout.email}.`);
      void queryClient.invalidateQueries({ queryKey: ["abandoned-checkouts", siteId] });
    },
  });
  return (
    <section className="card" aria-labelledby="checkouts-heading">
      <div className="recovery-list-head">
        <h2 id="checkouts-heading">Checkouts</h2>
        <SelectField
          label="Status"
          value={status}
          onChange={(v) => {
            setStatus(v as "" | AbandonedCheckoutStatus);
            setCursors([""]);
          }}
          options={[
            { value: "", label: "All" },
            ...Object.entries(STATUS_LABELS).map(([value, label]) => ({ value, label })),
          ]}
        />
      </div>
      {sent ? <Notice kind="ok">{sent}</Notice> : null}
      <ErrorNotice error={remind.error ?? list.error} />
      {list.isLoading ? <Loading what="Loading abandoned checkouts" /> : null}
      <ListTable
        columns={[
          { label: "Email" },
          { label: "Items", className: "hide-phone" },
          { label: "Value", className: "num" },
          { label: "Abandoned", className: "hide-phone" },
          { label: "Reminders", className: "num hide-phone" },
          { label: "Status" },
          { label: "Send", srOnly: true },
        ]}
        rows={list.data?.checkouts}
        empty="No abandoned checkouts yet."
        row={(c) => (
          <tr key={c.id}>
            <td>{c.email}</td>
            <td className="hide-phone small">{itemsText(c)}</td>
            <td className="num">{formatMoney(c.subtotal, c.currency)}</td>
            <td className="hide-phone">{formatDate(c.abandonedAt, true)}</td>
            <td className="num hide-phone">{c.remindersSent}</td>
            <td>
              <span className={`badge${STATUS_BADGES[c.status]}`}>{STATUS_LABELS[c.status]}</span>
            </td>
            <td className="num">
              {c.status === "recovered" || c.status === "unsubscribed" ? null : (
                <Can permission="store.write">
                  <button
                    type="button"
                    className="btn small"
                    disabled={remind.isPending}
                    onClick={() => remind.mutate(c)}
                    aria-label={`Send reminder now to ${c.email}`}
                  >
                    Send reminder now
                  </button>
                </Can>
              )}
            </td>
          </tr>
        )}
        footer={
          cursors.length > 1 || list.data?.nextCursor ? (
            <Pager
              status={`Page ${cursors.length}`}
              canPrev={cursors.length > 1}
              canNext={Boolean(list.data?.nextCursor)}
              onPrev={() => setCursors((c) => c.slice(0, -1))}
              onNext={() => setCursors((c) => [...c, list.data?.nextCursor ?? ""])}
            />
          ) : null
        }
      />
    </section>
  );
}
