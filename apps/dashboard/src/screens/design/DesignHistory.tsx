/**
 * The History of the site's design (theme, styles, custom CSS, logo) on each Design screen. A
 * restore loads the design again and opens the screen afresh on it; the panel lives outside the
 * screen, so it stays open through that, showing the restore as the current version.
 */
import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, createContext, useContext, useState } from "react";
import { HistoryPanel } from "../../components/history/HistoryPanel.js";
import { useSiteId } from "../../components/ui.js";

const OpenHistory = createContext<() => void>(() => {});

/** Around a Design screen: its History panel, and what a restore calls to open the screen again. */
export function Reopenable({ children }: { children: ReactNode }) {
  const siteId = useSiteId();
  const queryClient = useQueryClient();
  const [round, setRound] = useState(0);
  const [open, setOpen] = useState(false);
  return (
    <OpenHistory.Provider value={() => setOpen(true)}>
      <div key={round} style={{ display: "contents" }}>
        {children}
      </div>
      {open ? (
        <HistoryPanel
          entity={`design:${siteId}`}
          label="the design"
          write="design.write"
          onClose={() => setOpen(false)}
          onRestored={() =>
            void Promise.all([
              queryClient.invalidateQueries({ queryKey: ["design", siteId] }),
              queryClient.invalidateQueries({ queryKey: ["site", siteId] }),
            ]).then(() => setRound((r) => r + 1))
          }
        />
      ) : null}
    </OpenHistory.Provider>
  );
}

/** The History button of a Design screen's head. */
export function DesignHistory() {
  const open = useContext(OpenHistory);
  return (
    <button type="button" className="btn" onClick={open}>
      History
    </button>
  );
}
