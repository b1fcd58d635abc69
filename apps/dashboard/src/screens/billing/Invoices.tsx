/** The site's invoices with their status and a link to each. */
import { useQuery } from "@tanstack/react-query";
import { get } from "../../api.js";
import { DataTable, ErrorNotice, Loading, formatDate } from "../../components/ui.js";
import type { BillingInvoice } from "@atelier/owner-api";
import { INVOICE_BADGE, INVOICE_CSS, formatMoney } from "./model.js";

export function Invoices({ base }: { base: string }) {
  const invoices = useQuery({
    queryKey: ["billing-invoices", base],
    queryFn: () => get<{ invoices: BillingInvoice[] }>(`${base}/invoices`).then((r) => r.invoices),
  });
  return (
    <section className="card" aria-labelledby="invoices-title">
      <h2 id="invoices-title">Invoices</h2>
      {invoices.isLoading ? <Loading /> : null}
      <ErrorNotice error={invoices.error} />
      {invoices.data && !invoices.data.length ? <p className="muted">No invoices yet.</p> : null}
      {invoices.data?.length ? (
        <div className="table-wrap billing-invoices">
          {/* On phones the date goes under the description, so the totals stay in view. */}
          <style>{INVOICE_CSS}</style>
          <DataTable
            columns={[
              { label: "Date", className: "hide-phone" },
              { label: "Description" },
              { label: "Status" },
              { label: "Tax", className: "num hide-phone" },
              { label: "Total", className: "num" },
            ]}
          >
            {invoices.data.map((i) => (
              <tr key={i.id}>
                <td className="nowrap hide-phone">{formatDate(i.issuedAt)}</td>
                <td>
                  <span className="muted small show-phone">{formatDate(i.issuedAt)}</span>
                  {i.description}
                  {i.cardLast4 ? (
                    <span className="muted small hide-phone"> · card •••• {i.cardLast4}</span>
                  ) : null}
                </td>
                <td>
                  <span className={`badge ${INVOICE_BADGE[i.status] ?? ""}`}>
                    {i.status.charAt(0).toUpperCase() + i.status.slice(1)}
                  </span>
                </td>
                <td className="num hide-phone">{formatMoney(i.tax)}</td>
                <td className="num nowrap">{formatMoney(i.total)}</td>
              </tr>
            ))}
          </DataTable>
        </div>
      ) : null}
    </section>
  );
}
