import { Card } from "../components/Card.js";
import { useDeleteConfirm } from "../components/ConfirmDelete.js";
import { afterDeleteUrl } from "../components/history/DeletedNotice.js";
import { EditorForm } from "../components/EditorForm.js";
import { Can } from "../components/permissions.js";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { type FieldDef, KIND_LABELS, type Page, del, get, patch, put } from "../api.js";
import { FieldList } from "../components/fields.js";
import { ErrorNotice, Loading, PageHead, useSite, useSiteId } from "../components/ui.js";
import {
  CheckboxField,
  SaveBar,
  SelectField,
  TextField,
  TextareaField,
  fieldErrors,
  useDraft,
} from "../components/form/index.js";
import { navOrder, pageLinks } from "./Pages.js";
import { SeoFields } from "../components/SeoFields.js";

/** Stored passwords are never sent back: a protected page shows this placeholder (SPEC §9). */
const MASKED_PASSWORD = "••••••••";

function usePagesWithOptions() {
  const siteId = useSiteId();
  return useQuery({
    queryKey: ["pages", siteId, "with-options"],
    queryFn: () =>
      get<{ pages: Page[]; optionFields: Record<string, FieldDef[]> }>(`/api/owner/sites/${siteId}/pages`),
  });
}

/** A page's settings: title, URL, SEO, navigation, password, folder and collection options. */
export function PageSettings() {
  const siteId = useSiteId();
  const { pageId } = useParams();
  const data = usePagesWithOptions();
  const site = useSite();
  const page = data.data?.pages.find((p) => p.id === pageId);
  if (data.isLoading) return <Loading />;
  if (!page) return <ErrorNotice error={data.error ?? new Error("No such page.")} />;
  return (
    <PageSettingsForm
      key={page.id}
      page={page}
      pages={data.data!.pages}
      optionFields={data.data!.optionFields[page.kind] ?? []}
      siteId={siteId}
      siteUrl={site.data?.url ?? ""}
      siteTitle={site.data?.title ?? ""}
    />
  );
}

