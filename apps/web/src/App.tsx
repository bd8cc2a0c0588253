import { lazy } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppLayout } from './components/AppLayout';
import { NotFoundPage } from './pages/NotFoundPage';

// Pages load on demand, so the first page only downloads what it draws.
const DashboardPage = lazy(() => import('./pages/DashboardPage'));
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

const router = createBrowserRouter([
  {
    element: <AppLayout />,
    children: [
      { path: '/', element: <DashboardPage /> },
      { path: '/packs', element: <PacksPage /> },
      { path: '/packs/:packId', element: <PackPage /> },
      { path: '/playground', element: <PlaygroundPage /> },
      { path: '/reviews', element: <ReviewsPage /> },
      { path: '/evaluations/:evaluationId', element: <EvaluationPage /> },
      { path: '/calibration', element: <CalibrationPage /> },
      { path: '/datasets', element: <DatasetsPage /> },
      { path: '/datasets/:datasetId', element: <DatasetPage /> },
      { path: '/simulations', element: <SimulationsPage /> },
      { path: '/simulations/:simulationId', element: <SimulationPage /> },
      { path: '/integrations', element: <IntegrationsPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);

export function App() {
  return <RouterProvider router={router} />;
}
