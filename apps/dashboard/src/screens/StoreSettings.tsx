/** Store settings: general (currency, money format, every store setting), shipping, tax and coupons. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { NavLink, useParams } from "react-router";
import { centsToText, del, formatCents, get, patch, post, put, textToCents } from "../api.js";
import { ErrorNotice, Loading, Modal, Notice, PageHead, formatDate, useSiteId } from "../components/ui.js";
import {
  CheckboxField,
  SaveBar,
  SelectField,
  TextField,
  fieldErrors,
  useDraft,
} from "../components/form/index.js";
import { ProductFeeds } from "./ProductFeeds.js";

interface StoreSettingsJson {
  currency: string;
  useCLDRMoneyFormat: boolean;
  multipleQuantityAllowedForServices: boolean;
  customSoldOutText: string;
  restockNotificationsEnabled: boolean;
  restockNotificationsSuccessText: string;
  soldOutVariantsDropdownDisabled: boolean;
  measurementStandard: string;
}

export function StoreSettings() {
  const siteId = useSiteId();
  const { tab = "general" } = useParams();
  const tabs = [
    ["general", "General"],
    ["shipping", "Shipping"],
    ["tax", "Tax"],
    ["coupons", "Coupons"],
  ];
  return (
    <>
      <PageHead title="Store settings" sub="Currency, how products show, shipping, tax and discounts." />
      <nav className="tabs" aria-label="Store settings">
        {tabs.map(([id, label]) => (
          <NavLink
            key={id}
            to={`/sites/${siteId}/store${id === "general" ? "" : `/${id}`}`}
            end
            className={() => (tab === id ? "active" : "")}
          >
            {label}
          </NavLink>
        ))}
      </nav>
      {tab === "general" ? (
        <General />
      ) : tab === "shipping" ? (
        <Shipping />
      ) : tab === "tax" ? (
        <Tax />
      ) : (
        <Coupons />
      )}
    </>
  );
}

function useStore() {
  const siteId = useSiteId();
  return useQuery({
    queryKey: ["store", siteId],
    queryFn: () =>
      get<{ settings: StoreSettingsJson; currencies: { code: string; currencyName: string }[] }>(
        `/api/owner/sites/${siteId}/store`,
      ),
  });
}

function General() {
  const store = useStore();
  if (store.isLoading) return <Loading />;
  if (!store.data) return <ErrorNotice error={store.error} />;
  return <GeneralForm initial={store.data.settings} currencies={store.data.currencies} />;
}

function GeneralForm({
  initial,
  currencies,
}: {
  initial: StoreSettingsJson;
  currencies: { code: string; currencyName: string }[];
}) {
  const siteId = useSiteId();
  const queryClient = useQueryClient();
  const form = useDraft(initial);
  const save = useMutation({
    mutationFn: () => patch<{ settings: StoreSettingsJson }>(`/api/owner/sites/${siteId}/store`, form.values),
    onSuccess: (r) => {
      queryClient.setQueryData(["store", siteId], (old: object | undefined) => ({
        ...(old ?? {}),
        settings: r.settings,
      }));
      form.reset(r.settings);
    },
  });
  const field = <K extends keyof StoreSettingsJson & string>(key: K) => form.bind(key, save.error);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <>
      <form onSubmit={onSubmit}>
        <ErrorNotice error={save.error} />
        <div className="card">
          <h2>Currency</h2>
          <SelectField
            label="Store currency"
            {...field("currency")}
            options={currencies.map((c) => ({ value: c.code, label: `${c.code} · ${c.currencyName}` }))}
            help="Prices are kept in the currency's smallest unit; change it before adding products."
          />
          <CheckboxField
            label="Use the CLDR money format"
            help="Format prices by the visitor's locale (e.g. €1.234,56) instead of the store's currency template."
            {...field("useCLDRMoneyFormat")}
          />
          <SelectField
            label="Measurements"
            {...field("measurementStandard")}
            options={[
              { value: "imperial", label: "Imperial (lb, in)" },
              { value: "metric", label: "Metric (kg, cm)" },
            ]}
          />
        </div>
        <div className="card">
          <h2>Products</h2>
          <CheckboxField
            label="Allow more than one of a service in a cart"
            {...field("multipleQuantityAllowedForServices")}
          />
          <CheckboxField
            label="Hide sold-out variants in the variant dropdown"
            {...field("soldOutVariantsDropdownDisabled")}
          />
          <TextField
            label="Sold-out text"
            {...field("customSoldOutText")}
            help="Leave empty to show Sold Out"
            maxLength={60}
          />
        </div>
        <div className="card">
          <h2>Restock notifications</h2>
          <CheckboxField
            label="Let shoppers sign up to hear when a sold-out variant is back"
            {...field("restockNotificationsEnabled")}
          />
          <TextField label="Sign-up success message" {...field("restockNotificationsSuccessText")} />
        </div>
        <SaveBar
          dirty={form.dirty}
          pending={save.isPending}
          saved={save.isSuccess && "Store settings saved."}
          onDiscard={form.discard}
          saveLabel="Save store settings"
        />
      </form>
      <ProductFeeds />
    </>
  );
}

// ─── Rules ──────────────────────────────────────────────────────────────────────────────────

function useRules<T>(path: string) {
  const siteId = useSiteId();
  const url = `/api/owner/sites/${siteId}/store/${path}`;
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ["store", siteId, path],
    queryFn: () => get<{ rules: T[] }>(url).then((r) => r.rules),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["store", siteId, path] });
  return { query, url, refresh };
}

function RuleModal({
  title,
  url,
  id,
  body,
  onClose,
  onSaved,
  children,
  error: localError,
}: {
  title: string;
  url: string;
  id?: string;
  body: () => unknown;
  onClose: () => void;
  onSaved: () => void;
  children: (errors: Record<string, string>) => React.ReactNode;
  error?: string;
}) {
  const save = useMutation({
    mutationFn: () => (id ? put(`${url}/${id}`, body()) : post(url, body())),
    onSuccess: () => {
      onSaved();
      onClose();
    },
  });
  const remove = useMutation({
    mutationFn: () => del(`${url}/${id}`),
    onSuccess: () => {
      onSaved();
      onClose();
    },
  });
  return (
    <Modal
      title={title}
      onClose={onClose}
      footer={
        <>
          {id ? (
            <button
              type="button"
              className="btn danger"
              onClick={() => remove.mutate()}
              style={{ marginRight: "auto" }}
            >
              Delete
            </button>
          ) : null}
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            form="rule-form"
            className="btn primary"
            disabled={save.isPending || Boolean(localError)}
          >
            Save
          </button>
        </>
      }
    >
      <form
        id="rule-form"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <ErrorNotice error={save.error ?? remove.error} />
        {localError ? <Notice kind="error">{localError}</Notice> : null}
        {children(fieldErrors(save.error))}
      </form>
    </Modal>
  );
}

interface ShippingRule {
  id: string;
  name: string;
  kind: string;
  priceCents: number;
  perKgCents: number;
  minSubtotalCents: number;
  countries: string[];
}

function Shipping() {
  const { query, url, refresh } = useRules<ShippingRule>("shipping-rules");
  const currency = useStore().data?.settings.currency ?? "USD";
  const [editing, setEditing] = useState<ShippingRule | "new" | undefined>();
  const describe = (r: ShippingRule) =>
    r.kind === "free"
      ? `Free${r.minSubtotalCents ? ` on orders from ${formatCents(r.minSubtotalCents, currency)}` : ""}`
      : r.kind === "weight"
        ? `${formatCents(r.priceCents, currency)} + ${formatCents(r.perKgCents, currency)} per kg`
        : `${formatCents(r.priceCents, currency)} per order`;
  return (
    <>
      <div className="btn-row" style={{ marginBottom: "1rem" }}>
        <button type="button" className="btn primary" onClick={() => setEditing("new")}>
          Add shipping rule
        </button>
      </div>
      <ErrorNotice error={query.error} />
      <div className="table-wrap">
        <table className="data">
          <thead>
            <tr>
              <th>Name</th>
              <th>Rate</th>
              <th className="hide-phone">Countries</th>
              <th>
                <span className="sr-only">Edit</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {query.data?.map((r) => (
              <tr key={r.id}>
                <td>{r.name}</td>
                <td>{describe(r)}</td>
                <td className="hide-phone">{r.countries.length ? r.countries.join(", ") : "Everywhere"}</td>
                <td className="num">
                  <button type="button" className="btn small" onClick={() => setEditing(r)}>
                    Edit {r.name}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {query.data && !query.data.length ? (
          <p className="empty">No shipping rules: physical products cannot be shipped yet.</p>
        ) : null}
      </div>
      {editing ? (
        <ShippingForm
          rule={editing === "new" ? undefined : editing}
          url={url}
          currency={currency}
          onClose={() => setEditing(undefined)}
          onSaved={refresh}
        />
      ) : null}
    </>
  );
}

function ShippingForm({
  rule,
  url,
  currency,
  onClose,
  onSaved,
}: {
  rule?: ShippingRule;
  url: string;
  currency: string;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [name, setName] = useState(rule?.name ?? "");
  const [kind, setKind] = useState(rule?.kind ?? "flat");
  const [price, setPrice] = useState(rule ? centsToText(rule.priceCents, currency) : "");
  const [perKg, setPerKg] = useState(rule ? centsToText(rule.perKgCents, currency) : "");
  const [min, setMin] = useState(rule?.minSubtotalCents ? centsToText(rule.minSubtotalCents, currency) : "");
  const [countries, setCountries] = useState(rule?.countries.join(", ") ?? "");
  const amount = (s: string) => (s.trim() ? textToCents(s, currency) : 0);
  const bad = [price, perKg, min].some((s) => amount(s) === undefined)
    ? "Amounts are numbers such as 5 or 12.50."
    : undefined;
  return (
    <RuleModal
      title={rule ? "Edit shipping rule" : "Add shipping rule"}
      url={url}
      id={rule?.id}
      onClose={onClose}
      onSaved={onSaved}
      error={bad}
      body={() => ({
        name,
        kind,
        priceCents: amount(price),
        perKgCents: amount(perKg),
        minSubtotalCents: amount(min),
        countries: countries
          .split(",")
          .map((c) => c.trim())
          .filter(Boolean),
      })}
    >
      {(errors) => (
        <>
          <TextField
            label="Name shown at checkout"
            value={name}
            onChange={(v) => setName(v)}
            error={errors.name}
          />
          <SelectField
            label="Kind"
            value={kind}
            onChange={(v) => setKind(v)}
            options={[
              { value: "flat", label: "Flat rate" },
              { value: "weight", label: "By weight" },
              { value: "free", label: "Free" },
            ]}
            error={errors.kind}
          />
          {kind !== "free" ? (
            <TextField
              label={`Price (${currency})`}
              inputMode="decimal"
              value={price}
              onChange={(v) => setPrice(v)}
              error={errors.priceCents}
            />
          ) : null}
          {kind === "weight" ? (
            <TextField
              label={`Per kilogram (${currency})`}
              inputMode="decimal"
              value={perKg}
              onChange={(v) => setPerKg(v)}
              error={errors.perKgCents}
            />
          ) : null}
          <TextField
            label={`Orders from (${currency})`}
            inputMode="decimal"
            value={min}
            onChange={(v) => setMin(v)}
            error={errors.minSubtotalCents}
            help="Leave empty for every order"
          />
          <TextField
            label="Countries"
            value={countries}
            onChange={(v) => setCountries(v)}
            error={errors.countries}
            help="Two-letter codes separated by commas, e.g. US, CA. Empty means everywhere."
          />
        </>
      )}
    </RuleModal>
  );
}

interface TaxRule {
  id: string;
  name: string;
  country: string;
  region: string | null;
  rateBasisPoints: number;
  appliesToShipping: boolean;
}

function Tax() {
  const { query, url, refresh } = useRules<TaxRule>("tax-rules");
  const [editing, setEditing] = useState<TaxRule | "new" | undefined>();
  return (
    <>
      <div className="btn-row" style={{ marginBottom: "1rem" }}>
        <button type="button" className="btn primary" onClick={() => setEditing("new")}>
          Add tax rule
        </button>
      </div>
      <ErrorNotice error={query.error} />
      <div className="table-wrap">
        <table className="data">
          <thead>
            <tr>
              <th>Name</th>
              <th>Where</th>
              <th className="num">Rate</th>
              <th>
                <span className="sr-only">Edit</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {query.data?.map((r) => (
              <tr key={r.id}>
                <td>{r.name}</td>
                <td>
                  {r.country}
                  {r.region ? ` · ${r.region}` : ""}
                  {r.appliesToShipping ? <span className="muted small"> · shipping too</span> : null}
                </td>
                <td className="num">{(r.rateBasisPoints / 100).toFixed(2)}%</td>
                <td className="num">
                  <button type="button" className="btn small" onClick={() => setEditing(r)}>
                    Edit {r.name}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {query.data && !query.data.length ? <p className="empty">No tax rules.</p> : null}
      </div>
      {editing ? (
        <TaxForm
          rule={editing === "new" ? undefined : editing}
          url={url}
          onClose={() => setEditing(undefined)}
          onSaved={refresh}
        />
      ) : null}
    </>
  );
}

function TaxForm({
  rule,
  url,
  onClose,
  onSaved,
}: {
  rule?: TaxRule;
  url: string;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [name, setName] = useState(rule?.name ?? "");
  const [country, setCountry] = useState(rule?.country ?? "");
  const [region, setRegion] = useState(rule?.region ?? "");
  const [rate, setRate] = useState(rule ? (rule.rateBasisPoints / 100).toString() : "");
  const [shipping, setShipping] = useState(rule?.appliesToShipping ?? false);
  const bp = /^\d+(\.\d{1,2})?$/.test(rate.trim()) ? Math.round(Number(rate) * 100) : undefined;
  return (
    <RuleModal
      title={rule ? "Edit tax rule" : "Add tax rule"}
      url={url}
      id={rule?.id}
      onClose={onClose}
      onSaved={onSaved}
      error={rate && bp === undefined ? "The rate is a percentage such as 8.25." : undefined}
      body={() => ({
        name,
        country,
        region: region || null,
        rateBasisPoints: bp ?? 0,
        appliesToShipping: shipping,
      })}
    >
      {(errors) => (
        <>
          <TextField label="Name" value={name} onChange={(v) => setName(v)} error={errors.name} />
          <div className="grid-2">
            <TextField
              label="Country code"
              value={country}
              onChange={(v) => setCountry(v)}
              error={errors.country}
              help="e.g. US"
            />
            <TextField
              label="State or region code"
              value={region}
              onChange={(v) => setRegion(v)}
              error={errors.region}
              help="Empty for the whole country"
            />
          </div>
          <TextField
            label="Rate (%)"
            inputMode="decimal"
            value={rate}
            onChange={(v) => setRate(v)}
            error={errors.rateBasisPoints}
          />
          <CheckboxField label="Also tax shipping" value={shipping} onChange={setShipping} />
        </>
      )}
    </RuleModal>
  );
}

interface Coupon {
  id: string;
  code: string;
  kind: string;
  amount: number;
  minSubtotalCents: number;
  startsAt: number | null;
  endsAt: number | null;
  usageLimit: number | null;
  timesUsed: number;
  active: boolean;
}

function Coupons() {
  const { query, url, refresh } = useRules<Coupon>("coupons");
  const currency = useStore().data?.settings.currency ?? "USD";
  const [editing, setEditing] = useState<Coupon | "new" | undefined>();
  return (
    <>
      <div className="btn-row" style={{ marginBottom: "1rem" }}>
        <button type="button" className="btn primary" onClick={() => setEditing("new")}>
          Add coupon
        </button>
      </div>
      <ErrorNotice error={query.error} />
      <div className="table-wrap">
        <table className="data">
          <thead>
            <tr>
              <th>Code</th>
              <th>Discount</th>
              <th className="hide-phone">Valid</th>
              <th className="num">Used</th>
              <th>
                <span className="sr-only">Edit</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {query.data?.map((c) => (
              <tr key={c.id}>
                <td>
                  <code>{c.code}</code> {c.active ? null : <span className="badge">Off</span>}
                </td>
                <td>
                  {c.kind === "percent"
                    ? `${c.amount}% off`
                    : c.kind === "fixed"
                      ? `${formatCents(c.amount, currency)} off`
                      : "Free shipping"}
                </td>
                <td className="hide-phone muted small">
                  {c.startsAt || c.endsAt
                    ? `${formatDate(c.startsAt) || "now"} – ${formatDate(c.endsAt) || "no end"}`
                    : "Always"}
                </td>
                <td className="num">
                  {c.timesUsed}
                  {c.usageLimit ? ` / ${c.usageLimit}` : ""}
                </td>
                <td className="num">
                  <button type="button" className="btn small" onClick={() => setEditing(c)}>
                    Edit {c.code}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {query.data && !query.data.length ? <p className="empty">No coupons.</p> : null}
      </div>
      {editing ? (
        <CouponForm
          coupon={editing === "new" ? undefined : editing}
          url={url}
          currency={currency}
          onClose={() => setEditing(undefined)}
          onSaved={refresh}
        />
      ) : null}
    </>
  );
}

const dateInput = (ms: number | null) => (ms ? new Date(ms).toISOString().slice(0, 10) : "");
const fromDate = (s: string) => (s ? new Date(`${s}T00:00:00`).getTime() : null);

function CouponForm({
  coupon,
  url,
  currency,
  onClose,
  onSaved,
}: {
  coupon?: Coupon;
  url: string;
  currency: string;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [code, setCode] = useState(coupon?.code ?? "");
  const [kind, setKind] = useState(coupon?.kind ?? "percent");
  const [amount, setAmount] = useState(
    coupon ? (coupon.kind === "fixed" ? centsToText(coupon.amount, currency) : String(coupon.amount)) : "",
  );
  const [min, setMin] = useState(
    coupon?.minSubtotalCents ? centsToText(coupon.minSubtotalCents, currency) : "",
  );
  const [starts, setStarts] = useState(dateInput(coupon?.startsAt ?? null));
  const [ends, setEnds] = useState(dateInput(coupon?.endsAt ?? null));
  const [limit, setLimit] = useState(coupon?.usageLimit ? String(coupon.usageLimit) : "");
  const [active, setActive] = useState(coupon?.active ?? true);
  const amountValue =
    kind === "fixed"
      ? textToCents(amount || "0", currency)
      : /^\d+$/.test(amount)
        ? Number(amount)
        : undefined;
  const minValue = min.trim() ? textToCents(min, currency) : 0;
  const local =
    kind !== "free_shipping" && amountValue === undefined
      ? "Enter the discount."
      : minValue === undefined
        ? "Enter the minimum as an amount."
        : undefined;
  return (
    <RuleModal
      title={coupon ? "Edit coupon" : "Add coupon"}
      url={url}
      id={coupon?.id}
      onClose={onClose}
      onSaved={onSaved}
      error={local}
      body={() => ({
        code,
        kind,
        amount: kind === "free_shipping" ? 0 : amountValue,
        minSubtotalCents: minValue,
        startsAt: fromDate(starts),
        endsAt: fromDate(ends),
        usageLimit: limit ? Number(limit) : null,
        active,
      })}
    >
      {(errors) => (
        <>
          <TextField
            label="Code"
            value={code}
            onChange={(v) => setCode(v)}
            error={errors.code}
            help="Shoppers type it at checkout"
          />
          <SelectField
            label="Discount"
            value={kind}
            onChange={(v) => setKind(v)}
            options={[
              { value: "percent", label: "Percent off" },
              { value: "fixed", label: "Amount off" },
              { value: "free_shipping", label: "Free shipping" },
            ]}
            error={errors.kind}
          />
          {kind !== "free_shipping" ? (
            <TextField
              label={kind === "percent" ? "Percent" : `Amount (${currency})`}
              inputMode="decimal"
              value={amount}
              onChange={(v) => setAmount(v)}
              error={errors.amount}
            />
          ) : null}
          <TextField
            label={`Minimum order (${currency})`}
            inputMode="decimal"
            value={min}
            onChange={(v) => setMin(v)}
            error={errors.minSubtotalCents}
          />
          <div className="grid-2">
            <TextField
              label="Starts"
              type="date"
              value={starts}
              onChange={(v) => setStarts(v)}
              error={errors.startsAt}
            />
            <TextField
              label="Ends"
              type="date"
              value={ends}
              onChange={(v) => setEnds(v)}
              error={errors.endsAt}
            />
          </div>
          <TextField
            label="Usage limit"
            type="number"
            min={1}
            value={limit}
            onChange={(v) => setLimit(v)}
            error={errors.usageLimit}
            help="Empty for no limit"
          />
          <CheckboxField label="Active" value={active} onChange={setActive} />
        </>
      )}
    </RuleModal>
  );
}
