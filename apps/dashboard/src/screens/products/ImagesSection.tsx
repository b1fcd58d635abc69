/** The product's images, chosen from the media library; the first is the main image. */
import { useState } from "react";
import { Card } from "../../components/Card.js";
import { MediaPicker, useMedia } from "../../components/media.js";
import type { SectionProps } from "./model.js";

export function ImagesSection({ f, set, errors }: SectionProps) {
  const media = useMedia();
  const [picking, setPicking] = useState(false);
  const mediaById = new Map(media.data?.map((m) => [m.id, m]));
  return (
    <>
      <Card title="Images">
        <div className="btn-row">
          {f.imageIds.map((id, i) => {
            const m = mediaById.get(id);
            return (
              <span
                key={id}
                style={{
                  display: "inline-flex",
                  flexDirection: "column",
                  gap: 4,
                  alignItems: "center",
                }}
              >
                {m ? (
                  <img
                    className="thumb"
                    style={{ width: 72, height: 72 }}
                    src={`${m.assetUrl}?format=100w`}
                    alt={m.title}
                  />
                ) : null}
                <span className="small muted">{i === 0 ? "Main" : `#${i + 1}`}</span>
              </span>
            );
          })}
          <button type="button" className="btn small" onClick={() => setPicking(true)}>
            {f.imageIds.length ? "Change images" : "Add images"}
          </button>
        </div>
        {errors.imageIds ? <p className="error small">{errors.imageIds}</p> : null}
      </Card>
      {picking ? (
        <MediaPicker
          multiple
          value={f.imageIds}
          onChange={(imageIds) => set({ imageIds })}
          onClose={() => setPicking(false)}
        />
      ) : null}
    </>
  );
}
