import { lazy, Suspense } from "react";
import { NavLink, Navigate, Route, Routes } from "react-router-dom";
import { SignIn } from "./session/SignIn";
import { useSession, useSignOut } from "./session/session";
import { JobsPage } from "./jobs/JobsPage";
import { JobPage } from "./job/JobPage";
import { PoolPage } from "./pool/PoolPage";
import { QueuePage } from "./queue/QueuePage";

// The YAML editor (CodeMirror) is most of the bundle: it loads with the first page that shows one.
const SubmitPage = lazy(() => import("./submit/SubmitPage").then((module) => ({ default: module.SubmitPage })));
// So is uPlot for the charts: the Compare page (and a job's Metrics tab) load it when opened.
const ComparePage = lazy(() => import("./compare/ComparePage").then((module) => ({ default: module.ComparePage })));

/** The dashboard's pages live under /ui/, apart from the API's own paths (/jobs, /agents, …). */
export function App() {
  const session = useSession();
  const signOut = useSignOut();
  if (session.isPending) return <p className="muted pad">Loading…</p>;
  if (!session.data) return <SignIn />;
  return (
    <div className="app">
      <header>
        <strong>Trainyard</strong>
        <nav>
          <NavLink to="/ui/jobs">Jobs</NavLink>
          <NavLink to="/ui/submit">Submit</NavLink>
          <NavLink to="/ui/queue">Queue</NavLink>
          <NavLink to="/ui/pool">Pool</NavLink>
        </nav>
        <span className="user">
          {session.data.name}
          <button onClick={() => signOut.mutate()}>Sign out</button>
        </span>
      </header>
      <main>
        <Suspense fallback={<p className="muted">Loading…</p>}>
          <Routes>
            <Route path="/ui/jobs" element={<JobsPage />} />
            <Route path="/ui/jobs/:id" element={<JobPage />} />
            <Route path="/ui/compare" element={<ComparePage />} />
            <Route path="/ui/submit" element={<SubmitPage />} />
            <Route path="/ui/queue" element={<QueuePage />} />
            <Route path="/ui/pool" element={<PoolPage />} />
            <Route path="*" element={<Navigate to="/ui/jobs" replace />} />
          </Routes>
        </Suspense>
      </main>
    </div>
  );
}
