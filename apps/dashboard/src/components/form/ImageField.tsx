/** One image (a media id) or several, chosen from the site's media library with the media picker. */
import { useState } from "react";
import { MediaPicker, useMedia } from "../media.js";
import { Field, type FieldProps } from "./Field.js";

type ImageFieldProps = FieldProps &
  (
    | { multiple?: false; value: string | undefined; onChange: (id: string | undefined) => void }
    | { multiple: true; value: string[]; onChange: (ids: string[]) => void }
  );

export function ImageField(props: ImageFieldProps) {
  const { label, help, error } = props;
  const media = useMedia();
  const [open, setOpen] = useState(false);
  const ids = props.multiple ? props.value : props.value ? [props.value] : [];
  const set = (next: string[]) => (props.multiple ? props.onChange(next) : props.onChange(next[0]));
  const byId = new Map(media.data?.map((m) => [m.id, m]));
  const noun = props.multiple ? "images" : "image";
  return (
    <Field label={label} help={help} error={error} labelFor={false}>
      {({ labelId, describedBy }) => (
        <>
          {/* biome-ignore lint/a11y/useSemanticElements: a group of an image list and its buttons, named by the field's label */}
          <div className="btn-row" role="group" aria-labelledby={labelId} aria-describedby={describedBy}>
            {ids.map((id) => {
              const m = byId.get(id);
              return m ? (
                <img key={id} className="thumb" src={`${m.assetUrl}?format=100w`} alt={m.title} />
              ) : null;
            })}
            <button type="button" className="btn small" onClick={() => setOpen(true)}>
              {ids.length ? `Change ${noun}` : `Choose ${noun}`}
            </button>
            {ids.length ? (
              <button type="button" className="btn ghost small" onClick={() => set([])}>
                Remove
              </button>
            ) : null}
          </div>
          {open ? (
            <MediaPicker
              multiple={props.multiple}
              value={ids}
              onClose={() => setOpen(false)}
              onChange={set}
            />
          ) : null}
        </>
      )}
    </Field>
  );
}
