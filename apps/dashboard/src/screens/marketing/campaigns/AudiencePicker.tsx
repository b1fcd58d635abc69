/**
 * Who a campaign goes to: the mailing list, its customers, its site users, or a segment (chosen, or
 * made here by one rule), with how many that is now.
 */
import { formatMoney } from "@atelier/commerce";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { post } from "../../../api.js";
import { useProductOptions } from "../../../components/fields.js";
import {
  MoneyField,
  NumberField,
  SelectField,
  TextField,
  fieldErrors,
} from "../../../components/form/index.js";
import { Can } from "../../../components/permissions.js";
import { FormDialog, useForms, useSiteId } from "../../../components/ui.js";
import { useStoreCurrency } from "../../store/useStore.js";
import {
  AUDIENCE_LABEL,
  type Audience,
  type AudienceKind,
  type Segment,
  type SegmentRule,
  people,
  segmentsUrl,
  useAudienceCount,
  useSegments,
} from "./model.js";

export function AudiencePicker({
  value,
  onChange,
  errors,
  disabled,
}: {
  value: Audience;
  onChange: (audience: Audience) => void;
  errors: Record<string, string>;
  disabled?: boolean;
}) {
  const segments = useSegments();
  const count = useAudienceCount(value);
  const [making, setMaking] = useState(false);
  return (
    <>
      <div className="field-row">
        <SelectField
          label="Send to"
          value={value.kind}
          disabled={disabled}
          onChange={(kind) =>
            onChange(
              kind === "segment"
                ? { kind: "segment", segmentId: segments.data?.[0]?.id }
                : { kind: kind as AudienceKind },
            )
          }
          options={(Object.keys(AUDIENCE_LABEL) as AudienceKind[]).map((k) => ({
            value: k,
            label: AUDIENCE_LABEL[k],
          }))}
          error={errors.audience}
        />
        {value.kind === "segment" ? (
          <SelectField
            label="Segment"
            value={value.segmentId ?? ""}
            disabled={disabled}
            onChange={(segmentId) => onChange({ kind: "segment", segmentId: segmentId || undefined })}
            options={[
              { value: "", label: segments.data?.length ? "Choose a segment" : "No segments yet" },
              ...(segments.data ?? []).map((s) => ({ value: s.id, label: `${s.name} (${people(s.count)})` })),
            ]}
            error={errors["audience.segmentId"]}
          />
        ) : null}
      </div>
      <p className="audience-count" role="status">
        {count.data !== undefined
          ? `Reaches ${people(count.data)} who agreed to get your emails.`
          : value.kind === "segment" && !value.segmentId
            ? "Choose or make a segment."
            : "Counting…"}
      </p>
      {value.kind === "segment" && !disabled ? (
        <Can permission="marketing.write">
          <button type="button" className="btn small" onClick={() => setMaking(true)}>
            New segment
          </button>
        </Can>
      ) : null}
      {making ? (
        <SegmentDialog
          onClose={() => setMaking(false)}
          onMade={(s) => onChange({ kind: "segment", segmentId: s.id })}
        />
      ) : null}
    </>
  );
}

type RuleKind = SegmentRule["kind"];
const RULE_LABEL: Record<RuleKind, string> = {
  bought_product: "Bought a product",
  bought_category: "Bought from a category",
  spent_at_least: "Spent at least an amount",
  ordered_within_days: "Ordered within the last days",
  signed_up_through_form: "Signed up through a form",
};

/** A segment of one rule: its name, the rule's kind and what it needs. */
function SegmentDialog({ onClose, onMade }: { onClose: () => void; onMade: (s: Segment) => void }) {
  const siteId = useSiteId();
  const queryClient = useQueryClient();
  const currency = useStoreCurrency();
  const products = useProductOptions();
  const forms = useForms();
  const [name, setName] = useState("");
  const [kind, setKind] = useState<RuleKind>("bought_product");
  const [productId, setProductId] = useState("");
  const [category, setCategory] = useState("");
  const [amountCents, setAmountCents] = useState<number | null | undefined>(5000);
  const [days, setDays] = useState<number | undefined>(90);
  const [formId, setFormId] = useState("");
  const rule = (): SegmentRule => {
    switch (kind) {
      case "bought_product":
        return { kind, productId };
      case "bought_category":
        return { kind, category: category.trim() };
      case "spent_at_least":
        return { kind, amountCents: amountCents ?? 0 };
      case "ordered_within_days":
        return { kind, days: days ?? 0 };
      case "signed_up_through_form":
        return { kind, formId };
    }
  };
  const save = useMutation({
    mutationFn: () =>
      post<{ segment: Segment }>(segmentsUrl(siteId), { name: name.trim(), rule: rule() }).then(
        (r) => r.segment,
      ),
    onSuccess: (segment) => {
      queryClient.setQueryData<Segment[]>(["segments", siteId], (list) => [...(list ?? []), segment]);
      onMade(segment);
      onClose();
    },
  });
  const errors = fieldErrors(save.error);
  return (
    <FormDialog
      id="segment-form"
      title="New segment"
      onClose={onClose}
      submit={save}
      action="Make segment"
      pendingAction="Making…"
      disabled={!name.trim()}
    >
      <TextField label="Name" value={name} onChange={setName} maxLength={100} error={errors.name} required />
      <SelectField
        label="Subscribers who"
        value={kind}
        onChange={(k) => setKind(k as RuleKind)}
        options={(Object.keys(RULE_LABEL) as RuleKind[]).map((k) => ({ value: k, label: RULE_LABEL[k] }))}
      />
      {kind === "bought_product" ? (
        <SelectField
          label="Product"
          value={productId}
          onChange={setProductId}
          options={[
            { value: "", label: products.isLoading ? "Loading products…" : "Choose a product" },
            ...(products.data ?? []).map((p) => ({ value: p.id, label: p.title })),
          ]}
          error={errors["rule.productId"]}
        />
      ) : kind === "bought_category" ? (
        <TextField
          label="Category"
          value={category}
          onChange={setCategory}
          maxLength={100}
          help="As it is written on your products."
          error={errors["rule.category"]}
        />
      ) : kind === "spent_at_least" ? (
        <MoneyField
          label="Amount"
          currency={currency}
          value={amountCents}
          onChange={setAmountCents}
          help={
            amountCents ? `In all, net of refunds: ${formatMoney(amountCents, currency)} or more.` : undefined
          }
          error={errors["rule.amountCents"]}
        />
      ) : kind === "ordered_within_days" ? (
        <NumberField
          label="Days"
          min={1}
          max={3650}
          step={1}
          value={days}
          onChange={setDays}
          error={errors["rule.days"]}
        />
      ) : (
        <SelectField
          label="Form"
          value={formId}
          onChange={setFormId}
          options={[
            { value: "", label: forms.isLoading ? "Loading forms…" : "Choose a form" },
            ...(forms.data ?? []).map((f) => ({ value: f.id, label: f.name })),
          ]}
          error={errors["rule.formId"]}
        />
      )}
    </FormDialog>
  );
}
