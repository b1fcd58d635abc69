/**
 * The cart pill's drop zone: drag the pill (or press a place) to one of the nine places of the
 * page where the floating cart pill sits. Saved in the site settings; the frame shows it at once.
 */
import {
  DndContext,
  type DragEndEvent,
  PointerSensor,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import { CART_PILL_POSITIONS, cartPillPlaceWords, DEFAULT_CART_PILL_POSITION } from "@atelier/commerce";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { get, patch } from "../api.js";
import { errorText } from "../components/form/index.js";

function Pill() {
  const drag = useDraggable({ id: "cart-pill" });
  const style = drag.transform
    ? { transform: `translate(${drag.transform.x}px, ${drag.transform.y}px)`, zIndex: 3 }
    : undefined;
  return (
    <button
      type="button"
      ref={drag.setNodeRef}
      className="pill-chip"
      style={style}
      {...drag.attributes}
      {...drag.listeners}
    >
      {/* The name holds what shows (WCAG 2.5.3), after what the button does. */}
      <span className="sr-only">Drag the cart pill: </span>
      Cart 1
    </button>
  );
}

function Place({ place, current, onPick }: { place: string; current: string; onPick: (p: string) => void }) {
  const drop = useDroppable({ id: place });
  return (
    <div ref={drop.setNodeRef} className={`pill-cell${drop.isOver ? " over" : ""}`}>
      {current === place ? (
        <Pill />
      ) : (
        <button
          type="button"
          className="pill-place"
          onClick={() => onPick(place)}
          aria-label={`Put the cart pill ${cartPillPlaceWords(place)}`}
        />
      )}
    </div>
  );
}

export function CartPillZones({ siteId, onChanged }: { siteId: string; onChanged: () => void }) {
  const queryClient = useQueryClient();
  const settings = useQuery({
    queryKey: ["site-settings", siteId],
    queryFn: () => get<{ settings: { cartPillPosition: string } }>(`/api/owner/sites/${siteId}/settings`),
  });
  const save = useMutation({
    mutationFn: (cartPillPosition: string) =>
      patch(`/api/owner/sites/${siteId}/settings`, { cartPillPosition }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ["site-settings", siteId] });
      onChanged();
    },
  });
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }));
  const current =
    save.isPending && save.variables
      ? save.variables
      : (settings.data?.settings.cartPillPosition ?? DEFAULT_CART_PILL_POSITION);
  const onDragEnd = (e: DragEndEvent) => {
    if (e.over && e.over.id !== current) save.mutate(String(e.over.id));
  };
  return (
    <section className="pill-zones" aria-labelledby="pill-zones-title">
      <h3 id="pill-zones-title">Cart pill</h3>
      <p className="muted small">
        Drag the pill to where shoppers see their cart on every page (now {cartPillPlaceWords(current)}). It
        hides while the cart is empty.
      </p>
      <DndContext sensors={sensors} onDragEnd={onDragEnd}>
        <div className="pill-grid">
          {CART_PILL_POSITIONS.map((p) => (
            <Place key={p} place={p} current={current} onPick={(x) => save.mutate(x)} />
          ))}
        </div>
      </DndContext>
      {save.error ? <p className="error small">{errorText(save.error)}</p> : null}
    </section>
  );
}
