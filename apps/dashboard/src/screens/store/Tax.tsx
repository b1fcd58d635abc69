/** Store settings › Tax: a rate per country (and optionally region), on goods and maybe shipping. */
import type { TaxRule } from "@atelier/commerce";
import { CheckboxField, TextField, fieldErrors, useDraft } from "../../components/form/index.js";
import { RuleList, type RuleFormProps, RuleModal } from "./rules.js";

export function Tax() {
  return (
    <RuleList<TaxRule>
      path="tax-rules"
      addLabel="Add tax rule"
      head={[{ label: "Name" }, { label: "Where" }, { label: "Rate", className: "num" }]}
      row={(r) => (
        <>
          <td>{r.name}</td>
          <td>
            {r.country}
            {r.region ? ` · ${r.region}` : ""}
            {r.appliesToShipping ? <span className="muted small"> · shipping too</span> : null}
          </td>
          <td className="num">{(r.rateBasisPoints / 100).toFixed(2)}%</td>
        </>
      )}
      editLabel={(r) => r.name}
      empty="No tax rules."
      Form={TaxForm}
    />
  );
}

function TaxForm(props: RuleFormProps<TaxRule>) {
  const { rule } = props;
  const form = useDraft({
    name: rule?.name ?? "",
    country: rule?.country ?? "",
    region: rule?.region ?? "",
    rate: rule ? (rule.rateBasisPoints / 100).toString() : "",
    appliesToShipping: rule?.appliesToShipping ?? false,
  });
  const v = form.values;
  const bp = /^\d+(\.\d{1,2})?$/.test(v.rate.trim()) ? Math.round(Number(v.rate) * 100) : undefined;
  return (
    <RuleModal
      {...props}
      noun="tax rule"
      error={v.rate && bp === undefined ? "The rate is a percentage such as 8.25." : undefined}
      body={() => ({
        name: v.name,
        country: v.country,
        region: v.region || null,
        rateBasisPoints: bp ?? 0,
        appliesToShipping: v.appliesToShipping,
      })}
    >
      {(err) => (
        <>
          <TextField label="Name" {...form.bind("name", err)} />
          <div className="grid-2">
            <TextField label="Country code" {...form.bind("country", err)} help="e.g. US" />
            <TextField
              label="State or region code"
              {...form.bind("region", err)}
              help="Empty for the whole country"
            />
          </div>
          <TextField
            label="Rate (%)"
            inputMode="decimal"
            {...form.bind("rate")}
            error={fieldErrors(err).rateBasisPoints}
          />
          <CheckboxField label="Also tax shipping" {...form.bind("appliesToShipping", err)} />
        </>
      )}
    </RuleModal>
  );
}
