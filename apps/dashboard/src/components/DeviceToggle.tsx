type PreviewDevice = "desktop" | "phone";

/** The Desktop and Phone buttons that set the width of a site preview frame. */
export function DeviceToggle({
  device,
  setDevice,
}: {
  device: PreviewDevice;
  setDevice: (d: PreviewDevice) => void;
}) {
  return (
    <>
      {(["desktop", "phone"] as const).map((d) => (
        <button
          key={d}
          type="button"
          className="btn small"
          aria-pressed={device === d}
          onClick={() => setDevice(d)}
        >
          {d === "desktop" ? "Desktop" : "Phone"}
        </button>
      ))}
    </>
  );
}
