import { BarController, BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js';

// Only the pieces the statistics page draws (tree-shaken); this module is loaded by that page alone.
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);

export { Chart };
