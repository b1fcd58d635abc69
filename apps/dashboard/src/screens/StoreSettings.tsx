/**
 * Store settings: general (currency, money format, every store setting), shipping and tax.
 * Coupons and automatic discounts live under Marketing › Discounts; their old tabs lead there.
 */
import { SOLD_OUT_TEXT_MAX_LENGTH, type StoreSettingsAnswer } from "@atelier/owner-api";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { FormEvent } from "react";
import { NavLink, Navigate, useParams } from "react-router";
import { patch } from "../api.js";
import { Card } from "../components/Card.js";
import { CheckboxField, DraftSaveBar, SelectField, TextField, useDraft } from "../components/form/index.js";
import { ErrorNotice, Loading, PageHead, useSiteId } from "../components/ui.js";
import { ProductFeeds } from "./ProductFeeds.js";
import { discountsPath } from "./marketing/Discounts.js";
import { Shipping } from "./store/Shipping.js";
import { Tax } from "./store/Tax.js";
import { useStore } from "./store/useStore.js";

/** The store's own settings, as the owner API answers them (this screen is named StoreSettings). */
type Settings = StoreSettingsAnswer["settings"];

export function StoreSettings() {
  const siteId = useSiteId();
  const { tab = "general" } = useParams();
  const tabs = [
    ["general", "General"],
    ["shipping", "Shipping"],
    ["tax", "Tax"],
  ];
  // Old links to the Coupons and Discounts tabs: they moved to Marketing › Discounts.
  if (tab === "coupons" || tab === "discounts")
    return <Navigate replace to={discountsPath(siteId, tab === "coupons" ? "coupons" : "automatic")} />;
  return (
    <>
      <PageHead title="Store settings" sub="Currency, how products show, shipping and tax." />
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
      {tab === "shipping" ? <Shipping /> : tab === "tax" ? <Tax /> : <General />}
    </>
  );
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
  initial: Settings;
  currencies: StoreSettingsAnswer["currencies"];
}) {
  const siteId = useSiteId();
  const queryClient = useQueryClient();
  const form = useDraft(initial);
  const save = useMutation({
    mutationFn: () => patch<{ settings: Settings }>(`/api/owner/sites/${siteId}/store`, form.values),
    onSuccess: (r) => {
      queryClient.setQueryData(["store", siteId], (old: object | undefined) => ({
        ...(old ?? {}),
        settings: r.settings,
      }));
      form.reset(r.settings);
    },
  });
  const field = <K extends keyof Settings & string>(key: K) => form.bind(key, save.error);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <>
      <form onSubmit={onSubmit}>
        <ErrorNotice error={save.error} />
        <Card title="Currency">
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
        </Card>
        <Card title="Products">
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
            maxLength={SOLD_OUT_TEXT_MAX_LENGTH}
          />
        </Card>
        <Card title="Restock notifications">
          <CheckboxField
            label="Let shoppers sign up to hear when a sold-out variant is back"
            {...field("restockNotificationsEnabled")}
          />
          <TextField label="Sign-up success message" {...field("restockNotificationsSuccessText")} />
        </Card>
        <DraftSaveBar
          draft={form}
          save={save}
          saved="Store settings saved."
          saveLabel="Save store settings"
        />
      </form>
      <ProductFeeds />
    </>
  );
}