function PageSettingsForm({
  page,
  pages,
  optionFields,
  siteId,
  siteUrl,
  siteTitle,
}: {
  page: Page;
  pages: Page[];
  optionFields: FieldDef[];
  siteId: string;
  siteUrl: string;
  siteTitle: string;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const form = useDraft({
    title: page.title,
    urlSlug: page.urlSlug,
    seoTitle: page.seoTitle,
    seoDescription: page.seoDescription,
    seoHidden: Boolean(page.seoHidden),
    description: page.description,
    hiddenFromNav: page.hiddenFromNav,
    folderBehavior: page.folderBehavior ?? "index",
    options: (page.options ?? {}) as Record<string, unknown>,
    password: "",
    folderId: page.folderId ?? "",
  });
  const { values: v, set } = form;
  const { title, urlSlug, description, options, password, folderId } = v;
  const [changingPassword, setChangingPassword] = useState(false);

  const invalidate = () => queryClient.invalidateQueries({ queryKey: ["pages", siteId] });
  const save = useMutation({
    mutationFn: async () => {
      const { seoTitle, seoDescription, seoHidden, hiddenFromNav, folderBehavior } = v;
      const body: Record<string, unknown> = { title, seoTitle, seoDescription, seoHidden, hiddenFromNav };
      if (!page.isHome) body.urlSlug = urlSlug;
      if (page.kind !== "page") body.description = description;
      if (page.kind === "folder") body.folderBehavior = folderBehavior;
      if (optionFields.length) body.options = options;
      if (changingPassword && password) body.password = password;
      const r = await patch<{ page: Page }>(`/api/owner/sites/${siteId}/pages/${page.id}`, body);
      if ((folderId || null) !== (page.folderId ?? null)) {
        const list = navOrder(pages).map((p) =>
          p.id === page.id ? { ...p, folderId: folderId || null } : p,
        );
        await put(`/api/owner/sites/${siteId}/pages/order`, {
          pages: navOrder(list).map((p) => ({ id: p.id, folderId: p.folderId })),
        });
      }
      return r;
    },
    onSuccess: () => {
      setChangingPassword(false);
      form.reset({ ...v, password: "" });
      void invalidate();
    },
  });
  const removePassword = useMutation({
    mutationFn: () => patch(`/api/owner/sites/${siteId}/pages/${page.id}`, { password: null }),
    onSuccess: () => invalidate(),
  });
  const makeHome = useMutation({
    mutationFn: () => patch(`/api/owner/sites/${siteId}/pages/${page.id}`, { isHome: true }),
    onSuccess: () => invalidate(),
  });
  const remove = useMutation({
    mutationFn: () => del(`/api/owner/sites/${siteId}/pages/${page.id}`),
    onSuccess: () => {
      void invalidate();
      navigate(
        page.kind === "folder"
          ? `/sites/${siteId}/pages`
          : afterDeleteUrl(`/sites/${siteId}/pages`, page.title, "page", page.id),
      );
    },
  });
  const deletePage = useDeleteConfirm({
    title: `Delete ${page.title}?`,
    action: "Delete page",
    pending: remove.isPending,
    error: remove.error,
    onConfirm: () => remove.mutate(),
    children: (
      <p>
        {page.kind === "folder"
          ? "The folder is removed; its pages move to the top of the navigation."
          : page.itemCount
            ? `The page and its ${page.itemCount} items move to the trash, where they are kept for 30 days.`
            : "The page moves to the trash, where it is kept for 30 days."}
      </p>
    ),
  });
  const errors = fieldErrors(save.error);
  const link = pageLinks(siteId, page);
  const folders = pages.filter((p) => p.kind === "folder" && p.id !== page.id);

  return (
    <>
      <PageHead
        title={page.title}
        sub={
          <>
            {KIND_LABELS[page.kind]} ·{" "}
            <a href={`${siteUrl}${page.fullUrl}`} target="_blank" rel="noreferrer">
              {page.fullUrl}
            </a>
          </>
        }
        back={{ to: `/sites/${siteId}/pages`, label: "All pages" }}
        actions={
          link ? (
            <Link className="btn primary" to={link.to}>
              {link.label}
            </Link>
          ) : null
        }
      />
      <EditorForm
        onSubmit={() => save.mutate()}
        error={save.error}
        main={
          <>
            <Card title="General">
              <TextField label="Page title" {...form.bind("title", save.error)} />
              {page.isHome ? (
                <p className="muted small">This is the home page: it is shown at the address of the site.</p>
              ) : (
                <TextField
                  label="URL slug"
                  {...form.bind("urlSlug", save.error)}
                  help={`The page's address: ${siteUrl}/${urlSlug}`}
                />
              )}
              {page.kind !== "page" ? (
                <TextareaField label="Description" {...form.bind("description", save.error)} />
              ) : null}
              {page.kind === "folder" ? (
                <SelectField
                  label="When visitors open the folder"
                  {...form.bind("folderBehavior", save.error)}
                  options={[
                    { value: "index", label: "Show an index of its pages" },
                    { value: "redirect", label: "Go to its first page" },
                    { value: "none", label: "Nothing (a navigation heading only)" },
                  ]}
                />
              ) : null}
              {page.kind !== "folder" && folders.length ? (
                <SelectField
                  label="Folder"
                  {...form.bind("folderId", save.error)}
                  options={[
                    { value: "", label: "Not in a folder" },
                    ...folders.map((f) => ({ value: f.id, label: f.title })),
                  ]}
                />
              ) : null}
              <CheckboxField
                label="Hide from navigation"
                help="The page stays reachable by its address."
                {...form.bind("hiddenFromNav", save.error)}
              />
            </Card>
            <SeoFields
              title={v.seoTitle}
              description={v.seoDescription}
              fallbackTitle={title || "Page title"}
              fallbackDescription={description.replace(/<[^>]*>/g, "").trim()}
              siteTitle={siteTitle}
              url={`${siteUrl.replace(/\/+$/, "")}${page.isHome ? "/" : `/${urlSlug}`}`}
              errors={errors}
              hidden={v.seoHidden}
              onChange={set}
            />
            {optionFields.length ? (
              <Card title={page.kind === "gallery" ? "Gallery settings" : "Display"}>
                <FieldList
                  fields={optionFields}
                  values={options}
                  onChange={(k, value) => set({ options: { ...options, [k]: value } })}
                />
              </Card>
            ) : null}
          </>
        }
        side={
          <>
            <Card title="Password">
              {page.passwordProtected && !changingPassword ? (
                <>
                  <div className="field">
                    <label htmlFor="page-password-masked">Page password</label>
                    <input
                      id="page-password-masked"
                      type="text"
                      value={MASKED_PASSWORD}
                      readOnly
                      aria-describedby="pw-help"
                    />
                    <span className="help" id="pw-help">
                      Visitors need this password to see the page.
                    </span>
                  </div>
                  <Can permission="content.write">
                    <div className="btn-row">
                      <button type="button" className="btn small" onClick={() => setChangingPassword(true)}>
                        Change password
                      </button>
                      <button
                        type="button"
                        className="btn small danger"
                        onClick={() => removePassword.mutate()}
                      >
                        Remove password
                      </button>
                    </div>
                  </Can>
                </>
              ) : (
                <TextField
                  label={page.passwordProtected ? "New page password" : "Page password"}
                  type="password"
                  autoComplete="new-password"
                  value={password}
                  onChange={(next) => {
                    set({ password: next });
                    setChangingPassword(true);
                  }}
                  error={errors.password}
                  help="Leave empty to keep the page public. At least 4 characters."
                />
              )}
            </Card>
            <Can permission="content.write">
              <Card title="Page actions">
                <div className="btn-row">
                  {page.kind === "page" && !page.isHome ? (
                    <button
                      type="button"
                      className="btn small"
                      onClick={() => makeHome.mutate()}
                      disabled={makeHome.isPending}
                    >
                      Make home page
                    </button>
                  ) : null}
                  {!page.isHome ? deletePage.button : null}
                </div>
                <ErrorNotice error={makeHome.error ?? removePassword.error} />
              </Card>
            </Can>
          </>
        }
        footer={
          <SaveBar
            dirty={form.dirty}
            pending={save.isPending}
            saved={save.isSuccess && "Page settings saved."}
            onDiscard={() => {
              form.discard();
              setChangingPassword(false);
            }}
            saveLabel="Save settings"
          />
        }
      />
      {deletePage.dialog}
    </>
  );
}
