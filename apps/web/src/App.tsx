import { lazy } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { AppLayout } from './components/AppLayout';
import { preloadDailyChart } from './components/dashboard/DailySection';
import { statsQuery } from './components/dashboard/queries';
import DashboardPage from './pages/DashboardPage';
import { queryClient } from './lib/query-client';
import { NotFoundPage } from './pages/NotFoundPage';

// Pages load on demand, so the first page only downloads what it draws. The dashboard is the
// landing page: it is in the main bundle, and opening the app on it starts its data request and
// its chart's download at once, in parallel, rather than one after the other.
if (window.location.pathname === '/') {
  void queryClient.prefetchQuery(statsQuery);
  void preloadDailyChart();
}
const PacksPage = lazy(() => import('./pages/PacksPage'));
const PackPage = lazy(() => import('./pages/PackPage'));
const PlaygroundPage = lazy(() => import('./pages/PlaygroundPage'));
const ReviewsPage = lazy(() => import('./pages/ReviewsPage'));
const EvaluationPage = lazy(() => import('./pages/EvaluationPage'));
const CalibrationPage = lazy(() => import('./pages/CalibrationPage'));
const DatasetsPage = lazy(() => import('./pages/DatasetsPage'));
const DatasetPage = lazy(() => import('./pages/DatasetPage'));
const SimulationsPage = lazy(() => import('./pages/SimulationsPage'));
const SimulationPage = lazy(() => import('./pages/SimulationPage'));
const IntegrationsPage = lazy(() => import('./pages/IntegrationsPage'));

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
