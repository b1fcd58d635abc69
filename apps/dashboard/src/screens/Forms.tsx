import { Link, useParams } from "react-router";
import { ErrorNotice, Loading, Notice, PageHead, useForms, useSiteId } from "../components/ui.js";
import { FormList } from "./forms/FormList.js";
import { FormEditor } from "./forms/FormEditor.js";
import { toDraft, useTemplate } from "./forms/model.js";

export function Forms() {
  const siteId = useSiteId();
  const { formId } = useParams();
  if (formId) return <FormEditorScreen key={formId} formId={formId} />;
  return <FormList siteId={siteId} />;
}

function FormEditorScreen({ formId }: { formId: string }) {
  const siteId = useSiteId();
  const forms = useForms();
  const template = useTemplate();
  const isNew = formId === "new";
  if (forms.isLoading || template.isLoading) return <Loading />;
  if (!template.data) return <ErrorNotice error={template.error} />;
  if (!forms.data) return <ErrorNotice error={forms.error} />;
  const form = forms.data.find((f) => f.id === formId);
  if (!isNew && !form) {
    return (
      <>
        <PageHead title="Form not found" />
        <Notice kind="error">
          This form does not exist any more. <Link to={`/sites/${siteId}/forms`}>All forms</Link>
        </Notice>
      </>
    );
  }
  const initial = form
    ? toDraft(form)
    : toDraft({
        name: "",
        fields: template.data.defaults.fields,
        submissionMessage: template.data.defaults.submissionMessage,
        captchaEnabled: template.data.defaults.captchaEnabled,
        notifyEmail: null,
      });
  return <FormEditor form={form} initial={initial} fieldTypes={template.data.fieldTypes} />;
}
