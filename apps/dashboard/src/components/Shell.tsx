import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { NavLink, Outlet, useLocation, useNavigate, useParams } from "react-router";
import { type Account, type Site, del, get } from "../api.js";
import { NotAllowed, canOn, screenPermission } from "./permissions.js";
import { Loading } from "./ui.js";

export function useAccount() {
  return useQuery({
    queryKey: ["account"],
    queryFn: () => get<{ account: Account; websites: { id: string; title: string }[] }>("/api/owner/account"),
  });
}

export function useSites() {
  return useQuery({
    queryKey: ["sites"],
    queryFn: () => get<{ sites: Site[] }>("/api/owner/sites").then((r) => r.sites),
  });
}

const SECTIONS: { title: string; links: { to: string; label: string }[] }[] = [
  {
    title: "Website",
    links: [
      { to: "", label: "Overview" },
      { to: "analytics", label: "Analytics" },
      { to: "pages", label: "Pages" },
      { to: "media", label: "Media library" },
    ],
  },
  {
    title: "Design",
    links: [
      { to: "design/styles", label: "Styles" },
      { to: "design/themes", label: "Themes" },
      { to: "design/identity", label: "Site identity" },
      { to: "design/css", label: "Custom CSS" },
      { to: "design/templates", label: "Templates" },
    ],
  },
  {
    title: "Commerce",
    links: [
      { to: "products", label: "Products" },
      { to: "inventory", label: "Inventory" },
      { to: "ops/orders", label: "Orders" },
      { to: "ops/restock", label: "Restock requests" },
      { to: "store", label: "Store settings" },
    ],
  },
  {
    title: "Marketing",
    links: [
      { to: "marketing/campaigns", label: "Email campaigns" },
      { to: "marketing/discounts", label: "Discounts" },
      { to: "marketing/abandoned-checkouts", label: "Abandoned checkouts" },
      { to: "marketing/announcements", label: "Announcement bar and pop-up" },
    ],
  },
  {
    title: "Audience",
    links: [
      { to: "forms", label: "Forms" },
      { to: "ops/forms", label: "Form submissions" },
      { to: "ops/site-users", label: "Site users" },
      { to: "ops/outbox", label: "Email outbox" },
    ],
  },
  {
    title: "Settings",
    links: [
      { to: "settings", label: "Site settings" },
      { to: "settings/permissions", label: "Permissions" },
      { to: "settings/domains", label: "Domains" },
      { to: "settings/url-mappings", label: "URL mappings" },
      { to: "settings/billing", label: "Billing" },
      { to: "settings/export", label: "Export" },
      { to: "api-keys", label: "API keys" },
      { to: "settings/developers/webhooks", label: "Webhooks" },
      { to: "settings/activity", label: "Activity" },
      { to: "settings/trash", label: "Trash" },
    ],
  },
];

/** The dashboard frame: the sidebar (a drawer on phones) with the site switcher and sections. */
export function Shell() {
  const account = useAccount();
  const sites = useSites();
  const { siteId } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const sidebar = useRef<HTMLElement>(null);
  const logout = useMutation({
    mutationFn: () => del("/api/owner/session"),
    onSuccess: () => {
      queryClient.clear();
      navigate("/login");
    },
  });
  // A new route closes the phone menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation
  useEffect(() => setMenuOpen(false), [location.pathname]);
  // The phone menu takes focus when it opens; Escape closes it and gives focus back to "Menu".
  useEffect(() => {
    if (!menuOpen) return;
    sidebar.current?.querySelector<HTMLElement>("a[href], select, button")?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [menuOpen]);

  if (account.isLoading) {
    return (
      <div className="main">
        <Loading />
      </div>
    );
  }
  if (account.isError) {
    return (
      <div className="main">
        <p>
          You are not logged in. <a href="/config/login">Log in</a>
        </p>
      </div>
    );
  }
  const site = sites.data?.find((s) => s.id === siteId);
  /** Whether the person's roles open the screen at `path` under the site (the overview always). */
  const opens = (path: string) => {
    const needs = screenPermission(path);
    return !needs || canOn(site, needs);
  };
  const here = siteId ? location.pathname.replace(/^\/sites\/[^/]+\/?/, "") : "";

  return (
    <div className={`shell${menuOpen ? " menu-open" : ""}`}>
      <div className="topbar">
        <button
          type="button"
          className="btn small"
          ref={menuButton}
          onClick={() => setMenuOpen(true)}
          aria-expanded={menuOpen}
          aria-controls="dashboard-navigation"
        >
          Menu
        </button>
        <span className="name">{site?.title ?? "Atelier"}</span>
      </div>
      <aside className="sidebar" id="dashboard-navigation" aria-label="Dashboard navigation" ref={sidebar}>
        <NavLink to="/" className="brand" end>
          <span className="logo" aria-hidden="true">
            A
          </span>
          Atelier
        </NavLink>
        {sites.data?.length ? (
          <div className="site-switch">
            <label htmlFor="site-switch">Site</label>
            <select
              id="site-switch"
              value={siteId ?? ""}
              onChange={(e) => navigate(e.target.value ? `/sites/${e.target.value}` : "/")}
            >
              <option value="">All sites</option>
              {sites.data.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.title}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        {siteId ? (
          <nav>
            {SECTIONS.map((section) => {
              const links = section.links.filter((l) => opens(l.to));
              return links.length ? (
                <div className="nav-group" key={section.title}>
                  <h2>{section.title}</h2>
                  {links.map((l) => (
                    <NavLink
                      key={l.to}
                      to={`/sites/${siteId}${l.to ? `/${l.to}` : ""}`}
                      end={l.to === "" || l.to === "settings"}
                    >
                      {l.label}
                    </NavLink>
                  ))}
                </div>
              ) : null;
            })}
          </nav>
        ) : (
          <nav className="nav-group">
            <NavLink to="/" end>
              Your sites
            </NavLink>
          </nav>
        )}
        <div className="foot">
          <div>{account.data?.account.displayName}</div>
          <div className="muted small">{account.data?.account.email}</div>
          <NavLink to="/account" className="btn small">
            Account
          </NavLink>
          <button type="button" className="btn small" onClick={() => logout.mutate()}>
            Log out
          </button>
        </div>
      </aside>
      <main className="main" id="main">
        <div className="content">
          {!siteId || opens(here) ? <Outlet /> : site ? <NotAllowed /> : <Loading />}
        </div>
      </main>
    </div>
  );
}
