/**
 * The site overview's first-hour helpers (docs/starters.md): the setup guide, whose steps the
 * server computes from the site's data, and the starter's sample content with its removal.
 */
import { Can } from "../components/permissions.js";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { del, put } from "../api.js";
import { Card } from "../components/Card.js";
import { ActionDialog, ErrorNotice, Notice, useSiteQuery } from "../components/ui.js";

interface SetupStep {
  id: string;
  title: string;
  done: boolean;
  href: string;
}

interface Guide {
  steps: SetupStep[];
  dismissed: boolean;
}

interface SampleCounts {
  items: number;
  products: number;
  images: number;
}

/** Both are computed from data other screens change: asked again each time the overview opens. */
const fresh = { staleTime: 0 };
const useGuide = () =>
  useSiteQuery(
    "setup",
    (id) => `/api/owner/sites/${id}/setup`,
    (r: Guide) => r,
    fresh,
  );
const useSample = () =>
  useSiteQuery(
    "sample-content",
    (id) => `/api/owner/sites/${id}/sample-content`,
    (r: { sample: SampleCounts }) => r.sample,
    fresh,
  );

/** Everything that shows or counts sample content, asked again once it changed. */
const SAMPLE_QUERIES = ["setup", "sample-content", "pages", "media", "products", "items", "inventory"];

function useRemoveSample(siteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => del<{ removed: SampleCounts }>(`/api/owner/sites/${siteId}/sample-content`),
    onSuccess: () => {
      for (const key of SAMPLE_QUERIES) void queryClient.invalidateQueries({ queryKey: [key] });
    },
  });
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function sampleText(c: SampleCounts): string {
  const parts = [
    c.products ? plural(c.products, "sample product", "sample products") : "",
    c.items - c.products ? plural(c.items - c.products, "sample item", "sample items") : "",
    c.images ? plural(c.images, "sample image", "sample images") : "",
  ].filter(Boolean);
  return parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}` : (parts[0] ?? "");
}

/**
 * Publishing (or paying for) a site that still shows sample products: said before the owner does
 * it, on the Billing screen, with the way to remove them.
 */
export function SampleProductsWarning({ siteId }: { siteId: string }) {
  const products = useSample().data?.products ?? 0;
  if (!products) return null;
  return (
    <Notice kind="warn">
      <strong>
        This site still shows {plural(products, "sample product", "sample products")} from its starter.
      </strong>{" "}
      Visitors see them marked “Sample” and cannot buy them. Remove the sample content on the{" "}
      <Link to={`/sites/${siteId}`}>site overview</Link> before you publish.
    </Notice>
  );
}

/** The guide: steps with progress, each a link to its screen; the owner can hide it and bring it back. */
export function SetupGuide({ siteId }: { siteId: string }) {
  const guide = useGuide();
  const sample = useSample();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [warning, setWarning] = useState<SetupStep | null>(null);
  const remove = useRemoveSample(siteId);
  const dismiss = useMutation({
    mutationFn: (dismissed: boolean) => put<Guide>(`/api/owner/sites/${siteId}/setup`, { dismissed }),
    onSuccess: (g) => queryClient.setQueryData(["setup", siteId], g),
  });
  if (!guide.data) return <ErrorNotice error={guide.error} />;
  const { steps, dismissed } = guide.data;
  if (dismissed) {
    return (
      <p className="muted small">
        <Can permission="settings.write">
          <button type="button" className="btn small" onClick={() => dismiss.mutate(false)}>
            Show the setup guide
          </button>
        </Can>
      </p>
    );
  }
  const done = steps.filter((s) => s.done).length;
  const sampleProducts = sample.data?.products ?? 0;
  return (
    <section className="card setup-guide" aria-labelledby="setup-guide-title">
      <div className="setup-guide-head">
        <h2 id="setup-guide-title">Set up your site</h2>
        <Can permission="settings.write">
          <button type="button" className="btn small" onClick={() => dismiss.mutate(true)}>
            Hide the guide
          </button>
        </Can>
      </div>
      <p className="muted">
        {done} of {steps.length} steps done
      </p>
      <progress max={steps.length} value={done} aria-label="Setup progress">
        {done} of {steps.length}
      </progress>
      <ErrorNotice error={dismiss.error} />
      <ol className="setup-steps">
        {steps.map((step) => (
          <li key={step.id} className={step.done ? "done" : ""} data-step={step.id}>
            <span className="setup-check" aria-hidden="true">
              {step.done ? "✓" : ""}
            </span>
            <Link
              to={step.href}
              onClick={(e) => {
                // Publishing with sample products left: say so first.
                if (step.id === "publish" && !step.done && sampleProducts > 0) {
                  e.preventDefault();
                  setWarning(step);
                }
              }}
            >
              {step.title}
            </Link>
            <span className="sr-only">{step.done ? " (done)" : " (to do)"}</span>
          </li>
        ))}
      </ol>
      {warning ? (
        <ActionDialog
          title="Sample products are still in the shop"
          onClose={() => setWarning(null)}
          action={remove.isPending ? "Removing…" : "Remove sample content"}
          disabled={remove.isPending}
          onAction={() => remove.mutate(undefined, { onSuccess: () => setWarning(null) })}
          before={
            <button type="button" className="btn" onClick={() => navigate(warning.href)}>
              Publish anyway
            </button>
          }
        >
          <ErrorNotice error={remove.error} />
          <p>
            Your site still has {plural(sampleProducts, "sample product", "sample products")} from its
            starter. Visitors see them marked “Sample” and cannot buy them. Remove the sample content before
            you publish, or publish anyway and replace it later.
          </p>
        </ActionDialog>
      ) : null}
    </section>
  );
}

/** The starter's sample content: how much is left, and removing all of it after a confirmation. */
export function SampleContentCard({ siteId }: { siteId: string }) {
  const sample = useSample();
  const remove = useRemoveSample(siteId);
  const [asking, setAsking] = useState(false);
  const counts = sample.data;
  if (!counts || (counts.items === 0 && counts.images === 0)) return null;
  return (
    <Card title="Sample content">
      <p className="muted">
        This site still shows {sampleText(counts)} from its starter, marked with a “Sample” badge. Replace
        them with your own, or remove them all at once; your pages stay.
      </p>
      <Can permission="content.write">
        <button type="button" className="btn danger" onClick={() => setAsking(true)}>
          Remove all sample content
        </button>
      </Can>
      {asking ? (
        <ActionDialog
          title="Remove all sample content?"
          onClose={() => setAsking(false)}
          action={remove.isPending ? "Removing…" : "Remove sample content"}
          kind="danger"
          disabled={remove.isPending}
          onAction={() => remove.mutate(undefined, { onSuccess: () => setAsking(false) })}
        >
          <ErrorNotice error={remove.error} />
          <p>
            This deletes {sampleText(counts)}. Blocks that showed them are hidden on the live site until you
            add your own content. Your pages, forms and design stay as they are.
          </p>
        </ActionDialog>
      ) : null}
    </Card>
  );
}
