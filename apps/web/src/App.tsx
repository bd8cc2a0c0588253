import { lazy } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { AppLayout } from './ui/AppLayout';
import { preloadDailyChart } from './features/dashboard/DailySection';
import { statsQuery } from './api/queries/stats';
import { includesExperiments, sourceFilter } from './lib/sources';
import DashboardPage from './features/dashboard/DashboardPage';
import { queryClient } from './api/query-client';
import { NotFoundPage } from './ui/NotFoundPage';

// Pages load on demand, so the first page only downloads what it draws. The dashboard is the
// landing page: it is in the main bundle, and opening the app on it starts its data request and
// its chart's download at once, in parallel, rather than one after the other.
if (window.location.pathname === '/') {
  const experiments = includesExperiments(new URLSearchParams(window.location.search));
  void queryClient.prefetchQuery(statsQuery(sourceFilter(experiments)));
  void preloadDailyChart();
}
const PacksPage = lazy(() => import('./features/packs/PacksPage'));
const PackPage = lazy(() => import('./features/packs/PackPage'));
const PlaygroundPage = lazy(() => import('./features/playground/PlaygroundPage'));
const ReviewsPage = lazy(() => import('./features/reviews/ReviewsPage'));
const EvaluationPage = lazy(() => import('./features/reviews/EvaluationPage'));
const EvaluationsPage = lazy(() => import('./features/evaluations/EvaluationsPage'));
const CalibrationPage = lazy(() => import('./features/calibration/CalibrationPage'));
const DatasetsPage = lazy(() => import('./features/datasets/DatasetsPage'));
const DatasetPage = lazy(() => import('./features/datasets/DatasetPage'));
const SimulationsPage = lazy(() => import('./features/simulations/SimulationsPage'));
const SimulationPage = lazy(() => import('./features/simulations/SimulationPage'));
const IntegrationsPage = lazy(() => import('./features/integrations/IntegrationsPage'));

/** Declarative routes: the data router's loaders and actions are not used, and stay out of the bundle. */
export function App() {
  return (
    <BrowserRouter>
      <Routes>
        <Route element={<AppLayout />}>
          <Route path="/" element={<DashboardPage />} />
          <Route path="/packs" element={<PacksPage />} />
          <Route path="/packs/:packId" element={<PackPage />} />
          <Route path="/playground" element={<PlaygroundPage />} />
          <Route path="/reviews" element={<ReviewsPage />} />
          <Route path="/evaluations" element={<EvaluationsPage />} />
          <Route path="/evaluations/:evaluationId" element={<EvaluationPage />} />
          <Route path="/calibration" element={<CalibrationPage />} />
          <Route path="/datasets" element={<DatasetsPage />} />
          <Route path="/datasets/:datasetId" element={<DatasetPage />} />
          <Route path="/simulations" element={<SimulationsPage />} />
          <Route path="/simulations/:simulationId" element={<SimulationPage />} />
          <Route path="/integrations" element={<IntegrationsPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </BrowserRouter>
  );
}
